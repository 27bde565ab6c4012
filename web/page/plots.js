// The results' charts: what a run passes to plot() and boundary(), drawn while it runs,
// with a step counter and the run's time so far. They stay after the run ends or is
// stopped, with what was drawn by then; the next run's start clears them.
//
// Batches (protocol.js's parsePlots) are only taken in as they come; charts are drawn
// at most once a frame (or once deadlines.outputFrameMs passed without one, as the
// output is), each with at most DRAWN_POINTS of its points (every k-th of each series,
// and its last): a frame's drawing is bounded however many series a chart has. A series
// keeps PLOT_CAPS.points; past them, every other goes (keptAfter), as the runner thins it.
//
// Every boundary() picture is kept (HISTORY_PICTURES a title; past them, every other
// goes), with the step it was drawn at: once the run is over, a slider goes back through
// them, and marks each line chart at that step. Over the charts, the pace's controls
// (pacer.js: Pause, Step, a pace) while a run that plots goes on. A frame reads what it needs of the page first (colours,
// new charts' widths), then draws the canvases, then writes the page's text, so that
// the browser lays the page out once, after it; a new line chart is put in the page in
// one frame and drawn from the next. The charts themselves (uPlot, and the decision
// regions' canvas) are a chunk of their own, charts.js, imported when the first batch
// comes.
//
// For tests and `check`: the panel's data-steps, data-ms and data-waiting (the step
// Python waits to begin, while it waits for the pace or a paused run's Step); each chart's data-chart,
// data-points (kept), data-dropped, data-drawn (its data's length) and data-mark (the x
// at the slider's step); each boundary's data-title, data-draws, data-step and its ranges;
// the slider's value (a step); and summary(), which the playground puts in its "run-end"
// event's detail.

import { element } from "./dom.js";
import { counted } from "./format.js";
import { NextFrame } from "./next-frame.js";
import { keptAfter, PLOT_CAPS, valuesOf } from "./protocol.js";

const DRAWN_POINTS = 1_000; // a chart's data has at most this many xs (and its series' last): a few a pixel
const HISTORY_PICTURES = 200; // a boundary's pictures kept for the slider, at most

let chartsModule = null;
const charts = () => (chartsModule ??= importCharts().catch((error) => {
  chartsModule = null; // the next run tries again
  throw error;
}));

/** charts.js. uPlot reads navigator.language as its module is evaluated, and fails on a
 *  tag that Intl refuses (WebKitGTK says "C" under the C locale): while it is imported,
 *  such a browser's language reads as "en-US". */
async function importCharts() {
  if (isLanguageTag(navigator.language)) return import("./charts.js");
  Object.defineProperty(navigator, "language", { value: "en-US", configurable: true });
  try {
    return await import("./charts.js");
  } finally {
    delete navigator.language; // the browser's own getter again
  }
}

function isLanguageTag(tag) {
  try {
    new Intl.NumberFormat(tag);
    return true;
  } catch {
    return false;
  }
}

export class PlotsPanel {
  /** `controls`: what goes over the charts (the pace's: pacer.js). */
  constructor(controls) {
    this.frame = new NextFrame(() => this.draw());
    this.clockText = new Text();
    this.grid = element("div", { className: "plot-grid" });
    this.slider = element("input", { type: "range", min: "0", step: "1", ariaLabel: "Step shown" });
    this.slider.addEventListener("input", () => this.showStep(this.moments[Number(this.slider.value)]));
    this.sliderText = element("span", { className: "history-text" });
    this.history = element("label", { className: "history", hidden: true }, [this.sliderText, this.slider]);
    this.root = element("div", { className: "plots", hidden: true }, [
      element("h2", { textContent: "Charts" }),
      element("div", { className: "plot-bar" }, [element("p", { className: "plot-clock" }, [this.clockText]), controls]),
      this.history,
      this.grid,
    ]);
    this.waiting = [];
    this.clear();
  }

  /** Take the charts away, for a new run. */
  clear() {
    this.frame.cancel();
    for (const view of this.views?.values() ?? []) view.destroy();
    this.views = new Map(); // chart name or boundary title: its LineChart or BoundaryChart
    this.charts = new Map(); // chart name: {series: [{name, xs, ys, dropped}], changed}
    this.series = new Map(); // series number: its entry in its chart
    this.pictures = new Map(); // title: {picture, changed, history: [picture, ...]}
    this.moments = []; // the slider's steps: those pictures were drawn at
    this.history.hidden = true;
    this.steps = 0;
    this.ms = 0;
    this.waits = false;
    this.failed = false;
    this.grid.replaceChildren();
    this.root.hidden = true;
    delete this.root.dataset.steps;
    delete this.root.dataset.ms;
    delete this.root.dataset.waiting;
    this.settle();
  }

  /** Take in a batch of plots; it is drawn in a coming frame. */
  add(batch) {
    for (const [number, chart, name] of batch.series) {
      if (!this.charts.has(chart)) this.charts.set(chart, { series: [], changed: true, added: true });
      const entry = { name, xs: [], ys: [], dropped: 0, stride: 1, chart: this.charts.get(chart) };
      entry.chart.series.push(entry);
      entry.chart.added = entry.chart.changed = true; // a series more: its view is made anew
      this.series.set(number, entry);
    }
    for (const [number, x, y] of batch.points) {
      const entry = this.series.get(number);
      if (keptAfter(entry.xs.length) <= entry.xs.length) {
        entry.xs = everyOther(entry.xs);
        entry.ys = everyOther(entry.ys);
        entry.stride *= 2;
      }
      entry.xs.push(x);
      entry.ys.push(y);
      entry.chart.changed = true;
    }
    for (const [number, dropped] of batch.dropped) {
      const entry = this.series.get(number);
      entry.dropped = dropped;
      entry.chart.changed = true;
    }
    for (const picture of batch.boundaries) {
      const entry = this.pictures.get(picture.title) ?? { history: [] };
      if (entry.history.length === HISTORY_PICTURES) entry.history = everyOther(entry.history);
      entry.history.push(picture);
      this.pictures.set(picture.title, Object.assign(entry, { picture, changed: true }));
    }
    this.steps = batch.steps;
    this.ms = batch.ms;
    this.waits = batch.waits; // Python waits for the page to let its next step begin
    this.frame.schedule();
  }

  /** Resolves once what was taken in is drawn. */
  drawn() {
    if (!this.frame.waiting && !this.loading) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  settle() {
    for (const resolve of this.waiting.splice(0)) resolve();
  }

  async draw() {
    this.frame.cancel();
    if (!this.module) {
      if (this.loading) return; // drawn once loaded
      if (this.failed) return this.settle();
      this.loading = true;
      try {
        this.module = await charts();
        this.adopt(this.module.sheet);
      } catch (error) {
        this.failed = true; // until the next run: said once, not tried again each frame
        this.root.hidden = false;
        this.clockText.data = `The charts could not be loaded: ${error.message}`;
        return this.settle();
      } finally {
        this.loading = false;
      }
    }
    const { LineChart, BoundaryChart, readColours } = this.module;
    // Reads first, canvases next, the page's text last: a read or a canvas's text after
    // a write to the page would make the browser lay it out again within the frame.
    this.colours ??= readColours(this.root);
    this.root.hidden = false;
    const describe = [];
    // A chart made in a frame is drawn from the next, once the page has laid it out, so
    // that its width is read then with nothing written before.
    for (const [name, chart] of this.charts) {
      const view = this.views.get(name);
      if (chart.changed && !chart.added && !view.plot) view.measure();
    }
    for (const [name, chart] of this.charts) {
      if (!chart.changed) continue;
      const view = this.views.get(name);
      if (chart.added) {
        view?.destroy();
        const fresh = new LineChart(name, chart.series);
        if (view) view.root.replaceWith(fresh.root);
        else this.grid.append(fresh.root);
        fresh.recolour(this.colours);
        this.views.set(name, fresh);
        chart.added = false;
        this.frame.schedule();
        continue;
      }
      view.setData(drawnData(chart.series));
      const counts = {
        points: chart.series.reduce((sum, s) => sum + s.xs.length, 0),
        dropped: chart.series.reduce((sum, s) => sum + s.dropped, 0),
      };
      describe.push(() => view.describe(counts));
      chart.changed = false;
    }
    for (const [title, entry] of this.pictures) {
      if (!entry.changed) continue;
      valuesOf(entry.picture);
      let view = this.views.get(`boundary ${title}`);
      if (!view) {
        // Painted first before it is in the page, where a canvas's first drawing would
        // bring the page's style and layout up to date.
        view = new BoundaryChart(title);
        view.recolour(this.colours);
        view.draw(entry.picture);
        this.grid.append(view.root);
        this.views.set(`boundary ${title}`, view);
      } else {
        view.draw(entry.picture);
      }
      describe.push(() => view.describe());
      entry.changed = false;
    }
    this.showClock();
    for (const say of describe) say();
    if (this.revealing && !this.frame.waiting) this.reveal(); // once each chart is drawn
    if (!this.frame.waiting) this.settle();
  }

  /** Bring the charts into view once, when this run first draws them, unless they are
   *  in view already: asked where the page's layout is known (an IntersectionObserver's
   *  report), so that asking forces no layout. */
  revealOnce() {
    this.revealing = true;
  }

  reveal() {
    this.revealing = false;
    const watch = new IntersectionObserver(([entry]) => {
      watch.disconnect();
      if (entry.intersectionRatio < 1) this.root.scrollIntoView({ block: "nearest" });
    });
    watch.observe(this.root);
  }

  /** The run is over: the slider goes back through the pictures drawn, if more than one. */
  finish() {
    this.waits = false;
    delete this.root.dataset.waiting;
    const steps = new Set([...this.pictures.values()].flatMap(({ history }) => history.map((p) => p.step)));
    this.moments = [...steps].sort((a, b) => a - b);
    this.history.hidden = this.moments.length < 2;
    if (this.history.hidden) return;
    this.slider.max = String(this.moments.length - 1);
    this.slider.value = this.slider.max;
    this.showStep(this.moments.at(-1));
  }

  /** Show each boundary as it was drawn at `step` (its last picture by then), and mark
   *  each line chart at that step. */
  showStep(step) {
    const last = this.moments.at(-1);
    this.sliderText.textContent = `step ${counted(step)} of ${counted(last)}`;
    this.history.dataset.step = String(step);
    for (const [title, { history }] of this.pictures) {
      const picture = history.findLast((p) => p.step <= step) ?? history[0];
      const view = this.views.get(`boundary ${title}`);
      if (!view) continue;
      valuesOf(picture);
      view.draw(picture);
      view.describe(false);
    }
    for (const [name, chart] of this.charts) {
      const [lead] = chart.series;
      const at = Math.min(lead.xs.length - 1, Math.floor((step - 1) / lead.stride));
      this.views.get(name)?.mark(step === last || at < 0 ? null : lead.xs[at]);
    }
  }

  /** The step counter and the run's time: one text node's text, set when it changes. */
  showClock() {
    this.root.dataset.steps = String(this.steps);
    if (this.waits) this.root.dataset.waiting = String(this.steps + 1);
    else delete this.root.dataset.waiting;
    this.root.dataset.ms = String(Math.round(this.ms));
    const text = `step ${counted(this.steps)} · ${(this.ms / 1000).toFixed(1)} s`;
    if (this.clockText.data !== text) this.clockText.data = text;
  }

  /** Put the charts' own style sheet beside the playground's. */
  adopt(sheet) {
    const root = this.root.getRootNode();
    if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  }

  /** The playground's theme changed: the charts take its colours. */
  recolour() {
    if (!this.module) return;
    this.colours = this.module.readColours(this.root);
    for (const view of this.views.values()) view.recolour(this.colours);
  }

  /** What the charts show, for the "run-end" event: the steps and time, each chart's
   *  series (their points drawn, dropped and last), each boundary's picture. */
  summary() {
    const charts = [...this.charts].map(([name, chart]) => ({
      name,
      series: chart.series.map((s) => ({
        name: s.name, points: s.xs.length, dropped: s.dropped, last: s.xs.length ? [s.xs.at(-1), s.ys.at(-1)] : null,
      })),
    }));
    const boundaries = [...this.pictures.values()].map(({ picture, history }) => {
      const shown = { ...picture, values: valuesOf(picture), kept: history.length };
      for (const name of ["model", "xs", "ys"]) delete shown[name];
      return shown;
    });
    return { steps: this.steps, ms: this.ms, charts, boundaries };
  }
}

/** The items of `list` at even places: the first, the third, ... */
function everyOther(list) {
  return list.filter((_, i) => i % 2 === 0);
}

/** What a chart draws of its series: uPlot's aligned data of every k-th point of each
 *  (and its last), so that the xs are at most DRAWN_POINTS, about. */
function drawnData(series) {
  const total = series.reduce((sum, s) => sum + s.xs.length, 0);
  const every = Math.ceil(total / DRAWN_POINTS);
  if (every === 1) return aligned(series);
  const kept = (values) => values.filter((_, i) => i % every === 0 || i === values.length - 1);
  return aligned(series.map((s) => ({ xs: kept(s.xs), ys: kept(s.ys) })));
}

/** A chart's series as uPlot's aligned data: the xs of all, in order, then each one's ys
 *  at them (null where it has no point). Series of the same xs, as most are, join as they are. */
function aligned(series) {
  const [first] = series;
  if (series.every((s) => s.xs.length === first.xs.length && s.xs.every((x, i) => x === first.xs[i]))
    && first.xs.every((x, i) => i === 0 || first.xs[i - 1] < x)) {
    return [first.xs.slice(), ...series.map((s) => s.ys.slice())];
  }
  const xs = [...new Set(series.flatMap((s) => s.xs))].sort((a, b) => a - b);
  const row = new Map(xs.map((x, i) => [x, i]));
  return [xs, ...series.map((s) => {
    const ys = new Array(xs.length).fill(null);
    s.xs.forEach((x, i) => (ys[row.get(x)] = s.ys[i]));
    return ys;
  })];
}
