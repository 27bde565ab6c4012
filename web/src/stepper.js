// Step through Backward one node at a time, replaying the table's steps
// (engine.BackwardSteps). Position 0 is before the first step: Backward has
// zeroed the grads of the nodes it reaches and seeded the root's with 1.
// Position k is after k steps; the last position holds Backward's own grads.
//
// Buttons, and when the stepper has focus: ← →, Home, End.
// data-step on the root: the position; data-node: the node being visited.

import { element } from "./dom.js";

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

  /** Replay `table`'s Backward, starting after its last step; hidden when it had none,
   *  and saying why when it cannot be replayed. */
  show(table) {
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
    this.go(this.steps.length, false);
  }

  /** Move to `position`; `replaying` false shows Backward's end without naming a step. */
  go(position, replaying = true) {
    const n = this.steps.length;
    this.position = Math.max(0, Math.min(n, position));
    const p = this.position;
    const step = replaying ? this.steps[p - 1] : undefined;
    this.buttons.first.disabled = this.buttons.previous.disabled = p === 0;
    this.buttons.next.disabled = this.buttons.last.disabled = p === n;
    this.root.dataset.step = String(p);
    if (step) this.root.dataset.node = String(step.node);
    else delete this.root.dataset.node;
    this.explain(step, replaying);
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

  explain(step, replaying) {
    const n = this.steps.length;
    const t = this.table;
    const name = (i) => t.label[i] ?? `#${i}`;
    if (!replaying) {
      this.where.textContent = `Backward(${name(t.root)}) visited ${n} nodes. Replay it: First, then Next (or ← and →).`;
      this.terms.replaceChildren();
      return;
    }
    if (!step) {
      this.where.textContent = `Before step 1 of ${n}: Backward zeroes the grads of the ${n} nodes ` +
        `${name(t.root)} depends on and sets ${name(t.root)}.grad = 1.`;
      this.terms.replaceChildren();
      return;
    }
    const i = step.node;
    const what = step.terms.length ? `${t.op[i]} passes its grad back to its operands:` : "a leaf: nothing to pass back.";
    this.where.textContent = `Step ${this.position} of ${n}: node ${i} (${name(i)}), ${what}`;
    this.terms.replaceChildren(...step.terms.map((term) => element("li", { textContent: term.text })));
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
