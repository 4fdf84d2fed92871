// The class board's list of tables (board_tables.py): one long poll, answered once a table of the class changes
// (a table opened, a seat taken, a play), whose drawn list is put in place; a row whose data-sig did not change is
// left alone, so the keyboard's focus on a row's link stays. Paused while the tab is hidden, as the board's
// refresh (class_board.js); a 403 (the board's key changed) stops it, as it stops the board.
(() => {
  const part = document.getElementById("game-tables");
  if (!part) return;
  let stamp = part.dataset.stamp;
  let running = false;
  let stopped = false;

  function put(markup) {
    const fresh = document.createElement("template");
    fresh.innerHTML = markup;
    const oldBody = part.querySelector("tbody");
    const newBody = fresh.content.querySelector("tbody");
    if (!oldBody || !newBody) {
      part.replaceChildren(fresh.content);
      return;
    }
    // the rows by their table's code: unchanged ones stay the same elements (the focus stays on them)
    const old = new Map([...oldBody.children].map((row) => [row.dataset.key, row]));
    const rows = [...newBody.children].map((row) => {
      const kept = old.get(row.dataset.key);
      return kept && kept.dataset.sig === row.dataset.sig ? kept : row;
    });
    const focused = document.activeElement;
    newBody.replaceChildren(...rows);
    part.replaceChildren(fresh.content);
    // a row moved into the new list lost the focus on its way: it gets it back (a row drawn anew, by its id)
    if (focused && focused !== document.body && document.activeElement !== focused) {
      const again = focused.isConnected ? focused : (focused.id && document.getElementById(focused.id));
      if (again) again.focus({preventScroll: true});
    }
  }

  async function poll() {
    if (running || stopped || document.hidden) return;
    running = true;
    let pause = 0;
    try {
      const url = new URL(part.dataset.source, location.href);
      url.searchParams.set("after", stamp);
      const xsrf = (document.cookie.match(/(?:^|;\s*)_xsrf=([^;]*)/) || [])[1];
      const headers = xsrf ? {"X-XSRFToken": xsrf} : {};
      const answer = await fetch(url, {cache: "no-store", credentials: "same-origin", headers});
      if (answer.status === 403) {
        stopped = true;
        return;
      }
      if (!answer.ok) throw new Error(String(answer.status));
      const data = await answer.json();
      if (data.stamp !== stamp) {
        stamp = data.stamp;
        put(data.html);
      }
    } catch (error) {
      pause = 3000;  // the server away for a moment: the board's status line says so; try again
    } finally {
      running = false;
    }
    if (!stopped) setTimeout(poll, pause);
  }

  document.addEventListener("visibilitychange", () => { if (!document.hidden) poll(); });
  poll();
})();
