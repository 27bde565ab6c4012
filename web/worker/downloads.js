// What Python's first start downloads, counted as the bytes arrive, for the page's
// progress bar: each file by its path in the site, of the size site.json gives it
// (build.py knows them), else as its response's Content-Length says. The count is
// told at most every REPORT_EVERY_MS (a slow link delivers a chunk every few
// milliseconds), and `done` is called once, when every file expected is in.

const REPORT_EVERY_MS = 100;

export class Downloads {
  /**
   * @param {(received: number, total: number) => void} report  the bytes so far, and of all
   * @param {() => void} done  every file is in (or Python started without waiting for them)
   */
  constructor(report, done) {
    this.files = new Map(); // path -> {size, received, finished}
    this.sizes = {};
    this.named = false; // whether every file to download has been expected
    this.stopped = false;
    this.timer = null;
    this.report = report;
    this.done = done;
    this.lastByteAt = performance.now(); // when a byte (or a response) of any file last came
  }

  /** The files' sizes, by their path: site.json's `sizes`. */
  setSizes(sizes) {
    this.sizes = sizes ?? {};
    this.changed();
  }

  /** A file this start downloads; its bytes come through count(), add() or arrived(). */
  expect(path) {
    if (!this.files.has(path)) this.files.set(path, { size: null, received: 0, finished: false });
  }

  /** A file expected that is not downloaded after all (an earlier load kept it). */
  drop(path) {
    this.files.delete(path);
    this.changed();
  }

  /** Every file has been expected: once they are all in, downloads are done. */
  allExpected() {
    this.named = true;
    this.changed();
  }

  /**
   * `response` (a promise of the fetch of `path`), whose body is counted as it arrives
   * from a clone (the response itself stays as it came, for compileStreaming and its cache).
   */
  count(path, response) {
    if (this.stopped) return response;
    this.expect(path);
    return response.then((answer) => {
      this.lastByteAt = performance.now();
      const file = this.files.get(path);
      if (!answer.ok || !answer.body || file.finished) {
        this.finished(path);
        return answer;
      }
      file.size ??= Number(answer.headers.get("Content-Length")) || null;
      const reader = answer.clone().body.getReader();
      const read = () =>
        reader.read().then(({ done, value }) => {
          if (done) return this.finished(path);
          this.add(path, value.byteLength);
          return read();
        });
      read().catch(() => this.finished(path));
      return answer;
    });
  }

  /** `bytes` more of `path` have arrived. */
  add(path, bytes) {
    this.lastByteAt = performance.now();
    const file = this.files.get(path);
    if (!file || file.finished) return;
    file.received += bytes;
    this.changed();
  }

  /** All of `path` has arrived at once (a module import, whose bytes cannot be counted). */
  arrived(path) {
    this.lastByteAt = performance.now();
    const file = this.files.get(path);
    if (file) file.received = this.sizeOf(path, file) ?? file.received;
    this.finished(path);
  }

  /** `path` is in, or will not come (its request failed: the start says so). */
  finished(path) {
    const file = this.files.get(path);
    if (!file || file.finished) return;
    file.finished = true;
    this.changed();
  }

  /** Python has started, so whatever is still downloading was not needed for that. */
  finish() {
    if (this.stopped) return;
    this.stop();
    this.done();
  }

  /** Tell nothing more (Python is up, or this worker downloads nothing: a restart). */
  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  sizeOf(path, file) {
    const size = this.sizes[path];
    return Number.isSafeInteger(size) && size > 0 ? size : file.size;
  }

  changed() {
    if (this.stopped) return;
    const files = [...this.files.values()];
    if (this.named && files.every((file) => file.finished)) return this.finish();
    this.timer ??= setTimeout(() => {
      this.timer = null;
      if (!this.stopped) this.tell();
    }, REPORT_EVERY_MS);
  }

  tell() {
    let received = 0;
    let total = 0;
    for (const [path, file] of this.files) {
      const size = this.sizeOf(path, file) ?? file.received;
      received += Math.min(file.received, size);
      total += size;
    }
    this.report(received, total);
  }
}
