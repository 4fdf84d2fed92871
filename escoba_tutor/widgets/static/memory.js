// BrowserMemory: keep a game's latest entry ({code, level, mode}) in localStorage and report, once per scope,
// the entry kept before the page opened. Browser storage only (no server call), so a static site can use it too.
// Storage: one key per page path and scope, holding {tabs: {tabId: {entry, at}}}; the tab id lives in
// sessionStorage, which a reload keeps and a new tab does not. Storage may be off (private windows, policies):
// then nothing is kept and nothing is found, without an error.

const PREFIX = "escoba-tutor:game:";
const TAB_KEY = "escoba-tutor:tab";
const KEEP_TABS = 6; // entries kept per key: the newest ones

function tabId() {
  try {
    let id = sessionStorage.getItem(TAB_KEY);
    if (!id) {
      id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
      sessionStorage.setItem(TAB_KEY, id);
    }
    return id;
  } catch (_error) {
    return "tab";
  }
}

function read(key) {
  try {
    const kept = JSON.parse(localStorage.getItem(key) || "{}");
    return kept && typeof kept.tabs === "object" && kept.tabs ? kept : { tabs: {} };
  } catch (_error) {
    return { tabs: {} };
  }
}

function render({ model, el }) {
  el.style.display = "none";
  const tab = tabId();
  const key = () => `${PREFIX}${location.pathname}:${model.get("scope")}`;
  const reported = new Set(); // scopes whose kept entry was reported already

  function report() {
    const k = key();
    if (reported.has(k)) return;
    reported.add(k);
    const tabs = read(k).tabs;
    const mine = tabs[tab];
    const newest = Object.values(tabs).sort((a, b) => (b.at || 0) - (a.at || 0))[0];
    const found = (mine || newest || {}).entry || {};
    model.set("found", typeof found === "object" ? found : {});
    model.save_changes();
  }

  function keep() {
    const entry = model.get("entry");
    if (!entry || !entry.code) return;
    const k = key();
    report(); // what was kept before is read before it is replaced
    const kept = read(k);
    kept.tabs[tab] = { entry, at: Date.now() };
    const newest = Object.entries(kept.tabs).sort(([, a], [, b]) => (b.at || 0) - (a.at || 0)).slice(0, KEEP_TABS);
    kept.tabs = Object.fromEntries(newest);
    try {
      localStorage.setItem(k, JSON.stringify(kept));
    } catch (_error) { /* storage off or full: nothing kept */ }
  }

  const scopeChanged = () => { report(); keep(); };
  model.on("change:scope", scopeChanged);
  model.on("change:entry", keep);
  report();
  keep();
  return () => {
    model.off("change:scope", scopeChanged);
    model.off("change:entry", keep);
  };
}

export default { render };
