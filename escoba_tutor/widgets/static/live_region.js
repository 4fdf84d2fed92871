// LiveRegion: one persistent status element; only its text changes, so screen readers announce each new message.

function render({ model, el }) {
  const box = document.createElement("div");
  box.className = "et-live";
  box.setAttribute("role", "status");
  box.setAttribute("aria-atomic", "true");
  el.appendChild(box);

  // `picker`: a RowPicker whose chosen row's label is shown at once on a click or a key; the kernel's message
  // follows with the same text (nothing changes then, and nothing is announced twice) or replaces it.
  let picker = null; // etFollow(...) below
  const show = (text) => { if (box.textContent !== text) { box.textContent = text; measure(); } };
  // The kernel wrote its message before the learner's last choice: the chosen row is what the page shows.
  const older = () => {
    const source = picker && picker.source();
    return !!source && model.get("picker_clicks") < source.get("clicks");
  };
  const update = () => {
    if (!older()) return show(model.get("message"));
    const row = etChosenRow(picker);
    if (row && row.label) show(row.label);
  };
  const chosen = () => {
    const row = etChosenRow(picker);
    if (row && row.label) show(row.label);
    else update(); // no row (none chosen, or the kernel took a stale choice back): the kernel's own message
  };
  const politeness = () => box.setAttribute("aria-live", model.get("politeness"));
  // sticky: the widget's own element sticks, so the line stays in view at the screen's edge; only while it is
  // short: a line of more than three lines of text (et-long) stays in its place, where it covers nothing
  const sticky = () => el.classList.toggle("et-sticky", model.get("sticky"));
  const range = document.createRange();
  function measure() {
    range.selectNodeContents(box);
    const style = getComputedStyle(box);
    const line = parseFloat(style.lineHeight) || 1.4 * parseFloat(style.fontSize);
    el.classList.toggle("et-long", range.getBoundingClientRect().height > 3.5 * line);
  }
  const resized = new ResizeObserver(measure);
  resized.observe(box);

  model.on("change:message", update);
  model.on("change:politeness", politeness);
  model.on("change:sticky", sticky);
  politeness();
  sticky();
  update();
  picker = etFollow(model, "picker", "change:selected", chosen);
  return () => {
    model.off("change:message", update);
    model.off("change:politeness", politeness);
    model.off("change:sticky", sticky);
    resized.disconnect();
    picker.stop();
  };
}

export default { render };
