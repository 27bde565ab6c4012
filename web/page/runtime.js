// One Python runtime (a module worker running Pyodide) shared by every
// playground on the page. Runs queue here, one in flight at a time, so a Stop
// only ever affects its own run.
//
// Stop comes in tiers: with cross-origin isolation, an interrupt buffer raises
// KeyboardInterrupt in Python (written again every 50 ms, since a single write
// can be missed); without isolation, or if Python has not stopped within
// deadlines.stopGraceMs, the worker is terminated and a fresh one started, handed
// the wasm the last one compiled (it restores Python without compiling it) and,
// where every Stop restarts Python (no interrupt buffer), the memory the last one
// restored Python from (31 MB, kept here: no download or inflate either).
// A worker that crashes is replaced the same way; the queued runs go on in the new one.
// Once Python is up and idle, the site's service worker is registered, which
// keeps Pyodide's script compiled for the next load (script-cache.js).
//
// The worker starts on the first start() or run(), not before: a page of many
// playgrounds downloads Python only once one of them is wanted. A worker that
// falls silent while it starts (deadlines.bootStallMs) is replaced by a fresh
// one; if that stalls too, Python could not start. Once Python could not start, a
// run ends at once saying why, and retry() starts it again.
// While a first worker downloads Python, it tells how much has arrived
// (`progress`, a "progress" event here), then the phase "starting Python".
//
// Learner code runs in the worker, so the page trusts none of it: the worker
// talks over a MessagePort only the two of them hold (and, once Python is ready,
// through a mailbox of shared memory where the page can have one, which a key's
// press does not hold back: ../shared/mailbox.js), every message is
// checked (protocol.js), only the run in flight gets output and a result, and
// a malformed message ends that run as an error in a fresh worker.
// Where memory is shared, the page also holds how many steps of plot() a run may begin
// (pace(): pause, step, a pace; ../shared/pace-gate.js): a run begins with its job's
// `firstSteps` (all, unless the playground paces it), and a Stop lets every step go. A run's
// result counts once the worker answers a ping after it: a worker the code
// closed (`js.close()`) answers nothing, and is replaced. The ping goes with
// the run (the worker answers it in a task of its own once the run is over),
// so a run costs one trip through the page's busy main thread, not two. Once the page
// has painted a result, it tells the worker to put back the standard library (which
// the worker does before the next run, if that comes first): on two cores, that
// check would otherwise slow the painting of the result.
// A table of a long Backward comes without its steps (stepsLater): the stepper asks for
// them (steps()) as the learner starts its replay, of the worker that ran it, which holds
// those of its last run alone. The tables of code that ended without error come ahead of
// the result, as soon as they are made (onTables), so that the page paints them while the
// worker frees what the run left and puts Python back.

import { deadlines } from "./deadlines.js";
import { newMailbox, readMailbox } from "../shared/mailbox.js";
import { moduleWorker } from "../shared/module-worker.js";
import { newGate, openGate, UNLIMITED } from "../shared/pace-gate.js";
import { checkMessage, countOutput, Malformed, parseBatch, parsePlots, parseResult, parseSteps, parseTables } from "./protocol.js";
import { keepScriptsForNextLoad, pythonWorkerUrl } from "./script-cache.js";

const INTERRUPT_EVERY_MS = 50;
const STALL_CHECK_MS = 1000;
// The page's build (build.py), which every worker it starts must be of.
const NEW_VERSION = "a new version of the playground is on the site: reload the page to use it";
const SIGINT = 2;

export class Runtime extends EventTarget {
  /** @param {URL} workerUrl the worker module, resolved relative to the page's script */
  constructor(workerUrl) {
    super();
    this.workerUrl = workerUrl;
    this.queue = [];
    this.current = null;
    this.lastId = 0;
    this.phase = "idle";
    this.progress = null; // {received, total}: Python's files' bytes, while they download
    this.ready = false;
    this.worker = null;
    this.startFailure = null; // why Python could not start, until retry()
    this.wasm = null;
    this.memory = null;
    this.stalls = 0; // starts in a row that fell silent
    this.mailbox = null; // {close, take} (../shared/mailbox.js), where the page has one
    this.framing = false; // taking the mailbox's messages at each frame too
    this.later = new WeakMap(); // table -> {id, index, port}: a result's, its steps to ask for
    this.asked = new Map(); // "id table" -> {table, resolve}: the steps asked for, on their way
  }

  /** True when Stop can interrupt Python rather than restart it. */
  get interruptible() {
    return Boolean(this.buffer);
  }

  /** True when the page can pause a run's steps (pace()). */
  get paceable() {
    return Boolean(this.gate);
  }

  /** Let `job`, if it is the run in flight, begin `steps` more steps (UNLIMITED: all). */
  pace(job, steps) {
    if (this.gate && job === this.current && !job.stopping) openGate(this.gate, steps);
  }

  /** True when Python has no run in flight or queued. */
  get idle() {
    return !this.current && this.queue.length === 0;
  }

  /** Resolves once Python has no run in flight or queued (at once if it has none). */
  whenIdle() {
    if (this.idle) return Promise.resolve();
    return new Promise((resolve) => this.addEventListener("idle", resolve, { once: true }));
  }

  /** Tell whoever waits for Python to have nothing to do, if it has nothing. */
  noteIdle() {
    if (this.idle) this.dispatchEvent(new Event("idle"));
  }

  /** Start Python, once; later calls do nothing. */
  start() {
    if (this.worker) return;
    this.setPhase("loading Python");
    this.spawn();
  }

  spawn() {
    this.ready = false;
    this.spawnedAt = this.heardAt = performance.now();
    clearInterval(this.stallCheck);
    this.stallCheck = setInterval(() => this.checkStall(), STALL_CHECK_MS);
    this.buffer = interruptBuffer();
    this.gate = this.buffer && newGate();
    // A worker that is handed on what the one before had learns so from its name,
    // at once: the boot message can come only after it has streamed in its wasm.
    this.worker = moduleWorker(pythonWorkerUrl(this.workerUrl), this.wasm ? "python (restarted)" : "python");
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.port.onmessage = (event) => this.receive(event.data);
    this.mailbox?.close();
    const mailbox = newMailbox();
    this.mailbox = mailbox && readMailbox(mailbox, (message) => this.receive(message));
    this.worker.addEventListener("error", (event) =>
      this.fail(`the Python worker failed to start: ${event.message ?? "unknown error"}`),
    );
    const { wasm, memory } = this;
    this.memory = null; // the worker's now, until it hands it back
    const boot = {
      type: "boot", port: port2, interrupt: this.buffer, mailbox, gate: this.gate, wasm, memory, build: BUILD_ID,
      snapshotStallMs: deadlines.snapshotStallMs,
    };
    this.worker.postMessage(boot, memory ? [port2, memory] : [port2]);
  }

  /**
   * Queue `code`, then the exercise's `checks` (Python texts, run on what the code
   * leaves); `onOutput(stream, text)` receives its output as it comes, and
   * `onPlots(batch)` what it plots (protocol.js's parsePlots); it may begin
   * `firstSteps` steps of its plots (UNLIMITED: all) before the page says more (pace()).
   * `onTables(tables)` gets the tables of code that ended without error as soon as they
   * come, ahead of the result (which has them too).
   * Returns a job whose `started` promise resolves when Python begins running
   * it (runs queue) and whose `done` promise resolves to the runner's result.
   */
  run(code, onOutput, checks = [], onPlots = () => {}, firstSteps = UNLIMITED, onTables = () => {}) {
    const plotted = { series: new Map(), pictures: new Set() };
    const job = {
      id: ++this.lastId, code, checks, onOutput, onPlots, onTables, plotted, firstSteps, sent: { chars: 0, lines: 0 }, timers: [],
    };
    job.started = new Promise((resolve) => (job.begin = resolve));
    job.done = new Promise((resolve) => (job.resolve = resolve));
    if (this.startFailure) {
      job.resolve(couldNotStart(this.startFailure)); // nothing to wait for, until retry()
      return job;
    }
    this.queue.push(job);
    this.start();
    this.pump();
    return job;
  }

  stop(job) {
    if (job !== this.current) {
      this.queue = this.queue.filter((queued) => queued !== job);
      job.resolve(stopped());
      this.noteIdle();
      return;
    }
    if (job.stopping) return;
    job.stopping = true;
    if (!this.buffer) return this.restart();
    const signal = () => (this.buffer[0] = SIGINT);
    signal();
    if (this.gate) openGate(this.gate, UNLIMITED); // a step that waits goes on, and stops
    job.timers.push(
      setInterval(signal, INTERRUPT_EVERY_MS),
      setTimeout(() => this.restart(), deadlines.stopGraceMs),
    );
  }

  pump() {
    if (this.current || !this.ready || this.queue.length === 0) return;
    this.current = this.queue.shift();
    const { id, code, checks, firstSteps } = this.current;
    if (this.gate) openGate(this.gate, firstSteps);
    this.port.postMessage({ type: "run", id, code, checks });
    this.port.postMessage({ type: "ping", id });
    this.current.begin();
    this.takeEachFrame();
  }

  /** While a run is in flight, what the worker said is also taken as each frame starts,
   *  so that a result in by then is painted in that frame (mailbox.js). */
  takeEachFrame() {
    if (this.framing || !this.mailbox) return;
    this.framing = true;
    const frame = () => {
      this.mailbox?.take();
      if (this.current && this.mailbox) requestAnimationFrame(frame);
      else this.framing = false;
    };
    requestAnimationFrame(frame);
  }

  finish(result) {
    const job = this.current;
    this.current = null;
    for (const timer of job.timers) clearTimeout(timer);
    job.resolve(result);
    this.tidyAfterPaint();
    this.pump();
    this.noteIdle();
  }

  /**
   * The Backward steps of `table`, a result's whose stepsLater says they come later:
   * a promise of {steps, noSteps}, as the worker that ran it makes them, once.
   */
  steps(table) {
    const later = this.later.get(table);
    if (!later) return Promise.resolve(gone());
    later.steps ??= new Promise((resolve) => {
      if (later.port !== this.port) return resolve(gone()); // Python was restarted since
      this.asked.set(`${later.id} ${later.index}`, { table, resolve });
      this.port.postMessage({ type: "steps", id: later.id, table: later.index });
    });
    return later.steps;
  }

  /** Ask the worker to put back the standard library once the result just in is painted. */
  tidyAfterPaint() {
    const port = this.port; // a worker started meanwhile has nothing to put back
    requestAnimationFrame(() => setTimeout(() => port.postMessage({ type: "tidy" })));
  }

  /** Start Python again, if it could not start; else nothing. */
  retry() {
    if (this.startFailure) this.restart(undefined, "loading Python again");
  }

  /**
   * Replace the worker with a fresh one. The run in it ends with `result`; the
   * queued runs wait for the new worker (which is not ready yet, so none is
   * sent to the old one).
   */
  restart(result = stopped(), phase = "restarting Python") {
    this.startFailure = null;
    for (const { resolve } of this.asked.values()) resolve(gone());
    this.asked.clear();
    this.dropWorker();
    this.spawn();
    this.setPhase(phase);
    // Tables the run sent before it had to be ended stay shown: its code ended without
    // error (a Stop that Python did not answer in time, say, while what it left was freed).
    if (this.current) this.finish({ ...result, tables: this.current.tables ?? result.tables });
  }

  /**
   * The run reached into the playground itself (a frame, ctypes, the worker's
   * JavaScript: `reached`, as the worker's guard said): nothing in that worker can
   * be trusted, so its verdict does not count, and the next run starts in a fresh one.
   */
  freshAfter(result, reached) {
    const why = `the last run reached into the playground itself: ${reached[0]}`;
    this.restart({ ...result, check: null, reached }, `starting a fresh Python (${why})`);
  }

  /** End the worker and stop hearing it: nothing it says after this counts. */
  dropWorker() {
    this.worker.terminate();
    this.port.close();
    this.mailbox?.close();
    this.mailbox = null;
  }

  /** The worker broke: during a run, that run ends in error and a fresh worker takes over. */
  fail(message) {
    const cause = message.trim().split("\n")[0].replace(/^Error: /, ""); // the rest: the worker's stack
    if (this.current) {
      const error = `Python crashed and was restarted: ${cause}\n`;
      this.restart({ status: "error", error, line: null, tables: [] });
    } else {
      // Python could not start: the runs waiting for it end, saying so, as do the
      // runs asked for until retry() starts it again in a fresh worker.
      this.startFailure = cause;
      this.dropWorker(); // nothing more of it counts (a late phase would hide Retry)
      clearInterval(this.stallCheck);
      this.stalls = 0;
      this.setPhase(`failed: ${cause}`);
      for (const job of this.queue.splice(0)) job.resolve(couldNotStart(cause));
      this.noteIdle();
    }
  }

  /** A worker silent for deadlines.bootStallMs while it starts is replaced, once in a row;
   *  a second silent start is a failure to start. */
  checkStall() {
    if (this.ready) return clearInterval(this.stallCheck);
    const silentMs = performance.now() - this.heardAt;
    if (silentMs < deadlines.bootStallMs) return;
    const silent = `nothing came from it for ${Math.round(silentMs / 1000)} s`;
    if (++this.stalls === 1) {
      console.warn(`Python stalled as it started (${silent}): starting it again`);
      this.restart(undefined, "starting Python again (the last start stalled)");
    } else {
      this.fail(`Python stalled as it started, twice (${silent})`);
    }
  }

  /** A message from the worker; one that breaks the protocol ends the run in a fresh worker. */
  receive(message) {
    try {
      this.handle(message);
    } catch (error) {
      if (!(error instanceof Malformed)) throw error;
      const text = `the run's output was malformed (${error.message}), so Python was restarted\n`;
      this.restart({ status: "error", error: text, line: null, tables: [] });
    }
  }

  handle(message) {
    checkMessage(message);
    this.heardAt = performance.now();
    const { type, id } = message;
    const job = this.current;
    if ((type === "progress" || type === "phase" || type === "ready") && this.ready) {
      throw new Malformed(`"${type}" after Python was ready`);
    } else if (type === "progress") {
      this.progress = { received: Math.min(message.received, message.total), total: message.total };
      this.dispatchEvent(new Event("progress"));
    } else if (type === "phase") {
      this.setPhase(message.phase);
    } else if (type === "ready" && message.build !== BUILD_ID) {
      this.fail(NEW_VERSION); // a worker of another build: nothing of it is run or kept
    } else if (type === "ready") {
      this.ready = true;
      this.stalls = 0;
      this.wasm = message.wasm ?? this.wasm; // for the next worker's Python
      this.memory = message.memory;
      this.setPhase("ready");
      this.pump();
      this.whenIdle().then(() => keepScriptsForNextLoad(this.workerUrl));
    } else if (type === "failed") {
      this.fail(message.message);
    } else if (type === "steps") {
      const key = `${id} ${message.table}`;
      const asked = this.asked.get(key);
      if (!asked) throw new Malformed("steps that were not asked for");
      asked.resolve(parseSteps(message.steps, asked.table)); // malformed: restart() resolves it
      this.asked.delete(key);
    } else if (!job || id !== job.id || (type === "pong") !== Boolean(job.answer)) {
      // Output, tables and the result belong to the run in flight, before its result; a
      // pong, after.
      throw new Malformed(`a "${type}" message for no run in progress`);
    } else if (type === "tables") {
      if (job.tables) throw new Malformed("a run's tables, twice");
      job.tables = this.keepLater(parseTables(message.tables), id);
      job.onTables(job.tables);
    } else if (type === "output") {
      const pairs = parseBatch(message.batch);
      countOutput(job.sent, pairs);
      for (const [stream, text] of pairs) job.onOutput(stream, text);
    } else if (type === "plots") {
      job.onPlots(parsePlots(message.batch, job.plotted));
    } else if (type === "result") {
      job.answer = parseResult(message.result);
      if (job.tables && job.answer.tables.length) throw new Malformed("a run's tables, twice");
      job.answer.tables = job.tables ?? this.keepLater(job.answer.tables, id);
      if (message.reached.length) return this.freshAfter(job.answer, message.reached);
      job.timers.push(setTimeout(() => this.restart(unanswered()), deadlines.pingMs));
    } else {
      this.finish(job.answer);
    }
  }

  /** Note which of run `id`'s `tables` have their steps to come (steps()); `tables`. */
  keepLater(tables, id) {
    tables.forEach((t, index) => t.stepsLater !== null && this.later.set(t, { id, index, port: this.port }));
    return tables;
  }

  setPhase(phase) {
    this.phase = phase;
    this.progress = null;
    this.dispatchEvent(new Event("phase"));
  }
}

/** The result of a run asked for when Python could not start, for `cause`. */
function couldNotStart(cause) {
  const error = `Python could not start: ${cause}\nPress Retry to start it again.\n`;
  return { status: "error", error, line: null, tables: [] };
}

function unanswered() {
  const error = "Python stopped answering and was restarted (did the code close its worker, with js.close()?)\n";
  return { status: "error", error, line: null, tables: [] };
}

/**
 * The Int32Array that Stop writes to and Python reads, on memory shared with the
 * worker; null where there is none. Cross-origin isolation alone is not enough:
 * WebKitGTK reports `crossOriginIsolated` but has no SharedArrayBuffer
 * constructor (nor can it post one to a worker), so there Stop restarts Python.
 */
function interruptBuffer() {
  if (!globalThis.crossOriginIsolated || typeof SharedArrayBuffer !== "function") return null;
  return new Int32Array(new SharedArrayBuffer(4));
}

/** What the steps of a table of a worker that is gone say. */
function gone() {
  return { steps: null, noSteps: "Python was restarted since its run: run the code again to replay it" };
}

function stopped() {
  return { status: "stopped", error: null, line: null, tables: [] };
}

let shared = null;

/** The page's one runtime, created on first use and started on its first start() or run(). */
export function sharedRuntime(workerUrl) {
  shared ??= new Runtime(workerUrl);
  return shared;
}
