// Timers a run sets end with it. Learner code reaches the worker's setTimeout and
// setInterval (`js.setTimeout`), and Pyodide's asyncio loop waits with setTimeout too:
// a callback that fired after its run could change what a later run, maybe another
// playground's, finds (`math.tanh` made to return 42) or print into it. So while a
// run is in progress, every timer set is noted; when it ends, each is cleared, and a
// callback of an ended run never executes.
//
// scopeTimers() puts the worker's own setTimeout and setInterval in place of the
// built-ins, before any learner code runs (and before realm.js takes the built-ins as
// they are); timers set outside a run (the worker's own) are as the built-ins' are.

const apply = Reflect.apply;
const nativeClear = clearTimeout; // clears an interval too: they share their ids
const setAdd = Set.prototype.add;
const setDelete = Set.prototype.delete;
const setValues = Set.prototype.values;
const indirectEval = eval;

let running = null; // the run in progress: {ids, ended}

/** Put the scoped setTimeout and setInterval in the worker's global scope. */
export function scopeTimers() {
  for (const name of ["setTimeout", "setInterval"]) {
    const native = globalThis[name];
    const once = name === "setTimeout";
    globalThis[name] = function (callback, ms, ...args) {
      const run = running;
      if (!run) return apply(native, globalThis, [callback, ms, ...args]);
      const code = typeof callback === "function" ? callback : () => indirectEval(String(callback));
      let id;
      const fire = (...given) => {
        if (run.ended) return;
        if (once) apply(setDelete, run.ids, [id]);
        return apply(code, globalThis, given);
      };
      id = apply(native, globalThis, [fire, ms, ...args]);
      apply(setAdd, run.ids, [id]);
      return id;
    };
  }
}

/** A run starts: the timers set from now on are its own. */
export function runStarts() {
  running = { ids: new Set(), ended: false };
}

/** The run has ended: clear the timers it set, which will never call back. */
export function runEnds() {
  if (!running) return;
  for (const id of apply(setValues, running.ids, [])) nativeClear(id);
  running.ended = true;
  running = null;
}
