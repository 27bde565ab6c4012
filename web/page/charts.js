// The charts of plot() and boundary(): a chunk of its own, with uPlot, that a page
// downloads only once one of its runs plots (plots.js imports it then).
//
// LineChart: one chart's series as lines (uPlot), named by a key of coloured swatches.
// BoundaryChart: a classifier's decision regions as a heatmap on a canvas, with the
// labelled points over it on a canvas of their own.
// Both say the values under the pointer, or under a cursor the arrow keys move once
// the chart has focus, in a line that screen readers hear; their colours are the
// playground's (light or dark), read from its CSS by readColours and given to `recolour`.

import uPlot from "uplot";
import uplotCss from "uplot/dist/uPlot.min.css";
import { element } from "./dom.js";
import { counted, shortNumber } from "./format.js";

export const sheet = new CSSStyleSheet();
sheet.replaceSync(uplotCss);

const HEIGHT_PX = 150;
const MIN_WIDTH_PX = 120;
const PALETTE = 6; // --plot-1 ... --plot-6 (plots.css)
const BOUNDARY_PX = 220;
const POINT_RADIUS_PX = 3.5;

/** The playground's colours for the charts, as a canvas takes them: read from its CSS
 *  inside `root` all at once (one style recalculation), which plots.js does before a
 *  frame's writes, so that the read makes the browser lay nothing out. */
export function readColours(root) {
  const names = ["--muted", "--line", "--bg", "--region-above", "--region-below",
    ...Array.from({ length: PALETTE }, (_, i) => `--plot-${i + 1}`)];
  const probes = names.map((name) => {
    const probe = element("span", { hidden: true });
    probe.style.color = `var(${name})`;
    return probe;
  });
  root.append(...probes);
  const [muted, line, bg, above, below, ...series] = probes.map((probe) => getComputedStyle(probe).color);
  for (const probe of probes) probe.remove();
  const rgb = (value) => value.match(/[\d.]+/g).slice(0, 3).map(Number);
  return { muted, line, series, outline: bg, above: rgb(above), below: rgb(below) };
}

/** What a figure says as the pointer or the keyboard's cursor moves: one line, heard. */
function readout() {
  const line = element("p", { className: "readout" });
  line.setAttribute("aria-live", "polite");
  return line;
}

export class LineChart {
  /** `name`: the chart's; `series`: [{name}], in the order of their lines. */
  constructor(name, series) {
    this.name = name;
    this.names = series.map((s) => s.name);
    this.key = element("ul", { className: "key" }, this.names.map((text, i) =>
      element("li", { className: `swatch-${(i % PALETTE) + 1}`, textContent: text })));
    this.readout = readout();
    this.box = element("div", { className: "plot" });
    this.root = element("figure", { className: "chart", tabIndex: 0 }, [
      element("figcaption", { textContent: name }), this.key, this.box, this.readout]);
    this.root.dataset.chart = name;
    this.root.addEventListener("keydown", (event) => this.onKey(event));
    this.data = [[], ...this.names.map(() => [])];
    this.colours = null;
    this.plot = null;
    this.cursor = null; // the keyboard's point, by index into the data
    this.marked = null; // the x of a step the history slider shows
  }

  /** Mark `x` with a line across the chart (null: no mark). */
  mark(x) {
    this.marked = x;
    if (x === null) delete this.root.dataset.mark;
    else this.root.dataset.mark = String(x);
    this.plot?.redraw(false);
  }

  /** uPlot's draw hook: the mark's line, in the key's colour. */
  drawMark(u) {
    if (this.marked === null) return;
    const left = Math.round(u.valToPos(this.marked, "x", true));
    const { ctx, bbox } = u;
    ctx.save();
    ctx.strokeStyle = this.colours.muted;
    ctx.lineWidth = devicePixelRatio;
    ctx.setLineDash([4 * devicePixelRatio, 3 * devicePixelRatio]);
    ctx.beginPath();
    ctx.moveTo(left, bbox.top);
    ctx.lineTo(left, bbox.top + bbox.height);
    ctx.stroke();
    ctx.restore();
  }

  /** Read the chart's width, for its first drawing: plots.js reads every new chart's
   *  before it writes anything in a frame, a frame after it put the chart in the page. */
  measure() {
    this.width = Math.max(MIN_WIDTH_PX, this.box.clientWidth || 320);
  }

  /** Draw `data` (uPlot's: xs, then each series' ys, null for a gap) on the canvas at
   *  once, before the frame's writes to the page (`describe`), which would make the
   *  canvas's text wait for a layout. */
  setData(data) {
    this.data = data;
    if (!this.plot) this.create();
    else this.plot.batch(() => this.plot.setData(data));
  }

  /** Say what the chart shows: its counts (data-points, data-dropped) and its label. */
  describe({ points, dropped }) {
    this.root.dataset.points = String(points);
    this.root.dataset.dropped = String(dropped);
    this.root.dataset.drawn = String(this.data[0].length);
    const last = this.names.map((name, i) => `${name} ${valueText(lastOf(this.data[i + 1]))}`);
    const more = dropped ? `, ${counted(dropped)} more not drawn` : "";
    this.root.ariaLabel = `Chart ${this.name}: ${counted(points)} points${more}; ` +
      `last ${last.join(", ")}. Arrow keys read the points.`;
  }

  create() {
    const c = () => this.colours;
    const axis = { stroke: () => c().muted, grid: { stroke: () => c().line, width: 1 },
      ticks: { stroke: () => c().line, width: 1 }, font: "11px sans-serif" };
    this.plot = new uPlot({
      width: this.width ?? 320, height: HEIGHT_PX,
      scales: { x: { time: false } },
      legend: { show: false },
      cursor: { drag: { x: false, y: false }, points: { show: false } },
      axes: [{ ...axis, size: 30 }, { ...axis, size: 48 }], // x's as tall as its labels: no room under them
      series: [{}, ...this.names.map((label, i) => ({
        label, stroke: () => c().series[i % PALETTE], width: 1.5, spanGaps: true, points: { show: false },
      }))],
      hooks: { setCursor: [(u) => this.say(u.cursor.idx)], draw: [(u) => this.drawMark(u)] },
    }, this.data, (plot, init) => {
      plot.batch(init); // drawn at once, before it is in the page: its text waits for no layout
      plot.root.ariaHidden = "true"; // the figure's label and readout say what it shows
      this.box.append(plot.root);
    });
    // As wide as its box, as the charts beside it come and go: told after a layout,
    // so that following it forces none.
    this.resizer = new ResizeObserver(([entry]) => {
      const width = Math.max(MIN_WIDTH_PX, Math.floor(entry.contentRect.width));
      if (width !== this.plot.width) this.plot.setSize({ width, height: HEIGHT_PX });
    });
    this.resizer.observe(this.box);
  }

  /** Take the playground's colours (readColours'), and redraw. */
  recolour(colours) {
    this.colours = colours;
    this.plot?.redraw(false);
  }

  /** Say the values at data index `i` (null: the pointer left). */
  say(i) {
    if (i === null || i === undefined || i >= this.data[0].length) return;
    const values = this.names.map((name, k) => `${name} ${valueText(this.data[k + 1][i])}`);
    this.readout.textContent = `x ${shortNumber(this.data[0][i])}: ${values.join(", ")}`;
  }

  onKey(event) {
    const count = this.data[0].length;
    const moves = { ArrowRight: 1, ArrowLeft: -1, PageDown: 10, PageUp: -10 };
    let i;
    if (event.key in moves) i = (this.cursor ?? (moves[event.key] > 0 ? -1 : count)) + moves[event.key];
    else if (event.key === "Home") i = 0;
    else if (event.key === "End") i = count - 1;
    else return;
    event.preventDefault();
    if (!count || !this.plot) return;
    this.cursor = Math.min(count - 1, Math.max(0, i));
    const y = this.data.slice(1).map((ys) => ys[this.cursor]).find((v) => v !== null) ?? 0;
    this.plot.setCursor({ left: this.plot.valToPos(this.data[0][this.cursor], "x"), top: this.plot.valToPos(y, "y") });
    this.say(this.cursor);
  }

  destroy() {
    this.resizer?.disconnect();
    this.plot?.destroy();
  }
}

/** A series' value as said: "no point" where it has none (a gap, or another series' x). */
function valueText(y) {
  return y === null ? "no point" : shortNumber(y);
}

function lastOf(values) {
  for (let i = values.length - 1; i >= 0; i--) if (values[i] !== null) return values[i];
  return null;
}

/** Where `value` lies from `range`'s start (0) to its end (1); halves first, so that a
 * range from -1.7e308 to 1.7e308 gives no Infinity. */
function fraction([low, high], value) {
  return (value / 2 - low / 2) / (high / 2 - low / 2);
}

/** The value at `share` (0 to 1) of `range`, finite for any finite range. */
function between([low, high], share) {
  return low * (1 - share) + high * share;
}

export class BoundaryChart {
  constructor(title) {
    this.title = title;
    this.regions = element("canvas", { className: "regions" });
    this.dots = element("canvas", { className: "dots" });
    this.readout = readout();
    this.root = element("figure", { className: "boundary", tabIndex: 0 }, [
      element("figcaption", { textContent: title }),
      element("div", { className: "canvases" }, [this.regions, this.dots]),
      this.readout,
    ]);
    this.root.dataset.title = title;
    this.root.dataset.draws = "0";
    this.dots.width = this.dots.height = Math.round(BOUNDARY_PX * devicePixelRatio);
    for (const canvas of [this.regions, this.dots]) canvas.ariaHidden = "true";
    // Taken while the canvases are not in the page: a canvas in it takes its context
    // with the page's style and layout brought up to date.
    this.regionsContext = this.regions.getContext("2d");
    this.dotsContext = this.dots.getContext("2d");
    this.dots.addEventListener("pointermove", (event) => {
      const box = this.dots.getBoundingClientRect();
      const size = this.picture?.size ?? 1;
      const col = Math.floor(((event.clientX - box.left) / box.width) * size);
      const row = size - 1 - Math.floor(((event.clientY - box.top) / box.height) * size);
      this.say(col, row);
    });
    this.root.addEventListener("keydown", (event) => this.onKey(event));
    this.picture = null;
    this.cell = null; // the keyboard's cell, [col, row]
  }

  /** Draw `picture` (protocol.js's isPicture), in place of the last. */
  draw(picture) {
    this.picture = picture;
    this.paint();
  }

  /** Say what the picture shows: its ranges, step and draws (data-; `drawn`: a draw of
   *  the run's, not the history slider's) and its label. */
  describe(drawn = true) {
    const { x, y, size, values, threshold, points, classes, step } = this.picture;
    Object.assign(this.root.dataset, { x0: x[0], x1: x[1], y0: y[0], y1: y[1], size, threshold, step });
    if (drawn) this.root.dataset.draws = String(Number(this.root.dataset.draws) + 1);
    const above = values.filter((v) => v !== null && v > threshold).length;
    const positive = classes.filter(Boolean).length;
    this.root.ariaLabel = `Decision regions of ${this.title}: predict above ${shortNumber(threshold)} on ` +
      `${Math.round((100 * above) / values.length)}% of x ${shortNumber(x[0])} to ${shortNumber(x[1])}, ` +
      `y ${shortNumber(y[0])} to ${shortNumber(y[1])}; ${points.length} points, ${positive} labelled above. ` +
      "Arrow keys read the cells.";
  }

  /** Paint the regions (a cell's shade: how far its prediction is past the threshold,
   *  against the farthest) and the points, in the playground's colours. */
  paint() {
    const picture = this.picture;
    if (!picture || !this.colours) return;
    const { x, y, size, values, threshold, points, classes } = picture;
    const { above, below, outline } = this.colours;
    // Plain loops over the cells: a page's first picture is painted by code not yet
    // compiled, where each spread, callback and destructuring costs.
    let farthest = 0;
    for (const v of values) if (v !== null && Math.abs(v - threshold) > farthest) farthest = Math.abs(v - threshold);
    farthest ||= 1;
    const image = new ImageData(size, size);
    const pixels = image.data;
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (v === null) continue;
      const row = Math.floor(i / size);
      const at = ((size - 1 - row) * size + (i % size)) * 4; // row 0, the lowest y, at the bottom
      const rgb = v > threshold ? above : below;
      pixels[at] = rgb[0];
      pixels[at + 1] = rgb[1];
      pixels[at + 2] = rgb[2];
      pixels[at + 3] = Math.round(255 * (0.25 + (0.55 * Math.abs(v - threshold)) / farthest));
    }
    // A pixel a cell: the page scales the canvas up (plots.css), with no copy of each
    // cell's pixels to draw or to hand to the compositor.
    if (this.regions.width !== size) this.regions.width = this.regions.height = size;
    this.regionsContext.putImageData(image, 0, 0);
    const side = this.dots.width;
    const dots = this.dotsContext;
    dots.clearRect(0, 0, side, side);
    dots.lineWidth = devicePixelRatio;
    dots.strokeStyle = outline;
    const radius = POINT_RADIUS_PX * devicePixelRatio;
    const fills = [`rgb(${below.join(" ")})`, `rgb(${above.join(" ")})`];
    for (let i = 0; i < points.length; i++) {
      const point = points[i];
      dots.fillStyle = fills[Number(classes[i])];
      dots.beginPath();
      dots.arc(fraction(x, point[0]) * side, (1 - fraction(y, point[1])) * side, radius, 0, 2 * Math.PI);
      dots.fill();
      dots.stroke();
    }
  }

  /** Take the playground's colours (readColours'), and repaint. */
  recolour(colours) {
    this.colours = colours;
    this.paint();
  }

  /** Say the cell at `col`, `row` (row 0 the lowest): where it is and its prediction. */
  say(col, row) {
    const p = this.picture;
    if (!p || col < 0 || row < 0 || col >= p.size || row >= p.size) return;
    const at = (range, k) => between(range, (k + 0.5) / p.size);
    const v = p.values[row * p.size + col];
    const side = v === null ? "" : v > p.threshold ? " (above)" : " (not above)";
    this.readout.textContent = `x ${shortNumber(at(p.x, col))}, y ${shortNumber(at(p.y, row))}: ` +
      `predict ${shortNumber(v)}${side}`;
  }

  onKey(event) {
    const moves = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    if (!(event.key in moves) || !this.picture) return;
    event.preventDefault();
    const size = this.picture.size;
    const [col, row] = this.cell ?? [Math.floor(size / 2), Math.floor(size / 2)];
    const [dc, dr] = this.cell ? moves[event.key] : [0, 0];
    this.cell = [Math.min(size - 1, Math.max(0, col + dc)), Math.min(size - 1, Math.max(0, row + dr))];
    this.say(...this.cell);
  }

  destroy() {}
}
