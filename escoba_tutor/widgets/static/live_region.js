// LiveRegion: one persistent status element; only its text changes, so screen readers announce each new message.

function render({ model, el }) {
  const box = document.createElement("div");
  box.className = "et-live";
  box.setAttribute("role", "status");
  box.setAttribute("aria-atomic", "true");
  el.appendChild(box);

  const update = () => { box.textContent = model.get("message"); };
  const politeness = () => box.setAttribute("aria-live", model.get("politeness"));
  // sticky: the widget's own element sticks, so the line stays in view at the screen's bottom edge
  const sticky = () => el.classList.toggle("et-sticky", model.get("sticky"));

  model.on("change:message", update);
  model.on("change:politeness", politeness);
  model.on("change:sticky", sticky);
  politeness();
  sticky();
  update();
  return () => {
    model.off("change:message", update);
    model.off("change:politeness", politeness);
    model.off("change:sticky", sticky);
  };
}

export default { render };
