// The page's hold on a run's steps (a step: a series' next point, or a picture's next
// draw: playground_runner/plots.py), so that a learner can pause training, step it, and
// watch it at a pace of a few steps a second.
//
// One Int32 of memory shared with the worker: how many more steps the run may begin
// (UNLIMITED: all; 0: none, until the page gives one). Python asks as each step begins;
// it takes one, or waits (Atomics.wait, which a worker may do) until the page gives one
// or Stop writes its interrupt. Python really waits there: nothing of the run goes on.
// Where the page cannot share memory with the worker (no cross-origin isolation, or
// WebKitGTK, which has no SharedArrayBuffer), there is no gate: runs go at full speed.

const STEPS = 0;
export const UNLIMITED = -1;
const LOOK_AT_STOP_MS = 50; // a waiting step looks at Stop's interrupt this often, too

/** A gate for a new worker, or null where the page cannot share memory with it. */
export function newGate() {
  if (!globalThis.crossOriginIsolated || typeof SharedArrayBuffer !== "function") return null;
  return new Int32Array(new SharedArrayBuffer(4));
}

/** The page's side: the run may begin `steps` more steps (UNLIMITED: all). */
export function openGate(gate, steps) {
  Atomics.store(gate, STEPS, steps);
  Atomics.notify(gate, STEPS);
}

// The worker's side runs next to learner code, which can reach every built-in: what
// it uses is taken as this module loads.
const { compareExchange, load, wait } = Atomics;

/**
 * The worker's side: `pace(block)`, which plots.py calls as a step begins. True once the
 * step may begin (a step taken from the gate, or Stop's interrupt written: Python then
 * stops at once); false, when `block` is false, if it would have to wait.
 */
export function paceOf(gate, interrupt) {
  return (block) => {
    for (;;) {
      const steps = load(gate, STEPS);
      if (steps < 0) return true;
      if (steps > 0) {
        if (compareExchange(gate, STEPS, steps, steps - 1) === steps) return true;
        continue; // the page changed it meanwhile: read it again
      }
      if (!block) return false;
      if (interrupt && interrupt[0] !== 0) return true;
      wait(gate, STEPS, 0, LOOK_AT_STOP_MS);
    }
  };
}
