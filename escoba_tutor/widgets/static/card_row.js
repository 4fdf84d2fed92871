// CardRow: a row of playing cards (anywidget module).
// The first part draws card faces; primitives.py also prepends it to row_picker.js, so keep it free of exports.

// Suit: Spanish name, letter shown on the card, French symbol, and an inline SVG drawing (viewBox 0 0 40 40).
// Each drawing has its own colour AND its own shape, and the letter is printed too: colour is never the only cue.
const ET_SUITS = {
  o: { letter: "o", french: "♦", svg: // oros: a gold coin with a red centre
    '<circle cx="20" cy="20" r="17" fill="#f5b700" stroke="#7a4e00" stroke-width="2.5"/>' +
    '<circle cx="20" cy="20" r="11" fill="#ffd54a" stroke="#7a4e00" stroke-width="1.5"/>' +
    '<circle cx="20" cy="20" r="4.5" fill="#c62828" stroke="#7a4e00" stroke-width="1"/>' },
  c: { letter: "c", french: "♥", svg: // copas: a chalice with a gold rim
    '<path d="M7 5 H33 Q33 21 20 23 Q7 21 7 5 Z" fill="#d32f2f" stroke="#6d0f0f" stroke-width="2" stroke-linejoin="round"/>' +
    '<path d="M8.5 9.5 H31.5" stroke="#ffd54a" stroke-width="2.5"/>' +
    '<rect x="17.5" y="22.5" width="5" height="8" fill="#d32f2f" stroke="#6d0f0f" stroke-width="1.5"/>' +
    '<path d="M10 37 Q20 27 30 37 Z" fill="#d32f2f" stroke="#6d0f0f" stroke-width="2" stroke-linejoin="round"/>' },
  e: { letter: "e", french: "♠", svg: // espadas: a sword, point up
    '<path d="M20 1.5 L24 8 V25 H16 V8 Z" fill="#5b9bf0" stroke="#0d2d6b" stroke-width="1.8" stroke-linejoin="round"/>' +
    '<path d="M20 5 V24" stroke="#0d2d6b" stroke-width="1"/>' +
    '<rect x="8" y="25" width="24" height="4.5" rx="2.2" fill="#1f4fa0" stroke="#0d2d6b" stroke-width="1.5"/>' +
    '<rect x="17.5" y="29.5" width="5" height="6" fill="#8d6e63" stroke="#3e2723" stroke-width="1.2"/>' +
    '<circle cx="20" cy="37" r="2.6" fill="#1f4fa0" stroke="#0d2d6b" stroke-width="1.3"/>' },
  b: { letter: "b", french: "♣", svg: // bastos: a knotty wooden club, thick end up
    '<g transform="rotate(-28 20 20)">' +
    '<path d="M17.5 38 L14 9 Q13.5 2 20 2 Q26.5 2 26 9 L22.5 38 Q20 39.5 17.5 38 Z" fill="#4e9a3a" stroke="#1b4d1b" stroke-width="2" stroke-linejoin="round"/>' +
    '<circle cx="14.2" cy="13" r="2.6" fill="#4e9a3a" stroke="#1b4d1b" stroke-width="1.6"/>' +
    '<circle cx="25.4" cy="19" r="2.4" fill="#4e9a3a" stroke="#1b4d1b" stroke-width="1.6"/>' +
    '<circle cx="16.2" cy="27" r="2.1" fill="#4e9a3a" stroke="#1b4d1b" stroke-width="1.6"/>' +
    "</g>" },
};
// Spanish cards print the figures as 10, 11, 12; a word under them (from the catalogs) says which figure it is.
const ET_FIGURES = [10, 11, 12];
const ET_FRENCH_RANKS = { 1: "A", 10: "J", 11: "Q", 12: "K" };

// A card element (`tag` is "button" for selectable cards) with its face drawn; decoration is aria-hidden,
// the caller gives the accessible name. `figureWords`: the words for 10, 11, 12 (none: no word).
function etCard(code, deck, tag = "span", figureWords = null) {
  const rank = Number(code.slice(0, -1));
  const suit = ET_SUITS[code.slice(-1)];
  const french = deck === "french";
  const card = document.createElement(tag);
  card.className = `et-card et-suit-${code.slice(-1)}` + (french ? " et-french" : "");
  const face = document.createElement("span");
  face.className = "et-face";
  face.setAttribute("aria-hidden", "true");
  const rankText = french ? (ET_FRENCH_RANKS[rank] || String(rank)) : String(rank);
  const suitText = french ? suit.french : suit.letter;
  const art = french
    ? `<span class="et-art et-art-fr">${suit.french}</span>`
    : `<svg class="et-art" viewBox="0 0 40 40" focusable="false">${suit.svg}</svg>`;
  const at = ET_FIGURES.indexOf(rank);
  const word = !french && figureWords && at >= 0 ? figureWords[at] : "";
  const figure = word ? `<span class="et-fig"></span>` : "";
  face.innerHTML = `<span class="et-corner"><span class="et-rank">${rankText}</span>` +
    `<span class="et-suit-txt">${suitText}</span></span>${art}${figure}`;
  if (word) face.querySelector(".et-fig").textContent = word; // text, never markup
  card.appendChild(face);
  return card;
}

// ==== end of shared card drawing ====

function render({ model, el }) {
  const root = document.createElement("div");
  // ids unique on the page (badges are referenced by aria-describedby). anywidget evaluates this module once per
  // widget, so a module-level counter would restart at 1 in every row: the count lives on globalThis.
  const uid = `et-row-${(globalThis.etRowCount = (globalThis.etRowCount || 0) + 1)}`;
  // In JupyterLab, keep notebook shortcuts (Enter, arrows, "a", "d d"...) from taking our keys.
  root.setAttribute("data-lm-suppress-shortcuts", "true");
  el.appendChild(root);
  let focusCode = null; // the card that holds the row's single tab stop

  const faceUp = () => [...root.querySelectorAll("[data-code]")];
  const interactive = () => model.get("mode") !== "none";

  // `picker`: a RowPicker model whose chosen row's cards are highlighted here too, at once on a click (the
  // kernel's answer is not waited for).
  let picker = null; // etFollow(...) below
  const chosenCards = () => etChosenRow(picker)?.cards || [];
  // Selection and highlight changes are drawn in a microtask, after a click's message to the kernel has left
  // (the drawing happens while it travels), and once for several changes in a row.
  let paintQueued = false;
  function paintSoon() {
    if (paintQueued) return;
    paintQueued = true;
    queueMicrotask(() => { paintQueued = false; paint(); });
  }

  // Rebuild every card (cheap: at most 40), keeping keyboard focus where it was.
  function build() {
    const active = root.contains(document.activeElement) ? document.activeElement.dataset.code : null;
    const cards = model.get("cards"), labels = model.get("labels"), marks = model.get("marks");
    const deck = model.get("deck"), label = model.get("group_label");
    root.className = `et-row et-size-${model.get("size")}` + (model.get("disabled") ? " is-disabled" : "");
    root.setAttribute("role", "group");
    if (label) root.setAttribute("aria-label", label); else root.removeAttribute("aria-label");
    root.replaceChildren();
    cards.forEach((code, i) => {
      const card = etCard(code, deck, interactive() ? "button" : "span", model.get("figure_words"));
      card.dataset.code = code;
      card.setAttribute("aria-label", labels[i] || code);
      if (interactive()) card.type = "button"; else card.setAttribute("role", "img");
      if (marks[code]) { // the badge text is also the card's description for screen readers
        const badge = document.createElement("span");
        badge.className = "et-badge";
        badge.id = `${uid}-mark-${code}`;
        badge.textContent = marks[code];
        card.appendChild(badge);
        card.setAttribute("aria-describedby", badge.id);
      }
      card.insertAdjacentHTML("beforeend",
        '<span class="et-hl-mark" aria-hidden="true">▼</span><span class="et-sel-mark" aria-hidden="true">✓</span>');
      root.appendChild(card);
    });
    const backLabel = model.get("back_label");
    for (let i = 0; i < model.get("face_down"); i++) {
      const back = document.createElement("span");
      back.className = "et-card et-back";
      if (backLabel) { back.setAttribute("role", "img"); back.setAttribute("aria-label", backLabel); }
      else back.setAttribute("aria-hidden", "true");
      root.appendChild(back);
    }
    paint();
    const again = active && faceUp().find((c) => c.dataset.code === active);
    if (again) again.focus({ preventScroll: true });
  }

  // Selection and highlight only: update classes and ARIA in place (no rebuild, so focus stays put).
  function paint() {
    const sel = new Set(model.get("selected")), hl = new Set([...model.get("highlighted"), ...chosenCards()]);
    const cards = faceUp();
    const stop = cards.find((c) => c.dataset.code === focusCode)
      || cards.find((c) => sel.has(c.dataset.code)) || cards[0];
    for (const card of cards) {
      const code = card.dataset.code;
      card.classList.toggle("is-selected", sel.has(code));
      card.classList.toggle("is-hl", hl.has(code));
      // aria-current is announced by screen readers in the user's own language ("current")
      if (hl.has(code)) card.setAttribute("aria-current", "true"); else card.removeAttribute("aria-current");
      if (!interactive()) continue;
      card.setAttribute("aria-pressed", String(sel.has(code)));
      card.tabIndex = card === stop ? 0 : -1;
      if (model.get("disabled")) card.setAttribute("aria-disabled", "true");
      else card.removeAttribute("aria-disabled");
    }
  }

  // Click, Enter and Space all arrive here (native <button>).
  function onClick(event) {
    const card = event.target.closest("button[data-code]");
    if (!card || !root.contains(card)) return;
    focusCode = card.dataset.code;
    if (model.get("disabled")) return paint();
    const code = card.dataset.code, sel = model.get("selected");
    let next;
    if (sel.includes(code)) next = sel.filter((c) => c !== code);
    else next = model.get("mode") === "single" ? [code] : [...sel, code];
    clicks += 1;
    chosen = next;
    model.set({ selected: next, clicks });
    model.save_changes();
  }

  // The kernel sends back, with each choice it makes, how many of this page's clicks it had seen. One that comes
  // from before the learner's last click (the kernel cleared the cards of a capture just added, say, while the
  // learner was choosing the next) must not undo that click: the page keeps its own choice, which the click's own
  // message brings to the kernel.
  let clicks = model.get("clicks"), chosen = model.get("selected");
  function onSelected() {
    if (model.get("clicks") < clicks) {
      const here = new Set(model.get("cards"));
      model.set({ selected: chosen.filter((c) => here.has(c)), clicks });
      return;
    }
    clicks = model.get("clicks");
    chosen = model.get("selected");
  }

  // Arrow keys move along the row (roving tabindex: the row is one tab stop).
  function onKey(event) {
    const cards = faceUp();
    const at = cards.indexOf(document.activeElement);
    if (at < 0 || !interactive()) return;
    const steps = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };
    let to;
    if (event.key in steps) to = Math.min(cards.length - 1, Math.max(0, at + steps[event.key]));
    else if (event.key === "Home") to = 0;
    else if (event.key === "End") to = cards.length - 1;
    else return;
    event.preventDefault();
    focusCode = cards[to].dataset.code;
    paint();
    cards[to].focus();
  }

  function onFocus(event) {
    if (event.target.dataset && event.target.dataset.code) focusCode = event.target.dataset.code;
  }

  root.addEventListener("click", onClick);
  root.addEventListener("keydown", onKey);
  root.addEventListener("focusin", onFocus);
  const rebuildOn = "change:cards change:labels change:marks change:face_down change:back_label change:mode " +
    "change:deck change:size change:disabled change:group_label change:figure_words";
  model.on(rebuildOn, build);
  model.on("change:selected", onSelected);
  model.on("change:selected change:highlighted", paintSoon);
  build();
  picker = etFollow(model, "picker", "change:selected change:rows", paintSoon);
  return () => {
    model.off(rebuildOn, build);
    model.off("change:selected", onSelected);
    model.off("change:selected change:highlighted", paintSoon);
    picker.stop();
  };
}

export default { render };
