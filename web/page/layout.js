// Ask the layout worker to lay out a graph. The worker starts on the first
// request (so Graphviz is fetched only once there is a graph to draw), and
// is terminated, to be started afresh next time, when a layout fails or
// takes longer than its deadline.

import { moduleWorker } from "../shared/module-worker.js";

const WORKER_URL = new URL("./layout-worker.js", import.meta.url);

let worker = null;
let lastId = 0;
const pending = new Map(); // id -> {resolve, reject, timer}

/** Graphviz's JSON layout of a viz.js graph object; rejects on failure or after `ms`. */
export function layout(graph, ms) {
  worker ??= start();
  const id = ++lastId;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => restart(new Error("the layout took too long")), ms);
    pending.set(id, { resolve, reject, timer });
    worker.postMessage({ id, graph });
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
