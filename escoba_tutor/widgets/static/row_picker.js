// RowPicker: a <table> whose rows can be chosen (anywidget module).
// primitives.py puts the card drawing code of card_row.js (etCard) in front of this file.
// Semantics: role="grid" on the table, aria-selected on each row; one tab stop (roving tabindex),
// Up/Down/Home/End move, Enter/Space choose, a click chooses.

const ET_TONE_ICONS = { good: "★", info: "ℹ", warn: "⚠" };

function render({ model, el }) {
  const wrap = document.createElement("div");
  wrap.className = "et-picker";
  wrap.setAttribute("data-lm-suppress-shortcuts", "true"); // JupyterLab: our keys are ours
  el.appendChild(wrap);
  let focusId = null; // the row that holds the table's single tab stop

  const bodyRows = () => [...wrap.querySelectorAll("tr[data-id]")];

  function cell(tag, text) {
    const c = document.createElement(tag);
    if (text !== undefined) c.textContent = text;
    return c;
  }

  function build() {
    const active = wrap.contains(document.activeElement) ? document.activeElement.dataset.id : null;
    const headers = model.get("headers"), rows = model.get("rows"), deck = model.get("deck");
    const table = document.createElement("table");
    table.className = "et-table";
    table.setAttribute("role", "grid");
    if (model.get("disabled")) table.setAttribute("aria-disabled", "true");
    if (model.get("caption")) table.appendChild(cell("caption", model.get("caption")));
    if (headers.length) {
      const tr = table.createTHead().insertRow();
      for (const h of headers) {
        const th = cell("th", h);
        th.scope = "col";
        tr.appendChild(th);
      }
    }
    const body = table.createTBody();
    const width = Math.max(headers.length, ...rows.map((r) => r.cells.length), 1);
    if (!rows.length) {
      const td = body.insertRow().insertCell();
      td.colSpan = width;
      td.className = "et-empty";
      td.textContent = model.get("empty_text");
    }
    for (const row of rows) {
      const tr = body.insertRow();
      tr.dataset.id = row.id;
      tr.setAttribute("aria-label", row.label || row.cells.join(", "));
      if (row.tone) tr.classList.add(`tone-${row.tone}`);
      for (let i = 0; i < width; i++) {
        const td = tr.insertCell();
        if (headers[i]) td.dataset.label = headers[i]; // said before the cell where the rows stack (widgets.css)
        if (i > 0) { td.textContent = row.cells[i] ?? ""; continue; }
        // First cell: a fixed-width lead (the ▶ of the chosen row, a tone icon), then the small cards and text.
        const box = cell("div");
        box.className = "et-first";
        const lead = cell("span");
        lead.className = "et-lead";
        lead.setAttribute("aria-hidden", "true");
        lead.innerHTML = '<span class="et-marker">▶</span>';
        if (ET_TONE_ICONS[row.tone]) {
          const icon = lead.appendChild(cell("span", ET_TONE_ICONS[row.tone]));
          icon.className = "et-tone-icon";
        }
        const main = cell("span");
        main.className = "et-main";
        if (row.cards && row.cards.length) {
          const minis = main.appendChild(cell("span"));
          minis.className = "et-minis";
          for (const code of row.cards) minis.appendChild(etCard(code, deck));
        }
        main.appendChild(cell("span", row.cells[0] ?? ""));
        box.append(lead, main);
        td.appendChild(box);
      }
    }
    wrap.replaceChildren(table);
    paint();
    const again = active && bodyRows().find((r) => r.dataset.id === active);
    if (again) again.focus({ preventScroll: true });
  }

  function paint() {
    const selected = model.get("selected");
    const rows = bodyRows();
    const stop = rows.find((r) => r.dataset.id === focusId)
      || rows.find((r) => r.dataset.id === selected) || rows[0];
    for (const tr of rows) {
      const on = tr.dataset.id === selected;
      tr.classList.toggle("is-selected", on);
      tr.setAttribute("aria-selected", String(on));
      tr.tabIndex = tr === stop ? 0 : -1;
    }
  }

  // A new choice is drawn in a microtask, after the click's message to the kernel has left: the drawing then
  // happens while the message travels instead of before it.
  let paintQueued = false;
  function paintSoon() {
    if (paintQueued) return;
    paintQueued = true;
    queueMicrotask(() => { paintQueued = false; paint(); });
  }

  function choose(tr) {
    focusId = tr.dataset.id;
    if (model.get("disabled") || model.get("selected") === tr.dataset.id) return paint();
    clicks += 1;
    chosen = tr.dataset.id;
    model.set({ selected: chosen, clicks });
    model.save_changes();
  }

  // As in card_row.js: a choice the kernel made before the learner's last click does not undo that click.
  let clicks = model.get("clicks"), chosen = model.get("selected");
  function onSelected() {
    if (model.get("clicks") < clicks) {
      const here = model.get("rows").some((r) => r.id === chosen);
      model.set({ selected: here ? chosen : "", clicks });
      return;
    }
    clicks = model.get("clicks");
    chosen = model.get("selected");
  }

  function onClick(event) {
    const tr = event.target.closest("tr[data-id]");
    if (tr && wrap.contains(tr)) choose(tr);
  }

  // A double click activates the row (a game plays it). The message names the rows' revision, so the kernel
  // drops it if the rows changed meanwhile; one double click sends one activation.
  function onDouble(event) {
    const tr = event.target.closest("tr[data-id]");
    if (!tr || !wrap.contains(tr) || model.get("disabled")) return;
    model.send({ event: "activate", id: tr.dataset.id, revision: model.get("revision") });
  }

  function onKey(event) {
    const rows = bodyRows();
    const at = rows.indexOf(document.activeElement);
    if (at < 0) return;
    let to;
    if (event.key === "ArrowDown") to = Math.min(rows.length - 1, at + 1);
    else if (event.key === "ArrowUp") to = Math.max(0, at - 1);
    else if (event.key === "Home") to = 0;
    else if (event.key === "End") to = rows.length - 1;
    else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      return choose(rows[at]);
    } else return;
    event.preventDefault();
    focusId = rows[to].dataset.id;
    paint();
    rows[to].focus();
  }

  function onFocus(event) {
    if (event.target.dataset && event.target.dataset.id) focusId = event.target.dataset.id;
  }

  wrap.addEventListener("click", onClick);
  wrap.addEventListener("dblclick", onDouble);
  wrap.addEventListener("keydown", onKey);
  wrap.addEventListener("focusin", onFocus);
  const rebuildOn = "change:headers change:rows change:caption change:deck change:disabled change:empty_text";
  model.on(rebuildOn, build);
  model.on("change:selected", onSelected);
  model.on("change:selected", paintSoon);
  build();
  return () => {
    model.off(rebuildOn, build);
    model.off("change:selected", onSelected);
    model.off("change:selected", paintSoon);
  };
}

export default { render };
