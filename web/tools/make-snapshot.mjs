// Makes the memory snapshot the worker restores Python from, at build time:
//     node make-snapshot.mjs DIST FACTS
// boots the Pyodide in DIST/pyodide/ (the very files the site ships: a snapshot
// only restores into the build it was made with), writes DIST/snapshot/files.json
// into its file system as the worker will, imports the runner (and with it the
// engine), and writes Python's memory, compressed with Zstandard, to
// DIST/snapshot/memory.zst (its static data as a difference, see static-data.js;
// only its pages that are not zeros, see snapshot-pages.js). Zstandard, not gzip:
// 3.1 MB where gzip's best is 4.2, a second and more of a first visit at 5 Mbit/s,
// for a decoder of 75 kB (snapshot-worker.js); a returning visitor keeps the
// snapshot decoded. FACTS, a JSON file, is given the SHA-256 and the size of the
// snapshot as stored decoded, for site.json.

import nodeCrypto from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { compress, init as zstdReady } from "@bokuweb/zstd-wasm";
import { writePythonFiles } from "../worker/python-files.js";
import { pack } from "../worker/snapshot-pages.js";
import { staticData, xorStaticData } from "../worker/static-data.js";

const [dist, facts] = process.argv.slice(2);
// Zstandard's level 19, its highest short of --ultra's (whose larger window the
// decoder would have to hold): 7 s at build time, 0.1% above level 22.
const ZSTD_LEVEL = 19;
madeAlike();
const site = JSON.parse(await readFile(join(dist, "site.json"), "utf8"));
const files = JSON.parse(await readFile(join(dist, "snapshot", "files.json"), "utf8"));
// A .dist-info found at boot makes Pyodide note its package in a JavaScript
// object, which makeMemorySnapshot refuses ("Unexpected hiwire entry"): it is
// left out here, and the worker writes it with the rest when it restores.
const packages = Object.entries(files["site-packages"]);
files["site-packages"] = Object.fromEntries(
  packages.filter(([path]) => !path.split("/")[0].endsWith(".dist-info")),
);
const pyodideUrl = (name) => pathToFileURL(join(dist, "pyodide", name)).href;
const { loadPyodide } = await import(pyodideUrl("pyodide.mjs"));
const { default: createPyodideModule } = await import(pyodideUrl("pyodide.asm.mjs"));

let emscriptenModule = null;
let initial = null;
const pyodide = await loadPyodide({
  indexURL: join(dist, "pyodide") + "/",
  _makeSnapshot: true,
  // Else Python is told the maker script is its program, and the snapshot keeps it.
  _sysExecutable: "python",
  // Emscripten's module is made of these settings: kept, to read its memory in fsInit.
  createPyodideModule: (settings) => {
    emscriptenModule = settings;
    return createPyodideModule(settings);
  },
  fsInit: async (FS, info) => {
    initial = staticData(emscriptenModule).slice();
    writePythonFiles(FS, info, files);
  },
});
// Nothing of JavaScript may be held by Python when its memory is saved.
pyodide.runPython(`import ${site.runner.module}, gc; gc.collect()`);
zeroFreeMemory(pyodide._module);
const memory = pyodide.makeMemorySnapshot();
xorStaticData(memory, initial);
await zstdReady();
const stored = pack(memory);
const compressed = compress(stored, ZSTD_LEVEL);
await writeFile(join(dist, "snapshot", "memory.zst"), compressed);
const storedSha256 = nodeCrypto.createHash("sha256").update(stored).digest("hex");
await writeFile(facts, JSON.stringify({ storedSha256, size: memory.length }));
console.log(`snapshot: ${(memory.length / 1e6).toFixed(1)} MB, compressed ${(compressed.length / 1e6).toFixed(1)} MB`);

/**
 * Zero the memory malloc holds free (2.8 MB of 11.5 MB: what Pyodide's boot
 * freed, still holding its old bytes), which gzip then squeezes to nothing: a
 * snapshot a sixth smaller. Pyodide's Python allocates with malloc alone (it
 * is built without pymalloc), so this is all the heap's free memory. Taking
 * every free block, largest first, without growing the heap (its footprint
 * capped), then freeing them all, leaves the same memory free.
 */
function zeroFreeMemory(module) {
  const limit = module._malloc_footprint_limit();
  module._malloc_set_footprint_limit(module._malloc_footprint());
  const taken = [];
  for (let size = 2 ** 24; size >= 16; ) {
    const block = module._malloc(size);
    if (block) {
      module.HEAPU8.fill(0, block, block + size);
      taken.push(block);
    } else {
      size /= 2;
    }
  }
  for (const block of taken.reverse()) module._free(block);
  module._malloc_set_footprint_limit(limit);
}

/**
 * Make the snapshot the same bytes on every build of the same files: its SHA-256
 * changes when Python or the engine does, not on every build, so a browser can
 * revalidate the one it has (where the host's ETags follow the content) rather
 * than download it again. Python's memory would
 * otherwise hold the clock (the times of its files) and random bytes from the
 * maker's run; every restore shares its snapshot's anyway.
 */
function madeAlike() {
  Date.now = () => 0;
  performance.now = () => 0;
  let state = 0x9e3779b9;
  nodeCrypto.randomFillSync = (view) => {
    const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
    for (let i = 0; i < bytes.length; i++) {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0; // a linear congruential step
      bytes[i] = state >>> 24;
    }
    return view;
  };
}
