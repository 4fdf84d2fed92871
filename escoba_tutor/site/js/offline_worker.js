// The site's service worker (escoba_tutor/site/offline.py says why it is the site's service-worker.js). The
// build writes OFFLINE on the line above this comment: the build's id and every file a page can need, each as
// [path from the site's root, bytes, Subresource Integrity hash].
//
// It does two jobs:
// - JupyterLite's: answer its page's heartbeat, and carry the kernel's file-system (/api/drive) and input
//   (/api/stdin/) requests to the page that owns the kernel, over the broadcast channel its page listens on;
// - the course's offline copy: installing, it stores every file of OFFLINE in a cache named after the build, and
//   serves them from there when the network fails, or hangs on a page. The network answers first when it can, so
//   a new build's pages are the ones served (and their files with them, from the network too); a new build's
//   worker replaces the cache only once it has stored all of its files.
"use strict";

const PREFIX = "escoba-tutor-offline-";
const CACHE = PREFIX + OFFLINE.build;
const ROOT = new URL("./", self.location.href);
const FILES = new Map(OFFLINE.files.map(([path, bytes, integrity]) => [new URL(path, ROOT).href, integrity]));
const CHANNEL = new BroadcastChannel("/sw-api.v1"); // the name JupyterLite's page listens on
// Downloads at a time while installing: half of the 6 connections a browser opens to one host, and each at a low
// priority, so that the page being visited (its Python starting) gets its own files first.
const AT_ONCE = 3;
const PAGE_WAIT = 6000; // ms: a page the network has not begun to answer by then is taken from the cache
// ms: after a failure, files come from the cache first (no wait on each one), as long as they are asked for
const OFFLINE_SPELL = 20000;

let offlineUntil = 0;

/** The cache's key for a URL: no query (?seed=... changes nothing in a file), a folder's index.html. */
function fileKey(url) {
  const key = new URL(url.pathname, url.origin);
  if (key.pathname.endsWith("/")) {
    key.pathname += "index.html";
  }
  return key.href;
}

async function precache() {
  const cache = await caches.open(CACHE);
  // An install that failed half-way (the network dropped) leaves what it stored: the next one goes on from there.
  const stored = new Set((await cache.keys()).map((request) => request.url));
  const missing = [...FILES].filter(([url]) => !stored.has(url));
  let next = 0;
  async function download() {
    while (next < missing.length) {
      const [url, integrity] = missing[next++];
      // "no-cache": the browser may reuse its copy only if the server says it is current; the integrity hash
      // refuses a file of another build (a host half-way through an upload), and with it the whole install.
      const response = await fetch(url, { cache: "no-cache", integrity, priority: "low" });
      if (!response.ok) {
        throw new Error(`${url}: HTTP ${response.status}`);
      }
      // A redirected response cannot answer a page's navigation: keep its body and headers only.
      await cache.put(url, response.redirected ? new Response(await response.blob(), response) : response);
    }
  }
  await Promise.all(Array.from({ length: AT_ONCE }, download));
}

async function deleteOtherCopies() {
  for (const name of await caches.keys()) {
    if (name.startsWith(PREFIX) && name !== CACHE) {
      await caches.delete(name);
    }
  }
}

function noRoom(error) {
  return error && error.name === "QuotaExceededError";
}

async function install() {
  try {
    await precache();
  } catch (error) {
    if (!noRoom(error)) {
      throw error; // the network failed: this install fails, the next visit tries again (the old copy stays)
    }
    // No room for two copies: the old one goes, this build's is to replace it anyway. With still no room, the
    // worker goes on without a copy: the site works online (and the kernel's file system) as it would without it.
    await deleteOtherCopies();
    try {
      await precache();
    } catch (again) {
      if (!noRoom(again)) {
        throw again;
      }
      await caches.delete(CACHE);
      console.warn("escoba-tutor: no room in this browser for the course's offline copy");
    }
  }
  await self.skipWaiting();
}

self.addEventListener("install", (event) => {
  event.waitUntil(install());
});

self.addEventListener("activate", (event) => {
  event.waitUntil(deleteOtherCopies().then(() => self.clients.claim()));
});

/** Part of a stored file, for a request with a Range header (one range; anything else gets the whole file). */
async function part(response, range) {
  const body = await response.blob();
  const whole = () => new Response(body, response);
  const found = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
  if (!found || (found[1] === "" && found[2] === "")) {
    return whole();
  }
  const size = body.size;
  let start, end;
  if (found[1] === "") { // bytes=-N: the last N
    start = Math.max(0, size - Number(found[2]));
    end = size - 1;
  } else {
    start = Number(found[1]);
    end = found[2] === "" ? size - 1 : Math.min(Number(found[2]), size - 1);
  }
  if (start >= size || start > end) {
    return new Response(null, { status: 416, headers: { "Content-Range": `bytes */${size}` } });
  }
  const headers = new Headers(response.headers);
  headers.set("Content-Range", `bytes ${start}-${end}/${size}`);
  headers.set("Content-Length", String(end - start + 1));
  return new Response(body.slice(start, end + 1), { status: 206, statusText: "Partial Content", headers });
}

async function fromCache(key, request) {
  const response = await caches.match(key, { cacheName: CACHE }); // (caches.open would make a deleted one anew)
  if (!response) {
    return null;
  }
  const range = request.headers.get("Range");
  return range ? part(response, range) : response;
}

/** A network that hangs instead of failing (a school's link down behind its router) would keep a page blank. */
function patiently(answer) {
  return Promise.race([answer, new Promise((resolve, reject) => {
    setTimeout(reject, PAGE_WAIT, new Error("the network did not answer"));
  })]);
}

async function networkFirst(request, key) {
  if (Date.now() < offlineUntil) {
    const stored = await fromCache(key, request);
    if (stored) {
      offlineUntil = Date.now() + OFFLINE_SPELL; // a page being loaded from the copy goes on from the copy
      return stored;
    }
  }
  const answer = fetch(request);
  answer.catch(() => {}); // its failure is handled below, or it is no longer wanted
  try {
    const response = await (request.mode === "navigate" ? patiently(answer) : answer);
    if (response.status < 500) {
      offlineUntil = 0;
      return response;
    }
    // a proxy's "bad gateway": the site's host is out of reach
    return (await fromCache(key, request)) || response;
  } catch (error) {
    if (request.signal && request.signal.aborted) { // the page left: nothing to say about the network
      throw error;
    }
    offlineUntil = Date.now() + OFFLINE_SPELL;
    return (await fromCache(key, request)) || answer;
  }
}

/** JupyterLite's relay: the kernel's worker asks with a synchronous request, the page that owns it answers. */
async function relay(request, url) {
  const message = await request.json();
  message.pathname = url.pathname;
  const answer = new Promise((resolve) => {
    function heard(event) {
      if (event.data.browsingContextId === message.browsingContextId) {
        CHANNEL.removeEventListener("message", heard);
        resolve(new Response(JSON.stringify(event.data.response)));
      }
    }
    CHANNEL.addEventListener("message", heard);
  });
  CHANNEL.postMessage(message);
  return answer;
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  if (url.pathname === "/api/service-worker-heartbeat") { // JupyterLite's page asks this from the origin's root
    event.respondWith(new Response("ok"));
  } else if (url.pathname.includes("/api/drive") || url.pathname.includes("/api/stdin/")) {
    event.respondWith(relay(request, url));
  } else if (request.method === "GET") {
    const key = fileKey(url);
    if (FILES.has(key)) {
      event.respondWith(networkFirst(request, key));
    }
  }
});
