// A draw put off to the next frame, or to deadlines.outputFrameMs when no frame comes
// (a hidden tab gets none): the output and the charts draw what arrived at most once
// a frame, however fast it comes.

import { deadlines } from "./deadlines.js";

export class NextFrame {
  /** @param {() => void} draw */
  constructor(draw) {
    this.draw = draw;
    this.pending = null;
  }

  /** Whether a draw is waiting. */
  get waiting() {
    return this.pending !== null;
  }

  schedule() {
    if (this.pending) return;
    const draw = () => this.draw();
    this.pending = { frame: requestAnimationFrame(draw), timer: setTimeout(draw, deadlines.outputFrameMs) };
  }

  cancel() {
    cancelAnimationFrame(this.pending?.frame);
    clearTimeout(this.pending?.timer);
    this.pending = null;
  }
}
