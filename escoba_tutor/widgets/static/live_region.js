// LiveRegion: one persistent status element; only its text changes, so screen readers announce each new message.

function render({ model, el }) {
  const box = document.createElement("div");
  box.className = "et-live";
  box.setAttribute("role", "status");
  box.setAttribute("aria-atomic", "true");
  el.appendChild(box);

  const update = () => { box.textContent = model.get("message"); };
  const politeness = () => box.setAttribute("aria-live", model.get("politeness"));

  model.on("change:message", update);
  model.on("change:politeness", politeness);
  politeness();
  update();
  return () => {
    model.off("change:message", update);
    model.off("change:politeness", politeness);
  };
}

export default { render };
