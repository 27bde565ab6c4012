// The Python side of the page: one Pyodide, the engine installed once, and
// the playground_runner package running each piece of code in a fresh namespace.
//
// Messages in:  {type: "boot", interrupt?: Int32Array on a SharedArrayBuffer}
//               {type: "run", id, code}
// Messages out: {type: "phase", phase}        "installing the engine" (after Python loads)
//               {type: "ready"}
//               {type: "output", id, batch}   JSON of [[stream, text], ...]
//               {type: "result", id, result}  JSON from playground_runner.run
//               {type: "failed", message}     the runtime could not start
// Every URL is relative to this file, so the site works under any path, and
// none leaves the site's origin.

import { loadPyodide } from "./pyodide/pyodide.mjs";

const here = (path) => new URL(path, import.meta.url).href;
const MENTIONS_MICROPIP = /\bmicropip\b/;

let pyodide = null;
let runner = null;
let interrupt = null;
let micropip = null;
const started = boot();

// The engine's wheel is unpacked straight into site-packages, as micropip
// would for a pure-Python wheel with no dependencies, but without importing
// micropip first: that import alone costs about a tenth of Pyodide's boot.
async function boot() {
  const site = fetch(here("site.json")).then((r) => r.json());
  const engine = site.then((s) => fetch(here(s.engine))).then((r) => r.arrayBuffer());
  const runnerFiles = site.then((s) =>
    Promise.all(s.runner.map((path) => fetch(here(path)).then(async (r) => [path, await r.text()]))),
  );
  pyodide = await loadPyodide({ indexURL: here("pyodide/") });
  phase("installing the engine");
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  pyodide.unpackArchive(await engine, "wheel", { extractDir: sitePackages });
  for (const [path, text] of await runnerFiles) {
    pyodide.FS.mkdirTree(`/home/pyodide/${path.slice(0, path.lastIndexOf("/"))}`);
    pyodide.FS.writeFile(`/home/pyodide/${path}`, text);
  }
  runner = pyodide.pyimport("playground_runner"); // imports the engine, once
  return site;
}

/** micropip, for code that imports it: from the site's own wheel, with no index to ask. */
async function loadMicropip(site) {
  await pyodide.loadPackage(here(site.micropip));
  micropip = pyodide.pyimport("micropip");
  micropip.set_index_urls([]);
}

function phase(name) {
  postMessage({ type: "phase", phase: name });
}

async function handle({ data }) {
  const site = await started;
  if (data.type === "boot") {
    if (data.interrupt) {
      interrupt = data.interrupt;
      pyodide.setInterruptBuffer(interrupt);
    }
    postMessage({ type: "ready" });
  } else if (data.type === "run") {
    if (!micropip && MENTIONS_MICROPIP.test(data.code)) await loadMicropip(site);
    if (interrupt) interrupt[0] = 0; // a Stop that came after the last run ended
    const send = (batch) => postMessage({ type: "output", id: data.id, batch });
    const result = runner.run(data.code, send);
    // No result: Pyodide failed fatally and cannot run anything more.
    if (typeof result !== "string") throw new Error("Python stopped working");
    postMessage({ type: "result", id: data.id, result });
  }
}

// Messages are handled one at a time, in order, even across the awaits above.
let queue = Promise.resolve();
addEventListener("message", (event) => {
  queue = queue
    .then(() => handle(event))
    .catch((error) => postMessage({ type: "failed", message: String(error?.stack ?? error) }));
});
