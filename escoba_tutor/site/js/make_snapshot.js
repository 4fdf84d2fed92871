// Build step of escoba_tutor/site/snapshot.py, run by Node.js:
//   node make_snapshot.js RUNTIME OUT PACKAGES_JSON
// starts the site's Pyodide (RUNTIME/pyodide.js and the site's lock), installs PACKAGES, imports what the pages
// import, and writes a gzip-compressed snapshot of Python's memory to OUT. Prints one line of JSON at the end.
"use strict";
const fs = require("fs");
const path = require("path");
const zlib = require("zlib");

async function main() {
  const [runtimeFolder, out, packagesJson] = process.argv.slice(2);
  const runtime = path.resolve(runtimeFolder) + path.sep;
  const { loadPyodide } = require(path.join(runtime, "pyodide.js"));
  const pyodide = await loadPyodide({ indexURL: runtime, _makeSnapshot: true });
  await pyodide.loadPackage(JSON.parse(packagesJson), { messageCallback() {} });
  const failed = pyodide.runPython(
    "from escoba_tutor.site.snapshot import warm_imports\nimport json\njson.dumps(warm_imports())");
  const modules = pyodide.runPython("import sys\nlen(sys.modules)");
  // The packages' files are not in the memory: each page installs them again. Pyodide's record of installed
  // packages is JavaScript's, and the snapshot refuses a non-empty one: empty it, so each page fills its own.
  for (const name of Object.keys(pyodide.loadedPackages)) {
    delete pyodide.loadedPackages[name];
  }
  const memory = pyodide.makeMemorySnapshot();
  fs.writeFileSync(out, zlib.gzipSync(memory, { level: 9 }));
  console.log(JSON.stringify({ memory: memory.length, modules, failed: JSON.parse(failed) }));
}

main().catch((error) => {
  console.error((error && error.message) || String(error));
  process.exit(1);
});
