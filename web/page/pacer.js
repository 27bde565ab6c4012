// Pause, Step and a pace for a run that plots, over its charts: training that is over in
// two seconds can be watched step by step (a step: a series' next point, or a picture's
// next draw; playground_runner/plots.py).
//
// Python itself waits (../shared/pace-gate.js): paused, a run's next step does not begin
// until Step or Resume; at a pace of n steps a second, the page lets one begin every 1/n s.
// That needs memory shared with the worker (a cross-origin isolated page, and a browser
// that has SharedArrayBuffer): elsewhere, the controls say the run goes at full speed.
// A Run is paced; a live re-run goes at full speed. The pace chosen is kept in
// localStorage, beside the page's theme; Stop works paused as ever.
//
// For tests: the controls' data-state (idle | going | paused | unpaceable).

import { element } from "./dom.js";
import { store } from "./share.js";
import { UNLIMITED } from "../shared/pace-gate.js";

const PACE_KEY = "autograd-playground-pace";
const PACES = [0, 30, 10, 3, 1]; // steps a second; 0: as fast as Python goes
const UNPACEABLE = "Pause and pace need a cross-origin isolated page: here runs go at full speed.";

export class Pacer {
  /** `runtime`: the page's Python (runtime.js), which holds the gate. */
  constructor(runtime) {
    this.runtime = runtime;
    this.job = null;
    this.paused = false;
    this.ticker = null;
    const kept = Number(store.get(PACE_KEY));
    this.pace = PACES.includes(kept) ? kept : 0;
    const button = (text, title, action) => {
      const b = element("button", { type: "button", textContent: text, title });
      b.addEventListener("click", action);
      return b;
    };
    this.pauseButton = button("Pause", "Pause the run at its next step", () => (this.paused ? this.resume() : this.pause()));
    this.stepButton = button("Step", "Let the paused run go on by one step", () => this.step());
    this.choice = element("select", { className: "pace choice" }, PACES.map((pace) =>
      element("option", { value: String(pace), textContent: pace ? `${pace} steps/s` : "full speed" })));
    this.choice.value = String(this.pace);
    this.choice.addEventListener("change", () => this.setPace(Number(this.choice.value)));
    this.note = element("span", { className: "pace-note" });
    this.root = element("div", { className: "pacer" }, [
      this.pauseButton, this.stepButton, element("label", {}, ["Pace ", this.choice]), this.note]);
    this.show();
  }

  /** The steps a run may begin before the page says more (runtime.js's run()): a Run
   *  at a pace, one. */
  firstSteps(live) {
    return !live && this.pace ? 1 : UNLIMITED;
  }

  /** A run started (runtime.js's job): a Run (not a live re-run) is paced. */
  begin(job) {
    this.end();
    if (job.live || !this.runtime.paceable) return;
    this.job = job;
    job.started.then(() => this.job === job && this.tick()); // its first steps: firstSteps
    this.show();
  }

  /** The run ended. */
  end() {
    clearInterval(this.ticker);
    this.ticker = null;
    this.job = null;
    this.paused = false;
    this.show();
  }

  pause() {
    this.paused = true;
    this.go();
  }

  resume() {
    this.paused = false;
    this.go();
  }

  /** Paused: the run's next step, and no more. */
  step() {
    if (this.paused) this.runtime.pace(this.job, 1);
  }

  setPace(pace) {
    this.pace = pace;
    store.set(PACE_KEY, String(pace));
    if (this.job) this.go();
  }

  /** Let the run's steps begin as paused or the pace says, from now: none, one now and
   *  one a tick, or all. */
  go() {
    this.runtime.pace(this.job, this.paused ? 0 : this.pace ? 1 : UNLIMITED);
    this.tick();
  }

  /** At a pace, unless paused: one more step may begin every 1/pace s. */
  tick() {
    clearInterval(this.ticker);
    this.ticker = null;
    const job = this.job;
    if (!this.paused && this.pace) this.ticker = setInterval(() => this.runtime.pace(job, 1), 1000 / this.pace);
    this.show();
  }

  show() {
    const paceable = this.runtime.paceable;
    this.root.dataset.state = !paceable ? "unpaceable" : !this.job ? "idle" : this.paused ? "paused" : "going";
    this.pauseButton.hidden = this.stepButton.hidden = !this.job;
    this.pauseButton.textContent = this.paused ? "Resume" : "Pause";
    this.pauseButton.title = this.paused ? "Go on at the pace chosen" : "Pause the run at its next step";
    this.stepButton.disabled = !this.paused;
    this.choice.disabled = !paceable;
    this.note.textContent = !paceable ? UNPACEABLE : this.paused ? "Paused: Step goes on by one step." : "";
  }
}
