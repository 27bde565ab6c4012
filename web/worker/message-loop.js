// The page's messages, handled once Python is up, one at a time and in order, even
// across awaits: a run (the worker's globals, files and built-ins checked after it,
// and put back), a ping, "tidy" (the standard library put back), the steps of a table;
// and each answered, over the page's port until Python is ready, then through the
// mailbox where the page gave one. While the page is quiet, the warm-up's runs of the
// chapter's example queue among them (warm-up.js). The messages are listed at the top
// of worker.js.

import { mailboxSender } from "../shared/mailbox.js";
import example from "../shared/example.py";
import {
  booted, compiledWasm, downloads, loadMicropip, micropip, pyodide, RESTARTED, restoredMemory,
  runCode, sameBuild, started, stepsOf, STDLIB_URL, tidy,
} from "./boot.js";
import {
  installHooks, interrupt, pace, pythonSignals, reach, reached, runHooks, withOutbox,
} from "./pyodide-hooks.js";
import { realmChange } from "./realm.js";
import { filesNow, restoreFiles } from "./run-files.js";
import { runEnds, runStarts } from "./run-timers.js";
import { WarmUp } from "./warm-up.js";
import { downloadStdlib } from "./stdlib-later.js";

// Taken before any learner code runs, which can reach every built-in (`import js`):
// what this worker says and hears goes through these, whatever a run patches.
const call = Function.prototype.call;
const post = call.bind(MessagePort.prototype.postMessage);
const dataOf = call.bind(Object.getOwnPropertyDescriptor(MessageEvent.prototype, "data").get);
const later = setTimeout;
const toString = String;

const MENTIONS_MICROPIP = /\bmicropip\b/;
// The runner sends its tables' numbers packed (playground_runner/packed.py): the page
// unpacks them (protocol.js).
const PACKED = true;
// The learner's run whose tables the runner holds the steps of (a warm-up run keeps them).
let lastRun = null;
// The standard library is yet to be put back after the last run: tidy() takes a core
// for milliseconds, which the page wants while it paints that run's result.
let untidy = false;

async function handle(data, say) {
  const site = await started;
  if (data.type === "run") {
    putBack(); // before micropip's import, which saves what it finds as pristine
    if (!micropip && MENTIONS_MICROPIP.test(data.code)) await loadMicropip(site);
    if (interrupt) interrupt[0] = 0; // a Stop that came after the last run ended
    const { runOutbox, send, sendPlots, sendTables } = runHooks(data.id, say);
    const globals = globalsNow();
    const files = filesNow();
    runStarts();
    let result;
    try {
      // runEnds is called by the runner, before it puts Python back; here too, in case
      // Python failed before it could.
      result = withOutbox(runOutbox, () =>
        runCode(data.code, send, data.checks, reach, sendPlots, pace, false, runEnds, PACKED, sendTables),
      );
    } finally {
      runEnds();
    }
    runOutbox.flush();
    restoreGlobals(globals);
    const change = realmChange();
    if (change) reach(`the worker's JavaScript: ${change} was changed`);
    const fileChange = restoreFiles(files);
    if (fileChange) reach(`the file system: ${fileChange}`);
    // No result: Pyodide failed fatally and cannot run anything more.
    if (typeof result !== "string") throw new Error("Python stopped working");
    lastRun = data.id;
    say({ type: "result", id: data.id, result, reached });
  } else if (data.type === "ping") {
    // A new task, even when the ping came in while the run awaited micropip: after
    // the code's `js.close()`, the worker runs no more tasks, so it never answers.
    await new Promise((next) => later(next));
    say({ type: "pong", id: data.id });
    // The standard library is put back once the page has painted the result ("tidy"),
    // else before the next run, whichever comes first.
    untidy = true;
  } else if (data.type === "tidy") {
    putBack();
    downloadStdlib(); // the result is on screen: the link is free (stdlib-later.js)
  } else if (data.type === "steps") {
    say(stepsAsked(data));
  }
}

/** The steps the page asks for, made now: with the standard library as it was before the
 *  run, and none of a run but the last (whose tables the runner still holds). */
function stepsAsked({ id, table }) {
  putBack();
  const steps = stepsOf(id === lastRun && Number.isSafeInteger(table) ? table : -1);
  if (typeof steps !== "string") throw new Error("Python stopped working");
  return { type: "steps", id, table, steps };
}

/**
 * tidy(), if the last run's is still to do, through a Stop's late interrupt: the page
 * writes it until the pong reaches it. tidy() goes on through one that lands inside
 * it; one that lands as it is called raises before it starts, and it is called again.
 */
function putBack() {
  if (!untidy) return;
  untidy = false;
  for (;;) {
    if (interrupt) interrupt[0] = 0;
    try {
      return tidy();
    } catch (error) {
      if (error?.type !== "KeyboardInterrupt") throw error;
    }
  }
}

/** The worker's own global properties, as learner code finds them through `js`. */
function globalsNow() {
  return new Map(Reflect.ownKeys(globalThis).map((key) => [key, Object.getOwnPropertyDescriptor(globalThis, key)]));
}

/**
 * Undo what a run did to the worker's globals (`js.x = 1`, `js.postMessage = None`):
 * a property it added is deleted, one it changed or deleted is put back, so the
 * next run, maybe another playground's, finds them as they were.
 */
function restoreGlobals(before) {
  for (const key of Reflect.ownKeys(globalThis)) {
    if (!before.has(key)) delete globalThis[key];
  }
  for (const [key, was] of before) {
    const now = Object.getOwnPropertyDescriptor(globalThis, key);
    const same = now && ["value", "get", "set"].every((part) => now[part] === was[part]);
    if (!same && (now?.configurable ?? true)) Object.defineProperty(globalThis, key, was);
  }
}

/**
 * Answer the page, one message at a time, in order, even across awaits: over its
 * port until Python is ready, then through the mailbox where the page gave one
 * (../shared/mailbox.js), else the port still.
 */
export async function serve() {
  const boot = await booted;
  const { port: page, interrupt: buffer, mailbox, gate } = boot;
  let say = (message) => post(page, message);
  const fail = (error) => {
    downloads.stop();
    say({ type: "failed", message: toString(error?.stack ?? error) });
  };
  let queue = null;
  const enqueue = (task) => (queue = queue.then(task).catch(fail));
  const warmUp = RESTARTED ? null : new WarmUp(enqueue, runExampleUnseen);
  queue = started
    .then(() => {
      sameBuild(boot);
      installHooks(pyodide, buffer, gate, STDLIB_URL);
      const ready = { type: "ready", wasm: compiledWasm, memory: restoredMemory, build: BUILD_ID };
      post(page, ready, restoredMemory ? [restoredMemory] : []);
      if (mailbox) say = mailboxSender(mailbox);
      warmUp?.start();
    })
    .catch(fail);
  page.onmessage = (event) => {
    const data = dataOf(event);
    warmUp?.heard();
    enqueue(() => handle(data, say));
  };
}

/**
 * Run the chapter's example as a learner's run is run, with its output unseen (warm-up.js).
 * No Stop is for it: the page repeats a Stop's signal until the end of the stopped run
 * reaches it, which can be after this worker has gone on to a warm-up run. So Python does
 * not read the signal meanwhile (the next run of the learner's clears it), and one it had
 * read just before ends this warm-up run alone.
 */
function runExampleUnseen() {
  const ignore = () => {};
  pyodide.setInterruptBuffer(undefined);
  try {
    putBack();
    untidy = true;
    // unseen: the last run's steps stay held
    runCode(example, ignore, [], ignore, ignore, undefined, true, undefined, PACKED);
    putBack();
  } catch (error) {
    if (error?.type !== "KeyboardInterrupt") throw error;
  } finally {
    pyodide.setInterruptBuffer(pythonSignals);
  }
}
