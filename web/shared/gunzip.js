// Files the build stores gzipped (or in another format: stored.js's Zstandard), decoded
// in the browser as they arrive: a static host (GitHub Pages, a university's web server,
// `python -m http.server`) sends a file as it is stored. The Python worker's files
// (web/worker/stored.js) and the editor's script (web/page/editor-script.js) come this way.
//
// A host that sends a .gz with `Content-Encoding: gzip` has the browser decode it
// already: a body that does not start as its format does is used as it comes.

/** gzip's format: its first bytes and its decoding (a stream of its bytes to one of
 *  theirs decoded). ../worker/zstd.js has Zstandard's, for Pyodide's wasm. */
export const GZIP = {
  magic: [0x1f, 0x8b],
  decode: async (stream) => stream.pipeThrough(new DecompressionStream("gzip")),
};

/** A file stored compressed whose bytes do not decode: cut short, or damaged. */
class Undecodable extends Error {}

/**
 * The bytes of `body` (the stored file `name`'s, in `format`: GZIP or one like it, or a
 * promise of one) decoded, unless they are not of that format (the browser decoded them
 * already); an error in decoding is an Undecodable, told to `failed` too.
 */
export function decoded(name, body, failed, format = GZIP) {
  const [sniffed, whole] = body.tee();
  let reader = null;
  const open = async () => {
    const sniffing = sniffed.getReader();
    const { value } = await sniffing.read();
    sniffing.cancel().catch(() => {});
    const { magic, decode } = await format;
    const compressed = value?.length >= magic.length && magic.every((byte, i) => value[i] === byte);
    return (compressed ? await decode(whole) : whole).getReader();
  };
  return new ReadableStream({
    async pull(controller) {
      try {
        reader ??= await open();
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        const why = new Undecodable(`${name} is damaged or cut short: it does not decode (${error.message})`);
        failed(why);
        controller.error(why);
      }
    },
    cancel: (reason) => reader?.cancel(reason),
  });
}

/** All of `stream`'s bytes; its own error, if it fails (a Response's would be the browser's). */
export async function readAll(stream) {
  const chunks = [];
  const reader = stream.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
  return new Blob(chunks);
}

/** The file stored gzipped at `url` (a URL), fetched and decoded, as a Blob; an error
 *  naming it if it does not come or does not decode. */
export async function fetchGunzipped(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return readAll(decoded(url.pathname, response.body, () => {}));
}
