// Step through Backward one node at a time, replaying the table's steps
// (engine.BackwardSteps). Position 0 is before the first step: Backward has
// zeroed the grads of the nodes it reaches and seeded the root's with 1.
// Position k is after k steps; the last position holds Backward's own grads.
// A graph new to the stepper opens at position 0, Next ahead; the same graph run
// again keeps its place, so an edit shows its effect on the step in view.
//
// Buttons, and when the stepper has focus: ← →, Home, End.
// data-step on the root: the position; data-node: the node being visited.

import { element } from "./dom.js";
import { fullNumber, isLeaf, nodeName, opText, shortNumber } from "./format.js";

export class Stepper {
  constructor() {
    this.onStep = () => {}; // ({grads, current, targets}) whenever the position moves
    // Named by their words alone; the arrows are for the eye.
    const button = (name, text, title, action) => {
      const b = element("button", { type: "button", textContent: text, title, ariaLabel: name });
      b.addEventListener("click", action);
      return b;
    };
    this.buttons = {
      first: button("First", "First", "Before the first step (Home)", () => this.go(0)),
      previous: button("Previous", "◀ Previous", "The step before (←)", () => this.go(this.position - 1)),
      next: button("Next", "Next ▶", "The next step (→)", () => this.go(this.position + 1)),
      last: button("Last", "Last", "After the last step: Backward's grads (End)", () => this.go(this.steps.length)),
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
    this.show(null);
  }

  /** Replay `table`'s Backward, from its first step, or where the stepper was in the
   *  table of that name before; hidden when it had none, and saying why when it cannot
   *  be replayed. */
  show(table) {
    const kept = table?.title === this.table?.title && this.table?.steps ? this.position : 0;
    this.table = table;
    this.steps = table?.steps ?? [];
    this.root.hidden = !table || (table.root === null && table.noSteps === null);
    if (this.root.hidden) return;
    if (!table.steps) {
      this.steps = [];
      this.root.dataset.step = "0";
      delete this.root.dataset.node;
      for (const b of Object.values(this.buttons)) b.disabled = true;
      this.where.textContent = `Backward cannot be replayed: ${table.noSteps}.`;
      this.terms.replaceChildren();
      return;
    }
    this.reached = this.steps.map((s) => s.node);
    this.go(kept);
  }

  /** Move to `position`. */
  go(position) {
    const n = this.steps.length;
    this.position = Math.max(0, Math.min(n, position));
    const p = this.position;
    const step = this.steps[p - 1];
    this.buttons.first.disabled = this.buttons.previous.disabled = p === 0;
    this.buttons.next.disabled = this.buttons.last.disabled = p === n;
    this.root.dataset.step = String(p);
    if (step) this.root.dataset.node = String(step.node);
    else delete this.root.dataset.node;
    this.explain(step);
    this.onStep({
      grads: this.gradsAt(p),
      current: step ? step.node : null,
      targets: new Set(step?.terms.map((t) => t.operand) ?? []),
    });
  }

  /** The grads after `p` steps: Backward's start (reached nodes zeroed, the root's 1),
   *  then each term's running grad as it arrives. */
  gradsAt(p) {
    const t = this.table;
    const grads = t.grad.slice();
    for (const i of this.reached) grads[i] = 0;
    grads[t.root] = 1;
    for (const step of this.steps.slice(0, p)) {
      for (const term of step.terms) grads[term.operand] = term.grad;
    }
    return grads;
  }

  explain(step) {
    const n = this.steps.length;
    const t = this.table;
    const name = (i) => nodeName(t, i);
    if (!step) {
      this.where.textContent = `Before step 1 of ${n}: Backward zeroes the grads of the ${n} nodes ` +
        `${name(t.root)} depends on and sets ${name(t.root)}.grad = 1. Next ▶ visits them one by one.`;
      this.terms.replaceChildren();
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
    const moves = { ArrowLeft: -1, ArrowRight: 1 };
    if (this.root.hidden || !this.steps.length) return;
    if (event.key in moves) this.go(this.position + moves[event.key]);
    else if (event.key === "Home") this.go(0);
    else if (event.key === "End") this.go(this.steps.length);
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
