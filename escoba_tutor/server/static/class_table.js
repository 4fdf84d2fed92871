// One table on the projector (board_tables.py): a long poll answered once the table is at another version than
// the one shown (a play, a seat taken), whose drawn part is put in place. A table gone (its class forgotten) stops
// it and says so; the server away for a moment is said and tried again.
(() => {
  const main = document.getElementById("table-top");
  const status = document.getElementById("table-status");
  let version = main.dataset.version;
  const poll = async () => {
    try {
      const url = new URL(main.dataset.source, location.href);
      url.searchParams.set("after", version);
      // the _xsrf cookie sent back, as JupyterHub's services require of a script's requests (class_board.js)
      const xsrf = (document.cookie.match(/(?:^|;\s*)_xsrf=([^;]*)/) || [])[1];
      const headers = xsrf ? {"X-XSRFToken": xsrf} : {};
      const answer = await fetch(url, {cache: "no-store", credentials: "same-origin", headers});
      if (answer.status === 404 || answer.status === 403) {
        status.textContent = main.dataset.gone;
        status.classList.add("stopped");
        return;
      }
      if (!answer.ok) throw new Error(String(answer.status));
      const data = await answer.json();
      if (String(data.version) !== version) {
        main.innerHTML = data.html;
        version = String(data.version);
        main.dataset.version = version;
      }
      status.textContent = "";
      setTimeout(poll, 0);
    } catch (error) {
      status.textContent = main.dataset.failed;
      setTimeout(poll, 3000);
    }
  };
  poll();
})();
