// Python's standard library (Pyodide's python_stdlib.zip, 2.5 MB) comes after the first
// result. The memory snapshot already holds every module the site's pages import before
// then, so Python is restored with an empty file in the zip's place. But the snapshot
// also holds zipimport's directory of the full zip (where each module's bytes start in
// it), so a module the snapshot lacks is read from that file, at those offsets: the
// full zip's bytes are put into the same file, once they are in. They are downloaded
// once the page has painted a run's result (downloadStdlib); a read of the file before then
// (a first run's `import difflib`) downloads them at once, synchronously, as a worker
// may: the import waits for them, and works.
//
// The bytes go straight into the file's node, its times untouched: a run's check of
// what it changed in the file system (run-files.js) does not count them as the run's.
//
// Every function used here is taken as the worker starts, before any learner code.

const Synchronous = XMLHttpRequest;
const fetchAnything = fetch;
const warn = console.warn;
// Emscripten's errno for an I/O error: Python's read of the zip fails with it, and
// zipimport says "can't read Zip file: '/lib/python314.zip'".
const EIO = 29;

let late = null; // {node, reading: the file's own stream operations, url} while the zip is to come

/** An empty zip, for Pyodide to write in the standard library's place as it restores. */
export function emptyStdlib() {
  return new Response(new Uint8Array(0), { headers: { "content-type": "application/zip" } });
}

/**
 * Once Python is up, before any learner code: if the standard library's zip in `FS` (the
 * one .zip in /lib) is the empty one, have it filled from `url` when it is first read.
 */
export function watchStdlib(FS, url) {
  const name = FS.readdir("/lib").find((entry) => entry.endsWith(".zip"));
  const { node } = FS.lookupPath(`/lib/${name}`);
  if (node.usedBytes > 0) return; // Python booted fresh, with the zip itself
  const reading = node.stream_ops;
  late = { FS, node, reading, url };
  const filledFirst = (operation) => (...args) => {
    fillNow();
    return reading[operation](...args);
  };
  node.stream_ops = { ...reading, read: filledFirst("read"), llseek: filledFirst("llseek"), mmap: filledFirst("mmap") };
}

/** Download the zip in the background, if it is still to come (the page has painted a result). */
export function downloadStdlib() {
  if (!late || late.downloading) return;
  late.downloading = fetchAnything(late.url)
    .then((response) => (response.ok ? response.arrayBuffer() : null))
    .then((bytes) => bytes && fill(new Uint8Array(bytes)))
    .catch(() => {}); // fetched synchronously when read, then
}

/** The zip, now: Python is reading it. One that cannot be had fails the read with an
 *  I/O error, and the console says why; the next read asks for it again. */
function fillNow() {
  if (!late) return;
  const { FS, url } = late;
  const request = new Synchronous();
  request.open("GET", url, false);
  request.responseType = "arraybuffer";
  let why;
  try {
    request.send();
    if (request.status === 200) return fill(new Uint8Array(request.response));
    why = `HTTP ${request.status}`;
  } catch (error) {
    why = error.message;
  }
  warn(`Python's standard library ${url} could not be downloaded: ${why}`);
  throw new FS.ErrnoError(EIO);
}

function fill(bytes) {
  if (!late) return;
  const { node, reading } = late;
  late = null;
  node.contents = bytes;
  node.usedBytes = bytes.length;
  node.stream_ops = reading;
}
