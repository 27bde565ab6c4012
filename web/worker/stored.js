// Python's files as the build stores them: a static host (GitHub Pages, a university's
// web server, `python -m http.server`) sends a file as it is stored, so the largest
// ones are stored gzipped too (build.py's GZIPPED, put in here as STORED_GZIPPED), and
// decoded here as they arrive: Pyodide's wasm is 9.6 MB as it is, 3.5 MB gzipped. Their
// bytes are counted as they come over the wire, for the page's progress bar.
//
// A host that sends a .gz with `Content-Encoding: gzip` has the browser decode it
// already: a body that does not start as gzip does is used as it comes.

const GZIPPED = new Set(STORED_GZIPPED);
const TYPES = { wasm: "application/wasm", json: "application/json", mjs: "text/javascript" };
const GZIP_MAGIC = [0x1f, 0x8b];

/** A file stored gzipped whose bytes do not decode: cut short, or damaged. */
export class Undecodable extends Error {}

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
  const url = URL.createObjectURL(await response.blob());
  try {
    return await import(url);
  } finally {
    URL.revokeObjectURL(url);
  }
}

// Why a streamed response's body failed to decode, by the response.
const failures = new WeakMap();

/**
 * The bytes of `body` (the stored file `name`'s) decoded, unless they are not gzip's (the
 * browser decoded them already); an error in decoding is an Undecodable, told to `failed` too.
 */
function decoded(name, body, failed) {
  const [sniffed, whole] = body.tee();
  let reader = null;
  const open = async () => {
    const sniffing = sniffed.getReader();
    const { value } = await sniffing.read();
    sniffing.cancel().catch(() => {});
    const gzip = value?.length >= 2 && value[0] === GZIP_MAGIC[0] && value[1] === GZIP_MAGIC[1];
    return (gzip ? whole.pipeThrough(new DecompressionStream("gzip")) : whole).getReader();
  };
  return new ReadableStream({
    async pull(controller) {
      try {
        reader ??= await open();
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        const why = new Undecodable(`${name} is damaged or cut short: it does not decode as gzip (${error.message})`);
        failed(why);
        controller.error(why);
      }
    },
    cancel: (reason) => reader?.cancel(reason),
  });
}

/** All of `stream`'s bytes; its own error, if it fails (a Response's would be the browser's). */
async function readAll(stream) {
  const chunks = [];
  const reader = stream.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
  return new Blob(chunks);
}
