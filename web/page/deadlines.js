// The page's deadlines, in one object that a host page or a test may change:
//
//   customElements.get("autograd-playground").deadlines.stopGraceMs = 500;
//
// A test that checks what happens past a deadline sets it, rather than
// hoping the machine is slow or fast enough. Each is read when it starts to
// count, so a change applies from the next Stop or layout on.

export const deadlines = {
  // After Stop, how long Python has to stop by itself (the interrupt) before
  // its worker is replaced by a fresh one.
  stopGraceMs: 2000,
  // After a run's result, how long the worker has to answer a ping before it
  // is taken for dead (code that closed it) and replaced. An idle worker
  // answers at once; this is long so that only a dead one is replaced.
  pingMs: 10000,
  // How long laying out a whole graph may take before the picture shows a
  // neighbourhood of it instead.
  wholePictureMs: 5000,
  // How long laying out a neighbourhood may take before the picture gives up.
  neighbourhoodMs: 30000,
  // How long output waits for the browser to draw a frame before it is drawn without
  // one: a playground in an iframe scrolled out of view draws no frames.
  outputFrameMs: 100,
  // With `live`, how long after an edit the code is re-run: edits closer together
  // than this are run once, with the last.
  liveDebounceMs: 10,
  // With `live`, how long the picture of a graph too big to draw whole waits after
  // a live step before it is laid out, unless another step comes meanwhile: a learner
  // stepping a number there sees the table follow each step, and the picture once they
  // pause (Graphviz and the drawing would take the CPU from the next step's run).
  livePictureSettleMs: 250,
  // With `live`, how long a re-run after an edit may take before it is stopped
  // and live re-runs pause until the learner presses Run.
  liveRunMs: 3000,
  // With `live`, how long a re-run must take before the toolbar shows it (Run off,
  // Stop on, "running…"): a step's run, a few milliseconds, leaves the toolbar as it
  // is, rather than flickering it with every step of a drag.
  liveRunShownMs: 250,
  // How long a starting Python may go without a word to the page (a download's
  // progress, a phase) before its worker is taken for stalled: a fresh one is
  // started, and if that stalls too, Python could not start (Run tries again).
  bootStallMs: 60000,
  // How long the memory snapshot's download may go without a byte of any of Python's
  // files before it is given up and Python boots without it (read as Python starts).
  snapshotStallMs: 5000,
  // How long Python may load before its progress bar shows: a load from the
  // browser's caches is over sooner, and shows none.
  progressDelayMs: 500,
  // After Esc in the editor, how long the next Tab moves focus on instead of
  // indenting (CodeMirror's own window, 2 s).
  escapeThenTabMs: 2000,
  // How long a step of a number (Alt+↑/↓, a drag) may parse the code up to it, where
  // the editor's background parse has not reached it yet (a long code just pasted).
  scrubParseMs: 1000,
};
