// LiveRegion: one persistent status element; only its text changes, so screen readers announce each new message.

function render({ model, el }) {
  const box = document.createElement("div");
  box.className = "et-live";
  box.setAttribute("role", "status");
  box.setAttribute("aria-atomic", "true");
  el.appendChild(box);

  // `picker`: a RowPicker whose chosen row's label is shown at once on a click or a key; the kernel's message
  // follows with the same text (nothing changes then, and nothing is announced twice) or replaces it.
  let source = null;
  const show = (text) => { if (box.textContent !== text) box.textContent = text; };
  const update = () => show(model.get("message"));
  const chosen = () => {
    const row = source && source.get("rows").find((r) => r.id === source.get("selected"));
    if (row && row.label) show(row.label);
    else update(); // no row (none chosen, or the kernel took a stale choice back): the kernel's own message
  };
  async function follow() {
    if (source) source.off("change:selected", chosen);
    source = null;
    const ref = model.get("picker");
    if (ref && model.widget_manager) {
      const found = await model.widget_manager.get_model(String(ref).replace(/^IPY_MODEL_/, ""));
      if (model.get("picker") !== ref) return; // changed while it was looked up
      source = found;
      source.on("change:selected", chosen);
    }
  }
  const politeness = () => box.setAttribute("aria-live", model.get("politeness"));
  // sticky: the widget's own element sticks, so the line stays in view at the screen's bottom edge
  const sticky = () => el.classList.toggle("et-sticky", model.get("sticky"));

  model.on("change:message", update);
  model.on("change:politeness", politeness);
  model.on("change:sticky", sticky);
  model.on("change:picker", follow);
  politeness();
  sticky();
  update();
  follow();
  return () => {
    model.off("change:message", update);
    model.off("change:politeness", politeness);
    model.off("change:sticky", sticky);
    model.off("change:picker", follow);
    if (source) source.off("change:selected", chosen);
  };
}

export default { render };
