"""The site keeps working offline after one visit: a service worker of the site's own stores what every page needs.

JupyterLite's pages register a service worker, ``service-worker.js`` at the site's root, that carries the kernel's
file system (``/api/drive``) and input to the page; it caches nothing. Two workers cannot share a page: a page, and
the kernel's worker it starts, is controlled by one service worker, the registration whose scope fits it best. A
second registration beside JupyterLite's would either control the pages in its place (and nothing would answer the
kernel's file system) or control nothing. So the site's worker takes the place of JupyterLite's file, does the same
relay, and keeps the course's files in a cache (its source, js/offline_worker.js, says how it serves them).

What is stored is listed at build time (:func:`write_worker`): every file a page can load, whichever lesson it is,
so one visit to one page is enough for the whole course (the pages, Pyodide, the wheels, the Python snapshot, the
app's scripts). The hash of those files and of the worker's source is the build's id. The cache is named after it;
a new build's worker differs from the old one by that id (which is how the browser finds it), stores the new
files, and only then takes over and deletes the old cache.

JupyterLite's page unregisters every service worker when its local storage does not hold the page's JupyterLite
version under the controlling worker's address: on the second visit to the site, that is every time. Online it
registers one again; offline it cannot, and the next tab would find no worker. So the site's pages write that
version there first (:data:`PAGE_SCRIPT`). Tried without it, Chromium still gave the next tab the unregistered
worker (the page had asked to register it again), but the standard does not promise that.
"""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path
from typing import Any

__all__ = ["WORKER_FILE", "CACHE_PREFIX", "PAGE_SCRIPT", "JUPYTERLITE_NAMES", "check_jupyterlite", "offline_files",
           "write_worker", "read_worker"]

#: Where JupyterLite's page registers its service worker (``<baseUrl>/service-worker.js?enableCache=...``).
WORKER_FILE = "service-worker.js"
#: The cache's name is this and the build's id (offline_worker.js).
CACHE_PREFIX = "escoba-tutor-offline-"

_SOURCE = Path(__file__).parent / "js" / "offline_worker.js"
_MARK = "const OFFLINE = "

#: Files of the site no course page loads, left out of the cache: the service workers (the browser keeps the
#: site's; JupyterLite's copy in the app's folder is not used), the scripts' license notes, JupyterLite's build
#: schema, the Voici file trees (the course links its pages, not trees), and Font Awesome's older font formats
#: (every browser that runs WebAssembly reads WOFF2).
_NOT_LOADED_NAMES = frozenset({WORKER_FILE, "jupyterlite.schema.v0.json", ".nojekyll"})
_NOT_LOADED_FOLDERS = (("voici", "tree"),)
_OLD_FONTS = (("static", "fontawesome", "webfonts"), (".eot", ".svg", ".ttf", ".woff"))

#: For each site page, after its configuration: keeps the site's worker registered (see above). JupyterLite's
#: page keys the version by the controlling worker's address and compares it with its ``appVersion``.
PAGE_SCRIPT = """
<script>
(function () {
  try {
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    var config = JSON.parse(document.getElementById("jupyter-config-data").textContent);
    if (worker && config.appVersion) {
      localStorage.setItem(worker.scriptURL + "-version", config.appVersion);
    }
  } catch (error) {
    console.warn("escoba-tutor: the offline copy's worker may be unregistered", error);
  }
})();
</script>"""


#: What the site's worker and :data:`PAGE_SCRIPT` take from JupyterLite's scripts, each as the text that shows it
#: there: where its page registers the worker, the channel and paths of its relay, the heartbeat, the key of the
#: version it keeps per worker. A JupyterLite that changed one would leave the kernel's file system unanswered or
#: the worker unregistered, without a word: the build stops instead (:func:`check_jupyterlite`).
JUPYTERLITE_NAMES = {
    "the worker's file": '"service-worker.js"',
    "the relay's channel": '"/sw-api.v1"',
    "the relay's input path": "/api/stdin/",
    "the kernel's file system path": "api/drive",
    "the heartbeat": '"/api/service-worker-heartbeat"',
    "the version kept per worker": "-version`",
}


def check_jupyterlite(site: Path) -> list[str]:
    """What of :data:`JUPYTERLITE_NAMES` the built ``site``'s scripts (the app's and the extensions', not
    JupyterLite's own worker) no longer hold, each as ``what (text)``."""
    scripts = [path for path in [*(site / "voici" / "build").glob("*.js"), *(site / "extensions").rglob("*.js")]
               if path.name != WORKER_FILE]
    text = "\n".join(path.read_text(encoding="utf-8", errors="replace") for path in scripts)
    return [f"{what} ({shown})" for what, shown in JUPYTERLITE_NAMES.items() if shown not in text]


def _loaded(path: Path) -> bool:
    parts = path.parts
    if path.name in _NOT_LOADED_NAMES or path.name.endswith(".LICENSE.txt"):
        return False
    if any(parts[: len(folder)] == folder for folder in _NOT_LOADED_FOLDERS):
        return False
    folder, suffixes = _OLD_FONTS
    return not (parts[: len(folder)] == folder and path.suffix in suffixes)


def offline_files(site: Path) -> list[Path]:
    """The files of the built ``site`` that the offline copy holds, relative to it, in order."""
    return sorted(path.relative_to(site) for path in site.rglob("*")
                  if path.is_file() and _loaded(path.relative_to(site)))


def write_worker(site: Path) -> dict[str, Any]:
    """Write ``site/service-worker.js`` for the site as it is now (its last step: every file must be written).
    Returns what it holds: ``build`` (the id), ``files`` ([path, bytes, integrity] each) and ``bytes`` (all)."""
    source = _SOURCE.read_text(encoding="utf-8")
    files = []
    build = hashlib.sha256(source.encode())  # a worker that stores files differently starts a cache of its own
    for path in offline_files(site):
        data = (site / path).read_bytes()
        digest = hashlib.sha256(data).digest()
        name = path.as_posix()
        files.append([name, len(data), "sha256-" + base64.b64encode(digest).decode()])
        build.update(name.encode() + b"\0" + digest)
    offline = {"build": build.hexdigest()[:16], "files": files}
    (site / WORKER_FILE).write_text(f"{_MARK}{json.dumps(offline, separators=(',', ':'))};\n{source}",
                                    encoding="utf-8")
    return {**offline, "bytes": sum(size for _, size, _ in files)}


def read_worker(site: Path) -> dict[str, Any]:
    """What :func:`write_worker` wrote into ``site``'s worker (the build's id, its files and their bytes)."""
    first = (site / WORKER_FILE).read_text(encoding="utf-8").split("\n", 1)[0]
    if not first.startswith(_MARK):
        raise ValueError(f"{site / WORKER_FILE} is not the site's offline worker")
    offline: dict[str, Any] = json.loads(first[len(_MARK):].rstrip(";"))
    return {**offline, "bytes": sum(size for _, size, _ in offline["files"])}
