// The Python side of the page: one Pyodide, restored from the snapshot made at
// build time (or booted fresh, the engine installed from its wheel), and
// runner.py running each piece of code in a fresh namespace.
//
// Messages in:  {type: "boot", interrupt?: Int32Array on a SharedArrayBuffer}
//               {type: "run", id, code}
// Messages out: {type: "phase", phase}        "installing the engine" (after a fresh boot)
//               {type: "ready"}
//               {type: "output", id, batch}   JSON of [[stream, text], ...]
//               {type: "result", id, result}  JSON from runner.run
//               {type: "failed", message}     the runtime could not start
// Every URL is relative to this file, so the site works under any path, and
// none leaves the site's origin.

import { loadPyodide } from "./pyodide/pyodide.mjs";
import { writePythonFiles } from "./python-files.js";

const here = (path) => new URL(path, import.meta.url).href;
const MENTIONS_MICROPIP = /\bmicropip\b/;

let pyodide = null;
let runner = null;
let interrupt = null;
let micropip = null;
const started = boot();

// Python starts from the memory snapshot made at build time, with the engine and
// the runner already imported; when it cannot (no snapshot, a damaged or stale
// one, a restore that fails), it boots fresh and the console says why.
async function boot() {
  const site = await fetch(here("site.json")).then((r) => r.json());
  try {
    await restore(site);
  } catch (error) {
    console.warn(`Python boots without its snapshot: ${error.message}`);
    await bootFresh(site);
  }
  runner = pyodide.pyimport(site.runner.module); // imports the engine, once
  return site;
}

/** Restore Python's memory, then put back its files (the snapshot holds none). */
async function restore(site) {
  if (!site.snapshot) throw new Error("this build has no snapshot");
  // Both found before Pyodide starts fetching its own files: without a snapshot,
  // booting fresh then downloads them once, not twice.
  const [response, files] = await Promise.all([
    snapshotPart(site.snapshot.memory),
    snapshotPart(site.snapshot.files).then((r) => r.json()),
  ]);
  const memory = snapshotMemory(response, site.snapshot);
  pyodide = await loadPyodide({
    indexURL: here("pyodide/"),
    _loadSnapshot: memory,
    fsInit: async (FS, info) => writePythonFiles(FS, info, files),
  }).catch((error) => {
    if (error instanceof UnusableSnapshot) throw error;
    throw new Error(`restoring it failed: ${String(error.message ?? error).split("\n")[0]}`);
  });
  // Pyodide keeps its options, and with them the 31 MB of memory restored, for
  // as long as it lives: let them go.
  (await memory).buffer.transfer(0);
  // The snapshot froze the random generator's state: without this, `random`
  // would give the same numbers on every load.
  pyodide.runPython("import random; random.seed()");
}

/** A snapshot that is missing or damaged, found before anything is restored from it. */
class UnusableSnapshot extends Error {}

async function snapshotPart(path) {
  const response = await fetch(here(path));
  if (!response.ok) throw new UnusableSnapshot(`${path} is missing (HTTP ${response.status})`);
  return response;
}

/** The snapshot's memory, checked against the hash site.json has for it, inflated. */
async function snapshotMemory(response, { memory, sha256 }) {
  const gzipped = await response.arrayBuffer();
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", gzipped));
  const hex = Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
  if (hex !== sha256) {
    throw new UnusableSnapshot(`${memory} is corrupt, or from another build (its SHA-256 differs)`);
  }
  const inflated = new Blob([gzipped]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(inflated).arrayBuffer());
}

// The engine's wheel is unpacked straight into site-packages, as micropip
// would for a pure-Python wheel with no dependencies, but without importing
// micropip first: that import alone costs about a tenth of Pyodide's boot.
async function bootFresh(site) {
  const engine = fetch(here(site.engine)).then((r) => r.arrayBuffer());
  const runnerFiles = Object.entries(site.runner.files).map(([source, name]) =>
    fetch(here(source)).then(async (r) => [name, await r.text()]),
  );
  pyodide = await loadPyodide({ indexURL: here("pyodide/") });
  phase("installing the engine");
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  pyodide.unpackArchive(await engine, "wheel", { extractDir: sitePackages });
  for (const [name, text] of await Promise.all(runnerFiles)) {
    pyodide.FS.writeFile(`/home/pyodide/${name}`, text);
  }
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
