// Python's files as the build stores them: a static host (GitHub Pages, a university's
// web server, `python -m http.server`) sends a file as it is stored, so the largest
// ones are stored gzipped too (build.py's GZIPPED, put in here as STORED_GZIPPED), and
// decoded here as they arrive: Pyodide's wasm is 9.6 MB as it is, 3.5 MB gzipped. Their
// bytes are counted as they come over the wire, for the page's progress bar. The
// decoding is ../shared/gunzip.js's (which tolerates a host that decodes them itself).

import { decoded, readAll } from "../shared/gunzip.js";
import { importBytes } from "../shared/import-bytes.js";

const GZIPPED = new Set(STORED_GZIPPED);
const TYPES = { wasm: "application/wasm", json: "application/json", mjs: "text/javascript" };

/**
 * The response for `path` (relative to `site`, the site's URL), as fetched by `fetchFile`
 * and counted by `downloads` (downloads.js) under `path`: for a file stored gzipped, its
 * .gz's, decoded (its content type `path`'s). A .wasm's body is decoded as it streams, for
 * compileStored; any other file's is decoded whole first (they are small), so that one
 * that does not decode fails here with an Undecodable naming it.
 */
export async function fetchStored(site, path, downloads, fetchFile = fetch) {
  if (!GZIPPED.has(path)) return downloads.count(path, fetchFile(site + path));
  const response = await downloads.count(path, fetchFile(`${site}${path}.gz`));
  if (!response.ok || !response.body) return response;
  const type = path.split(".").at(-1);
  const headers = { "content-type": TYPES[type] ?? "application/octet-stream" };
  if (type === "wasm") {
    const streamed = new Response(decoded(`${path}.gz`, response.body, (error) => failures.set(streamed, error)), { headers });
    return streamed;
  }
  return new Response(await readAll(decoded(`${path}.gz`, response.body, () => {})), { headers });
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
  if (!response.ok) throw new Error(`${path}.gz is missing (HTTP ${response.status})`);
  return importBytes(await response.blob(), site + path);
}

// Why a streamed response's body failed to decode, by the response.
const failures = new WeakMap();
