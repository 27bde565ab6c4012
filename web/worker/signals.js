// What Python reads as its signals. Every so many bytecodes, CPython's Emscripten build
// reads index 0 of Pyodide's interrupt buffer as a signal number to raise (0: none), then
// writes 0 there. The worker hands Pyodide this object as that buffer: it reads the
// page's Stop (SIGINT) from the buffer the page shares, where the page is cross-origin
// isolated; and every TICK_MS it gives a tick, SIGUSR1, on which the runner sends what
// the code printed since its last batch (playground_runner/output.py), and `onTick` sends
// what the worker holds (outbox.js). So a run that prints, then computes for long, shows
// what it printed while it computes, the start of a line too, with or without isolation.
// Outside a run, Python ignores the tick (its handler is the default one).
//
// Every function used here is taken as this module loads, before any learner code.

export const TICK_MS = 50;
const TICK = 10; // SIGUSR1, as the runner's handler of it is set (output.py's TICK)
const clock = Function.prototype.call.bind(Performance.prototype.now, performance);

/** The interrupt buffer for Pyodide: `interrupt` (the page's, or null) with ticks. */
export function signals(interrupt, onTick) {
  let next = 0;
  return {
    get 0() {
      const stop = interrupt ? interrupt[0] : 0;
      if (stop) return stop;
      const now = clock();
      if (now < next) return 0;
      next = now + TICK_MS;
      onTick();
      return TICK;
    },
    set 0(value) {
      if (interrupt) interrupt[0] = value;
    },
  };
}
