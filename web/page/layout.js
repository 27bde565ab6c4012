// Ask the layout worker to lay out a graph. The worker starts on the first
// request (so Graphviz is fetched only once there is a graph to draw), and
// is terminated, to be started afresh next time, when a layout fails or
// takes longer than its deadline. The last few layouts are kept: a re-run,
// or a live edit of a number, mostly draws a graph of the same shape and
// sizes again, and then takes no CPU from the next run.

import { moduleWorker } from "../shared/module-worker.js";

const WORKER_URL = new URL("./layout-worker.js", import.meta.url);

let worker = null;
let lastId = 0;
const pending = new Map(); // id -> {resolve, reject, timer}

const KEPT = 16;
const kept = new Map(); // the graph object as JSON -> its layout, oldest first

/** Graphviz's JSON layout of a viz.js graph object; rejects on failure or after `ms`.
 *  The layout is only read by its callers, so a kept one is handed out as it is. */
export function layout(graph, ms) {
  const key = JSON.stringify(graph);
  if (kept.has(key)) return Promise.resolve(kept.get(key));
  worker ??= start();
  const id = ++lastId;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => restart(new Error("the layout took too long")), ms);
    pending.set(id, { resolve, reject, timer });
    worker.postMessage({ id, graph });
  }).then((laidOut) => {
    kept.set(key, laidOut);
    if (kept.size > KEPT) kept.delete(kept.keys().next().value);
    return laidOut;
  });
}

function start() {
  const w = moduleWorker(WORKER_URL, "graph-layout");
  w.addEventListener("message", ({ data }) => {
    const request = pending.get(data.id);
    if (!request) return;
    pending.delete(data.id);
    clearTimeout(request.timer);
    if (data.error) restart(new Error(data.error), request);
    else request.resolve(data.layout);
  });
  w.addEventListener("error", (event) => restart(new Error(event.message ?? "the layout worker failed")));
  return w;
}

/** Give up on the worker (after an abort, Graphviz's memory cannot be trusted) and on
 *  every request still waiting for it. */
function restart(error, failed = null) {
  failed?.reject(error);
  worker?.terminate();
  worker = null;
  for (const { reject, timer } of pending.values()) {
    clearTimeout(timer);
    reject(error);
  }
  pending.clear();
}
