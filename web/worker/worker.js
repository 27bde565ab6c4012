// The Python side of the page: one Pyodide, restored from the snapshot made at
// build time (or booted fresh, the engine installed from its wheel), and the
// playground_runner package running each piece of code in a fresh namespace.
//
// The page and this worker talk over a MessagePort of their own, sent with
// the one message that comes the global way: learner code can reach the
// worker's global `postMessage` and `message` events (`import js`), so after
// boot nothing is said or heard there, and what it posts reaches no listener.
//
// Its name:      "python", or "python (restarted)" when the boot message hands on the
//                wasm (and maybe the memory) of the worker before
// Global in:     {type: "boot", port: MessagePort, interrupt?: Int32Array on a SharedArrayBuffer,
//                 mailbox?: SharedArrayBuffer,  where the page waits for what this worker says
//                                               once ready (../shared/mailbox.js)
//                 gate?: Int32Array on a SharedArrayBuffer,  the steps of plot() a run may
//                                               begin (../shared/pace-gate.js)
//                 wasm?: WebAssembly.Module, memory?: ArrayBuffer}  from the worker before,
//                 build,                        the page's build, which must be this worker's
//                 snapshotStallMs}              how long the snapshot's download may go without
//                                               a byte before Python boots fresh (stall.js)
// Port in:       {type: "run", id, code, checks}  checks: the exercise's, a list of Python texts
//                {type: "ping", id}           answered once every message before it is handled,
//                                             in a task of its own: a closed worker runs none
//                {type: "tidy"}               the page has painted the last result: the standard
//                                             library is put back now (a run sent before it is
//                                             put back first, all the same), and its zip is
//                                             downloaded, if still to come (stdlib-later.js)
//                {type: "steps", id, table}   the Backward steps of table `table` of run `id`,
//                                             whose table had them for later (stepsLater)
// Out, over the port until "ready", then through the mailbox where the page gave one:
//                {type: "progress", received, total}  bytes of Python's files downloaded so far,
//                                             and of all, at most every 100 ms (downloads.js)
//                {type: "phase", phase}       "starting Python" (all is downloaded), "starting
//                                             Python without its snapshot, whose download
//                                             stalled", "installing the engine" (after a fresh boot)
//                {type: "ready", wasm, memory, build}  Pyodide's WebAssembly.Module and the
//                                             snapshot's memory as restored (transferred), or
//                                             nulls; and this worker's build (BUILD_ID)
//                {type: "output", id, batch}  JSON of [[stream, text], ...], at most every
//                                             50 ms while the run goes on (outbox.js)
//                {type: "plots", id, batch}   JSON of what plot() and boundary() gathered
//                                             (playground_runner/plots.py)
//                {type: "tables", id, tables}  JSON of the run's tables, once its code has ended
//                                             without error: ahead of its result, which then
//                                             has none of its own
//                {type: "result", id, result, reached}  JSON from playground_runner.run, and
//                                             what the code did that reached into the playground
//                                             itself (guard.py; realm.js): the page then starts
//                                             the next run in a fresh worker
//                {type: "pong", id}
//                {type: "steps", id, table, steps}  JSON of {steps, noSteps} (Runner.steps):
//                                             noSteps says why not, when run `id` is not the last
//                {type: "failed", message}    the runtime could not start, or crashed
// The page checks every message's shape (see protocol.js).
//
// Its parts: boot.js starts Python as this worker loads (its downloads first of all)
// and tells the page the progress and phases; message-loop.js handles the page's
// messages once Python is up, and answers them; pyodide-hooks.js is what they install
// into Pyodide and hand the runner (the interrupt buffer, a run's output and callbacks).

import "./boot.js";
import { serve } from "./message-loop.js";

serve();

