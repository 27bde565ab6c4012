// Live re-runs (the `live` option): each edit re-runs the code once the learner
// has paused typing for deadlines.liveDebounceMs, and a step of a number dragged
// or stepped with Alt+↑/↓ (scrub.js) at once, so the table, the picture and the
// Δ marks follow. A newer edit replaces
// a live run still in flight (playground.js, run()). A live run may take
// deadlines.liveRunMs at most: one that takes longer (a loop typed half-way, a
// long training) is stopped, and live re-runs pause, saying so, until the
// learner presses Run. Code that came from a link waits for a first Run too.

import { deadlines } from "./deadlines.js";
import { element } from "./dom.js";

export class Live {
  /** @param {(code?: string) => void} rerun starts a live run of `code` (by default, the
   *  editor's) */
  constructor(rerun) {
    this.rerun = rerun;
    this.timer = null;
    this.paused = false;
    this.note = element("span", { className: "live-note", role: "status" });
  }

  /** The learner typed: re-run the code once they pause, unless live re-runs are. */
  edited() {
    this.cancel();
    if (!this.paused) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.rerun();
      }, deadlines.liveDebounceMs);
    }
  }

  /** Whether an edit waits to be re-run. */
  get waiting() {
    return this.timer !== null;
  }

  /** The edit waiting, if any, is not re-run. */
  cancel() {
    clearTimeout(this.timer);
    this.timer = null;
  }

  /** A number was stepped to make `code`: run it at once (before the editor has even
   *  shown it: the run and the editor's update then share the wait), unless paused. */
  stepped(code) {
    this.cancel();
    if (!this.paused) this.rerun(code);
  }

  /** A run started: an edit waiting to be re-run is in it. */
  started() {
    this.cancel();
  }

  /** No more live re-runs until the learner presses Run, for the reason given. */
  pause(why) {
    this.cancel();
    this.paused = true;
    this.note.textContent = `Live re-runs are paused: ${why}. Press Run to run the code and resume them.`;
  }

  /** The learner pressed Run: edits re-run the code again. */
  resume() {
    this.paused = false;
    this.note.textContent = "";
  }
}
