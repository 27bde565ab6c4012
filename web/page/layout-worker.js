// Graphviz (viz.js, WebAssembly) in a worker of its own: a graph that takes
// dot seconds to lay out never freezes the page, and one that takes too long
// can be given up by terminating this worker.
//
// Message in: {id, graph} (a viz.js graph object). Out: {id, layout} (Graphviz
// JSON) or {id, error}.

import { instance } from "@viz-js/viz";

const viz = instance();

addEventListener("message", async ({ data: { id, graph } }) => {
  try {
    postMessage({ id, layout: (await viz).renderJSON(graph) });
  } catch (error) {
    postMessage({ id, error: String(error?.message ?? error) });
  }
});
