// The class exercise's projected view (class_exercise.py): the countdown ticks here; the answers counted come from
// a long poll (the server answers once they change); a new state (another exercise, time up, the answer shown)
// reloads the page, which the server draws anew.
(() => {
  const main = document.getElementById("exercise");
  const countdown = document.getElementById("countdown");
  if (countdown) {
    const end = Date.now() + 1000 * Number(countdown.dataset.left);
    const tick = () => {
      const left = Math.max(0, Math.round((end - Date.now()) / 1000));
      countdown.textContent = String(left);
      if (left > 0) setTimeout(tick, 250);
    };
    tick();
  }
  let after = main.dataset.tallyStamp;
  const poll = async () => {
    try {
      const url = new URL(main.dataset.source, location.href);
      url.searchParams.set("after", after);
      // the _xsrf cookie sent back, as JupyterHub's services require of a script's requests (class_board.js)
      const xsrf = (document.cookie.match(/(?:^|;\s*)_xsrf=([^;]*)/) || [])[1];
      const headers = xsrf ? {"X-XSRFToken": xsrf} : {};
      const answer = await fetch(url, {cache: "no-store", credentials: "same-origin", headers});
      if (!answer.ok) throw new Error(String(answer.status));
      const data = await answer.json();
      if (data.stamp !== main.dataset.stamp) { location.reload(); return; }
      after = data.tally_stamp;
      const tally = document.getElementById("exercise-tally");
      if (tally) tally.innerHTML = data.html;
      const given = document.getElementById("exercise-given-part");
      if (given) given.innerHTML = data.given_html;
      setTimeout(poll, 0);
    } catch (error) {
      setTimeout(poll, 3000);  // the server away for a moment: try again
    }
  };
  poll();
})();
