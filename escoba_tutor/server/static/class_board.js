// The class board redraws itself: every few seconds it asks for its live part (drawn and escaped by the server),
// sending back the ETag of what it shows: while nothing changed the server answers 304 and nothing is drawn. When
// something did, only what differs is changed in the page: the students' rows and the mistakes are found by their
// data-key and left alone while their data-sig is the same; the rest is changed in place, node by node. So the
// keyboard focus, the scroll positions (the page's and the students' table's), the mistakes that are open and
// what is chosen in a list stay as they were. The parts of the page around the live part that change with the
// class (the banner of a past class, the classes' list, the nicknames that can be deleted) come with it.
// It pauses while the tab is hidden and starts again, at once, when it is shown. A network failure (or a server
// error) is said and tried again; a 403 means the key in the page's address is no longer the server's
// (escoba-tutor was restarted, which makes a new teacher's link): the page stops and says so, since trying again
// cannot help.
(() => {
  const live = document.getElementById("board-live");
  const status = document.getElementById("board-status");
  const every = Number(live.dataset.every) || 2500;
  let timer = null;
  let busy = false;
  let etag = live.dataset.etag || null;  // what the page was drawn with
  let stopped = false;
  const shown = new URL(live.dataset.source, location.href).searchParams.get("class");  // the class of this page

  function say(text) {
    if (status.textContent !== text) status.textContent = text;
  }

  // «Last updated: {time}.», the time as a <time> that the teacher's views show in the board's one format
  // (class_board_views.js); until then in UTC, as the server writes its times
  function sayUpdated(moment) {
    const iso = moment.toISOString().slice(0, 19) + "Z";
    const [before, after = ""] = live.dataset.updated.split("{time}");
    const time = document.createElement("time");
    time.dateTime = iso;
    time.textContent = iso.slice(0, 16).replace("T", " ") + " UTC";
    status.replaceChildren(before, time, after);
  }

  function keyOf(node) {
    if (node.nodeType !== Node.ELEMENT_NODE) return null;
    if (node.dataset.key !== undefined) return node.tagName + ":" + node.dataset.key;
    if (node.id) return "#" + node.id;
    if (node.tagName === "OPTION") return "option:" + node.value;  // a list's choice stays chosen
    return null;
  }

  function sameKind(a, b) {
    return a.nodeType === b.nodeType && a.nodeName === b.nodeName && keyOf(a) === keyOf(b);
  }

  function syncAttributes(old, fresh) {
    for (const {name, value} of fresh.attributes) {
      if (old.getAttribute(name) !== value) old.setAttribute(name, value);
    }
    for (const {name} of [...old.attributes]) {
      // a mistake the teacher opened stays open (the server never draws one open)
      if (!fresh.hasAttribute(name) && !(name === "open" && old.tagName === "DETAILS")) old.removeAttribute(name);
    }
  }

  // ``old`` becomes like ``fresh`` (same tag and key); a node whose data-sig did not change is left alone
  function morph(old, fresh) {
    if (old.nodeType !== Node.ELEMENT_NODE) {
      if (old.nodeValue !== fresh.nodeValue) old.nodeValue = fresh.nodeValue;
      return;
    }
    if (fresh.dataset.sig !== undefined && old.dataset.sig === fresh.dataset.sig) return;
    syncAttributes(old, fresh);
    morphChildren(old, fresh);
  }

  // A list (table body, list, menu): its elements only (the spaces between them show nothing), found by key; in a
  // data-keep-order list the elements kept stay where they are (the teacher's sort puts them in order after) and
  // new ones go last.
  function morphList(parent, fresh) {
    const byKey = new Map();
    for (const child of parent.children) {
      const key = keyOf(child);
      if (key !== null) byKey.set(key, child);
    }
    const keepOrder = parent.hasAttribute("data-keep-order");
    const kept = new Set();
    let cursor = parent.firstElementChild;
    for (const child of [...fresh.children]) {
      const key = keyOf(child);
      let match = key !== null ? byKey.get(key) : (cursor && keyOf(cursor) === null && !kept.has(cursor) ? cursor : null);
      if (match && match.nodeName !== child.nodeName) match = null;
      if (match) {
        kept.add(match);
        morph(match, child);
        if (keepOrder) continue;
        if (match === cursor) cursor = cursor.nextElementSibling;
        else parent.insertBefore(match, cursor);
      } else {
        parent.insertBefore(child, keepOrder ? null : cursor);
        kept.add(child);
      }
    }
    for (const child of [...parent.children]) {
      if (!kept.has(child)) child.remove();
    }
  }

  const LISTS = new Set(["TBODY", "UL", "OL", "SELECT"]);
  const LOOK_AHEAD = 4;

  function morphChildren(parent, fresh) {
    if (LISTS.has(parent.nodeName)) {
      morphList(parent, fresh);
      return;
    }
    let cursor = parent.firstChild;
    for (const child of [...fresh.childNodes]) {
      // the old node of the same kind here, or a few nodes on (those between are gone: a space, a dot, a row)
      let match = cursor;
      for (let ahead = 0; match && !sameKind(match, child) && ahead < LOOK_AHEAD; ahead++) match = match.nextSibling;
      if (match && sameKind(match, child)) {
        while (cursor !== match) {
          const gone = cursor;
          cursor = cursor.nextSibling;
          gone.remove();
        }
        morph(match, child);
        cursor = match.nextSibling;
      } else {
        parent.insertBefore(child, cursor);
      }
    }
    while (cursor) {
      const next = cursor.nextSibling;
      cursor.remove();
      cursor = next;
    }
  }

  function parse(markup) {
    const template = document.createElement("template");
    template.innerHTML = markup;
    return template.content;
  }

  function redraw(data) {
    performance.clearMarks("board-redraw");  // one mark at a time: a board stays open for hours
    performance.mark("board-redraw");  // benchmarks/board_redraw.py times the redraw from here
    const focused = document.activeElement;
    const x = window.scrollX, y = window.scrollY;
    morphChildren(live, parse(data.html));
    for (const [id, markup] of Object.entries(data.parts || {})) {
      const part = document.getElementById(id);
      if (part) morphChildren(part, parse(markup));
    }
    live.dispatchEvent(new CustomEvent("board:drawn"));  // the teacher's views apply again (class_board_views.js)
    // a focused element that had to go (its row gone, or moved by the teacher's sort) gets the focus back
    if (focused && focused !== document.body && document.activeElement !== focused) {
      const again = focused.isConnected ? focused : (focused.id && document.getElementById(focused.id));
      if (again) again.focus({preventScroll: true});
    }
    if (window.scrollX !== x || window.scrollY !== y) window.scrollTo(x, y);
  }

  async function refresh() {
    timer = null;
    if (document.hidden || busy) return;
    busy = true;
    try {
      // the _xsrf cookie sent back, as JupyterHub's course server requires of a script's requests (connection.js)
      const xsrf = (document.cookie.match(/(?:^|;\s*)_xsrf=([^;]*)/) || [])[1];
      const headers = xsrf ? {"X-XSRFToken": xsrf} : {};
      if (etag) headers["If-None-Match"] = etag;
      const answer = await fetch(live.dataset.source, {cache: "no-store", credentials: "same-origin", headers});
      if (answer.status === 403) {
        stop();
        return;
      }
      if (answer.status !== 304) {
        if (!answer.ok) throw new Error(String(answer.status));
        const data = await answer.json();
        if (String(data.class) !== shown) {
          // the class shown was forgotten meanwhile (another tab or computer): the board of the current class,
          // whole, since the page's title and forms name the class that is gone
          const address = new URL(location.href);
          address.searchParams.set("class", String(data.class));
          location.replace(address.href);
          return;
        }
        redraw(data);
        etag = answer.headers.get("ETag");
      }
      sayUpdated(new Date());
      live.dispatchEvent(new CustomEvent("board:updated"));  // the status's time, in the board's format
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
