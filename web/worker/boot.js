// Python's start: Pyodide loaded, Python restored from the memory snapshot made at
// build time (or booted fresh, the engine installed from its wheel), and the
// playground_runner package imported, which then runs each piece of code. It begins as
// this module loads, in the worker's first lines: site.json, Pyodide's scripts and its
// wasm are asked for at once, the wasm compiled and the snapshot downloaded while the
// scripts load. The page is told how far it has come: the bytes downloaded, then the
// phase ("starting Python", ...). The snapshot is downloaded, checked and inflated by a
// worker of this worker's own (snapshot-worker.js), and kept so, once Python is
// restored from it, in the Cache Storage for the next load (snapshot-cache.js). Every
// URL is relative to this file, so the site works under any path, and none leaves the
// site's origin.

import { Downloads } from "./downloads.js";
import { moduleWorker } from "../shared/module-worker.js";
import { writePythonFiles } from "./python-files.js";
import { forgetSnapshot, isKept, keepSnapshot, keptAs, keptSnapshot } from "./snapshot-cache.js";
import { MAX_SNAPSHOT_BYTES, unpack } from "./snapshot-pages.js";
import { staticData, xorStaticData } from "./static-data.js";
import { compileStored, fetchStored, importStored } from "./stored.js";
import { Stalled, stallWatch } from "./stall.js";
import { emptyStdlib } from "./stdlib-later.js";
import { SCRIPTS_KEPT } from "../page/script-cache.js";

// Taken before any learner code runs, which can reach every built-in (`import js`).
const post = Function.prototype.call.bind(MessagePort.prototype.postMessage);

const here = (path) => new URL(path, import.meta.url).href;
const SITE = here("./");
// Below this (the browser's estimate, Mbit/s), downloading the snapshot costs more
// than it saves: at 5 Mbit/s a first load already gains nothing from it, and at
// 1 Mbit/s its 3.8 MB alone take 30 s. Not higher: Chromium says 1.35-1.45
// before it has measured the link at all, and caps its estimate at 10.
const SLOW_LINK_MBIT = 1;
// How long after Python is up a snapshot downloaded is kept (see keepForNextLoad).
const KEEP_AFTER_MS = 1000;

// Asked for first, before Pyodide's own script: what to fetch next depends on it.
const siteJson = fetch(here("site.json")).then(async (response) => {
  if (!response.ok) throw new Error(`site.json is missing (HTTP ${response.status})`);
  return response.json().catch(() => {
    throw new Error("site.json is not JSON: is the site's folder whole?");
  });
});
export const booted = new Promise((resolve) =>
  addEventListener("message", ({ data }) => resolve(data), { once: true }),
);
// A restarted worker (its name says so) is handed on the wasm, and maybe the
// memory, of the worker before in the page's boot message, and waits for them. A
// first one does not wait for that message: it is handled only after the tasks
// that load (the wasm streaming in, Pyodide's script), a tenth of a second or more.
export const RESTARTED = self.name === "python (restarted)";
// The bytes this start downloads, told to the page for its progress bar; then
// "starting Python". A restarted worker finds its files in the HTTP cache, and tells neither.
export const downloads = new Downloads(progress, () => phase("starting Python"));
if (RESTARTED) downloads.stop();
// A snapshot whose download stalls is given up for a fresh boot (stall.js).
const stalled = stallWatch(downloads, booted.then((boot) => boot.snapshotStallMs));
const STALLED = "starting Python without its snapshot, whose download stalled";
const pyodideModule = imported("pyodide/pyodide.mjs", import("./pyodide/pyodide.mjs"));
// Pyodide's script: where the site's service worker keeps it (the page says so in this
// worker's URL), asked for by its content's SHA-256 (PYODIDE_SCRIPT, which build.py
// puts in), so that service-worker.js answers for it with the code compiled beside
// it, never another build's; elsewhere (a first visit) downloaded gzipped, 0.25 MB
// where it is 1.25 MB, and imported decoded.
const EMSCRIPTEN_SCRIPT = "pyodide/pyodide.asm.mjs";
const emscriptenScript = imported(
  EMSCRIPTEN_SCRIPT,
  location.hash === SCRIPTS_KEPT ? import(PYODIDE_SCRIPT) : importStored(SITE, EMSCRIPTEN_SCRIPT, downloads),
);
// A page, its worker and site.json are of one build (build.py's BUILD_ID): a page
// open while a new build was deployed may start this worker of the new one.
class NewVersion extends Error {}
const NEW_VERSION = "a new version of the playground is on the site: reload the page to use it";
export const sameBuild = (boot) => {
  if (boot.build !== BUILD_ID) throw new NewVersion(NEW_VERSION);
  return boot;
};
// What the worker before had is used only by a worker of its build.
const handedOn = RESTARTED ? booted.then(sameBuild) : Promise.resolve({});
// Pyodide's wasm, compiled from the start while the scripts above load and the
// snapshot downloads: Pyodide itself would start only once its 1.2 MB script has run.
const WASM_PATH = "pyodide/pyodide.asm.wasm";
const WASM = here(WASM_PATH);
const compileWasm = () => compileStored(SITE, WASM_PATH, downloads);
// Pyodide's own downloads, which it asks for as it starts (see startPyodide).
const STDLIB = "pyodide/python_stdlib.zip";
export const STDLIB_URL = here(STDLIB);
const LOCK_FILE = "pyodide/pyodide-lock.json";
const wasmCompiled = RESTARTED ? null : compileWasm();
// Python cannot start without Pyodide's wasm, and Emscripten would wait for it
// forever: instantiation() says so here, and boot() gives up.
class NoWasm extends Error {}
let noWasm;
const wasmFailed = new Promise((_, reject) => (noWasm = reject));
wasmFailed.catch(() => {}); // told by boot()
wasmCompiled?.catch(() => {}); // compiled again when Pyodide needs it: see instantiation
// The snapshot's bytes, unless the page hands on the memory restored before: kept
// by an earlier load, else downloaded and inflated, on a thread of their own.
const snapshotStored = Promise.all([siteJson, handedOn]).then(async ([{ snapshot }, { memory }]) => {
  if (!snapshot || memory) return null; // restore() says so, or needs none
  const key = keptAs(here(snapshot.memory), snapshot.sha256);
  await checkLink(snapshot.memory, key);
  return { stored: snapshotBytes(snapshot, key), key };
});
snapshotStored.catch(() => {}); // its error is told when the restore needs it

// What boot() makes, which the rest of the worker reads once `started` has resolved.
export let pyodide = null;
let runner = null;
// The runner's run(), tidy() and steps(), held here: a run can rebind the module's names.
export let runCode = null;
export let tidy = null;
export let stepsOf = null;
// micropip, once code that imports it has had it loaded (loadMicropip).
export let micropip = null;
// Pyodide's, once instantiated, and the snapshot's memory, once restored (only
// where Stop always restarts Python): the page keeps them for the next worker.
export let compiledWasm = null;
export let restoredMemory = null;
// Python's start, begun as this worker loads: it gives site.json once the runner is in.
export const started = boot();

// Python starts from the memory snapshot made at build time, with the engine and
// the runner already imported; when it cannot (no snapshot, a damaged or stale
// one, a restore that fails), it boots fresh and the console says why.
async function boot() {
  const site = await siteJson;
  if (site.build !== BUILD_ID) throw new NewVersion(NEW_VERSION);
  downloads.setSizes(site.sizes);
  downloads.expect(LOCK_FILE);
  await handedOn;
  const { loadPyodide } = await pyodideModule;
  try {
    await Promise.race([restore(site, loadPyodide), wasmFailed]);
  } catch (error) {
    if (error instanceof NoWasm) throw error;
    console.warn(`Python boots without its snapshot: ${error.message}`);
    if (error instanceof Stalled) phase(STALLED);
    await Promise.race([bootFresh(site, loadPyodide), wasmFailed]);
    if (error instanceof SlowLink) downloadForNextTime(site.snapshot);
  }
  // Imports the engine, once; the runner is held here alone (see Runner in its __init__.py).
  runner = pyodide.pyimport(site.runner.module).take();
  runCode = runner.run;
  tidy = runner.tidy;
  stepsOf = runner.steps;
  return site;
}

/**
 * Restore Python's memory, then put back its files (the snapshot holds none).
 * Pyodide waits for a snapshot's bytes before it starts, so it is handed an
 * empty buffer of the snapshot's size at once, which is filled while Pyodide's
 * script runs and its wasm is instantiated: Pyodide reads the bytes only after
 * fsInit, which waits for them (and undoes the difference the static data is
 * stored as: static-data.js).
 */
async function restore(site, loadPyodide) {
  if (!site.snapshot) throw new Error("this build has no snapshot");
  // Pyodide starts at once, not once the snapshot's response is in: one that turns
  // out missing or damaged is wiped in fsInit, so that restoring it fails, and
  // Python boots fresh (asking for Pyodide's own files again, from the HTTP cache).
  const { memory, filled, differenced, key } = await snapshotMemory(site, (await handedOn).memory);
  const filesRead = snapshotPart(site.snapshot.files).then((response) => response.json());
  const files = Promise.race([filesRead, stalled(site.snapshot.files, filesRead)]);
  files.catch(() => {}); // told below, if the restore fails
  downloads.allExpected();
  let emscriptenModule = null;
  // Emscripten's module is made of the settings shown: kept, to read its memory in fsInit.
  const showSettings = (settings) => (emscriptenModule = settings);
  pyodide = await startPyodide(loadPyodide, showSettings, {
    _loadSnapshot: memory,
    fsInit: async (FS, info) => {
      // Pyodide restores the memory after this.
      const [usable, python] = await Promise.all([filled.then(() => true, () => false), files.catch(() => null)]);
      if (!usable || !python) memory.fill(0);
      else if (differenced) xorStaticData(memory, staticData(emscriptenModule));
      if (python) writePythonFiles(FS, info, python);
    },
  }).catch(async (error) => {
    if (key) forgetSnapshot(key); // if it was kept, the next load downloads it again
    const [downloaded] = await Promise.all([filled, files]); // a part missing or damaged says so
    downloaded?.transfer(0);
    throw new Error(`restoring it failed: ${String(error.message ?? error).split("\n")[0]}`);
  });
  const downloaded = await filled;
  if (downloaded) keepForNextLoad(key, downloaded);
  // Pyodide keeps its options, and with them the memory restored, for as long as
  // it lives: let it go, or, where every Stop restarts Python (no interrupt
  // buffer), transfer it to the page for the next worker (Pyodide's is then empty).
  if ((await booted).interrupt) memory.buffer.transfer(0);
  else restoredMemory = memory.buffer;
  // The snapshot froze the random generator's state: without this, `random`
  // would give the same numbers on every load.
  pyodide.runPython("import random; random.seed()");
}

/**
 * The snapshot's memory, and a promise that it is all in and checked: the one
 * the worker before restored, if the page handed it on (Stop's restart), else as
 * stored (kept by an earlier load, or downloaded), with its static data still a
 * difference (static-data.js). `filled` gives the bytes downloaded, for the
 * restore to keep if it succeeds, or null; `key` is where they are kept.
 */
async function snapshotMemory(site, handedOnMemory) {
  if (handedOnMemory) {
    const memory = new Uint8Array(handedOnMemory);
    return { memory, filled: Promise.resolve(null), differenced: false, key: null };
  }
  const { stored, key } = await snapshotStored;
  const { size } = site.snapshot;
  if (!Number.isSafeInteger(size) || size <= 0 || size > MAX_SNAPSHOT_BYTES) {
    throw new UnusableSnapshot(`site.json gives it a size of ${size} bytes, which no Python memory has`);
  }
  const memory = new Uint8Array(size);
  const filled = stored.then(({ bytes, kept }) => {
    try {
      unpack(new Uint8Array(bytes), memory);
    } catch (error) {
      bytes.transfer(0);
      throw new UnusableSnapshot(`${site.snapshot.memory} could not be inflated: ${error.message}`);
    }
    if (!kept) return bytes;
    bytes.transfer(0); // its 10 MB, which the download's promise would keep as long as Python lives
    return null;
  });
  return { memory, filled, differenced: true, key };
}

/**
 * loadPyodide, with Pyodide's wasm instantiated as `instantiation` says. Pyodide
 * fetches its wasm as it starts, to compile it itself: that request is left
 * unanswered (this worker compiles it already); what else it fetches is counted
 * (its standard library, its lock file). fetch is itself again once Emscripten's
 * module is made, before any Python runs.
 */
async function startPyodide(loadPyodide, showSettings, options = {}) {
  const { default: createPyodideModule } = await emscriptenScript;
  const fetchAnything = globalThis.fetch;
  const unwrapFetch = () => (globalThis.fetch = fetchAnything);
  globalThis.fetch = (url, ...rest) => {
    const href = new URL(url, SITE).href;
    if (href === WASM) return new Promise(() => {});
    if (href === STDLIB_URL && options._loadSnapshot) return Promise.resolve(emptyStdlib()); // stdlib-later.js
    return fetchStored(SITE, href.slice(SITE.length), downloads, (stored) => fetchAnything(stored, ...rest));
  };
  try {
    const loaded = await loadPyodide({
      ...options,
      indexURL: here("pyodide/"),
      createPyodideModule: (settings) => {
        unwrapFetch();
        showSettings(settings);
        settings.instantiateWasm = instantiation;
        return createPyodideModule(settings);
      },
    });
    downloads.finish(); // Python is up: what it needed is in
    return loaded;
  } finally {
    unwrapFetch();
  }
}

/**
 * Emscripten's instantiateWasm hook: Pyodide's wasm instantiated from the module
 * the page handed on (compiled by the worker before this one: a restart neither
 * downloads nor compiles it), else from the one this worker compiled as it
 * started, else compiled again. The module is kept, for the page to hand on.
 */
function instantiation(imports, success) {
  // The two imports Pyodide's own hook adds, as it makes them where wasm cannot.
  const marker = Symbol("error marker");
  imports.env.Jsv_GetError_import = () => marker;
  imports.env.JsvError_Check = (value) => value === marker;
  const instantiate = async (module) => [await WebAssembly.instantiate(await module, imports), await module];
  handedOn
    .then(({ wasm }) => instantiate(wasm ?? wasmCompiled ?? compileWasm()))
    .catch(() => instantiate(compileWasm()))
    .then(([instance, module]) => {
      compiledWasm = module;
      success(instance, module);
    })
    .catch((error) => noWasm(new NoWasm(`Pyodide's wasm could not be loaded: ${error.message}`)));
  return {}; // instantiating asynchronously: no exports yet
}

/** A link too slow for the snapshot, unless an earlier load kept it, or it is in the HTTP cache. */
class SlowLink extends Error {}

async function checkLink(path, key) {
  const downlink = navigator.connection?.downlink;
  if (!(downlink < SLOW_LINK_MBIT) || (await isKept(key))) return;
  const request = fetch(here(path), { cache: "only-if-cached", mode: "same-origin" });
  if (await request.then((response) => response.ok, () => false)) return;
  throw new SlowLink(
    `the link is slow (about ${downlink} Mbit/s) and the snapshot not in the cache: ` +
      "it downloads for next time",
  );
}

/** Into the HTTP cache, once Python is up, for the next load to restore from. */
function downloadForNextTime({ memory, files }) {
  for (const path of [memory, files]) {
    fetch(here(path)).then((response) => response.arrayBuffer()).catch(() => {});
  }
}

/**
 * Keep the snapshot's downloaded bytes, which Python was restored from, for the
 * next load, a while after Python is up: copying and writing 10 MB would otherwise
 * slow the first run and its painting.
 */
async function keepForNextLoad(key, bytes) {
  await started.catch(() => {});
  await new Promise((later) => setTimeout(later, KEEP_AFTER_MS));
  await keepSnapshot(key, bytes);
  bytes.transfer(0);
}

/** A snapshot that is missing or damaged, found before anything is restored from it. */
class UnusableSnapshot extends Error {}

const missing = (path, status) => new UnusableSnapshot(`${path} is missing (HTTP ${status})`);

async function snapshotPart(path) {
  const response = await fetchStored(SITE, path, downloads);
  if (!response.ok) throw missing(path, response.status);
  return response;
}

/**
 * The snapshot's bytes, and whether they were kept by an earlier load (else they
 * were downloaded, checked and inflated by snapshot-worker.js); an error if they
 * are missing or damaged.
 */
async function snapshotBytes(snapshot, key) {
  downloads.expect(snapshot.memory); // from the start: the restore waits for no answer here
  // A restarted worker's page loaded this build already: a snapshot kept is this one,
  // whatever site.json's timing says this time.
  const lookIn = RESTARTED || !siteIsNew();
  const bytes = lookIn ? await keptSnapshot(key, snapshot.storedSha256) : null;
  if (!bytes) return download(snapshot);
  downloads.drop(snapshot.memory);
  return { bytes, kept: true };
}

/**
 * Whether site.json came over the network, body and all, as on a first visit (or
 * for a new build): then a snapshot an earlier load kept is seldom this one (only
 * when the new build changed neither Python nor the engine), and the Cache Storage
 * is not even opened (which a first visit would wait for). Where the browser does
 * not say (another origin's sizes are hidden), it is looked in.
 */
function siteIsNew() {
  const [timing] = performance.getEntriesByName(here("site.json"));
  if (!timing || timing.deliveryType === "cache") return false;
  return timing.encodedBodySize > 0 && timing.transferSize > timing.encodedBodySize;
}

/** The snapshot, downloaded, checked and inflated by snapshot-worker.js; given up if
 *  its download stalls (stall.js). */
function download({ memory: path, sha256 }) {
  const inflater = moduleWorker(new URL(here("snapshot-worker.js")), "snapshot");
  inflater.postMessage({ url: here(path), sha256 });
  inflater.addEventListener("message", ({ data }) => {
    if (data.type === "received") downloads.add(path, data.bytes);
  });
  const says = (type) =>
    new Promise((resolve) =>
      inflater.addEventListener("message", ({ data }) => data.type === type && resolve(data)),
    );
  const found = says("response").then(({ ok, status }) => {
    if (!ok) throw missing(path, status);
  });
  const inflated = says("inflated").then(({ stored }) => ({ bytes: stored, kept: false }));
  const unusable = says("unusable").then(({ why }) => {
    throw new UnusableSnapshot(`${path} ${why}`);
  });
  const answered = Promise.race([found.then(() => inflated), unusable]);
  const stored = Promise.race([answered, stalled(path, Promise.race([says("downloaded"), answered]))]);
  Promise.race([says("downloaded"), stored]).finally(() => downloads.finished(path)).catch(() => {});
  stored.finally(() => inflater.terminate()).catch(() => {});
  return stored;
}

// The engine's wheel is unpacked straight into site-packages, as micropip
// would for a pure-Python wheel with no dependencies, but without importing
// micropip first: that import alone costs about a tenth of Pyodide's boot.
async function bootFresh(site, loadPyodide) {
  const engine = downloads.count(site.engine, fetch(here(site.engine))).then((response) => {
    if (!response.ok) throw new Error(`the engine's wheel ${site.engine} is missing (HTTP ${response.status})`);
    return response.arrayBuffer();
  });
  engine.catch(() => {}); // told once Pyodide is up, below
  const runnerFiles = site.runner.files.map((name) =>
    downloads.count(name, fetch(here(name))).then(async (r) => [name, await r.text()]),
  );
  downloads.expect(STDLIB);
  downloads.allExpected();
  pyodide = await startPyodide(loadPyodide, () => {});
  phase("installing the engine");
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  pyodide.unpackArchive(await engine, "wheel", { extractDir: sitePackages });
  const home = Object.fromEntries(await Promise.all(runnerFiles));
  writePythonFiles(pyodide.FS, { sitePackages }, { home });
}

/** micropip, for code that imports it: from the site's own wheel, with no index to ask. */
export async function loadMicropip(site) {
  await pyodide.loadPackage(here(site.micropip));
  micropip = pyodide.pyimport("micropip");
  micropip.set_index_urls([]);
  runner.settle(); // what micropip imported is as pristine as the rest
}

async function phase(name) {
  post((await booted).port, { type: "phase", phase: name });
}

async function progress(received, total) {
  post((await booted).port, { type: "progress", received, total });
}

/** `module`, the import of the file at `path`, which counts as downloaded once imported. */
function imported(path, module) {
  downloads.expect(path);
  module.then(() => downloads.arrived(path), () => downloads.finished(path));
  return module;
}
