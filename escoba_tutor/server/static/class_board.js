// The class board redraws itself: every few seconds it fetches its live part (drawn and escaped by the server)
// and puts it in place, keeping the scroll position, the mistakes that are open and the focus. It pauses
// while the tab is hidden and starts again, at once, when it is shown. A network failure (or a server error) is
// said and tried again; a 403 means the key in the page's address is no longer the server's (escoba-tutor was
// restarted, which makes a new teacher's link): the page stops and says so, since trying again cannot help.
(() => {
  const live = document.getElementById("board-live");
  const status = document.getElementById("board-status");
  const every = Number(live.dataset.every) || 2500;
  let timer = null;
  let busy = false;
  let drawn = null;
  let stopped = false;

  function say(text) {
    if (status.textContent !== text) status.textContent = text;
  }

  function redraw(markup) {
    const open = [...live.querySelectorAll("details[open]")].map((d) => d.id);
    const active = document.activeElement;
    const focused = active && live.contains(active) ? active.id : "";
    const x = window.scrollX, y = window.scrollY;
    live.innerHTML = markup;
    for (const id of open) {
      const details = document.getElementById(id);
      if (details) details.open = true;
    }
    live.dispatchEvent(new CustomEvent("board:drawn"));  // the teacher's views apply again (class_board_views.js)
    if (focused) document.getElementById(focused)?.focus({preventScroll: true});
    window.scrollTo(x, y);
  }

  async function refresh() {
    timer = null;
    if (document.hidden || busy) return;
    busy = true;
    try {
      // the _xsrf cookie sent back, as JupyterHub's course server requires of a script's requests (connection.js)
      const xsrf = (document.cookie.match(/(?:^|;\s*)_xsrf=([^;]*)/) || [])[1];
      const answer = await fetch(live.dataset.source, {cache: "no-store", credentials: "same-origin",
                                                       headers: xsrf ? {"X-XSRFToken": xsrf} : {}});
      if (answer.status === 403) {
        stop();
        return;
      }
      if (!answer.ok) throw new Error(String(answer.status));
      const data = await answer.json();
      if (data.html !== drawn) {
        drawn = data.html;
        redraw(data.html);
      }
      say(live.dataset.updated.replace("{time}", new Date().toLocaleTimeString(document.documentElement.lang, {hour12: false})));
    } catch (error) {
      say(live.dataset.failed);
    }
    busy = false;
    schedule();
  }

  function schedule() {
    if (timer === null && !document.hidden && !stopped) timer = setTimeout(refresh, every);
  }

  function stop() {
    stopped = true;
    busy = false;
    clearTimeout(timer);
    timer = null;
    status.classList.add("stopped");
    status.setAttribute("role", "alert");
    say(live.dataset.restarted);
  }

  document.addEventListener("visibilitychange", () => {
    if (stopped) return;
    if (document.hidden) {
      clearTimeout(timer);
      timer = null;
      say(live.dataset.paused);
    } else if (timer === null && !busy) {
      refresh();
    }
  });
  schedule();
})();
