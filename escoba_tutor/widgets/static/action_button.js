// ActionButton: a button (drawn as ipywidgets draws one) whose click tells the kernel what the page shows.
//
// ipywidgets holds a widget's next update while the kernel answers its last one, but a click is sent at once: a
// check pressed right after a card or an answer could reach the kernel first and be judged without it. So the
// click carries the answers as this page holds them (each answer widget under `inputs`: its chosen cards, row,
// option or text), and the kernel takes them before it acts (primitives.py, ActionButton).
//
// From the click until the kernel says it is done (its updates, sent before that word, are then drawn), the
// button does nothing more: a second press must not be judged against cards the page has not drawn yet. It stays
// focusable meanwhile (aria-disabled, not disabled, which would drop the keyboard's focus to the page).
const ET_BUSY_MS = 15000; // a reply that never comes (a kernel gone) frees the button after this

// What the page holds for an answer widget; the kernel keeps only the names it accepts for that widget.
const ET_ANSWER_TRAITS = ["selected", "clicks", "index", "value"];

function etAnswers(models) {
  const state = {}, seen = new Set();
  const visit = (m) => {
    if (!m || typeof m.get !== "function" || seen.has(m.model_id)) return;
    seen.add(m.model_id);
    const held = {};
    for (const name of ET_ANSWER_TRAITS) {
      const value = m.get(name);
      if (value !== undefined && value !== null && typeof value !== "function") held[name] = value;
    }
    if (Object.keys(held).length) state[m.model_id] = held;
    const children = m.get("children");
    if (Array.isArray(children)) children.forEach(visit);
  };
  models.forEach(visit);
  return state;
}

function render({ model, el }) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "jupyter-widgets jupyter-button widget-button";
  el.classList.add("escoba-action");
  el.appendChild(button);
  const styles = ["primary", "success", "info", "warning", "danger"];

  function draw() {
    const icon = model.get("icon"), text = model.get("description");
    button.textContent = "";
    if (icon) {
      const i = document.createElement("i");
      i.className = `fa fa-${icon}`;
      if (!text) i.classList.add("center");
      button.appendChild(i);
    }
    button.appendChild(document.createTextNode(text));
    button.title = model.get("tooltip") || text;
    button.disabled = model.get("disabled");
    button.setAttribute("aria-disabled", busy ? "true" : "false");
    el.classList.toggle("escoba-busy", busy);
    for (const style of styles) button.classList.toggle(`mod-${style}`, model.get("button_style") === style);
  }

  // The widgets' models, looked up once per change of `inputs` and `clears`: at click time they are at hand, so
  // the click's message leaves in the same turn of the page as the click.
  const models = { inputs: [], clears: [] };
  async function lookUp(name) {
    const refs = model.get(name);
    const found = await Promise.all(refs.map((ref) =>
      model.widget_manager.get_model(String(ref).replace(/^IPY_MODEL_/, "")).catch(() => null)));
    if (model.get(name) === refs) models[name] = found.filter(Boolean);
  }
  const lookUpInputs = () => lookUp("inputs"), lookUpClears = () => lookUp("clears");

  let busy = false, busyTimer = null;
  function settle() {
    clearTimeout(busyTimer);
    busy = false;
    draw();
  }
  function onMessage(content) {
    if (content && content.event === "done") settle();
  }

  function onClick() {
    if (model.get("disabled") || busy) return;
    busy = true;
    busyTimer = setTimeout(settle, ET_BUSY_MS);
    draw();
    model.send({ event: "click", answers: etAnswers(models.inputs) });
    // A choice the kernel will clear is cleared here at once, as one more click of the learner's (card_row.js
    // counts it), so a card chosen next starts a new choice; its message follows the click's.
    for (const chooser of models.clears) {
      const none = Array.isArray(chooser.get("selected")) ? [] : "";
      chooser.set({ selected: none, clicks: chooser.get("clicks") + 1 });
      chooser.save_changes();
    }
  }

  button.addEventListener("click", onClick);
  model.on("msg:custom", onMessage);
  model.on("change:description change:icon change:tooltip change:disabled change:button_style", draw);
  model.on("change:inputs", lookUpInputs);
  model.on("change:clears", lookUpClears);
  draw();
  lookUpInputs();
  lookUpClears();
  return () => {
    button.removeEventListener("click", onClick);
    model.off("msg:custom", onMessage);
    clearTimeout(busyTimer);
    model.off("change:description change:icon change:tooltip change:disabled change:button_style", draw);
    model.off("change:inputs", lookUpInputs);
    model.off("change:clears", lookUpClears);
  };
}

export default { render };
