// Python's files as the build stores them: a static host (GitHub Pages, a university's
// web server, `python -m http.server`) sends a file as it is stored, so the largest
// ones are stored compressed too (build.py's ZSTD_STORED and GZIPPED, put in here as
// STORED_COMPRESSED: each file's path, and its compressed copy's), and decoded here as
// they arrive: Pyodide's wasm is 9.6 MB as it is, 2.9 MB in Zstandard (decoded by
// zstd.js, loaded as this worker starts); the rest gzipped (../shared/gunzip.js's
// decoding). Their bytes are counted as they come over the wire, for the page's
// progress bar. A host may decode a file itself (Content-Encoding): a body that does
// not begin as its format's is used as it comes.

import { GZIP, decoded, readAll } from "../shared/gunzip.js";
import { importBytes } from "../shared/import-bytes.js";

const COMPRESSED = new Map(Object.entries(STORED_COMPRESSED));
const TYPES = { wasm: "application/wasm", json: "application/json", mjs: "text/javascript" };
// Zstandard's format, with its decoder (zstd.js, a module of its own), asked for as the
// worker starts.
const ZSTANDARD = import("./zstd.js").then(({ ZSTANDARD }) => ZSTANDARD);
ZSTANDARD.catch(() => {}); // told when a file needs it

/**
 * The response for `path` (relative to `site`, the site's URL), as fetched by `fetchFile`
 * and counted by `downloads` (downloads.js) under `path`: for a file stored compressed, its
 * compressed copy's, decoded (its content type `path`'s). A .wasm's body is decoded as it
 * streams, for compileStored; any other file's is decoded whole first (they are small), so
 * that one that does not decode fails here with an Undecodable naming it.
 */
export async function fetchStored(site, path, downloads, fetchFile = fetch) {
  const stored = COMPRESSED.get(path);
  if (!stored) return downloads.count(path, fetchFile(site + path));
  const response = await downloads.count(path, fetchFile(site + stored));
  if (!response.ok || !response.body) return response;
  const type = path.split(".").at(-1);
  const headers = { "content-type": TYPES[type] ?? "application/octet-stream" };
  const format = stored.endsWith(".zst") ? ZSTANDARD : GZIP;
  if (type === "wasm") {
    const streamed = new Response(decoded(stored, response.body, (error) => failures.set(streamed, error), format), { headers });
    return streamed;
  }
  return new Response(await readAll(decoded(stored, response.body, () => {}, format)), { headers });
}

/** The .wasm `path` (as fetchStored gives it), compiled as it arrives. */
export async function compileStored(site, path, downloads) {
  const response = await fetchStored(site, path, downloads);
  return WebAssembly.compileStreaming(response).catch((error) => {
    throw failures.get(response) ?? error; // the browser's says only that the stream failed
  });
}

/** The JavaScript module `path` (as fetchStored gives it), imported from its bytes. */
export async function importStored(site, path, downloads) {
  const response = await fetchStored(site, path, downloads);
  if (!response.ok) throw new Error(`${COMPRESSED.get(path) ?? path} is missing (HTTP ${response.status})`);
  return importBytes(await response.blob(), site + path);
}

// Why a streamed response's body failed to decode, by the response.
const failures = new WeakMap();
