// One Python runtime (a module worker running Pyodide) shared by every
// playground on the page. Runs queue here, one in flight at a time, so a Stop
// only ever affects its own run.
//
// Stop comes in tiers: with cross-origin isolation, an interrupt buffer raises
// KeyboardInterrupt in Python (written again every 50 ms, since a single write
// can be missed); without isolation, or if Python has not stopped within
// STOP_GRACE_MS, the worker is terminated and a fresh one started. A worker
// that crashes is replaced the same way; the queued runs go on in the new one.
//
// The worker starts on the first start() or run(), not before: a page of many
// playgrounds downloads Python only once one of them is wanted.

import { moduleWorker } from "./module-worker.js";

const STOP_GRACE_MS = 2000;
const INTERRUPT_EVERY_MS = 50;
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
    this.ready = false;
    this.worker = null;
  }

  /** True when Stop can interrupt Python rather than restart it. */
  get interruptible() {
    return Boolean(this.buffer);
  }

  /** Start Python, once; later calls do nothing. */
  start() {
    if (this.worker) return;
    this.setPhase("loading Python");
    this.spawn();
  }

  spawn() {
    this.ready = false;
    this.buffer = interruptBuffer();
    this.worker = moduleWorker(this.workerUrl, "python");
    this.worker.addEventListener("message", (event) => this.receive(event.data));
    this.worker.addEventListener("error", (event) =>
      this.fail(`the Python worker failed to start: ${event.message ?? "unknown error"}`),
    );
    this.worker.postMessage({ type: "boot", interrupt: this.buffer });
  }

  /**
   * Queue `code`; `onOutput(stream, text)` receives its output as it comes.
   * Returns a job whose `started` promise resolves when Python begins running
   * it (runs queue) and whose `done` promise resolves to runner.py's result.
   */
  run(code, onOutput) {
    const job = { id: ++this.lastId, code, onOutput };
    job.started = new Promise((resolve) => (job.begin = resolve));
    job.done = new Promise((resolve) => (job.resolve = resolve));
    this.queue.push(job);
    this.start();
    this.pump();
    return job;
  }

  stop(job) {
    if (job !== this.current) {
      this.queue = this.queue.filter((queued) => queued !== job);
      job.resolve(stopped());
      return;
    }
    if (job.stopping) return;
    job.stopping = true;
    if (!this.buffer) return this.restart();
    const signal = () => (this.buffer[0] = SIGINT);
    signal();
    job.timers = [
      setInterval(signal, INTERRUPT_EVERY_MS),
      setTimeout(() => this.restart(), STOP_GRACE_MS),
    ];
  }

  pump() {
    if (this.current || !this.ready || this.queue.length === 0) return;
    this.current = this.queue.shift();
    const { id, code } = this.current;
    this.worker.postMessage({ type: "run", id, code });
    this.current.begin();
  }

  finish(result) {
    const job = this.current;
    this.current = null;
    for (const timer of job.timers ?? []) clearTimeout(timer);
    job.resolve(result);
    this.pump();
  }

  /**
   * Replace the worker with a fresh one. The run in it ends with `result`; the
   * queued runs wait for the new worker (which is not ready yet, so none is
   * sent to the old one).
   */
  restart(result = stopped()) {
    this.worker.terminate();
    this.spawn();
    this.setPhase("restarting Python");
    if (this.current) this.finish(result);
  }

  /** The worker broke: during a run, that run ends in error and a fresh worker takes over. */
  fail(message) {
    if (this.current) {
      const cause = message.trim().split("\n")[0]; // the rest is the worker's stack
      const error = `Python crashed and was restarted: ${cause}\n`;
      this.restart({ status: "error", error, line: null, tables: [] });
    } else {
      this.setPhase(`failed: ${message}`);
      for (const job of this.queue.splice(0)) job.resolve(stopped());
    }
  }

  receive(message) {
    if (message.type === "phase") {
      this.setPhase(message.phase);
    } else if (message.type === "ready") {
      this.ready = true;
      this.setPhase("ready");
      this.pump();
    } else if (message.type === "output" && message.id === this.current?.id) {
      for (const [stream, text] of JSON.parse(message.batch)) this.current.onOutput(stream, text);
    } else if (message.type === "result" && message.id === this.current?.id) {
      this.finish(JSON.parse(message.result));
    } else if (message.type === "failed") {
      this.fail(message.message);
    }
  }

  setPhase(phase) {
    this.phase = phase;
    this.dispatchEvent(new Event("phase"));
  }
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

function stopped() {
  return { status: "stopped", error: null, line: null, tables: [] };
}

let shared = null;

/** The page's one runtime, created on first use and started on its first start() or run(). */
export function sharedRuntime(workerUrl) {
  shared ??= new Runtime(workerUrl);
  return shared;
}
