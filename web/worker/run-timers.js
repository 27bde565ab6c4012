// Timers and callbacks a run sets end with it. Learner code reaches the worker's
// setTimeout and setInterval (`js.setTimeout`), and Pyodide's asyncio loop waits with
// setTimeout too; it hands JavaScript Python functions to call later (PyProxies:
// `create_proxy(f)`, `promise.then(f)`, a task awaiting a promise, a MessagePort's
// `onmessage = f`). A callback that ran after its run could change what a later run,
// maybe another playground's, finds (`math.tanh` made to return 42) or print into it.
// So while a run is in progress, every timer set is noted, and Pyodide notes every
// PyProxy made (its allocation tracing); when the run ends, each timer is cleared and
// each of its PyProxies still alive is destroyed: a callback of an ended run never
// executes. (JavaScript that calls a destroyed proxy gets an error, which the worker
// keeps to itself: it is no failure of the worker's.) So is each of the other functions
// Pyodide made in the run that hold a Python object until JavaScript's collector frees
// them (its "once callables": asyncio's waits, a promise's handlers), which Pyodide
// registers for finalization: else the object, a pending task say, would be freed at
// some later time, its coroutine's `finally` or its `__del__` running then, outside
// any run. The runner has this done before it puts Python back (end_callbacks), so
// they run inside the run.
//
// scopeTimers() puts the worker's own setTimeout and setInterval in place of the
// built-ins, before any learner code runs (and before realm.js takes the built-ins as
// they are); timers set outside a run (the worker's own) are as the built-ins' are.

const apply = Reflect.apply;
const nativeClear = clearTimeout; // clears an interval too: they share their ids
const setAdd = Set.prototype.add;
const setDelete = Set.prototype.delete;
const setValues = Set.prototype.values;
const mapKeys = Map.prototype.keys;
const mapClear = Map.prototype.clear;
// Pyodide's errors for a call of a destroyed PyProxy, and of a destroyed once callable
const DESTROYED = ["Object has already been destroyed", "OnceProxy can only be called once"];
const indirectEval = eval;

let running = null; // the run in progress: {ids, ended}
let proxies = null; // Pyodide's tracing of the PyProxies made, and the map it fills

/** Put the scoped setTimeout and setInterval in the worker's global scope, and take
 * Pyodide's PyProxy tracing from `module` (Pyodide's Emscripten module). */
export function scopeTimers(module) {
  proxies = {
    module,
    trace: module.enable_pyproxy_allocation_tracing,
    untrace: module.disable_pyproxy_allocation_tracing,
    made: module.pyproxy_alloc_map,
  };
  const registry = module.finalizationRegistry;
  const { register, unregister } = registry;
  module.finalizationRegistry = {
    register(target, held, token) {
      if (running && token) apply(setAdd, running.registered, [token]);
      return apply(register, registry, [target, held, token]);
    },
    unregister(token) {
      if (running) apply(setDelete, running.registered, [token]);
      return apply(unregister, registry, [token]);
    },
  };
  addEventListener("error", (event) => {
    const message = event.message;
    if (typeof message === "string" && DESTROYED.some((text) => message.includes(text))) {
      event.preventDefault();
    }
  });
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
  running = { ids: new Set(), registered: new Set(), ended: false };
  apply(mapClear, proxies.made, []);
  apply(proxies.trace, proxies.module, []);
}

/** The run has ended: clear the timers it set and destroy the PyProxies it left, which
 * will never call back. */
export function runEnds() {
  const run = running;
  if (!run) return;
  for (const id of apply(setValues, run.ids, [])) nativeClear(id);
  run.ended = true;
  running = null;
  apply(proxies.untrace, proxies.module, []);
  const made = [...apply(mapKeys, proxies.made, []), ...apply(setValues, run.registered, [])];
  apply(mapClear, proxies.made, []);
  for (const each of made) {
    try {
      if (typeof each?.destroy === "function") each.destroy();
    } catch {
      // destroyed already (by the run itself, untraced, or as a PyProxy just before)
    }
  }
}
