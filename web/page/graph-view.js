// The picture of a graph: a box per value (name, data, grad; a leaf's op, None) and an ellipse
// per op, with edges from operands through the op to its result. Graphviz
// (in a worker, see layout.js) lays the nodes out from their sizes alone; the
// drawing is built here with learner text only ever set as textContent.
//
// Past FULL_LIMIT nodes, or when the whole graph takes longer to lay out than
// deadlines.wholePictureMs, the picture shows the neighbourhood of one node (the selected one, else the
// one Backward is visiting, else its root, else the last) and says so. A data or grad
// that is not a number shows as its text; an op's operand that is not a node of the
// graph has no edge, and the note says so.
//
// A graph of more than OPS_APART_UP_TO nodes is drawn compact, each op's name in its
// result's box (where a leaf's None is) instead of an ellipse of its own, so that about
// twice as many boxes fit at a size that reads. A whole graph flows left to right or top
// to bottom, whichever shows more of it at its own size (12 px text); one that is
// taller than its frame has the frame grow to its height, up to the height the page
// gives (roomHeight), the results scrolling; in a narrow playground (prose.css) the frame
// is always as tall as the drawing, the page scrolling. One that still does not fit is
// drawn at its own size around the node that matters, pans, and says so.
//
// Past FOLD_ABOVE nodes, a whole graph's groups (groups.js: nodes that share a label's
// prefix, as an engine.nn neuron's do) are folded, each into one box that shows its
// last node's data and grad; a click on it, or Enter, opens it, and Fold all folds
// every group again. Selecting a node of a folded group opens its group.
//
// By keyboard the picture is one tab stop, a listbox of the value boxes (roving
// tabindex: the focused box is the one in the tab order). The arrow keys move
// from box to box in index order, the table's; Enter or Space selects.
//
// A live step's picture of a graph too big to draw whole waits for the steps to pause
// (deadlines.livePictureSettleMs), so that the table follows each step at once.
// A picture is laid out once Python has no runs to do: a course page's runs, queued
// together, all end before the first picture takes the CPU from them. It is drawn once
// Python has none either: a run begun while Graphviz was at it (a live step's next) has
// its result painted first.
//
// data-state on the root: empty | laying-out | drawn | failed.

import { element } from "./dom.js";
import { counted, isLeaf, nodeName, opText, shortNumber } from "./format.js";
import { gradScale, shade } from "./grad-scale.js";
import { deadlines } from "./deadlines.js";
import { groupsOf } from "./groups.js";
import { layout } from "./layout.js";
import { MARGIN, PanZoom } from "./panzoom.js";

const FULL_LIMIT = 200;
const FOLD_ABOVE = 30; // nodes: a bigger whole graph is drawn with its groups folded
const OPS_APART_UP_TO = 9; // nodes: a bigger graph's ops are named in their results' boxes
const NEIGHBOURHOOD = 40;
const SVG = "http://www.w3.org/2000/svg";
const POINTS = 72; // Graphviz sizes are in inches, positions in points
const CHAR_PT = 7.25; // 12px monospace (0.6em), a little over, so no text overflows its box
// A box's line height and Graphviz's spacing, in points: roomy, or compact (see above).
const ROOMY = { line: 16, nodesep: 0.2, ranksep: 0.25 };
const COMPACT = { line: 14, nodesep: 0.15, ranksep: 0.2 };
const GLYPHS = { pos: "▲ ", neg: "▼ " };
const MAX_CHARS = 32; // of a name in a box; the table and the box's tooltip have it whole
const KEYS_HELP =
  "Arrow keys move from node to node in the order the code made them, the table's order; " +
  "Home and End go to the first and the last. Enter or Space selects the node, in the table and the code, " +
  "or opens a folded group. " +
  "Shift with an arrow key pans; + and - zoom; 0 fits the picture.";

export class GraphView {
  /** @param {{idle: boolean, whenIdle: () => Promise<void>}} python whether Python has no
   *  runs to do, and a promise of when it has none (runtime.js's Runtime) */
  constructor(python = { idle: true, whenIdle: () => Promise.resolve() }) {
    this.python = python;
    this.roomHeight = () => 0; // how tall the picture may grow, bar and all: the page's to say
    this.onSelect = () => {}; // (node index) when the learner clicks a node
    this.active = null; // the node whose box is in the tab order, kept across drawings
    this.opened = new Set(); // the keys of the groups the learner opened, kept across runs
    this.opening = null; // the last node of a group being opened, which its drawing shows
    this.note = element("p", { className: "picture-note" });
    this.frame = element("div", { className: "picture-frame" });
    this.frame.setAttribute("role", "listbox");
    this.frame.setAttribute("aria-label", "Picture of the graph");
    this.frame.setAttribute("aria-describedby", "picture-keys");
    const zoomButton = (text, title, action) => {
      const b = element("button", { type: "button", textContent: text, title, ariaLabel: title });
      b.addEventListener("click", action);
      return b;
    };
    this.panzoom = new PanZoom(this.frame);
    this.root = element("div", { className: "picture" }, [
      element("div", { className: "picture-bar" }, [
        (this.legend = legend()),
        zoomButton("+", "Zoom in", () => this.panzoom.zoom(1.25)),
        zoomButton("−", "Zoom out", () => this.panzoom.zoom(0.8)),
        zoomButton("Fit", "Fit the picture", () => this.panzoom.fit()),
        (this.foldButton = zoomButton("Fold all", "Fold every group again", () => this.foldAll())),
      ]),
      this.note,
      this.frame,
      element("p", { id: "picture-keys", hidden: true, textContent: KEYS_HELP }),
    ]);
    this.frame.addEventListener("click", (event) => {
      const node = event.target.closest?.("[data-node]");
      if (node && !this.panzoom.dragged) this.choose(Number(node.dataset.node));
    });
    this.frame.addEventListener("keydown", (event) => this.onKey(event));
    this.frame.addEventListener("focusin", (event) => {
      const node = event.target.closest?.("[data-node]");
      if (node) this.activate(Number(node.dataset.node), true);
    });
    this.show(null);
  }

  /** Say where the drawing is (empty, laying-out, drawn, failed), to the element too. */
  setState(state) {
    if (state !== "laying-out") delete this.frame.dataset.waiting;
    this.root.dataset.state = state;
    this.onState?.(state);
  }

  /** Picture `table` (a runner table, or null for none), with its own grads; a `live`
   *  step's neighbourhood once the steps pause (deadlines.livePictureSettleMs); where
   *  `after` is given ({until: a promise, why}), not before `until` settles, an empty
   *  frame saying `why` meanwhile. */
  show(table, changed = () => false, { live = false, after = null } = {}) {
    this.ticket = null; // a drawing of the table before is no longer wanted
    this.table = table;
    this.changed = changed;
    this.users = null;
    this.nodes = null; // the value nodes of the latest drawing asked for
    this.boxes = null; // value node -> its drawn parts, once drawn
    this.order = []; // the drawn value nodes in index order, as the arrow keys visit them
    // A keyboard user in the picture keeps their place in the next drawing (a run from it).
    this.refocus = this.frame.contains(this.frame.getRootNode().activeElement ?? null);
    this.whole = table !== null && table.count <= FULL_LIMIT;
    this.grads = table?.grad ?? [];
    this.top = gradScale(this.grads);
    this.marks = { selected: null, current: null, targets: new Set(), made: null };
    this.groups = this.whole && table.count > FOLD_ABOVE ? groupsOf(table) : new Map();
    this.groupOf = new Map([...this.groups.values()].flatMap((g) => g.members.map((i) => [i, g])));
    this.foldButton.hidden = true;
    const drawable = table?.count > 0;
    this.root.hidden = !drawable; // no graph (or no node), no picture
    this.note.textContent = "";
    this.setState("empty");
    // The drawing before stays until this table's replaces it: a live step's picture
    // changes from one drawing to the next, with no empty frame between.
    if (drawable) this.draw({ settle: live && !this.whole, after });
    else this.frame.replaceChildren();
  }

  setGrads(grads) {
    this.grads = grads;
    this.paint();
  }

  /** Mark the selected node, the node Backward visits and the ones it adds to, and in a
   *  replay of the tape the nodes not yet `made`; a big graph's picture moves to the
   *  neighbourhood of the node that now matters. */
  setMarks(marks) {
    this.marks = { ...this.marks, ...marks };
    if (Number.isInteger(marks.selected)) this.activate(marks.selected); // where Tab comes back to
    const hidden = this.folded(this.marks.selected ?? this.marks.current);
    if (hidden && this.boxes) this.open(hidden); // the node that matters is drawn, not folded
    else if (this.nodes && !this.nodes.has(this.focus())) this.draw();
    else this.paint();
  }

  focus() {
    const t = this.table;
    const i = this.marks.selected ?? this.marks.current ?? t.root ?? t.count - 1;
    return this.folded(i)?.out ?? i; // a folded node's group's box
  }

  /** The folded group node i is in, or undefined. */
  folded(i) {
    const group = this.groupOf?.get(i);
    return group && !this.opened.has(group.key) ? group : undefined;
  }

  /** A click, or Enter, on box i: a folded group opens; a node is selected. */
  choose(i) {
    const group = this.folded(i);
    if (group) this.open(group);
    else this.onSelect(i);
  }

  open(group) {
    this.opened.add(group.key);
    this.opening = group.out; // the next drawing shows it
    this.activate(group.out);
    this.refocus = this.frame.contains(this.frame.getRootNode().activeElement ?? null);
    this.draw();
  }

  foldAll() {
    this.opened.clear();
    this.draw();
  }

  /** The value nodes to draw: all of them, or a neighbourhood. */
  pick() {
    const t = this.table;
    if (this.whole) return new Set(t.args.keys());
    this.users ??= usersOf(t.args);
    return neighbourhood(this.focus(), t.args, this.users, NEIGHBOURHOOD);
  }

  async draw({ settle = false, after = null } = {}) {
    const ticket = (this.ticket = {});
    this.setState("laying-out");
    if (settle) await new Promise((resolve) => setTimeout(resolve, deadlines.livePictureSettleMs));
    if (after) {
      if (!this.frame.firstChild) this.frame.dataset.waiting = after.why; // not a child: not an option
      await after.until;
    }
    if (!(await this.afterRuns(ticket))) return;
    const t = this.table;
    const nodes = (this.nodes = this.pick());
    const part = this.whole
      ? ""
      : `Showing ${nodes.size} of ${counted(t.count)} nodes: the neighbourhood of node ${this.focus()}. ` +
        "The table has them all; select a row to see around it.";
    this.note.textContent = [part, missingOperands(t)].filter(Boolean).join(" ");
    const folded = (i) => this.folded(i);
    const look = nodes.size > OPS_APART_UP_TO ? COMPACT : ROOMY;
    let laidOut;
    let graph; // what laidOut is the layout of
    // The layout on screen, if it holds this graph: a live step that changed numbers only.
    const drawn = this.drawn?.graph;
    const same = drawn && graphObject(t, nodes, drawn.graphAttributes.rankdir, folded, look);
    try {
      const ms = this.whole ? deadlines.wholePictureMs : deadlines.neighbourhoodMs;
      if (same && holds(drawn, same)) [laidOut, graph] = [this.drawn.laidOut, drawn];
      // The preferred flow, and if it does not show whole at its own size, the other too.
      for (const flow of laidOut ? [] : this.flows()) {
        const asked = graphObject(t, nodes, flow, folded, look);
        const next = await layout(asked, ms);
        if (!laidOut || this.shown(next) > this.shown(laidOut) + 0.01) [laidOut, graph] = [next, asked];
        if (this.shown(laidOut) === 1) break;
      }
    } catch (error) {
      if (ticket !== this.ticket) return;
      if (this.whole) {
        this.whole = false; // too tangled to lay out whole: show around one node instead
        this.groups = new Map(); // and unfolded: a neighbourhood has room for its nodes
        this.groupOf = new Map();
        return this.draw();
      }
      this.frame.replaceChildren();
      this.note.textContent = `The picture could not be drawn: ${error.message ?? error}`;
      this.setState("failed");
      return;
    }
    if (ticket !== this.ticket) return; // a newer table or focus came meanwhile
    // A run begun while Graphviz was at it (a live step's next) comes first too: its
    // result is painted before this drawing takes the main thread, and replaces it.
    if (!this.python.idle && !(await this.afterRuns(ticket))) return;
    const { svg, width, height, boxes } = drawing(t, laidOut, folded, look);
    const foldedCount = [...this.groups.values()].filter((g) => !this.opened.has(g.key)).length;
    this.foldButton.hidden = this.opened.size === 0;
    const folds = foldedCount
      ? `${foldedCount} of its ${this.groups.size} groups of nodes are folded, each into one box (nodes that share ` +
        "their label up to its last . or _, as a neuron's do): click one, or press Enter on it, to open it."
      : "";
    this.note.textContent = [folds, this.note.textContent].filter(Boolean).join(" ");
    this.boxes = boxes;
    this.order = [...boxes.keys()].sort((a, b) => a - b);
    const opened = this.opening !== null;
    const around = this.opening ?? this.focus(); // a group just opened, else the node that matters
    this.opening = null;
    const focus = boxes.get(around);
    // The layout on screen again, around the same node (a live step that changed numbers
    // only): the new drawing takes the old one's place in the view the learner left it
    // in, the frame as it is, with nothing of the page measured (each measure would lay
    // the page out again, on every step).
    const again = this.drawn?.laidOut === laidOut && this.drawn.around === around &&
      this.frame.firstChild === this.drawn.svg;
    if (again) {
      this.panzoom.swap(svg);
      this.frame.replaceChildren(svg);
    } else {
      this.frame.replaceChildren(svg);
      this.grow(this.tallAsDrawing() ? 0 : height + 2 * MARGIN);
      this.panzoom.attach(svg, width, height);
      // The height a narrow playground's frame takes on (prose.css).
      this.frame.style.setProperty("--drawing-height", `${Math.ceil(this.panzoom.heightInWidth())}px`);
    }
    // A neighbourhood's point is its centre; a whole graph that would be fitted with its
    // text under 11 px is drawn at its own size (12 px) around its node that matters,
    // and says so.
    const unreadable = again ? this.drawn.unreadable : this.whole && !this.panzoom.fitsReadable();
    this.drawn = { graph, laidOut, around, svg, unreadable };
    if (unreadable) {
      this.note.textContent = [folds, `Drawn at its own size, around node ${around}, so that its text reads: ` +
        "drag to pan, or Fit to see the whole graph, smaller.", missingOperands(t)].filter(Boolean).join(" ");
    }
    // After the note, which may take a line from the frame's height.
    if (focus && !again && (!this.whole || unreadable)) this.panzoom.centre(focus.x, focus.y);
    // The group the learner opened stays on the screen, in a frame grown past it too.
    if (focus && opened) focus.group.scrollIntoView({ block: "nearest" });
    this.activate(boxes.has(this.active) ? this.active : this.focus());
    if (this.refocus && document.activeElement === document.body) {
      boxes.get(this.active).group.focus({ preventScroll: true }); // its old box went with the old drawing
    }
    this.refocus = false;
    this.paint();
    this.setState("drawn");
  }

  /** Wait for Python to have no runs to do (a course page's, queued together: Graphviz
   *  and the drawing would take the CPU from Python and the page's main thread), then for
   *  the page to paint their results: the picture never delays a run's result. Whether
   *  the drawing `ticket` is still wanted then. */
  async afterRuns(ticket) {
    await this.python.whenIdle();
    await afterPaint();
    return ticket === this.ticket;
  }

  /** Whether the frame takes the drawing's own height, the page scrolling (prose.css). */
  tallAsDrawing() {
    return getComputedStyle(this.frame).getPropertyValue("--picture-fit").trim() === "whole";
  }

  /** The Graphviz rankdirs to try, the preferred first: as the CSS's --picture-flow says
   *  (a narrow playground's picture flows down the page, prose.css), else along the
   *  frame's longer side; for a whole graph, the other too. */
  flows() {
    const preferred = getComputedStyle(this.frame).getPropertyValue("--picture-flow").trim() ||
      (this.frame.clientWidth > 1.5 * this.frame.clientHeight ? "LR" : "TB");
    return this.whole ? [preferred, preferred === "LR" ? "TB" : "LR"] : [preferred];
  }

  /** The share of a layout that shows at its own size in the frame's width and the
   *  height the frame may grow to (1: all of it). */
  shown(laidOut) {
    const [, , w, h] = laidOut.bb.split(",").map(Number);
    const tall = this.tallAsDrawing() ? Infinity : Math.max(this.frame.clientHeight, this.room());
    return Math.min(1, this.frame.clientWidth / (w + 2 * MARGIN)) * Math.min(1, tall / (h + 2 * MARGIN));
  }

  /** How tall the frame may grow: the page's room for the picture less its bar and note. */
  room() {
    const above = this.frame.getBoundingClientRect().top - this.root.getBoundingClientRect().top;
    return this.roomHeight() - above;
  }

  /** Let the frame grow to `wanted` px, the drawing's own height, if it is taller than
   *  the frame's share of the page and the page has room (graph.css: .picture.grown). */
  grow(wanted) {
    this.root.classList.remove("grown");
    const height = Math.min(wanted, this.room());
    const grown = height > this.frame.clientHeight;
    const border = this.frame.offsetHeight - this.frame.clientHeight;
    this.root.classList.toggle("grown", grown);
    if (grown) this.frame.style.setProperty("--frame-height", `${Math.floor(height + border)}px`);
  }

  /** Bring the drawn boxes up to date with the grads and marks. */
  paint() {
    if (!this.boxes) return;
    const { selected, current, targets, made } = this.marks;
    const unmade = (i) => made !== null && made !== undefined && i > made;
    for (const [i, box] of this.boxes) {
      box.group.classList.toggle("unmade", unmade(i));
      const sign = shade(box.group, this.grads[i], this.top);
      box.grad.textContent = `grad ${GLYPHS[sign] ?? ""}${valueText(this.table, "grad", i, this.grads[i])}`;
      box.group.classList.toggle("selected", selected === i);
      box.group.classList.toggle("current", current === i);
      box.group.classList.toggle("target", targets.has(i));
      box.group.classList.toggle("changed", this.changed(i));
      box.group.setAttribute("aria-selected", String(selected === i));
      const folded = this.folded(i);
      const words = spoken(this.table, i, this.grads[i], box.group.classList, box.tag);
      box.group.setAttribute("aria-label", folded ? `${foldName(folded)}, folded: press Enter to open. Its last, ${words}` : words);
    }
    // The legend names only the marks the picture shows.
    const shown = [...this.boxes.keys()];
    this.legend.grads.hidden = !shown.some((i) => this.grads[i] !== 0 && this.grads[i] !== null);
    this.legend.changed.hidden = !shown.some((i) => this.changed(i));
    for (const edge of this.frame.querySelectorAll("path.edge")) {
      // Into the op of the node Backward visits: its ellipse's, or (compact) its box's.
      const into = edge.dataset.head === `op${current}` || (edge.dataset.head === `v${current}` && !edge.dataset.tail.startsWith("op"));
      edge.classList.toggle("active", current !== null && into);
      edge.classList.toggle("unmade", unmade(Number(edge.dataset.head.replace(/^(v|op)/, ""))));
    }
    for (const op of this.frame.querySelectorAll("g.op")) op.classList.toggle("unmade", unmade(Number(op.dataset.op)));
    const focus = this.boxes.get(this.marks.selected ?? this.marks.current);
    if (focus) this.panzoom.show(focus.x, focus.y);
  }

  /** Make box `i` the picture's tab stop (once it is drawn); `reveal`: it has focus, so
   *  pan it into view. */
  activate(i, reveal = false) {
    this.boxes?.get(this.active)?.group.setAttribute("tabindex", "-1");
    this.active = i;
    const box = this.boxes?.get(i);
    if (!box) return; // not drawn yet: draw() makes it the tab stop
    box.group.setAttribute("tabindex", "0");
    if (reveal) this.panzoom.show(box.x, box.y);
  }

  /** Arrow keys, Home and End move the focus from box to box; Enter or Space selects. */
  onKey(event) {
    if (!this.boxes || event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return;
    const at = this.order.indexOf(this.active);
    const last = this.order.length - 1;
    const moves = { ArrowLeft: at - 1, ArrowUp: at - 1, ArrowRight: at + 1, ArrowDown: at + 1, Home: 0, End: last };
    if (event.key in moves) {
      const i = this.order[Math.max(0, Math.min(last, moves[event.key]))];
      this.boxes.get(i).group.focus({ preventScroll: true }); // focusin makes it the active box
    } else if (event.key === "Enter" || event.key === " ") {
      this.choose(this.active);
    } else {
      return;
    }
    event.preventDefault();
  }
}

/** Value node i as a screen reader says it: "node 3, #3, data -6.0, grad 0.00134, Mul of 0
 *  and 1", "node 0, a, data 2.0, grad ..., None", compact "node 13, #13, data ..., grad
 *  ..., Mul". The box's own text (name, data, grad, its tag: a leaf's op or a compact box's
 *  op, Δ) comes first and in its order (drawing's), so that the words a learner sees are
 *  the words that name it (and voice control finds it by them). */
function spoken(t, i, grad, marks, tag) {
  const [, name, operands] = /^([^(]*)\((.*)\)$/.exec(t.op[i]) ?? [];
  return [
    `node ${i}`,
    boxName(t, i),
    `data ${valueText(t, "data", i)}`,
    `grad ${valueText(t, "grad", i, grad)}`,
    tag, // as the box writes it beside the name: a leaf's None, or (compact) the op's name
    marks.contains("changed") && "Δ changed since the last run",
    name !== undefined && `${name} of ${operands.split(", ").join(" and ")}`,
    marks.contains("current") && "Backward is visiting it",
    marks.contains("target") && "Backward adds to its grad",
  ]
    .filter(Boolean)
    .join(", ");
}

/** What the shades and marks mean, in words, and how to move the picture (by touch on a
 *  touch screen: the CSS shows one of the two); `grads` and `changed` are its parts
 *  that paint() hides while the picture has no such mark. */
function legend() {
  const grads = element("span", {}, [
    "grad: ",
    element("span", { className: "pos", textContent: "▲ positive" }),
    " ",
    element("span", { className: "neg", textContent: "▼ negative" }),
    ", stronger for bigger. ",
  ]);
  const changed = element("span", { textContent: "Δ: changed since the last run. " });
  const root = element("p", { className: "legend" }, [
    grads,
    changed,
    element("span", { className: "by-mouse", textContent: "Drag to pan; Ctrl+wheel, a pinch or + and − zoom." }),
    element("span", { className: "by-touch", textContent: "Drag to pan; a pinch or + and − zoom." }),
  ]);
  return Object.assign(root, { grads, changed });
}

function afterPaint() {
  return new Promise((done) => requestAnimationFrame(() => setTimeout(done)));
}

/** For each node, the nodes that use it as an operand. */
function usersOf(args) {
  const users = args.map(() => []);
  args.forEach((operands, i) => {
    for (const a of operands) users[a]?.push(i);
  });
  return users;
}

/** Up to `limit` nodes nearest `centre`, going both ways along edges. */
function neighbourhood(centre, args, users, limit) {
  const found = new Set([centre]);
  let ring = [centre];
  while (ring.length && found.size < limit) {
    const next = [];
    for (const i of ring) {
      for (const j of [...(args[i] ?? []), ...(users[i] ?? [])]) {
        if (found.size >= limit) break;
        if (!found.has(j) && j >= 0 && j < args.length) {
          found.add(j);
          next.push(j);
        }
      }
    }
    ring = next;
  }
  return found;
}

/** The lines of value node i's box: its name (with room for the Δ mark and its tag at
 *  its end), data and grad. */
function valueLines(t, i, grad, look) {
  const tag = opTag(t, i, look);
  return [`${boxName(t, i)}  Δ${tag && ` ${tag}`}`, `data ${valueText(t, "data", i)}`, `grad ${GLYPHS.pos}${valueText(t, "grad", i, grad)}`];
}

/** What node i's box writes after its name: a leaf's op, None; in a compact drawing
 *  any op's name (else an op that is not None has an ellipse of its own). */
function opTag(t, i, look) {
  if (isLeaf(t.op[i])) return opText(t.op[i]);
  return look === COMPACT ? opName(t, i) : "";
}

/** Node i's data or grad (`value`, the table's own unless given) as the box writes it:
 *  a number, short, or the text of what is not one. */
function valueText(t, column, i, value = t[column][i]) {
  return value === null ? clip(t.notNumbers[column][i] ?? "") : shortNumber(value);
}

/** What the note says of ops whose operands are not all nodes of the graph. */
function missingOperands(t) {
  const [first, ...more] = t.missingOperands;
  if (first === undefined) return "";
  const others = more.length ? ` (and ${counted(more.length)} more ops)` : "";
  return `Node ${first}'s op names what is not a node of this graph${others}: no edge is drawn from it.`;
}

/** Node i's name as its box writes it: clipped. */
function boxName(t, i) {
  return clip(nodeName(t, i));
}

function opName(t, i) {
  return clip(t.op[i].split("(")[0]);
}

function clip(text) {
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS - 1)}…` : text;
}

/** A folded group's name, as its box writes it: "L1.n2 · 9 nodes". */
function foldName(group) {
  return `${clip(group.key)} · ${group.members.length} nodes`;
}

/** Graphviz's input, flowing along `rankdir` (LR or TB, to suit the frame): nodes sized
 *  to fit their text, with no label of their own, so no learner text reaches Graphviz.
 *  A node of a group that `folded` names is drawn as its group's box, v<its last node>,
 *  and the edges to and from the group's nodes go to and from that box. An op is an
 *  ellipse between its operands and its result, or in a `look` that is COMPACT, the
 *  operands' edges go to the result's box. */
function graphObject(t, nodes, rankdir, folded, look) {
  const inches = (pt) => (pt / POINTS).toFixed(3);
  const gvNodes = [];
  const edges = new Map(); // "tail head" -> the edge, each once
  const boxOf = (i) => `v${folded(i)?.out ?? i}`;
  const edge = (tail, head) => tail !== head && edges.set(`${tail} ${head}`, { tail, head });
  for (const i of [...nodes].sort((a, b) => a - b)) {
    const group = folded(i);
    if (!group || group.out === i) {
      const lines = valueLines(t, i, t.grad[i], look);
      if (group) lines[0] = foldName(group);
      const width = Math.max(...lines.map((l) => l.length)) * CHAR_PT + 16;
      gvNodes.push({ name: `v${i}`, attributes: { shape: "box", width: inches(width), height: inches(3 * look.line + 8) } });
    }
    if (isLeaf(t.op[i])) continue;
    const head = group || look === COMPACT ? boxOf(i) : `op${i}`;
    if (head.startsWith("op")) {
      gvNodes.push({ name: head, attributes: { shape: "ellipse", width: inches(opName(t, i).length * CHAR_PT + 22), height: inches(24) } });
      edge(head, `v${i}`);
    }
    for (const a of t.args[i]) if (nodes.has(a)) edge(boxOf(a), head);
  }
  return {
    graphAttributes: { rankdir, nodesep: look.nodesep, ranksep: look.ranksep },
    nodeAttributes: { label: "", fixedsize: true },
    nodes: gvNodes,
    edges: [...edges.values()],
  };
}

/** Whether the layout of graph object `drawn` holds graph object `next`: the same nodes,
 *  edges and spacing, no box wider. (A number a character shorter keeps its box.) */
function holds(drawn, next) {
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  if (!same(drawn.edges, next.edges) || !same(drawn.graphAttributes, next.graphAttributes)) return false;
  if (drawn.nodes.length !== next.nodes.length) return false;
  return drawn.nodes.every(({ name, attributes: { width, ...rest } }, k) => {
    const { width: nextWidth, ...nextRest } = next.nodes[k].attributes;
    return next.nodes[k].name === name && same(rest, nextRest) && Number(nextWidth) <= Number(width);
  });
}

function svgElement(tag, attributes = {}) {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, String(value));
  return el;
}

function svgText(x, y, text, className) {
  const el = svgElement("text", { x, y, class: className });
  el.textContent = text;
  return el;
}

/** Draw Graphviz's layout: returns the svg, its size, and each value box's parts. */
function drawing(t, layout, folded, look) {
  const LINE_PT = look.line;
  const [, , width, height] = layout.bb.split(",").map(Number);
  const point = (text) => {
    const [x, y] = text.split(",").map(Number);
    return [x, height - y];
  };
  const svg = svgElement("svg", { class: "graph", preserveAspectRatio: "xMidYMid meet", role: "none" });
  const edgeLayer = svgElement("g", { class: "edges", "aria-hidden": "true" }); // the boxes' names say it
  const nodeLayer = svgElement("g", { class: "nodes", role: "none" });
  svg.append(edgeLayer, nodeLayer);
  const names = [];
  const boxes = new Map();
  for (const node of layout.objects ?? []) {
    names[node._gvid] = node.name;
    const [x, y] = point(node.pos);
    const w = Number(node.width) * POINTS;
    const h = Number(node.height) * POINTS;
    const i = Number(node.name.replace(/^(v|op)/, ""));
    if (node.name.startsWith("op")) {
      const group = svgElement("g", { class: "op", "data-op": i, "aria-hidden": "true" }); // its box names it
      group.append(
        svgElement("ellipse", { cx: x, cy: y, rx: w / 2, ry: h / 2 }),
        svgText(x, y + 4, opName(t, i), "op-name"),
      );
      group.append(titled(t.op[i]));
      nodeLayer.append(group);
      continue;
    }
    const fold = folded(i);
    const group = svgElement("g", { class: fold ? "value fold" : "value", "data-node": i, role: "option", tabindex: -1 });
    if (fold) group.dataset.group = fold.key;
    const tag = fold ? "" : opTag(t, i, look); // beside its name
    const left = x - w / 2 + 8;
    const top = y - h / 2;
    const grad = svgText(left, top + 4 + 3 * LINE_PT - 3, "", "grad-line");
    group.append(
      svgElement("rect", { x: x - w / 2 - 4, y: top - 4, width: w + 8, height: h + 8, rx: 7, class: "ring" }),
      svgElement("rect", { x: x - w / 2, y: top, width: w, height: h, rx: 4 }),
      // Spaces between the lines, which draw nothing but keep their words apart for
      // whatever reads the box's text as one string (the name checks do). The tag, at the
      // right of the name's line, comes after the lines at the left, as in its spoken name:
      // a frame's edge that cuts the box hides it or them, and what shows reads in order.
      svgText(left, top + 4 + LINE_PT - 3, fold ? foldName(fold) : boxName(t, i), "name-line"),
      " ",
      svgText(left, top + 4 + 2 * LINE_PT - 3, `data ${valueText(t, "data", i)}`, "data-line"),
      " ",
      grad,
      " ",
      ...(tag ? [svgText(x + w / 2 - 6, top + 4 + LINE_PT - 3, tag, "op-tag"), " "] : []),
      svgText(x + w / 2 - 6 - (tag ? (tag.length + 1) * CHAR_PT : 0), top + 4 + LINE_PT - 3, "Δ", "changed-mark"),
      titled(fold ? `${foldName(fold)}, folded: click to open; data and grad of its last, ${nodeName(t, i)}`
        : `${nodeName(t, i)}: node ${i}${t.line[i] ? `, made on line ${t.line[i]}` : ""}`),
    );
    nodeLayer.append(group);
    boxes.set(i, { group, grad, x, y, tag });
  }
  for (const edge of layout.edges ?? []) {
    const tail = names[edge.tail];
    const head = names[edge.head];
    const path = svgElement("path", { class: "edge", d: edgePath(edge.pos, point), "data-tail": tail, "data-head": head });
    edgeLayer.append(path);
  }
  return { svg, width, height, boxes };
}

function titled(text) {
  const title = svgElement("title");
  title.textContent = text;
  return title;
}

/** An SVG path for a Graphviz edge `pos` ("e,x,y p1 p2 p3 p4 ..."): the B-spline, then the
 *  arrow's shaft and head up to the end point. */
function edgePath(pos, point) {
  const parts = pos.split(" ");
  const end = parts[0].startsWith("e,") ? point(parts.shift().slice(2)) : null;
  const spline = parts.map(point);
  let d = `M${spline[0]}`;
  for (let k = 1; k + 2 < spline.length; k += 3) d += ` C${spline[k]} ${spline[k + 1]} ${spline[k + 2]}`;
  if (end) {
    const [x0, y0] = spline[spline.length - 1];
    const [x1, y1] = end;
    const len = Math.hypot(x1 - x0, y1 - y0) || 1;
    const [nx, ny] = [(y0 - y1) / len, (x1 - x0) / len];
    d += ` L${end} M${x0 + nx * 3.5},${y0 + ny * 3.5} L${end} L${x0 - nx * 3.5},${y0 - ny * 3.5}`;
  }
  return d;
}
