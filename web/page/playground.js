// <autograd-playground>: an editor, Run / Stop / Reset / Share, the output,
// the charts of what it plots (plot, boundary: plots.js), drawn as it runs, with Pause,
// Step and a pace (pacer.js), and over the code where it is narrow, a table
// of every node of every graph the code leaves behind, a picture of the graph
// beside it, and a stepper that replays Backward node by node.
// Selecting a node (in the table or the picture) marks it in both and marks
// the line of code that made it.
//
// Hooks for tests and host pages:
//   data-state   loading | ready | running | done | error | stopped
//   events       "ready" (Python is up), "run-end" (detail: the run's result, with
//                `plots`: what its charts show, plots.js's summary())
//   exercises    data-check and "check-end", when the author wrote checks (exercise.js)
//   methods      run(), stop(), reset(); property `code` (get and set; setting it
//                is not an edit that a live playground re-runs)
//   replaceCode  for the exercise's solution: an edit that Ctrl+Z undoes, and
//                the code it replaces stays in the switch
//   deadlines    the class's `deadlines` (Stop's grace, the picture's layouts;
//                see deadlines.js), which a test sets to check each side
//   outputFrameBudget  how much output a frame draws at most (output.js), which a
//                test lowers to see each frame keep to it
//   fromLink     set before the element is connected when its code came from a
//                link (embed.html does): then `autorun` is ignored
// The results computed when the page was built (the element's data-role="built" child,
// which the authors' package writes) show in the results until the first live result
// replaces them, only while the code shown is the page's own: in the live panels, laid
// out as a run's are, where the child holds them whole (showBuilt).
// The learner's code is kept by keeper.js (saved after edits; a link's code
// is a draft beside it, and what the solution or Reset replaced is kept too,
// with a switch between them).
// Every playground on a page shares one Python worker (see runtime.js), which
// starts when the first of them is about to be used (see lazy.js). While Python
// downloads, one playground shows a progress bar for the page (see onProgress). The
// author's attributes are described in options.js; without `theme`, it is light
// or dark as its page is (host-theme.js).

import { authoredCode, authoredExercise, earlierKey, playgroundKey } from "./authored.js";
import { deadlines } from "./deadlines.js";
import { element } from "./dom.js";
import { importEditor } from "./editor-script.js";
import example from "../shared/example.py";
import { Exercise } from "./exercise.js";
import { counted } from "./format.js";
import exerciseCss from "./exercise.css";
import { Keeper } from "./keeper.js";
import { PASSES } from "./progress.js";
import { parseBuilt } from "./protocol.js";
import { inViewNow, onFirstSight, retryable } from "./lazy.js";
import { Live } from "./live.js";
import { cssHeight, isLive, optionsSheet, timeoutMs } from "./options.js";
import { frameBudget, OutputView } from "./output.js";
import { Pacer } from "./pacer.js";
import { PlotsPanel } from "./plots.js";
import plotsCss from "./plots.css";
import graphCss from "./graph.css";
import { GraphView } from "./graph-view.js";
import { followHostTheme } from "./host-theme.js";
import css from "./playground.css";
import proseCss from "./prose.css";
import { sharedRuntime } from "./runtime.js";
import { controlledBySite } from "./script-cache.js";
import { codeFromLink, MAX_LINK_CHARS, shareLink, store } from "./share.js";
import { Stepper } from "./stepper.js";
import { TapeStepper } from "./tape-stepper.js";
import { noGraphNote, nothingRan, TablePanel } from "./table.js";

// What the results say before the first run, in place of panels that have nothing yet.
// On a touch screen, no keys: "Press Run".
const FIRST_HINT = `Press Run${matchMedia("(pointer: coarse)").matches ? "" : " (or Ctrl+Enter)"}: ` +
  "what the code prints shows here, then a table and a picture of every node of its graph, " +
  "the tape node by node, and Backward step by step.";

// What the results computed when the page was built say of themselves, in the live
// panels (the page's HTML says it over them, where they show as written).
const BUILT_NOTE = "computed when this page was built · Run to run it here";
// The same in a results panel too narrow for it on one line (a phone's): playground.css.
const BUILT_NOTE_SHORT = "precomputed · Run to run it here";
// What the picture's frame says of built results until Python is ready (showBuilt).
const BUILT_PICTURE = "The picture is drawn once Python has loaded.";
// What Backward's stepper says of built results whose steps a run makes (stepsLater).
const BUILT_STEPS = "a run makes its steps, and these results were computed when the page was built: press Run";

// The site's files sit beside this script's bundle, wherever it is served from.
const WORKER_URL = new URL("./worker.js", import.meta.url);
// The full-page playground, by its file name: a docs server may list a folder.
const FULL_PAGE_URL = new URL("./index.html", import.meta.url);
// Why live re-runs wait for a first Run on code from a link.
const LINK_WAITS = "this code came from a link, so it runs only once you have read it";
// The one playground of the page that shows Python's download: the first in view (or
// with a run waiting) when the download is first told; the others show its phase.
let showsDownload = null;

// CodeMirror is most of the page's JavaScript: fetch it alongside (gzipped, unless
// the site's service worker keeps it: editor-script.js), so that nothing delays
// starting Python, and show the code as plain text until then (and until the
// playground comes into view: a page may hold many). A load that failed is tried
// again when the learner asks (mountEditor).
const editorModule = retryable(() => importEditor(controlledBySite(WORKER_URL)));

const sheet = new CSSStyleSheet();
sheet.replaceSync(css + graphCss + proseCss + exerciseCss + plotsCss);

class AutogradPlayground extends HTMLElement {
  static deadlines = deadlines;
  static outputFrameBudget = frameBudget;

  connectedCallback() {
    if (this.shadowRoot) return;
    this.runtime = sharedRuntime(WORKER_URL);
    this.authored = authoredCode(this); // null: the full-page playground, on the example
    this.defaultCode = this.authored ?? example;
    this.readOnly = this.hasAttribute("readonly");
    if (this.authored === null) liveFromUrl(this); // the full page: ?live, ?live=off
    const key = playgroundKey(this);
    adoptEarlier(key, earlierKey(this));
    this.storageKey = `autograd-playground:${key}`;
    const exercise = authoredExercise(this);
    this.exercise = exercise.checks.length ? new Exercise(exercise, this, key) : null;
    this.built = this.querySelector(":scope > [data-role=built]");
    this.style.height ||= cssHeight(this);
    this.build();
    followHostTheme(this, this.attachInternals().states, (dark) => {
      this.dark = dark;
      if (this.view) this.editor.setDark(this.view, dark);
      this.plots?.recolour();
    });
    this.runtime.addEventListener("phase", () => this.onPhase());
    this.runtime.addEventListener("progress", () => this.onProgress());
    this.state = "loading";
    this.onPhase();
    if (this.linkError) this.print("error", `${this.linkError}\n`);
    if (this.live && this.fromLink) this.live.pause(LINK_WAITS);
    // A share link pasted into the address bar of the open page changes only its fragment.
    if (this.authored === null && this.keeper) addEventListener("hashchange", () => this.openLink());
    // A link could run code the reader has not seen: links never run by themselves.
    if (this.hasAttribute("autorun") && this.fromLink) {
      this.say("This code came from a link, so it does not run by itself: read it, then press Run.");
    } else if (this.hasAttribute("autorun")) {
      this.run();
    }
    // Python, and the editor in place of the plain code, once a learner is here.
    onFirstSight(this, () => {
      this.runtime.start();
      this.mountEditor();
    });
  }

  /** The editor in place of the plain code; if it cannot load, the code stays as text
   *  (Run runs it: see `code`), and a note says why, with a Retry button. */
  async mountEditor() {
    this.editorFailed.hidden = true;
    try {
      this.editor = await editorModule();
    } catch (error) {
      this.editorFailed.firstChild.textContent =
        `The editor could not load: ${error.message}. Your code is shown as text, and Run runs it. `;
      this.editorFailed.hidden = false;
      return;
    }
    this.editorFailed.remove();
    this.view = this.newView(this.pendingCode);
    this.placeholder.remove();
    if (this.errorLine) this.markLine(this.errorLine); // a run that ended before it was seen
  }

  newView(doc) {
    return this.editor.createEditor({
      parent: this.editorBox,
      root: this.shadowRoot,
      doc,
      readOnly: this.readOnly,
      dark: this.dark,
      deadlines,
      onChange: (text, byPage, scrubbed) => this.edited(byPage, scrubbed),
      onScrub: (text) => this.live?.stepped(text),
    });
  }

  /** Show another of the kept codes (the switch) in an editor of its own: undo never
   *  carries one code's text into another. */
  showCode(text) {
    this.link.hidden = true; // a share link shown is the other code's
    if (text !== this.defaultCode && this.built) this.leaveBuilt({ clear: true });
    if (!this.view) {
      this.pendingCode = this.placeholder.textContent = text;
      return;
    }
    const focused = this.view.hasFocus;
    this.view.destroy();
    this.view = this.newView(text);
    if (focused) this.view.focus();
  }

  build() {
    const root = this.attachShadow({ mode: "open" });
    root.adoptedStyleSheets = [sheet, optionsSheet];
    const button = (text, title, action) => {
      const b = element("button", { type: "button", textContent: text, title });
      b.addEventListener("click", action);
      return b;
    };
    this.runButton = button("Run", "Run the code (Ctrl+Enter, Cmd+Enter or Shift+Enter)", () => this.run());
    this.stopButton = button("Stop", "Stop the running code", () => this.stop());
    this.status = element("span", { className: "status", role: "status" });
    this.loadingBar = element("progress", { ariaLabel: "Python downloaded" });
    this.loadingBytes = element("span");
    this.loading = element("span", { className: "loading", hidden: true }, [this.loadingBar, this.loadingBytes]);
    this.notice = element("span", { className: "notice", role: "status" });
    // While Python could not start (onPhase).
    this.retryButton = button("Retry", "Start Python again", () => this.runtime.retry());
    this.retryButton.hidden = true;
    this.downloadButton = button("Download .py", "Save the code as a Python file", () => downloadPy(this.offered()));
    this.downloadButton.hidden = true;
    this.link = element("input", { className: "link", readOnly: true, hidden: true, ariaLabel: "Share link" });
    // A live edit that leaves the code as it last ran (a drag back to where it began) is not run.
    const rerun = (code = this.code) => code !== this.job?.code && this.run({ live: true, code });
    this.live = isLive(this) && !this.readOnly ? new Live(rerun) : null;
    this.output = new OutputView();
    this.pacer = new Pacer(this.runtime);
    this.plots = new PlotsPanel(this.pacer.root);
    this.tables = new TablePanel();
    this.picture = new GraphView(this.runtime);
    // The picture may grow as tall as the results, which then scroll to show it (graph.css).
    this.picture.roomHeight = () => this.results.clientHeight - parseFloat(getComputedStyle(this.results).paddingBottom);
    this.picture.onState = () => this.notePainted();
    this.stepper = new Stepper((t) => this.builtTables?.has(t)
      ? Promise.resolve({ steps: null, noSteps: BUILT_STEPS })
      : this.runtime.steps(t));
    this.tape = new TapeStepper(() => this.code);
    this.tables.bar.after(this.tape.band, this.stepper.band); // a replay is said over its numbers
    this.linkViews();
    this.pendingCode = this.initialCode();
    this.placeholder = element("pre", { className: "placeholder", textContent: this.pendingCode });
    this.editorFailed = element("p", { className: "editor-failed", role: "alert", hidden: true }, [
      element("span"),
      button("Retry", "Load the editor again", () => this.mountEditor()),
    ]);
    const editorBox = element("div", { className: "editor" }, [this.editorFailed, this.placeholder]);
    root.append(element("div", { className: "playground" }, [
      element("div", { className: "toolbar" }, [
        this.runButton,
        this.stopButton,
        Object.assign(
          button("Reset", "Put back the starting code (undo with Ctrl+Z)", () => this.reset()),
          { hidden: this.readOnly },
        ),
        button("Share", "Copy a link that opens this code", () => this.share()),
        ...(this.keeper ? [this.keeper.switch] : []),
        this.status,
        this.retryButton,
        this.loading,
        ...(this.live ? [this.live.note] : []),
        this.notice,
        this.downloadButton,
        this.link,
      ]),
      this.plots.root, // beside the code, or over it where the playground is narrow (plots.css)
      editorBox,
      (this.results = element("section", { className: "results unrun", ariaLabel: "Results" }, [
        ...(this.exercise ? [element("h2", { textContent: "Exercise" }), this.exercise.root] : []),
        element("p", { className: "first-hint", textContent: FIRST_HINT }),
        element("slot", { name: "built" }),
        (this.outputHeading = element("h2", { textContent: "Output" })),
        this.output.root,
        (this.staleNote = element("p", { className: "stale-note", role: "status", hidden: true })),
        (this.nodesHeading = element("h2", { textContent: "Nodes" })),
        (this.views = element("div", { className: "views" }, [
          this.tables.root, this.picture.root, this.tape.root, this.stepper.root,
        ])),
      ])),
    ]));
    this.editorBox = editorBox;
    // Not of the code shown (the learner's kept code, a link's), nor an exercise's answer.
    if (this.exercise || this.pendingCode !== this.defaultCode) this.leaveBuilt();
    this.showBuilt();
    root.addEventListener("keydown", (event) => this.onKey(event), { capture: true });
  }

  /** Keep the table, the picture, the steppers and the editor showing the same node;
   *  one replay at a time, Backward's or the tape's. */
  linkViews() {
    this.tables.root.addEventListener("table-change", ({ detail }) => {
      const t = this.tables.current ?? null;
      const after = this.builtTables?.has(t) ? { until: this.pythonReady(), why: BUILT_PICTURE } : null;
      this.picture.show(t, (i) => this.tables.changed(i), { live: detail.live, after });
      this.tape.show(t, { keep: detail.live });
      this.stepper.show(t, { keep: detail.live });
      this.markNodeLine(null);
    });
    this.tables.onSelect = this.picture.onSelect = (i) => this.selectNode(i);
    const shown = (other, { grads, position, current, targets = new Set(), made = null }, step) => {
      if (position !== null) other.leave();
      else if (other.position !== null) return; // the other's replay is what is shown
      this.tables.setGrads(grads, { step, made });
      this.picture.setGrads(grads);
      this.views.classList.toggle("replaying", position !== null);
      for (const view of [this.tables, this.picture]) view.setMarks({ current, targets, made });
      if (current !== null) {
        this.tables.reveal(current);
        this.markNodeLine(this.tables.current.line[current]);
      }
    };
    this.stepper.onStep = (s) => shown(this.tape, s, s.position);
    this.tape.onStep = (s) => shown(this.stepper, s, null);
  }

  /** Select node `i` of the table in view: in the table, in the picture, and its line. */
  selectNode(i) {
    for (const view of [this.tables, this.picture]) view.setMarks({ selected: i });
    this.tables.reveal(i);
    this.markNodeLine(this.tables.current.line[i]);
  }

  /** Mark the line of code that made the selected node (null: no mark). */
  markNodeLine(line) {
    if (this.view) this.editor.markNodeLine(this.view, line ?? null);
  }

  /**
   * The code to open with: a share link's (on the full-page playground), as a
   * draft beside the learner's saved code, else that code (unless read-only),
   * else the default. `fromLink` is also set by embed.html, whose code is the link's.
   */
  initialCode() {
    const linked = this.authored === null ? codeFromLink() : null;
    if (linked instanceof Error) this.linkError = linked.message;
    const draft = typeof linked === "string" && !this.readOnly ? linked : null;
    this.fromLink ||= draft !== null;
    if (this.readOnly) return this.defaultCode;
    this.keeper = new Keeper({
      key: this.storageKey,
      fallback: this.defaultCode,
      linked: draft,
      editor: this,
      say: (text, download) => this.say(text, download),
    });
    return this.keeper.code;
  }

  /** Open the code of the link now in the address bar as opening the page on it does:
   *  as a draft beside the learner's code; an unreadable link says so and changes nothing. */
  openLink() {
    const linked = codeFromLink();
    if (linked instanceof Error) this.printNote(`${linked.message}\n`);
    if (typeof linked !== "string") return;
    this.keeper.openLink(linked);
    this.live?.pause(LINK_WAITS);
    if (!this.results.classList.contains("unrun")) {
      this.markStale("These are the results of the code before the link's: press Run to run the link's code.");
    }
  }

  /** Say `text` in the output and keep it there through the run in flight, or the live
   *  run an edit waits for: that run's first output would otherwise clear it, as it
   *  clears the last run's. */
  printNote(text) {
    if (this.state === "running") {
      this.job.print("error", text);
      return;
    }
    this.print("error", text);
    if (this.live?.waiting) this.heldNote = text;
  }

  get state() {
    return this.dataset.state;
  }

  set state(value) {
    this.dataset.state = value;
    this.showRunning(value === "running" && !this.runUnshown);
    this.notePainted();
  }

  /** The toolbar says whether a run is on: Run off and Stop on while it is. */
  showRunning(running) {
    this.runButton.disabled = running;
    this.stopButton.disabled = !running;
  }

  /** `data-painted`: whether every panel shows the latest result (the picture drawn, or
   *  failed, not being laid out), and a `painted` event as it becomes so: what a
   *  screenshot or a headless check waits for after `data-state` says the run ended. */
  notePainted() {
    const painted = !["loading", "running"].includes(this.state)
      && this.picture?.root.dataset.state !== "laying-out";
    if (String(painted) === this.dataset.painted) return;
    this.dataset.painted = String(painted);
    if (painted) this.dispatchEvent(new Event("painted"));
  }

  get code() {
    return this.view ? this.view.state.doc.toString() : this.pendingCode;
  }

  set code(text) {
    if (this.view) {
      this.editor.setText(this.view, text);
    } else {
      this.pendingCode = this.placeholder.textContent = text;
      this.edited(true);
    }
  }

  /** The code was edited: it is kept, a share link shown, made before, goes, and a live
   *  playground re-runs it (not when `byPage`: set through `code`; nor when `scrubbed`:
   *  a number's step started its run before the editor showed it, onScrub). */
  edited(byPage, scrubbed = false) {
    this.link.hidden = true;
    this.keeper?.edited();
    if (!byPage && !scrubbed) this.live?.edited();
  }

  /** Mark the line where the run failed (null: no mark), once the editor is there. */
  markLine(line) {
    this.errorLine = line;
    if (this.view) this.editor.markLine(this.view, line);
  }

  /** Python's phase changed: said in the status line. While Python could not start, the
   *  playground is in error and offers to start it again; once it starts again, it is
   *  loading, then ready. */
  onPhase() {
    const phase = this.runtime.phase;
    const failed = phase.startsWith("failed");
    if (failed) this.state = "error";
    else if (!this.retryButton.hidden && this.state === "error") this.state = "loading";
    this.retryButton.hidden = !failed;
    if (phase === "ready" && this.state === "loading") this.state = "ready";
    if (phase === "ready" && !this.announced) {
      this.announced = true;
      this.dispatchEvent(new Event("ready"));
    }
    if (this.state !== "running") this.setStatus(phaseText(phase));
    else if (!this.runtime.ready) this.setStatus(queuedText(phase));
    this.onProgress();
  }

  /** Show how much of Python has downloaded, here if this is the playground that shows it,
   *  once the load has lasted long enough to be worth a bar (a cached one is over sooner). */
  onProgress() {
    const progress = this.runtime.progress;
    if (progress && !showsDownload && (this.state === "running" || inViewNow(this))) showsDownload = this;
    const loadingFor = performance.now() - this.runtime.spawnedAt;
    const shown = progress !== null && showsDownload === this && loadingFor >= deadlines.progressDelayMs;
    this.loading.hidden = !shown;
    if (!shown) return;
    this.loadingBar.max = progress.total;
    this.loadingBar.value = progress.received;
    this.loadingBytes.textContent = `${megabytes(progress.received)} of ${megabytes(progress.total)} MB`;
  }

  onKey(event) {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey || event.shiftKey)) {
      event.preventDefault();
      event.stopPropagation();
      this.run();
    }
  }

  /**
   * Run the editor's code; resolves with the runner's result when the run ends.
   * `live`: a re-run after an edit (live.js), of `code` when the editor is yet to show
   * it. A live run in flight gives way to a newer one (where Python can be interrupted;
   * else the newer waits) and to Run.
   */
  async run({ live = false, code = undefined } = {}) {
    while (this.state === "running") {
      const job = this.job;
      if (!job.replaced) {
        if (!job.live || (live && !this.runtime.interruptible)) {
          if (live) job.rerun = true; // the edit is run once this run ends
          return job.done;
        }
        job.replaced = true;
        this.runtime.stop(job);
      }
      await job.ended;
      if (this.job === job) break; // else another run started meanwhile: see to it
    }
    if (!live) this.live?.resume();
    this.live?.started();
    const job = this.startRun(live, code ?? this.code);
    job.ended = this.finishRun(job);
    const result = await job.ended;
    if (job.rerun && !this.live?.paused && this.code !== job.code) this.run({ live: true });
    return result;
  }

  /** Send `code` to Python; the job (see Runtime.run). */
  startRun(live, code) {
    this.runUnshown = live && this.runtime.ready; // shown later if it lasts: showRunningLater
    this.state = "running";
    if (!this.built) this.results.classList.remove("unrun"); // else once the run shows its own
    this.markLine(null);
    // A live run's output replaces the last as it is drawn, so that the last stays until then;
    // a note held for this run (printNote) stays with it.
    const held = this.heldNote;
    this.heldNote = null;
    const clearOutput = (untilDrawn) => {
      this.output.clear(untilDrawn);
      if (held) this.print("error", held);
    };
    let fresh = !live;
    if (fresh) clearOutput(false);
    const onOutput = (stream, text) => {
      if (!fresh) clearOutput(true);
      fresh = true;
      this.print(stream, text);
    };
    // So too the charts, for any run: the last run's stay until the new one's first points
    // come, and the code below them does not jump up and down. A Run's are brought into
    // view once.
    let freshPlots = false;
    const onPlots = (batch) => {
      if (!freshPlots) {
        this.plots.clear();
        if (!live) this.plots.revealOnce();
      }
      freshPlots = true;
      this.plots.add(batch);
    };
    const firstSteps = this.pacer.firstSteps(live);
    // The tables of code that ended without error, painted as they come: the run's end
    // (what it left freed, Python put back) is still to come.
    const onTables = (tables) => {
      if (job.replaced) return;
      this.output.catchUp();
      this.showTables(tables, live);
      job.tablesShown = true;
    };
    const job = Object.assign(
      this.runtime.run(code, onOutput, this.exercise?.checks, onPlots, firstSteps, onTables), { code, live });
    this.pacer.begin(job);
    job.print = onOutput;
    job.clearOutput = () => {
      if (!fresh) clearOutput(false);
      if (!freshPlots) this.plots.clear();
    };
    this.job = job;
    this.keeper?.flush(); // once the run is on its way: saving is on the page's time
    if (this.runUnshown) {
      this.showRunningLater(job);
    } else if (this.runtime.ready) {
      this.setStatus("running…");
    } else {
      this.setStatus(queuedText(this.runtime.phase));
      job.started.then(() => this.job === job && this.state === "running" && this.setStatus("running…"));
    }
    const limits = [timeoutMs(this), live ? deadlines.liveRunMs : null].filter(Boolean);
    if (limits.length) {
      const limit = Math.min(...limits);
      job.started.then(() => (job.timer = setTimeout(() => this.timeOut(job, limit), limit)));
    }
    return job;
  }

  /** A live re-run shows in the toolbar only once it has run for liveRunShownMs: until
   *  then Run, Stop and the status line stay as the run before left them. */
  showRunningLater(job) {
    job.shownTimer = setTimeout(() => {
      if (this.job !== job || this.state !== "running") return;
      this.runUnshown = false;
      this.showRunning(true);
      this.setStatus("running…");
    }, deadlines.liveRunShownMs);
  }

  /** Show `job`'s result when it comes; the result. A run replaced by a newer shows nothing. */
  async finishRun(job) {
    const result = await job.done;
    clearTimeout(job.timer);
    clearTimeout(job.shownTimer);
    if (this.pacer.job === job) this.pacer.end();
    if (job.replaced) return result;
    job.clearOutput();
    if (job.endNote) this.print("error", job.endNote);
    this.showResult(result, job.live, this.code === job.code, job.tablesShown);
    await Promise.all([this.output.drawn(), this.plots.drawn()]);
    this.plots.finish();
    this.exercise?.finish(result, job.code);
    this.state = result.status;
    this.dispatchEvent(new CustomEvent("run-end", { detail: { ...result, plots: this.plots.summary() } }));
    return result;
  }

  stop() {
    if (this.state !== "running") return;
    if (this.job.live) this.live.pause("you stopped the last one");
    this.runtime.stop(this.job);
  }

  /** Stop a run that took longer than the `timeout` attribute (or, live, liveRunMs) allows. */
  timeOut(job, limit) {
    if (this.job !== job || this.state !== "running") return;
    if (job.live && limit === deadlines.liveRunMs) {
      this.live.pause(`the last took over ${limit / 1000} s, so it was stopped`);
    }
    // Said after the run's last output, which is still to come: never inside its last line.
    job.endNote = `\nStopped: runs here may take at most ${limit / 1000} s.\n`;
    this.runtime.stop(job);
  }

  /** Back to the default code, as one change that Ctrl+Z undoes. */
  reset() {
    this.replaceCode(this.defaultCode, "Reset");
    this.view?.focus();
  }

  /** Put `text` in the editor as one change that Ctrl+Z undoes; the code it replaces is
   *  kept in the switch, named as the code before `reason` ("the solution", "Reset"). */
  replaceCode(text, reason) {
    if (this.keeper) this.keeper.replace(text, reason);
    else this.code = text;
    this.live?.edited();
  }

  /** Copy a link that opens this code; also shown in a field, for when copying is not allowed. */
  async share() {
    // Code from a course page opens in the site's full-page playground, which every copy
    // of the site carries (the authors' wheel, Sphinx's and MkDocs' builds, an export).
    const link = shareLink(this.code, this.authored === null ? location.href : FULL_PAGE_URL);
    if (link.length > MAX_LINK_CHARS) {
      this.link.hidden = true;
      const size = `${counted(link.length)} characters; browsers open up to ${counted(MAX_LINK_CHARS)}`;
      this.say(`This code is too long for a link (${size}): download it instead.`, () => this.code);
      return;
    }
    this.link.value = link;
    this.link.hidden = false;
    this.link.select();
    try {
      await navigator.clipboard.writeText(link);
      this.setStatus("link copied");
    } catch {
      this.setStatus("copy the link from the field");
    }
  }

  /** Add `text` to the output box as `stream` (stdout, stderr, or error: the page's own). */
  print(stream, text) {
    this.leaveBuilt();
    this.results.classList.remove("unrun");
    this.output.append(stream, text);
  }

  /** `ofCode`: the editor still shows the code that ran (not a link's opened meanwhile),
   *  so the line of its error is marked there; `tablesShown`: its tables are on screen
   *  already (showTables), which a run that ended without error leaves as they are. */
  showResult(result, live, ofCode = true, tablesShown = false) {
    this.leaveBuilt();
    this.results.classList.remove("unrun");
    if (result.error) this.print("error", result.error);
    this.markLine(ofCode ? result.line ?? null : null);
    // A live edit that does not parse yet (a line half typed) keeps the last results on
    // screen, said to be the last run's that worked, rather than blanking them.
    const kept = live && nothingRan(result) && this.tables.tables.length > 0;
    if (kept) {
      this.markStale(`These are the results of the last run that worked: this code has a ${noGraphNote(result)}`);
    } else if (!(tablesShown && result.status === "done")) {
      this.markStale(result.status === "done" ? null : stopNote(result));
      this.tables.setTables(result.tables, { complete: result.status === "done", empty: noGraphNote(result), live });
    }
    const time = result.ms === undefined ? "" : ` in ${Math.round(result.ms)} ms`;
    const words = { done: `ran${time}`, error: `error${time}`, stopped: "stopped" };
    const restarting = this.runtime.ready ? "" : `; ${phaseText(this.runtime.phase)}`;
    this.setStatus(words[result.status] + restarting);
  }

  /** The tables of a run whose code ended without error, before its result. */
  showTables(tables, live) {
    this.leaveBuilt();
    this.results.classList.remove("unrun");
    this.markStale(null);
    this.tables.setTables(tables, { live });
  }

  /** The results computed when the page was built, shown where a run shows its own: the
   *  output, the table, the steppers, and the picture once Python is ready (drawn sooner,
   *  its Graphviz would share a slow link with Python's download). So a run changes their
   *  numbers, not the page's layout. Results too big for the page to hold as JSON (no
   *  built-result) show as it wrote them, through the slot. */
  showBuilt() {
    const json = this.built?.querySelector(":scope > script.built-result")?.textContent;
    let built = null;
    try {
      built = json ? parseBuilt(json) : null;
    } catch (error) {
      console.warn(`The results computed when this page was built show as it wrote them: ${error.message}`);
    }
    this.results.classList.toggle("built", Boolean(this.built && !built));
    if (!built) return;
    this.builtTables = new Set(built.tables);
    this.results.classList.remove("unrun");
    const heading = this.hasAttribute("hide-output") ? this.nodesHeading : this.outputHeading;
    heading.dataset.built = BUILT_NOTE;
    heading.dataset.builtShort = BUILT_NOTE_SHORT;
    this.output.append("stdout", built.output);
    // Not a run here: the first run's values are not marked as changed from them.
    this.tables.setTables(built.tables, { complete: false, empty: noGraphNote({ status: "done" }) });
  }

  /** Resolves once Python is ready (at once if it is). */
  pythonReady() {
    if (this.announced) return Promise.resolve();
    return new Promise((resolve) => this.addEventListener("ready", resolve, { once: true }));
  }

  /** The results computed when the page was built go for good: a run's own replace them,
   *  or (`clear`) the code shown is not the page's, and the panels are emptied. */
  leaveBuilt({ clear = false } = {}) {
    this.built?.remove();
    this.built = null;
    this.results.classList.remove("built");
    if (!this.builtTables) return;
    this.builtTables = null;
    for (const heading of [this.outputHeading, this.nodesHeading]) {
      delete heading.dataset.built;
      delete heading.dataset.builtShort;
    }
    if (!clear) return;
    this.output.clear();
    this.tables.setTables([]);
    this.results.classList.add("unrun");
  }

  setStatus(text) {
    this.status.textContent = text;
  }

  /** Say over the nodes that they are not what the code in the editor gives (null: they
   *  are). */
  markStale(text) {
    this.staleNote.hidden = text === null;
    this.staleNote.textContent = text ?? "";
  }

  /** Tell the learner about their code (kept, linked, too long), beside the run's status;
   *  with `download`, offer what it gives as a file. */
  say(text, download = null) {
    this.notice.textContent = text;
    this.offered = download;
    this.downloadButton.hidden = !download;
  }
}

/** What a learner kept under the key this playground had before keys named their page
 *  (its code and its pass), under its key now, unless something is kept there already. */
function adoptEarlier(key, earlier) {
  if (earlier === null) return;
  for (const prefix of ["autograd-playground:", PASSES]) {
    const kept = store.get(prefix + earlier);
    if (kept !== null && store.get(prefix + key) === null) store.set(prefix + key, kept);
  }
}

/** What the nodes panel says of a run that did not end: the graph is as it was then. */
function stopNote({ status, line, tables }) {
  if (!tables.length) return null; // the panel says why there is no graph
  const where = line ? ` on line ${line}` : "";
  return status === "stopped"
    ? "The run was stopped: the nodes are as the code had left them then."
    : `The run stopped at an error${where}: the nodes are as the code had left them then.`;
}

/** The full-page playground's `live` from its URL, where given: `?live` or `?live=off`. */
function liveFromUrl(playground) {
  const live = new URLSearchParams(location.search).get("live");
  if (live !== null) playground.setAttribute("live", live);
}

/** Offer `code` as a file to download, playground.py. */
function downloadPy(code) {
  const url = URL.createObjectURL(new Blob([code], { type: "text/x-python" }));
  element("a", { href: url, download: "playground.py" }).click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The status of a run that waits for Python to start. */
function queuedText(phase) {
  return `${phaseText(phase)} Your run is queued: it starts once Python is ready.`;
}

/** Bytes in megabytes, to a tenth. */
function megabytes(bytes) {
  return (bytes / 1e6).toFixed(1);
}

/** A runtime phase for the status line: the ones still in progress end in "…". */
function phaseText(phase) {
  if (phase === "idle") return "";
  return phase === "ready" || phase.startsWith("failed") ? phase : `${phase}…`;
}

// Python for a playground seen as the page opens starts before the elements are
// built, not once they are first seen: its first result comes a frame or more sooner.
if ([...document.querySelectorAll("autograd-playground")].some(inViewNow)) {
  sharedRuntime(WORKER_URL).start();
}
customElements.define("autograd-playground", AutogradPlayground);
