// The site's Python starts from the snapshot made at build time (escoba_tutor/site/snapshot.py says why and
// how). Appended to the site's pyodide.js, which the kernel's worker loads before it calls loadPyodide: this
// wraps loadPyodide. Any failure to use the snapshot starts Python the ordinary way.
(function (scope) {
  "use strict";
  var ordinaryStart = scope.loadPyodide;
  var SNAPSHOT = "escoba-kernel.snapshot.gz";
  if (typeof ordinaryStart !== "function") {
    return;
  }

  async function snapshotMemory(url) {
    if (typeof DecompressionStream !== "function") {
      throw new Error("this browser cannot decompress the snapshot");
    }
    var response = await fetch(url);
    if (!response.ok) {
      throw new Error(url + ": HTTP " + response.status);
    }
    var memory = response.body.pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(memory).arrayBuffer());
  }

  // What a snapshot cannot hold: the page's own environment (its address's settings), and a seed for random
  // of this page's own (not the build's).
  function freshStart(pyodide, environment) {
    var os = pyodide.pyimport("os");
    var random = pyodide.pyimport("random");
    var values = pyodide.toPy(environment || {});
    try {
      os.environ.update(values);
      random.seed();
    } finally {
      values.destroy();
      os.destroy();
      random.destroy();
    }
  }

  scope.loadPyodide = async function (options) {
    options = options || {};
    var index = options.indexURL || "";
    if (index && !index.endsWith("/")) {
      index += "/";
    }
    var started = { from: "ordinary" };
    var pyodide = null;
    try {
      var memory = await snapshotMemory(index + SNAPSHOT);
      pyodide = await ordinaryStart(Object.assign({}, options, { _loadSnapshot: memory }));
      freshStart(pyodide, options.env);
      started.from = "snapshot";
    } catch (error) {
      console.warn("escoba-tutor: Python starts the ordinary way (" + ((error && error.message) || error) + ")");
      pyodide = await ordinaryStart(options);
    }
    started.pyodide = pyodide;
    scope.escobaPython = started; // the site's tests ask the kernel's worker how its Python started
    return pyodide;
  };
})(typeof self !== "undefined" ? self : globalThis);
