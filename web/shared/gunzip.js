// Files the build stores gzipped, decoded in the browser as they arrive: a static host
// (GitHub Pages, a university's web server, `python -m http.server`) sends a file as it
// is stored. The Python worker's files (web/worker/stored.js) and the editor's script
// (web/page/editor-script.js) come this way.
//
// A host that sends a .gz with `Content-Encoding: gzip` has the browser decode it
// already: a body that does not start as gzip does is used as it comes.

const GZIP_MAGIC = [0x1f, 0x8b];

/** A file stored gzipped whose bytes do not decode: cut short, or damaged. */
class Undecodable extends Error {}

/**
 * The bytes of `body` (the stored file `name`'s) decoded, unless they are not gzip's (the
 * browser decoded them already); an error in decoding is an Undecodable, told to `failed` too.
 */
export function decoded(name, body, failed) {
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
