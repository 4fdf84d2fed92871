// PlaceKeeper: keeps a learner's place in a composite widget (the element matching `scope` around it).
//
// 1. When the control the learner last used there (focused, clicked or tapped) goes away or is disabled — «Jugar»
//    at a deal's end, «Siguiente mano» once pressed — the focus would fall to the page. It goes instead to a control
//    beside it that can take it (the next one in its row of cards or of buttons: «Adelante» when «Atrás» is
//    disabled), or else to the first of `targets` (CSS selectors inside the scope) that can, as soon as the
//    kernel's update has drawn one. A learner who has put the focus somewhere else meanwhile keeps it there.
// 2. When the status line (`status`) says something new while that control is on screen and the line lies below
//    the screen's bottom edge, the page scrolls just enough to show it (the line sits under the controls: the
//    verdict shows next to the button pressed, and pushes the page rather than covering it).

const ET_CONTROLS = "button, a[href], input, select, textarea, [tabindex]";
const ET_WAIT_MS = 30000; // how long a lost focus waits for a target to be drawn (a loaded class server can take seconds)

// A button waiting for the kernel's answer to its press (ActionButton: `.escoba-busy`) is still the learner's place.
function etUsable(node) {
  if (!node || !node.isConnected || node.disabled) return false;
  if (node.getAttribute("aria-disabled") === "true" && !node.closest(".escoba-busy")) return false;
  if (!node.getClientRects().length) return false;
  return getComputedStyle(node).visibility !== "hidden";
}

// The element of a target that takes the focus: itself, or its first control that can (a card row's tab stop).
function etFocusable(node) {
  if (!node) return null;
  if (node.matches(ET_CONTROLS) && node.tabIndex >= 0 && etUsable(node)) return node;
  return [...node.querySelectorAll(ET_CONTROLS)].find((c) => c.tabIndex >= 0 && etUsable(c)) || null;
}

function etOnScreen(node) {
  const r = node.getBoundingClientRect();
  return r.bottom > 0 && r.top < window.innerHeight && r.height > 0;
}

function render({ model, el }) {
  el.style.display = "none"; // it draws nothing
  let root = null, last = null, row = null, lostAt = 0, timer = null, observer = null, said = null;

  // A control in the row the lost one was in: the first after it, or else the last before it.
  function beside() {
    if (!row || !row.isConnected || !etUsable(row)) return null;
    const controls = [...row.querySelectorAll(ET_CONTROLS)].filter((c) => c.tabIndex >= 0 && etUsable(c));
    const after = last.isConnected
      ? controls.find((c) => last.compareDocumentPosition(c) & Node.DOCUMENT_POSITION_FOLLOWING) : controls[0];
    return after || controls[controls.length - 1] || null;
  }

  const focusNowhere = () => {
    const active = document.activeElement;
    return !active || active === document.body || active === last || !active.isConnected;
  };

  function check() {
    timer = null;
    if (!root || !last || etUsable(last)) { lostAt = 0; return; }
    if (!focusNowhere()) { last = null; lostAt = 0; return; } // the learner is elsewhere: leave them there
    lostAt = lostAt || performance.now();
    for (const selector of [null, ...model.get("targets")]) {
      const target = selector === null ? beside() : etFocusable(root.querySelector(selector));
      if (target) {
        lostAt = 0;
        last = target;
        target.focus();
        return;
      }
    }
    if (performance.now() - lostAt < ET_WAIT_MS) timer = setTimeout(check, 100);
    else { last = null; lostAt = 0; }
  }
  const checkSoon = () => { if (!timer) timer = setTimeout(check, 0); };

  function used(event) {
    const control = event.target.closest && event.target.closest(ET_CONTROLS);
    if (!root || !control || !root.contains(control)) return;
    last = control;
    // its row: a row of cards, or the box of buttons it sits in (never the whole scope)
    row = control.closest(".et-row, .widget-hbox, .widget-vbox");
    if (row === root || (row && !root.contains(row))) row = null;
  }
  function usedElsewhere(event) {
    if (root && !root.contains(event.target)) { last = null; lostAt = 0; }
  }

  function reveal() {
    const line = root && root.querySelector(model.get("status"));
    if (!line) return;
    const text = line.textContent;
    if (text === said) return;
    said = text;
    if (!last || !etUsable(last) || !etOnScreen(last)) return;
    const box = line.getBoundingClientRect();
    if (box.height > 0 && box.bottom > window.innerHeight && box.top < window.innerHeight + box.height) {
      line.scrollIntoView({ block: "nearest", behavior: "instant" });
    }
  }

  // The scope is an ancestor drawn around this widget: found once the widget is in the page.
  function attach() {
    root = el.closest(model.get("scope"));
    if (!root) { requestAnimationFrame(attach); return; }
    root.addEventListener("focusin", used);
    root.addEventListener("pointerdown", used, true);
    root.addEventListener("focusout", checkSoon);
    document.addEventListener("pointerdown", usedElsewhere, true);
    observer = new MutationObserver(() => { checkSoon(); reveal(); });
    observer.observe(root, { subtree: true, childList: true, characterData: true, attributes: true,
                             attributeFilter: ["style", "class", "disabled", "aria-disabled", "hidden"] });
    const line = root.querySelector(model.get("status"));
    said = line ? line.textContent : null;
  }
  attach();

  return () => {
    if (timer) clearTimeout(timer);
    if (observer) observer.disconnect();
    document.removeEventListener("pointerdown", usedElsewhere, true);
    if (root) {
      root.removeEventListener("focusin", used);
      root.removeEventListener("pointerdown", used, true);
      root.removeEventListener("focusout", checkSoon);
    }
  };
}

export default { render };
