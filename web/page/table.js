// The node tables: one per graph or `show` snapshot, picked with a <select>,
// drawn as a real <table> whose body holds only the rows in view (plus a
// margin), so a 100,000-node graph scrolls without building 100,000 rows.
// A row can be selected (click, tap, or arrow keys in the table), and a line under the
// table then writes its data and grad whole, as a hover's tooltip does, for a touch
// screen and a keyboard, which have no hover, and for a screen reader. Grads are shaded
// by sign and size; each cell whose value differs from what the table of the same name
// of the last run that ended without error showed is marked Δ (when this run did too;
// in a replay of Backward, a grad is compared with that run's at the same step). With no
// table, a note says why (set by the playground: no graph, or nothing ran). A data or grad that is not a number shows as its text,
// marked, and the table's notes (the runner's) say what it shows otherwise than the
// graph holds it.

import { breakable, fit, LABEL_CHARS, textNeed } from "./column-fit.js";
import { element, setAttribute, setText, setTexts } from "./dom.js";
import { counted, fullNumber, nodeName, opText, shortNumber } from "./format.js";
import { gradScale, shade } from "./grad-scale.js";
import { gradsAfter } from "./replay-grads.js";

const ROW_PX = 28;
// Rows drawn past each side of the view: more than a wheel's two notches, scrolled before
// the frame that draws for them; few, as a live step lays out every row drawn again.
const MARGIN_ROWS = 10;
const COLUMNS = ["index", "label", "op", "data", "grad"];
// The most characters a column other than the label's is made wide for: any number fits;
// a longer text (a value that is not a number, an op of the learner's) is whole on hover.
// (The label's is column-fit.js's LABEL_CHARS.)
const MAX_COLUMN_CHARS = 14;
// The longest a number is written, and the most rows whose numbers are written out to
// find their longest.
const WIDEST_NUMBER = "-1.23457e+300";
const MEASURED_ROWS = 2_000;
// A monospace character's width, a little over (0.6em in most fonts, 0.602 in DejaVu's).
const CHAR_EM = 0.62;
// Errors Python finds before running any of the code.
const COMPILE_ERRORS = new Set(["SyntaxError", "IndentationError", "TabError"]);

export class TablePanel {
  constructor() {
    this.tables = [];
    this.previous = new Map(); // the tables of the last run that ended without error, by title
    this.onSelect = () => {}; // (node index) when the learner selects a row
    this.marks = { selected: null, current: null, targets: new Set() };
    this.picker = element("select", { className: "picker", ariaLabel: "Graph to show" });
    this.count = element("span", { className: "count" });
    this.caption = element("caption");
    this.body = element("tbody");
    const head = element("tr", {}, COLUMNS.map((c) => element("th", { scope: "col", textContent: c })));
    this.gradHeading = head.lastChild;
    this.columns = COLUMNS.map(() => element("col"));
    this.table = element("table", {}, [
      this.caption, element("colgroup", {}, this.columns), element("thead", {}, [head]), this.body,
    ]);
    this.scroller = element("div", { className: "scroller", tabIndex: 0 }, [this.table]);
    this.scroller.style.setProperty("--row-px", `${ROW_PX}px`);
    this.scroller.setAttribute("role", "region");
    this.scroller.setAttribute("aria-label", "Nodes");
    this.empty = element("p", { className: "empty" });
    this.notes = element("ul", { className: "table-notes" });
    this.whole = element("p", { className: "whole-values", hidden: true });
    this.whole.setAttribute("aria-live", "polite");
    this.root = element("div", { className: "tables" }, [
      (this.bar = element("div", { className: "table-bar" }, [this.picker, this.count])),
      this.notes,
      this.empty,
      this.scroller,
      this.whole,
    ]);
    this.picker.addEventListener("change", () => this.select(Number(this.picker.value)));
    this.scroller.addEventListener("scroll", () => {
      this.viewTop = this.scroller.scrollTop;
      this.schedule();
    }, { passive: true });
    this.body.addEventListener("click", (event) => {
      const row = event.target.closest("tr[data-node]");
      if (row) this.onSelect(Number(row.dataset.node));
    });
    this.scroller.addEventListener("keydown", (event) => this.onKey(event));
    this.keptNeeds = null; // textNeeds()
    // Where the scroller is and its height, as last laid out and scrolled: drawing rows
    // never asks for a layout (on a course page, ten tables drawn as ten runs end).
    this.viewTop = 0;
    this.viewHeight = 0;
    this.viewWidth = 0;
    new ResizeObserver(([entry]) => {
      this.viewHeight = entry.contentRect.height;
      if (entry.contentRect.width !== this.viewWidth) {
        this.viewWidth = entry.contentRect.width;
        this.measureCells();
        this.shareWidth();
      }
      this.schedule();
    }).observe(this.scroller);
    this.setTables([]);
  }

  /** Replace the tables with a run's; keeps the selected title when it is still there,
   *  else opens on the graph as the code left it (opening()).
   *  `complete`: the run ended without error, so its values are compared with the last such
   *  run's (a run cut short leaves graphs half made, which would all look changed);
   *  `empty`: what to say when there is no table; `live`: a live re-run's tables, told
   *  in the `table-change` event's detail. */
  setTables(tables, { complete = true, empty = "", live = false } = {}) {
    const previous = this.tables[Number(this.picker.value)]?.title;
    this.comparing = complete ? this.previous : new Map();
    if (complete) this.previous = new Map(tables.map((t) => [t.title, t]));
    this.empty.textContent = empty;
    this.tables = tables;
    setTexts(this.picker, "option", tables.map((t) => `${t.title} (${nodes(t.count)})`), (i) => ({ value: String(i) }));
    const keep = tables.findIndex((t) => t.title === previous);
    this.root.classList.toggle("has-tables", tables.length > 0);
    this.select(keep >= 0 ? keep : opening(tables), { live });
  }

  select(index, { live = false } = {}) {
    this.current = this.tables[index];
    this.picker.value = String(index);
    this.before = this.comparing?.get(this.current?.title);
    this.grads = this.current?.grad;
    this.gradsBefore = this.before?.grad;
    this.made = null;
    setText(this.gradHeading, "grad");
    this.top = gradScale(this.grads ?? []);
    this.marks = { selected: null, current: null, targets: new Set() };
    const count = this.current?.count ?? 0;
    setText(this.count, this.current ? nodes(count) : "");
    setText(this.caption, this.current ? `${this.current.title}: ${nodes(count)}` : "");
    setTexts(this.notes, "li", this.current?.notes ?? []);
    this.table.setAttribute("aria-rowcount", String(count + 1));
    this.fitColumns();
    if (this.viewTop !== 0) this.scroller.scrollTop = this.viewTop = 0;
    this.redraw();
    this.root.dispatchEvent(new CustomEvent("table-change", { detail: { live } }));
  }

  /** Find how wide each column's longest text in this table is (its heading's at least),
   *  so that every number shows whole, then share the table's width (shareWidth). */
  fitColumns() {
    const t = this.current;
    if (!t) return;
    const longest = (texts, fewest) => {
      let chars = fewest;
      for (const text of texts) chars = Math.max(chars, text.length);
      return Math.min(chars, MAX_COLUMN_CHARS);
    };
    // A big table's numbers are not all written out to be measured: its columns are made
    // as wide as any number is written.
    const numbers = (column) =>
      t.count > MEASURED_ROWS ? [WIDEST_NUMBER] : t[column].map((x) => (x === null ? "" : shortNumber(x)));
    const numberChars = (column, fewest) =>
      longest([...numbers(column), ...Object.values(t.notNumbers[column])], fewest);
    this.need = {
      index: Math.max(String(t.count - 1).length, 5), // "index"
      ...this.textNeeds(t),
      data: numberChars("data", 4),
      // the grad's glyph before it; room for a replay's heading, "grad, step 12"
      grad: numberChars("grad", 9) + 2,
    };
    this.shareWidth();
  }

  /** The label's and op's columns' needs: the last table's while its labels and ops are
   *  these (a live step changes numbers), as measuring 1,000 labels takes a millisecond. */
  textNeeds(t) {
    const kept = this.keptNeeds;
    if (kept && sameItems(kept.labels, t.label) && sameItems(kept.ops, t.op)) return kept.need;
    const need = {
      label: textNeed(t.label.map((_, i) => nodeName(t, i)), 5, LABEL_CHARS),
      op: textNeed(t.op.map(opText), 2, MAX_COLUMN_CHARS),
    };
    this.keptNeeds = { labels: t.label, ops: t.op, need };
    return need;
  }

  /** Set each column's width (the label's or the op's takes what is left) and whether
   *  the op and label wrap, for the scroller's width as last laid out (column-fit.js): on
   *  a new table and when that width changes. */
  shareWidth() {
    const need = this.need;
    if (!need) return;
    let room = Infinity; // until the table is laid out
    if (this.viewWidth) {
      // Each column's padding and slack (below), in the table's font, as a width in characters.
      const { font, pad } = this.cells;
      const perColumn = 0.3 * font + 2 * pad;
      room = (this.viewWidth - COLUMNS.length * perColumn) / (CHAR_EM * font);
    }
    const shared = fit({ numbers: need.index + need.data + need.grad, label: need.label, op: need.op, room });
    this.table.classList.toggle("wrap-op", shared.wrapOp);
    this.table.classList.toggle("wrap-label", shared.wrapLabel);
    [need.index, shared.label, shared.op, need.data, need.grad].forEach((n, i) => {
      const width = n === null ? "" : `calc(${(n * CHAR_EM + 0.3).toFixed(2)}em + 2 * var(--cell-pad))`;
      if (this.columns[i].style.width !== width) this.columns[i].style.width = width;
    });
  }

  /** The table's font size and a cell's padding, in px, read as its width changes (in a
   *  ResizeObserver's callback, where the page is laid out already): read on every new
   *  table, they would have the browser lay the page out once more on every live step. */
  measureCells() {
    this.cells = {
      font: parseFloat(getComputedStyle(this.table).fontSize),
      pad: parseFloat(getComputedStyle(this.gradHeading).paddingLeft),
    };
  }

  /** Show `grads`: the table's own, or those after `step` steps of a replay of Backward
   *  (named so in the grad column's heading), or, in a replay of the tape being built,
   *  with the nodes after `made` greyed. The shading keeps the table's scale, so colours
   *  grow as the grads arrive. */
  setGrads(grads, { step = null, made = null } = {}) {
    this.grads = grads;
    this.made = made;
    const b = this.before;
    this.gradsBefore = b && (made !== null ? b.grad.map(() => 0) : step === null ? b.grad : gradsAfter(b, step));
    this.gradHeading.textContent = step === null ? "grad" : `grad, step ${step}`;
    this.redraw();
  }

  /** Mark the selected row, the node Backward is visiting and the ones it adds to. */
  setMarks(marks) {
    this.marks = { ...this.marks, ...marks };
    this.redraw();
  }

  /** Scroll row `i` into view, if it is not. */
  reveal(i) {
    const top = i * ROW_PX;
    const head = this.table.tHead.offsetHeight;
    const view = this.scroller.clientHeight - head;
    if (top < this.scroller.scrollTop) this.scroller.scrollTop = this.viewTop = top;
    else if (top + ROW_PX > this.scroller.scrollTop + view) this.scroller.scrollTop = this.viewTop = top + ROW_PX - view;
  }

  onKey(event) {
    const step = { ArrowDown: 1, ArrowUp: -1 }[event.key];
    const count = this.current?.count ?? 0;
    if (!step || count === 0) return;
    event.preventDefault();
    const from = this.marks.selected ?? (step > 0 ? -1 : count);
    this.onSelect(Math.min(count - 1, Math.max(0, from + step)));
  }

  /** Build the rows in view again, once for every change made to the table in this task
   *  (a run's result sets the table, then each stepper its grads and marks): at the end
   *  of the task, before the frame that paints them. */
  redraw() {
    this.window = null;
    this.sayWhole();
    if (this.drawing) return;
    this.drawing = true;
    queueMicrotask(() => {
      this.drawing = false;
      this.draw();
    });
  }

  /** Write the selected node's data and grad (the grads shown) whole under the table;
   *  only when they change, so a screen reader says them once. */
  sayWhole() {
    const t = this.current;
    const i = this.marks.selected;
    const shown = t && Number.isInteger(i) && i < t.count;
    const text = shown
      ? `${nodeName(t, i)} (node ${i}) in full: data ${wholeValue(t.data[i], t.notNumbers.data[i])}, ` +
        `grad ${wholeValue(this.grads[i], t.notNumbers.grad[i])}`
      : "";
    this.whole.hidden = !shown;
    setText(this.whole, text);
  }

  schedule() {
    if (this.pending) return;
    this.pending = requestAnimationFrame(() => {
      this.pending = 0;
      this.draw();
    });
  }

  /** Build the rows that are in view (and a margin), with spacers standing for the rest. */
  draw() {
    const t = this.current;
    const count = t?.count ?? 0;
    const top = this.viewTop;
    const height = this.viewHeight || 600;
    const first = Math.max(0, Math.floor(top / ROW_PX) - MARGIN_ROWS);
    const last = Math.min(count, Math.ceil((top + height) / ROW_PX) + MARGIN_ROWS);
    const key = `${first}:${last}:${count}`;
    if (this.window === key) return;
    // The same rows again (a live step's new numbers, a replay's grads): each is written
    // over, only where it shows something else, so the browser lays out and paints only
    // the cells that changed.
    if (this.drawn === key) {
      for (let i = first; i < last; i++) this.fill(this.body.rows[i - first + 1], t, i);
    } else {
      const rows = [];
      for (let i = first; i < last; i++) rows.push(this.fill(emptyRow(), t, i));
      this.body.replaceChildren(spacer(first * ROW_PX), ...rows, spacer((count - last) * ROW_PX));
    }
    this.window = this.drawn = key;
  }

  /** Make row `tr` show node i, writing only what it does not show already. */
  fill(tr, t, i) {
    const [index, label, op, data, grad] = tr.cells;
    const changes = this.changes(i);
    const mark = (column) => (changes[column] ? " changed" : "");
    setText(index, String(i));
    const name = nodeName(t, i);
    const labelled = Boolean(t.label[i]);
    write(label, `label${labelled ? "" : " unlabelled"}${mark("label")}`,
      labelled ? t.fullLabel?.[i] ?? name : `no label: ${name} is node ${i}`, name, wrapping);
    write(op, `op${mark("op")}`, opText(t.op[i]), opText(t.op[i]), wrapping); // whole on hover
    writeNumber(data, "data", mark("data"), t.data[i], t.notNumbers.data[i]);
    writeNumber(grad, "grad", mark("grad"), this.grads[i], t.notNumbers.grad[i]);
    shade(grad, this.grads[i], this.top);
    setAttribute(tr, "data-node", String(i));
    setAttribute(tr, "aria-rowindex", String(i + 2));
    setAttribute(tr, "aria-selected", String(this.marks.selected === i));
    tr.classList.toggle("current", this.marks.current === i);
    tr.classList.toggle("target", this.marks.targets.has(i));
    tr.classList.toggle("unmade", this.made !== null && i > this.made);
    return tr;
  }

  /** Which of node i's cells show another value than the previous run's table of this
   *  name showed (every cell of a node it did not have); none without such a table. */
  changes(i) {
    const t = this.current;
    const b = this.before;
    if (!b || !t) return { label: false, op: false, data: false, grad: false };
    const differs = (column, now, then) =>
      i >= b.count || then[i] !== now[i] || t.notNumbers[column]?.[i] !== b.notNumbers[column]?.[i];
    return {
      label: differs("label", t.label, b.label),
      op: differs("op", t.op, b.op),
      data: differs("data", t.data, b.data),
      grad: !this.gradsBefore || differs("grad", this.grads, this.gradsBefore),
    };
  }

  /** True if any of node i's cells shows a changed value: the picture's Δ on its box. */
  changed(i) {
    return Object.values(this.changes(i)).some(Boolean);
  }
}

/** The table a run opens on: the first graph its globals held as the code ended (the graph
 *  as the code left it, its grads after Backward), else show()'s last snapshot. */
function opening(tables) {
  const left = tables.findIndex((t) => !t.snapshot);
  return left >= 0 ? left : Math.max(tables.length - 1, 0);
}

function sameItems(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** A cell's text, which breaks onto the row's two lines when its column wraps. */
function wrapping(text) {
  return element("span", {}, breakable(text));
}

/** What the nodes panel says when a run left no graph: why, in the run's own terms. */
export function noGraphNote(result) {
  const { status, line } = result;
  if (status === "stopped") return "Stopped before the code made a graph.";
  if (status !== "error") return "This code made no graph.";
  const kind = errorKind(result);
  if (kind === null) return "No graph: the output says why."; // the page's own message
  const where = line ? ` on line ${line}` : "";
  if (nothingRan(result)) return `${kind}${where}: nothing ran.`;
  return `${kind}${where}, before the code made a graph.`;
}

/** Whether `result` is of code Python refused before running any of it (a SyntaxError). */
export function nothingRan(result) {
  return result.status === "error" && COMPILE_ERRORS.has(errorKind(result)) && !/, in </.test(result.error ?? "");
}

/** The exception's name, as Python's last line of a traceback starts ("ZeroDivisionError:
 *  ...", "KeyboardInterrupt"); null for the page's own messages, which are prose. */
function errorKind({ error }) {
  return /^(\w+)(?::|$)/.exec((error ?? "").trim().split("\n").at(-1))?.[1] ?? null;
}

function nodes(count) {
  return `${counted(count)} ${count === 1 ? "node" : "nodes"}`;
}

/** Make `cell` a `className` cell with `title` on hover that says `text`, as `content`
 *  writes it; each written only where the cell has something else. */
function write(cell, className, title, text, content = (words) => words) {
  setAttribute(cell, "class", className);
  setAttribute(cell, "title", title);
  if (cell.textContent !== text) cell.replaceChildren(content(text));
}

/** Make `cell` show `column`'s value (with `mark` after its class): the number, or for
 *  a value that is not one (null), its text. */
function writeNumber(cell, column, mark, value, text) {
  if (value === null && text !== undefined) write(cell, `${column} not-number${mark}`, `${text}: not a number`, text);
  else write(cell, column + mark, fullNumber(value), shortNumber(value));
}

/** A data or grad written whole: a number's repr, or the text of what is not one. */
function wholeValue(value, notNumber) {
  return value === null ? (notNumber ?? "") : fullNumber(value);
}

/** A row of empty cells, for fill(). */
function emptyRow() {
  return element("tr", {}, [element("th", { scope: "row" }), ...COLUMNS.slice(1).map(() => element("td"))]);
}

function spacer(px) {
  const cell = element("td", { colSpan: COLUMNS.length });
  cell.style.height = `${px}px`;
  const tr = element("tr", { className: "spacer" }, [cell]);
  tr.setAttribute("aria-hidden", "true");
  return tr;
}
