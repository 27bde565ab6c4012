// Replay the tape being built, node by node: the chapter's own subject ("every operation
// pushes a new Value into graph.nodes and returns its index"). A replay is a mode the
// learner enters (First, Previous, Next, Last), said by `band` over the table, and left
// by the band's button or Esc, as the Backward stepper's is. At node k the table and
// the picture show nodes 0 to k (the later ones greyed, every grad still 0), the line
// that made node k is marked, and the step says the op's forward rule in words and
// numbers ("#3 = Mul(0, 1): a.data * b.data = 2.0 * -3.0 = -6.0; VMul returned 3"), with
// the name the code gave the index, where its line assigns it. A graph of the
// learner's own classes steps by node, without the op's words (table.forward is null).
//
// data-node on the root: the node just made, only while replaying.

import { element } from "./dom.js";
import { isLeaf, nodeName, opText, shortNumber } from "./format.js";

export class TapeStepper {
  /** @param {() => string} code the editor's code, for the names its lines assign */
  constructor(code) {
    this.code = code;
    this.onStep = () => {}; // ({grads, position, current, made}); position null: the program's
    this.position = null;
    const button = (name, text, title, action) => {
      const b = element("button", { type: "button", textContent: text, title, ariaLabel: name });
      b.addEventListener("click", action);
      return b;
    };
    const last = () => this.table.count - 1;
    this.buttons = {
      first: button("First node", "First", "Replay from the first node made (Home)", () => this.go(0)),
      previous: button("Previous node", "◀ Previous", "The node made before (←)", () => this.go((this.position ?? last()) - 1)),
      next: button("Next node", "Next ▶", "The next node made (→)", () => this.go((this.position ?? -1) + 1)),
      last: button("Last node", "Last", "The last node made (End)", () => this.go(last())),
    };
    this.where = element("p", { className: "step-where" });
    this.where.setAttribute("aria-live", "polite");
    this.root = element("section", { className: "tape-stepper", ariaLabel: "Replay the tape being built", tabIndex: 0 }, [
      element("h2", { textContent: "The tape, node by node" }),
      element("div", { className: "step-buttons" }, Object.values(this.buttons)),
      this.where,
    ]);
    this.root.setAttribute("role", "group");
    this.root.addEventListener("keydown", (event) => this.onKey(event));
    this.bandText = element("span", { className: "band-text" });
    const back = button("Show the program's values", "Show the program's values",
      "Leave the replay: the graph as your code left it (Esc)", () => this.go(null));
    this.band = element("p", { className: "replay-band tape", hidden: true }, [this.bandText, " ", back]);
    this.band.setAttribute("role", "status");
    this.show(null);
  }

  /** Show `table` as the code left it, its tape ready to replay; `keep`: a live re-run,
   *  which keeps a replay of the table of the same name at its node, saying so. */
  show(table, { keep = false } = {}) {
    const kept = keep && this.position !== null && table?.title === this.table?.title;
    this.edited = Boolean(kept);
    this.table = table;
    this.root.hidden = !table || table.count === 0;
    this.go(kept ? Math.min(this.position, table.count - 1) : null);
  }

  /** Leave the replay, if one is shown. */
  leave() {
    if (this.position !== null) this.go(null);
  }

  /** Move to node `position` (null: leave the replay). */
  go(position) {
    const t = this.table;
    const n = t?.count ?? 0;
    const p = (this.position = position === null || n === 0 ? null : Math.max(0, Math.min(n - 1, position)));
    if (p === null) this.edited = false;
    this.buttons.first.disabled = this.buttons.previous.disabled = p === 0 || n === 0;
    this.buttons.next.disabled = this.buttons.last.disabled = p === n - 1 || n === 0;
    if (p === null) delete this.root.dataset.node;
    else this.root.dataset.node = String(p);
    this.band.hidden = p === null;
    const whose = this.edited ? "the tape of your edited code" : "the tape";
    this.bandText.textContent = p === null ? "" :
      `Replaying ${whose} being built: ${p + 1} of ${n} nodes made — later ones greyed, every grad still 0.`;
    if (!t) return;
    this.where.textContent = p === null
      ? `Your code made ${n} ${n === 1 ? "node" : "nodes"}, each pushed on the tape as an op computed it. ` +
        "Replay them in the order they were made: First shows the first."
      : this.explain(p);
    this.onStep({
      grads: p === null ? t.grad : t.grad.map(() => 0),
      position: p,
      current: p,
      made: p,
    });
  }

  /** Node i's step: what made it, its forward rule in words and numbers, and the index
   *  its function returned (with the name the code gave it). */
  explain(i) {
    const t = this.table;
    const data = numberOf(t, "data", i);
    const made = t.line[i] ? ` (line ${t.line[i]})` : "";
    const head = `Node ${i}, ${i + 1} of ${t.count} made${made}: ${nodeName(t, i)} = ${opText(t.op[i])}`;
    if (t.forward === null) return `${head}, data ${data}.`;
    const returned = (fn) => {
      const name = this.assigned(i);
      return `${fn} returned ${i}${name ? `, so ${name} = ${i}` : ""}.`;
    };
    if (isLeaf(t.op[i])) return `${head}: a leaf, data ${data}; ${returned("MakeValue")}`;
    const [, kind, inside] = /^(\w+)\((.*)\)$/.exec(t.op[i]) ?? [];
    const rule = t.forward[kind];
    if (!rule) return `${head}, data ${data}.`;
    const [a, b] = t.args[i];
    const k = inside.split(", ")[1];
    const words = rule.rule.replaceAll("{a}", nodeName(t, a)).replaceAll("{b}", b === undefined ? "" : nodeName(t, b))
      .replaceAll("{k}", k);
    const numbers = rule.rule.replaceAll("{a}.data", numberOf(t, "data", a))
      .replaceAll("{b}.data", b === undefined ? "" : numberOf(t, "data", b)).replaceAll("{k}", k);
    return `${head}: ${words} = ${numbers} = ${data}; ${returned(rule.fn)}`;
  }

  /** The name node i's line assigns, when the node is the last its line made in a row
   *  (what the line's outermost call returned): `a` of `a = MakeValue(g, 2.0)`. */
  assigned(i) {
    const t = this.table;
    const line = t.line[i];
    if (!line || t.line[i + 1] === line) return null;
    const text = this.code().split("\n")[line - 1] ?? "";
    return /^\s*([A-Za-z_]\w*)\s*=(?!=)/.exec(text)?.[1] ?? null;
  }

  onKey(event) {
    const n = this.table?.count ?? 0;
    if (this.root.hidden || !n) return;
    const p = this.position;
    const moves = { ArrowLeft: (p ?? n - 1) - 1, ArrowRight: (p ?? -1) + 1, Home: 0, End: n - 1 };
    if (event.key in moves) this.go(moves[event.key]);
    else if (event.key === "Escape" && p !== null) this.go(null);
    else return;
    event.preventDefault();
  }
}

/** Node i's `column` value as the table writes it. */
function numberOf(t, column, i) {
  const x = t[column][i];
  return x === null ? t.notNumbers[column][i] : shortNumber(x);
}
