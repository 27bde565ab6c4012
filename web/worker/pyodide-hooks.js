// What this worker installs into Pyodide and hands the runner. Once Python is up, and
// before any learner code runs: the interrupt buffer Python reads the page's Stop and
// the output's ticks from (signals.js), the pace of plot()'s steps
// (../shared/pace-gate.js), and the watches on what a run may leave behind: its
// timers and callbacks, its files, the worker's built-ins (run-timers.js, run-files.js,
// realm.js). For each run: the functions it reports through, its output (joined in
// outbox.js, and posted on Python's ticks while it runs), its plots, and what it
// reached into (the runner's guard.py).

import { paceOf } from "../shared/pace-gate.js";
import { reached as REACHED } from "../shared/contract.json";
import { Outbox } from "./outbox.js";
import { watchRealm } from "./realm.js";
import { watchFiles } from "./run-files.js";
import { scopeTimers } from "./run-timers.js";
import { signals } from "./signals.js";
import { watchStdlib } from "./stdlib-later.js";

// Taken before any learner code runs, which can reach every built-in (`import js`).
const push = Function.prototype.call.bind(Array.prototype.push);
const toString = String;
// What a run reached into, as the runner's guard reports it: the first few (contract.json).
export let reached = [];
export const reach = (what) => {
  if (reached.length < REACHED.count) push(reached, toString(what).slice(0, REACHED.chars));
};

// The page's Stop, where it shares one (else null).
export let interrupt = null;
export let pace; // where the page paces a run's steps (../shared/pace-gate.js); undefined (None) elsewhere
// What Pyodide reads its signals from (signals.js): the page's Stop, and the ticks on
// which what a run printed goes to the page, into the run's outbox while it runs.
let outbox = null;
export let pythonSignals = null;

/** Hook into Pyodide, once it is up: `buffer` is the page's Stop, `gate` where it paces
 *  plot()'s steps, each given where the page is cross-origin isolated; `stdlib` is the
 *  standard library's zip's URL, read when Python first needs it. */
export function installHooks(pyodide, buffer, gate, stdlib) {
  interrupt = buffer ?? null;
  pythonSignals = signals(interrupt, () => outbox?.due());
  pyodide.setInterruptBuffer(pythonSignals);
  if (gate) {
    const gated = paceOf(gate, interrupt);
    // What the run printed reaches the page before the run waits for its next step.
    pace = (wait) => {
      if (wait) outbox?.flush();
      return gated(wait);
    };
  }
  scopeTimers(pyodide._module); // before any learner code, and before the built-ins are taken
  watchFiles(pyodide.FS);
  watchStdlib(pyodide.FS, stdlib);
  watchRealm();
}

/** What run `id` sends its output, plots and tables with, which `say` tells the page; what
 *  it reaches into is gathered afresh (`reached`). */
export function runHooks(id, say) {
  reached = [];
  const runOutbox = new Outbox((batch) => say({ type: "output", id, batch }));
  const send = (batch) => runOutbox.add(batch);
  const after = (type, name) => (text) => {
    runOutbox.flush();
    say({ type, id, [name]: text });
  };
  return { runOutbox, send, sendPlots: after("plots", "batch"), sendTables: after("tables", "tables") };
}

/** `run()`, with Python's ticks posting what waits in `runOutbox` while it runs. */
export function withOutbox(runOutbox, run) {
  try {
    outbox = runOutbox;
    return run();
  } finally {
    outbox = null;
  }
}
