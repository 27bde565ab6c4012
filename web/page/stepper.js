// Step through Backward one node at a time, replaying the table's steps
// (engine.BackwardSteps). A run's table, picture and `run-end` show the graph as the
// code left it; a replay is a mode the learner enters (First, Previous, Next, Last),
// marked where the numbers are by `band` (and the grad column's heading), and left by
// the band's button or Esc. Position 0 is before the first step: Backward has zeroed
// the grads of the nodes it reaches and seeded the root's with 1. Position k is after
// k steps; the last position holds Backward's own grads.
// A live re-run of the same graph keeps a replay at its step, and the band says the
// replay is now of the edited code; any other run, or another table, ends it.
// A long Backward's steps come when the replay starts (the table's stepsLater: see
// runtime.js), asked for with `loadSteps(table)`; the table holds them from then on.
//
// Buttons, and when the stepper has focus: ← →, Home, End; Esc ends a replay.
// data-step on the root: the position, only while replaying; data-node: the node
// being visited.

import { element } from "./dom.js";
import { fullNumber, isLeaf, nodeName, opText, shortNumber } from "./format.js";
import { gradsAfter } from "./replay-grads.js";

export class Stepper {
  /** @param {(table) => Promise<{steps, noSteps}>} loadSteps a table's steps that come later */
  constructor(loadSteps) {
    this.loadSteps = loadSteps;
    // ({grads, position, current, targets}) whenever what is shown changes;
    // position null: the program's own grads.
    this.onStep = () => {};
    this.position = null;
    // Named by their words alone; the arrows are for the eye.
    const button = (name, text, title, action) => {
      const b = element("button", { type: "button", textContent: text, title, ariaLabel: name });
      b.addEventListener("click", action);
      return b;
    };
    const n = () => this.count;
    this.buttons = {
      first: button("First", "First", "Replay from before the first step (Home)", () => this.go(0)),
      previous: button("Previous", "◀ Previous", "The step before (←)", () => this.go((this.position ?? n()) - 1)),
      next: button("Next", "Next ▶", "The next step (→)", () => this.go((this.position ?? 0) + 1)),
      last: button("Last", "Last", "After the last step: Backward's grads (End)", () => this.go(n())),
    };
    this.where = element("p", { className: "step-where" });
    this.terms = element("ol", { className: "step-terms" });
    const explanation = element("div", { className: "step-explanation" }, [this.where, this.terms]);
    explanation.setAttribute("aria-live", "polite");
    this.root = element("section", { className: "stepper", ariaLabel: "Step through Backward", tabIndex: 0 }, [
      element("h2", { textContent: "Backward, step by step" }),
      element("div", { className: "step-buttons" }, Object.values(this.buttons)),
      explanation,
    ]);
    this.root.setAttribute("role", "group");
    this.root.addEventListener("keydown", (event) => this.onKey(event));
    // The band over the numbers while a replay shows, with the one way back.
    this.bandText = element("span", { className: "band-text" });
    this.backButton = button("Show the program's values", "Show the program's values",
      "Leave the replay: the grads your code left (Esc)", () => this.go(null));
    this.band = element("p", { className: "replay-band backward", hidden: true }, [this.bandText, " ", this.backButton]);
    this.band.setAttribute("role", "status");
    this.show(null);
  }

  /** Show `table`'s own grads, with its Backward ready to replay; hidden when it had
   *  none, and saying why when it cannot be replayed. `keep`: a live re-run, which keeps
   *  a replay of the table of the same name at its step, saying it is of the edit. */
  show(table, { keep = false } = {}) {
    const sameTitle = table?.title === this.table?.title;
    this.table = table;
    const kept = keep && this.position !== null && sameTitle && this.replayable;
    this.edited = Boolean(kept);
    this.root.hidden = !table || (table.root === null && table.noSteps === null);
    if (this.root.hidden || !this.replayable) {
      this.go(null);
      if (this.root.hidden) return;
      for (const b of Object.values(this.buttons)) b.disabled = true;
      this.where.textContent = `Backward cannot be replayed: ${table.noSteps}.`;
      return;
    }
    this.go(kept ? this.position : null);
  }

  /** The steps of the table's Backward, so far as they are here. */
  get steps() {
    return this.table?.steps ?? [];
  }

  /** How many steps the table's Backward has, here or to come. */
  get count() {
    return this.table?.steps?.length ?? this.table?.stepsLater ?? 0;
  }

  /** The table's Backward can be replayed: its steps are here, or can be asked for. */
  get replayable() {
    const t = this.table;
    return Boolean(t?.steps || (t && t.stepsLater !== null && t.noSteps === null));
  }

  /** Ask for the table's steps if they are still to come, then go to `position` (or
   *  where the buttons have moved it meanwhile); true while they are on their way. */
  awaitSteps(position) {
    const t = this.table;
    if (!t || t.steps || !this.replayable) return false;
    this.position = Math.max(0, Math.min(this.count, position));
    this.loadSteps(t).then(({ steps, noSteps }) => {
      Object.assign(t, { steps, noSteps });
      if (this.table !== t) return;
      if (steps) this.go(this.position);
      else this.show(t);
    });
    return true;
  }

  /** Leave the replay, if one is shown. */
  leave() {
    if (this.position !== null) this.go(null);
  }

  /** Move to `position` (null: leave the replay, showing the program's grads). */
  go(position) {
    if (position !== null && this.awaitSteps(position)) return;
    const n = this.count;
    const p = (this.position = position === null ? null : Math.max(0, Math.min(n, position)));
    if (p === null) this.edited = false;
    const step = p === null ? undefined : this.steps[p - 1];
    this.buttons.first.disabled = this.buttons.previous.disabled = p === 0 || n === 0;
    this.buttons.next.disabled = this.buttons.last.disabled = p === n || n === 0;
    if (p === null) delete this.root.dataset.step;
    else this.root.dataset.step = String(p);
    if (step) this.root.dataset.node = String(step.node);
    else delete this.root.dataset.node;
    this.band.hidden = p === null;
    const whose = this.edited ? "Backward of your edited code" : "Backward";
    this.bandText.textContent = p === null ? "" :
      `Replaying ${whose}: ${p === 0 ? `before step 1 of ${n}` : `step ${p} of ${n}`}` +
      " — grads as they were at this step.";
    if (this.replayable) this.explain(step);
    else this.terms.replaceChildren();
    if (!this.table) return;
    this.onStep({
      grads: p === null ? this.table.grad : gradsAfter(this.table, p),
      position: p,
      current: step ? step.node : null,
      targets: new Set(step?.terms.map((t) => t.operand) ?? []),
    });
  }

  explain(step) {
    const n = this.count;
    const t = this.table;
    const name = (i) => nodeName(t, i);
    this.terms.replaceChildren();
    if (this.position === null) {
      this.where.textContent = `The table shows the grads your code left. Replay its Backward ` +
        `from ${name(t.root)} over ${n} nodes: First starts before step 1, Next ▶ takes it.`;
      return;
    }
    if (!step) {
      this.where.textContent = `Before step 1 of ${n}: Backward zeroes the grads of the ${n} nodes ` +
        `${name(t.root)} depends on and sets ${name(t.root)}.grad = 1. Next ▶ visits them one by one.`;
      return;
    }
    const i = step.node;
    const op = `op ${opText(t.op[i])}`;
    const what = isLeaf(t.op[i]) ? `${op}: a leaf, nothing to pass back.` : `${op} passes its grad back to its operands:`;
    const last = this.position === n ? " That was the last: these are Backward's grads." : "";
    this.where.textContent = `Step ${this.position} of ${n}: node ${i} (${name(i)}), ${what}${last}`;
    this.terms.replaceChildren(...step.terms.map(termItem));
  }

  onKey(event) {
    const n = this.count;
    if (this.root.hidden || !n) return;
    const p = this.position;
    const moves = { ArrowLeft: (p ?? n) - 1, ArrowRight: (p ?? 0) + 1, Home: 0, End: n };
    if (event.key in moves) this.go(moves[event.key]);
    else if (event.key === "Escape" && p !== null) this.go(null);
    else return;
    event.preventDefault();
  }
}

/** A chain-rule term, its numbers written as the table writes them, each whole on hover. */
function termItem(term) {
  const number = (x) => element("span", { className: "number", textContent: shortNumber(x), title: fullNumber(x) });
  return element("li", {}, [
    `${term.rule} = `, number(term.upstream), " * ", number(term.local), " = ", number(term.value),
  ]);
}
