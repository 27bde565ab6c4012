// Python's first runs on a fresh page take several times as long as later ones. V8 first
// runs a WebAssembly module on code compiled in one quick pass, and optimizes a function
// only once it has run for a while. In Chromium, the chapter's example took 5-15 ms a run
// for about its first 25 runs, and 2-3 ms after; with the quick pass turned off
// (--no-liftoff), it took 3 ms from the second run on. So once Python is up, the worker
// runs the chapter's example WARM_RUNS times, with its output unseen, while the page is
// quiet: a run only after IDLE_MS without a message from the page (the learner reading,
// not stepping a number), each queued behind what the page sent, so that a run of the
// learner's waits for one warm-up run at most. Each shows in the worker's performance
// timeline as a "python warm-up run". A restarted worker skips all this: it reuses the
// module of the worker before, which is optimized by then.

export const WARM_RUNS = 40;
export const IDLE_MS = 250;
export const MEASURE_NAME = "python warm-up run";

// Taken before any learner code runs, which can reach the worker's built-ins.
const now = performance.now.bind(performance);
const measure = performance.measure.bind(performance);
const later = setTimeout;

export class WarmUp {
  /**
   * @param {(task: () => void) => void} enqueue queues a task behind the page's messages
   * @param {() => void} runUnseen runs the example as a learner's run, its output ignored
   */
  constructor(enqueue, runUnseen) {
    Object.assign(this, { enqueue, runUnseen, left: WARM_RUNS, heardAt: now() });
  }

  /** Start warming up, once the page has been quiet for IDLE_MS. */
  start() {
    this.wait(IDLE_MS);
  }

  /** The page sent a message: no warm-up run for IDLE_MS. */
  heard() {
    this.heardAt = now();
  }

  wait(ms) {
    later(() => this.enqueue(() => this.step()), ms);
  }

  /** One run, if the page has been quiet long enough (else wait until it has). */
  step() {
    const quiet = now() - this.heardAt;
    if (quiet < IDLE_MS) return this.wait(IDLE_MS - quiet);
    const start = now();
    this.runUnseen();
    measure(MEASURE_NAME, { start });
    if (--this.left > 0) this.wait(0);
  }
}
