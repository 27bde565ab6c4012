// A draw put off to the next frame, or to deadlines.outputFrameMs when no frame comes
// (a hidden tab gets none): the output and the charts draw what arrived at most once
// a frame, however fast it comes.

import { deadlines } from "./deadlines.js";

export class NextFrame {
  /** @param {(inFrame: boolean) => void} draw told whether it is an animation frame's */
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
    this.pending = {
      frame: requestAnimationFrame(() => this.draw(true)),
      timer: setTimeout(() => this.draw(false), deadlines.outputFrameMs),
    };
  }

  cancel() {
    cancelAnimationFrame(this.pending?.frame);
    clearTimeout(this.pending?.timer);
    this.pending = null;
  }
}
