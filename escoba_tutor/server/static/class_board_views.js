// The teacher's views of the class board and of a student's page: every time in this browser's time zone and one
// format for the page's language (the «Last updated» time too); the students sorted by nickname or by need; nicknames hidden for a projector;
// printing with every mistake open. The choices are kept in this browser (localStorage) and applied again each
// time class_board.js redraws the live part (it sends "board:drawn"), as is the students' table's scroll.
(() => {
  const root = document.documentElement;
  const lang = root.lang || "es";
  const store = {
    get(name) { try { return localStorage.getItem("escoba-board-" + name); } catch (e) { return null; } },
    set(name, value) { try { localStorage.setItem("escoba-board-" + name, value); } catch (e) { /* private mode */ } },
  };
  // one format for every time the page shows: day, month, hours and minutes, in the browser's zone; the course's
  // English is British, so its dates are too ("5 Dec", not "Dec 5")
  const locale = lang === "en" ? "en-GB" : lang;
  const format = new Intl.DateTimeFormat(locale, {day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
                                                hourCycle: "h23"});
  const full = new Intl.DateTimeFormat(locale, {dateStyle: "full", timeStyle: "long"});

  function showTimes(where) {
    for (const time of where.querySelectorAll("time[datetime]")) {
      const moment = new Date(time.dateTime);
      if (Number.isNaN(moment.getTime())) continue;
      const text = format.format(moment), title = full.format(moment);
      if (time.textContent !== text) time.textContent = text;
      if (time.title !== title) time.title = title;
    }
  }

  function sortRows() {
    const body = document.querySelector("#students tbody");
    if (!body) return;
    const by = store.get("sort") === "need" ? "needRank" : "nameRank";
    const rows = [...body.rows];
    rows.sort((a, b) => Number(a.dataset[by]) - Number(b.dataset[by]));
    // only the rows out of place move (a moved row would lose the keyboard focus it holds)
    rows.forEach((row, i) => { if (body.rows[i] !== row) body.insertBefore(row, body.rows[i]); });
    for (const button of document.querySelectorAll("[data-sort]")) {
      button.setAttribute("aria-pressed", String(button.dataset.sort === (by === "needRank" ? "need" : "name")));
    }
  }

  const ownTitle = document.title;
  function showProjector() {
    const on = store.get("projector") === "on";
    root.classList.toggle("projector", on);
    document.getElementById("projector")?.setAttribute("aria-pressed", String(on));
    // a student's page names the student in its title too (the tab's label, on the projector)
    const label = document.querySelector('meta[name="projector-title"]')?.content;
    if (label) document.title = on ? label : ownTitle;
  }

  // a refresh keeps the students' table region (class_board.js changes what differs in it); its scroll is kept
  // here too, for the region drawn anew (the class's first student)
  let kept = {left: 0, top: 0};
  document.addEventListener("scroll", (event) => {
    if (event.target.id === "students-region") kept = {left: event.target.scrollLeft, top: event.target.scrollTop};
  }, true);

  function apply() {
    showTimes(document);
    sortRows();
    showProjector();
    const region = document.getElementById("students-region");
    if (region && (region.scrollLeft !== kept.left || region.scrollTop !== kept.top)) {
      region.scrollLeft = kept.left;
      region.scrollTop = kept.top;
    }
  }

  for (const button of document.querySelectorAll("[data-sort]")) {
    button.addEventListener("click", () => { store.set("sort", button.dataset.sort); sortRows(); });
  }
  document.getElementById("projector")?.addEventListener("click", () => {
    store.set("projector", store.get("projector") === "on" ? "off" : "on");
    showProjector();
  });
  document.getElementById("print-board")?.addEventListener("click", () => window.print());

  // printed, every mistake shows its exercises; those the teacher had closed close again afterwards
  let closed = [];
  window.addEventListener("beforeprint", () => {
    closed = [...document.querySelectorAll("details:not([open])")];
    for (const details of closed) details.open = true;
  });
  window.addEventListener("afterprint", () => {
    for (const details of closed) details.open = false;
    closed = [];
  });

  document.getElementById("board-live")?.addEventListener("board:drawn", apply);
  // after every refresh, drawn or not: the status's «Last updated» time
  document.getElementById("board-live")?.addEventListener("board:updated", () => {
    const status = document.getElementById("board-status");
    if (status) showTimes(status);
  });
  const views = document.getElementById("board-views");
  if (views) views.hidden = false;  // without this script the buttons could do nothing: they stay hidden
  apply();
})();
