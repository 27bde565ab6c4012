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
// Past FOLD_ABOVE nodes, a whole graph's groups (groups.js: nodes that share a label's
// prefix, as an engine.nn neuron's do) are folded, each into one box that shows its
// last node's data and grad; a click on it, or Enter, opens it, and Fold all folds
// every group again. Selecting a node of a folded group opens its group.
//
// By keyboard the picture is one tab stop, a listbox of the value boxes (roving
// tabindex: the focused box is the one in the tab order). The arrow keys move
// from box to box in index order, the table's; Enter or Space selects.
//
// A picture is laid out once Python has no runs to do: a course page's runs, queued
// together, all end before the first picture takes the CPU from them.
//
// data-state on the root: empty | laying-out | drawn | failed.

import { element } from "./dom.js";
import { isLeaf, nodeName, opText, shortNumber } from "./format.js";
import { gradScale, shade } from "./grad-scale.js";
import { deadlines } from "./deadlines.js";
import { groupsOf } from "./groups.js";
import { layout } from "./layout.js";
import { PanZoom } from "./panzoom.js";

const FULL_LIMIT = 200;
const FOLD_ABOVE = 30; // nodes: a bigger whole graph is drawn with its groups folded
const READABLE_SCALE = 0.5; // of the drawing's own size, below which it is not fitted
const NEIGHBOURHOOD = 40;
const SVG = "http://www.w3.org/2000/svg";
const POINTS = 72; // Graphviz sizes are in inches, positions in points
const CHAR_PT = 7.25; // 12px monospace (0.6em), a little over, so no text overflows its box
const LINE_PT = 16;
const GLYPHS = { pos: "▲ ", neg: "▼ " };
const MAX_CHARS = 32; // of a name in a box; the table and the box's tooltip have it whole
const KEYS_HELP =
  "Arrow keys move from node to node in the order the code made them, the table's order; " +
  "Home and End go to the first and the last. Enter or Space selects the node, in the table and the code, " +
  "or opens a folded group. " +
  "Shift with an arrow key pans; + and - zoom; 0 fits the picture.";

export class GraphView {
  /** @param {() => Promise<void>} whenIdle resolves once Python has no runs to do */
  constructor(whenIdle = () => Promise.resolve()) {
    this.whenIdle = whenIdle;
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
    this.root.dataset.state = state;
    this.onState?.(state);
  }

  /** Picture `table` (a runner table, or null for none), with its own grads. */
  show(table, changed = () => false) {
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
    if (drawable) this.draw();
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

  async draw() {
    const ticket = (this.ticket = {});
    this.setState("laying-out");
    // Runs first (a course page's, queued together): Graphviz and the drawing would take
    // the CPU from Python and the page's main thread; then the table, painted first.
    await this.whenIdle();
    await afterPaint(); // the picture never delays a run's result
    if (ticket !== this.ticket) return;
    const t = this.table;
    const nodes = (this.nodes = this.pick());
    const part = this.whole
      ? ""
      : `Showing ${nodes.size} of ${t.count.toLocaleString("en")} nodes: the neighbourhood of node ${this.focus()}. ` +
        "The table has them all; select a row to see around it.";
    this.note.textContent = [part, missingOperands(t)].filter(Boolean).join(" ");
    let laidOut;
    try {
      const ms = this.whole ? deadlines.wholePictureMs : deadlines.neighbourhoodMs;
      laidOut = await layout(graphObject(t, nodes, this.flow(), (i) => this.folded(i)), ms);
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
    const { svg, width, height, boxes } = drawing(t, laidOut, (i) => this.folded(i));
    const foldedCount = [...this.groups.values()].filter((g) => !this.opened.has(g.key)).length;
    this.foldButton.hidden = this.opened.size === 0;
    const folds = foldedCount
      ? `${foldedCount} of its ${this.groups.size} groups of nodes are folded, each into one box (nodes that share ` +
        "their label up to its last . or _, as a neuron's do): click one, or press Enter on it, to open it."
      : "";
    this.note.textContent = [folds, this.note.textContent].filter(Boolean).join(" ");
    this.boxes = boxes;
    this.order = [...boxes.keys()].sort((a, b) => a - b);
    this.frame.replaceChildren(svg);
    this.panzoom.attach(svg, width, height);
    // Its own size, which a narrow playground's frame takes on (prose.css).
    const { w, h } = this.panzoom.full;
    this.frame.style.setProperty("--drawing-ratio", `${w} / ${h}`);
    this.frame.style.setProperty("--drawing-height", `${h}px`);
    const around = this.opening ?? this.focus(); // a group just opened, else the node that matters
    this.opening = null;
    const focus = boxes.get(around);
    // A neighbourhood's point is its centre; a whole graph that would be fitted with its
    // text under half its size (6 px) is drawn at its own size (12 px) around its node
    // that matters, and says so, unless the frame grows to show it whole (prose.css).
    const shownWhole = getComputedStyle(this.frame).getPropertyValue("--picture-fit").trim() === "whole";
    const unreadable = this.whole && !shownWhole && !this.panzoom.fitsAtOwnSize(READABLE_SCALE);
    if (unreadable) {
      this.note.textContent = [folds, `Drawn at its own size, around node ${around}, so that its text reads: ` +
        "drag to pan, or Fit to see the whole graph, smaller.", missingOperands(t)].filter(Boolean).join(" ");
    }
    // After the note, which may take a line from the frame's height.
    if (focus && (!this.whole || unreadable)) this.panzoom.centre(focus.x, focus.y);
    this.activate(boxes.has(this.active) ? this.active : this.focus());
    if (this.refocus && document.activeElement === document.body) {
      boxes.get(this.active).group.focus({ preventScroll: true }); // its old box went with the old drawing
    }
    this.refocus = false;
    this.paint();
    this.setState("drawn");
  }

  /** Graphviz's rankdir: as the CSS's --picture-flow says (a narrow playground's picture
   *  flows down the page, prose.css), else along the frame's longer side. */
  flow() {
    const flow = getComputedStyle(this.frame).getPropertyValue("--picture-flow").trim();
    return flow || (this.frame.clientWidth > 1.5 * this.frame.clientHeight ? "LR" : "TB");
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
      const words = spoken(this.table, i, this.grads[i], box.group.classList);
      box.group.setAttribute("aria-label", folded ? `${foldName(folded)}, folded: press Enter to open. Its last, ${words}` : words);
    }
    // The legend names only the marks the picture shows.
    const shown = [...this.boxes.keys()];
    this.legend.grads.hidden = !shown.some((i) => this.grads[i] !== 0 && this.grads[i] !== null);
    this.legend.changed.hidden = !shown.some((i) => this.changed(i));
    for (const edge of this.frame.querySelectorAll("path.edge")) {
      edge.classList.toggle("active", current !== null && edge.dataset.head === `op${current}`);
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
 *  and 1", "node 0, a, None, data 2.0, ...". The box's own text (name, a leaf's op, data,
 *  grad, Δ) comes first and in its order, so that the words a learner sees are the words
 *  that name it (and voice control finds it by them). */
function spoken(t, i, grad, marks) {
  const [, name, operands] = /^([^(]*)\((.*)\)$/.exec(t.op[i]) ?? [];
  return [
    `node ${i}`,
    boxName(t, i),
    isLeaf(t.op[i]) && opText(t.op[i]),
    `data ${valueText(t, "data", i)}`,
    `grad ${valueText(t, "grad", i, grad)}`,
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
    element("span", { className: "by-mouse", textContent: "Drag to pan, wheel to zoom." }),
    element("span", { className: "by-touch", textContent: "Drag to pan, pinch to zoom." }),
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

/** The lines of value node i's box: its name (with room for the Δ mark and a leaf's op,
 *  None, at its end: an op that is not None has an ellipse of its own), data and grad. */
function valueLines(t, i, grad) {
  const tag = isLeaf(t.op[i]) ? ` ${opText(t.op[i])}` : "";
  return [`${boxName(t, i)}  Δ${tag}`, `data ${valueText(t, "data", i)}`, `grad ${GLYPHS.pos}${valueText(t, "grad", i, grad)}`];
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
  const others = more.length ? ` (and ${more.length.toLocaleString("en")} more ops)` : "";
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
 *  and the edges to and from the group's nodes go to and from that box. */
function graphObject(t, nodes, rankdir, folded) {
  const inches = (pt) => (pt / POINTS).toFixed(3);
  const gvNodes = [];
  const edges = new Map(); // "tail head" -> the edge, each once
  const boxOf = (i) => `v${folded(i)?.out ?? i}`;
  const edge = (tail, head) => tail !== head && edges.set(`${tail} ${head}`, { tail, head });
  for (const i of [...nodes].sort((a, b) => a - b)) {
    const group = folded(i);
    if (!group || group.out === i) {
      const lines = valueLines(t, i, t.grad[i]);
      if (group) lines[0] = foldName(group);
      const width = Math.max(...lines.map((l) => l.length)) * CHAR_PT + 16;
      gvNodes.push({ name: `v${i}`, attributes: { shape: "box", width: inches(width), height: inches(3 * LINE_PT + 8) } });
    }
    if (isLeaf(t.op[i])) continue;
    const head = group ? boxOf(i) : `op${i}`;
    if (!group) {
      gvNodes.push({ name: head, attributes: { shape: "ellipse", width: inches(opName(t, i).length * CHAR_PT + 22), height: inches(24) } });
      edge(head, `v${i}`);
    }
    for (const a of t.args[i]) if (nodes.has(a)) edge(boxOf(a), head);
  }
  return {
    graphAttributes: { rankdir, nodesep: 0.2, ranksep: 0.25 },
    nodeAttributes: { label: "", fixedsize: true },
    nodes: gvNodes,
    edges: [...edges.values()],
  };
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
function drawing(t, layout, folded) {
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
    const tag = isLeaf(t.op[i]) && !fold ? opText(t.op[i]) : ""; // a leaf's op, beside its name
    const left = x - w / 2 + 8;
    const top = y - h / 2;
    const grad = svgText(left, top + 4 + 3 * LINE_PT - 3, "", "grad-line");
    group.append(
      svgElement("rect", { x: x - w / 2 - 4, y: top - 4, width: w + 8, height: h + 8, rx: 7, class: "ring" }),
      svgElement("rect", { x: x - w / 2, y: top, width: w, height: h, rx: 4 }),
      // Spaces between the lines, which draw nothing but keep their words apart for
      // whatever reads the box's text as one string (the name checks do).
      svgText(left, top + 4 + LINE_PT - 3, fold ? foldName(fold) : boxName(t, i), "name-line"),
      " ",
      ...(tag ? [svgText(x + w / 2 - 6, top + 4 + LINE_PT - 3, tag, "op-tag"), " "] : []),
      svgText(left, top + 4 + 2 * LINE_PT - 3, `data ${valueText(t, "data", i)}`, "data-line"),
      " ",
      grad,
      " ",
      svgText(x + w / 2 - 6 - (tag ? (tag.length + 1) * CHAR_PT : 0), top + 4 + LINE_PT - 3, "Δ", "changed-mark"),
      titled(fold ? `${foldName(fold)}, folded: click to open; data and grad of its last, ${nodeName(t, i)}`
        : `${nodeName(t, i)}: node ${i}${t.line[i] ? `, made on line ${t.line[i]}` : ""}`),
    );
    nodeLayer.append(group);
    boxes.set(i, { group, grad, x, y });
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
