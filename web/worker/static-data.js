// A memory snapshot stores Pyodide's static data (CPython's built-in types,
// frozen modules, string tables: the 4 MB below the C stack) as a difference
// from what the wasm itself writes there when it starts, which is mostly the
// same bytes: XORed, they are mostly zeros, and gzip squeezes them to nothing
// (a snapshot 1.5 MB smaller). Shared by the snapshot maker, which takes the
// difference, and the worker, which undoes it (XOR again) in loadPyodide's
// fsInit, where the wasm memory is as it starts and not yet restored.

/** The wasm's static data as it starts: in fsInit, before anything else runs. */
export function staticData(emscriptenModule) {
  return emscriptenModule.HEAPU8.subarray(0, emscriptenModule.___stack_low);
}

/**
 * XOR the static data in `snapshot` (Pyodide's snapshot: a header, then the
 * memory from address 0) with `initial`, the static data as it starts.
 */
export function xorStaticData(snapshot, initial) {
  const memoryStart = new DataView(snapshot.buffer, snapshot.byteOffset).getUint32(4, true);
  const words = new Int32Array(snapshot.buffer, snapshot.byteOffset + memoryStart, initial.length / 4);
  const from = new Int32Array(initial.buffer, initial.byteOffset, initial.length / 4);
  for (let i = 0; i < words.length; i++) words[i] ^= from[i];
}
