// The Python side of the page: one Pyodide, the engine installed once, and
// the playground_runner package running each piece of code in a fresh namespace.
//
// The page and this worker talk over a MessagePort of their own, sent with
// the one message that comes the global way: learner code can reach the
// worker's global `postMessage` and `message` events (`import js`), so after
// boot nothing is said or heard there, and what it posts reaches no listener.
//
// Global in:     {type: "boot", port: MessagePort, interrupt?: Int32Array on a SharedArrayBuffer}
// Port in:       {type: "run", id, code}
//                {type: "ping", id}           answered once every message before it is handled
// Port out:      {type: "phase", phase}       "installing the engine" (after Python loads)
//                {type: "ready"}
//                {type: "output", id, batch}  JSON of [[stream, text], ...]
//                {type: "result", id, result} JSON from playground_runner.run
//                {type: "pong", id}
//                {type: "failed", message}    the runtime could not start, or crashed
// The page checks every message's shape (see protocol.js). Every URL is
// relative to this file, so the site works under any path, and none leaves
// the site's origin.

import { loadPyodide } from "./pyodide/pyodide.mjs";

const here = (path) => new URL(path, import.meta.url).href;
const MENTIONS_MICROPIP = /\bmicropip\b/;

let pyodide = null;
let runner = null;
let interrupt = null;
let micropip = null;
const booted = new Promise((resolve) =>
  addEventListener("message", ({ data }) => resolve(data), { once: true }),
);
const started = boot();
serve();

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

async function phase(name) {
  (await booted).port.postMessage({ type: "phase", phase: name });
}

async function handle(data, page) {
  const site = await started;
  if (data.type === "run") {
    if (!micropip && MENTIONS_MICROPIP.test(data.code)) await loadMicropip(site);
    if (interrupt) interrupt[0] = 0; // a Stop that came after the last run ended
    const send = (batch) => page.postMessage({ type: "output", id: data.id, batch });
    const result = runner.run(data.code, send);
    // No result: Pyodide failed fatally and cannot run anything more.
    if (typeof result !== "string") throw new Error("Python stopped working");
    page.postMessage({ type: "result", id: data.id, result });
  } else if (data.type === "ping") {
    page.postMessage({ type: "pong", id: data.id });
  }
}

/** Answer the page over its port, one message at a time, in order, even across awaits. */
async function serve() {
  const { port: page, interrupt: buffer } = await booted;
  const fail = (error) => page.postMessage({ type: "failed", message: String(error?.stack ?? error) });
  let queue = started
    .then(() => {
      if (buffer) {
        interrupt = buffer;
        pyodide.setInterruptBuffer(interrupt);
      }
      page.postMessage({ type: "ready" });
    })
    .catch(fail);
  page.onmessage = ({ data }) => {
    queue = queue.then(() => handle(data, page)).catch(fail);
  };
}
