// ConnectionWatch: when a Voilà page loses its kernel, say so and offer a reload, instead of a page that looks
// alive but no longer answers. Voilà 0.5 shows nothing in these cases, each seen on this stack:
//  - the kernel process dies: the server restarts it empty (status "restarting"/"autorestarting"): the
//    widgets on the page have no kernel side any more;
//  - the kernel is culled or shut down: the websocket stays open and nothing is said, so the server is asked
//    (GET api/kernels/<id>, which is not kernel activity, so it keeps no kernel from being culled);
//  - the server stops or restarts (or Binder culls the session): the websocket closes and cannot reconnect.
// One watch per page, whatever the number of widgets; it lives as long as the page (a view being removed must
// not stop it). The texts come from the Python side, in the page's language.

const WATCH_KEY = "__escobaConnectionWatch";
const BANNER_ID = "escoba-connection-lost";
const LOST_STATES = new Set(["restarting", "autorestarting", "dead"]);
const QUICK_CHECK_MS = 3000;     // a click or key press checks again if the last check is older than this
const RECONNECT_GRACE_MS = 20000; // a socket down this long, with the kernel still there, is reported too
const RECONNECT_AGAIN_MS = 3000;  // the least time between two reconnections asked for here

function createWatch() {
  const watch = {
    texts: {}, kernel: null, reason: "", ended: false, leaving: false, lastCheck: 0, checking: false,
    downSince: 0, timer: null, everyMs: 10000, reconnectedAt: 0,
  };
  const leave = () => { watch.leaving = true; };
  window.addEventListener("beforeunload", leave);
  window.addEventListener("pagehide", leave);
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) { watch.leaving = false; check(watch); }
  });
  const quick = () => { if (Date.now() - watch.lastCheck > QUICK_CHECK_MS) check(watch); };
  document.addEventListener("pointerdown", quick, true);
  document.addEventListener("keydown", quick, true);
  // the network is back: ask now, rather than when the connection's own backoff would try again
  window.addEventListener("online", () => check(watch));
  return watch;
}

function attach(watch, kernel) {
  if (!kernel || watch.kernel === kernel) return;
  watch.kernel = kernel;
  kernel.statusChanged.connect((_sender, status) => {
    // A restarted kernel is an empty one: the page's widgets are gone from the server for good. Voilà's own
    // unload handler disposes the connection ("dead") just before the page goes: wait to see if it does.
    if (LOST_STATES.has(status)) setTimeout(() => { if (!watch.leaving) lose(watch, "ended"); }, 500);
  });
  kernel.connectionStatusChanged.connect((_sender, status) => {
    if (status === "connected") {
      watch.downSince = 0;
    } else if (!watch.downSince) {
      watch.downSince = Date.now();
    }
    setTimeout(() => check(watch), status === "connected" ? 0 : 1000);
  });
}

function kernelUrl(kernel) {
  const base = (kernel.serverSettings && kernel.serverSettings.baseUrl) || "/";
  return `${base.endsWith("/") ? base : base + "/"}api/kernels/${encodeURIComponent(kernel.id)}`;
}

// The page's _xsrf cookie, which the server set with the page. JupyterHub's course server refuses (403) a
// script's request that does not send it back as X-XSRFToken, even a GET; JupyterLab's requests send it so.
function xsrfCookie() {
  const found = document.cookie.match(/(?:^|;\s*)_xsrf=([^;]*)/);
  return found ? found[1] : "";
}

// "alive", "ended" (the server no longer has this kernel) or "unreachable" (no answer, or not the server's).
async function askServer(kernel) {
  const headers = {};
  const token = kernel.serverSettings && kernel.serverSettings.token;
  if (token) headers.Authorization = `token ${token}`;
  const xsrf = xsrfCookie();
  if (xsrf) headers["X-XSRFToken"] = xsrf;
  let response;
  try {
    response = await fetch(kernelUrl(kernel), { headers, cache: "no-store", credentials: "same-origin" });
  } catch (_error) {
    return "unreachable";
  }
  if (response.status === 404) return "ended";
  if (!response.ok) return "unreachable";
  try {
    const model = await response.json();
    return model && model.id === kernel.id ? "alive" : "ended";
  } catch (_error) {
    return "ended"; // e.g. a proxy's sign-in page in place of the server's answer: this session is over
  }
}

async function check(watch) {
  const kernel = watch.kernel;
  if (!kernel || watch.checking || watch.leaving || watch.ended) return;
  watch.checking = true;
  watch.lastCheck = Date.now();
  try {
    const answer = await askServer(kernel);
    if (watch.leaving) return;
    if (answer !== "alive") {
      lose(watch, answer);
    } else if (kernel.connectionStatus === "connected") {
      hide(watch); // a short network cut that healed by itself: the page works again
    } else {
      // the server has the kernel but the socket is down: ask again at once, however long it has been down
      // (a network back after a long cut), and say so once it has been down too long
      reconnectNow(watch, kernel);
      if (watch.downSince && Date.now() - watch.downSince > RECONNECT_GRACE_MS) lose(watch, "unreachable");
    }
  } finally {
    watch.checking = false;
  }
}

// The server answers and still has the kernel, but the page's socket is down: JupyterLab's kernel connection
// waits longer after each failed attempt (a random delay up to 15, then 31 s), so a student whose network came
// back would wait on a dead page. Its public reconnect() starts again at once.
function reconnectNow(watch, kernel) {
  if (kernel.isDisposed || Date.now() - watch.reconnectedAt < RECONNECT_AGAIN_MS) return;
  watch.reconnectedAt = Date.now();
  kernel.reconnect().catch(() => { /* still down: the next check reports it, or asks again */ });
}

function lose(watch, reason) {
  if (watch.ended) return;
  watch.reason = reason;
  watch.ended = reason === "ended";
  draw(watch);
}

function hide(watch) {
  watch.reason = "";
  const banner = document.getElementById(BANNER_ID);
  if (banner) banner.remove();
}

function draw(watch) {
  if (!watch.reason) return;
  const t = watch.texts;
  let banner = document.getElementById(BANNER_ID);
  if (!banner) {
    banner = document.createElement("div");
    banner.id = BANNER_ID;
    banner.className = "escoba-connection-lost";
    banner.setAttribute("role", "alert");
    for (const part of ["title", "reason", "advice"]) {
      const line = document.createElement("p");
      line.className = `escoba-connection-${part}`;
      banner.appendChild(line);
    }
    const button = document.createElement("button");
    button.type = "button";
    button.className = "escoba-connection-reload";
    button.addEventListener("click", () => window.location.reload());
    banner.appendChild(button);
    document.body.prepend(banner);
  }
  banner.dataset.reason = watch.reason;
  banner.querySelector(".escoba-connection-title").textContent = t.title || "";
  banner.querySelector(".escoba-connection-reason").textContent = t[watch.reason] || "";
  banner.querySelector(".escoba-connection-advice").textContent = t.advice || "";
  banner.querySelector(".escoba-connection-reload").textContent = t.reload || "";
}

function render({ model, el }) {
  el.classList.add("escoba-connection-watch");
  // Only on a Voilà page: in JupyterLab, a restarted kernel is the teacher's own doing and the lab says so.
  if (!document.body || !document.body.hasAttribute("data-voila")) return;
  // On the static site Python runs in the page itself: there is no server whose loss could be reported, and
  // asking for one (api/kernels/...) would only get the static host's 404.
  if (!model.get("server")) return;
  const watch = window[WATCH_KEY] || (window[WATCH_KEY] = createWatch());
  const update = () => {
    watch.texts = model.get("texts") || {};
    draw(watch);
  };
  const every = () => {
    watch.everyMs = Math.max(1, model.get("check_every")) * 1000;
    clearInterval(watch.timer);
    watch.timer = setInterval(() => check(watch), watch.everyMs);
  };
  model.on("change:texts", update);
  model.on("change:check_every", every);
  update();
  every();
  const manager = model.widget_manager;
  const kernel = (manager && manager.kernel) || (window.jupyterapp && window.jupyterapp.widgetManager &&
                                                  window.jupyterapp.widgetManager.kernel);
  attach(watch, kernel);
  check(watch);
}

export default { render };
