// LiveRegion: one persistent status element; only its text changes, so screen readers announce each new message.

function render({ model, el }) {
  const box = document.createElement("div");
  box.className = "et-live";
  box.setAttribute("role", "status");
  box.setAttribute("aria-atomic", "true");
  el.appendChild(box);

  const update = () => { box.textContent = model.get("message"); };
  const politeness = () => box.setAttribute("aria-live", model.get("politeness"));
  // sticky: the widget's own element sticks, so the line stays in view at the screen's bottom edge; the boxes
  // around it keep their overflow visible, or the first one that scrolls would hold the line inside it
  const HOSTS = ".widget-box, .jupyter-widget-box, .jp-OutputArea, .jp-OutputArea-child, .jp-OutputArea-output";
  let tries = 0;
  const sticky = () => {
    const on = model.get("sticky");
    el.classList.toggle("et-sticky", on);
    // the view is drawn before it is put in its box: mark the boxes once it is in the page
    if (!el.isConnected) { if (on && tries++ < 600) requestAnimationFrame(sticky); return; }
    for (let up = el.parentElement; up; up = up.parentElement) {
      if (up.matches(HOSTS)) up.classList.toggle("et-sticky-host", on);
    }
  };

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
