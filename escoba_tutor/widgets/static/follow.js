// etFollow: subscribe `handler` to `events` of the widget model that `model`'s trait `trait` refers to (an
// IPY_MODEL_ reference), and follow the trait when it changes; `handler` runs once each time it does.
// primitives.py puts this file in front of the modules that use it (an anywidget module cannot import a file).
// Returns { source() -> the model followed now or null, stop() }.
function etFollow(model, trait, events, handler) {
  let source = null;
  async function follow() {
    if (source) source.off(events, handler);
    source = null;
    const ref = model.get(trait);
    if (ref && model.widget_manager) {
      const found = await model.widget_manager.get_model(String(ref).replace(/^IPY_MODEL_/, ""));
      if (model.get(trait) !== ref) return; // changed while it was looked up
      source = found;
      source.on(events, handler);
    }
    handler();
  }
  model.on(`change:${trait}`, follow);
  follow();
  return {
    source: () => source,
    stop: () => {
      model.off(`change:${trait}`, follow);
      if (source) source.off(events, handler);
      source = null;
    },
  };
}

// The row a followed RowPicker model has chosen, or null.
function etChosenRow(picker) {
  const source = picker && picker.source();
  return (source && source.get("rows").find((r) => r.id === source.get("selected"))) || null;
}
