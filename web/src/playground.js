// <autograd-playground>: an editor, Run / Stop / Reset / Share, the output,
// a table of every node of every graph the code leaves behind, a picture of
// the graph beside it, and a stepper that replays Backward node by node.
// Selecting a node (in the table or the picture) marks it in both and marks
// the line of code that made it.
//
// Hooks for tests and host pages:
//   data-state   loading | ready | running | done | error | stopped
//   events       "ready" (Python is up), "run-end" (detail: the run's result)
//   methods      run(), stop(), reset(); property `code` (get and set)
// Every playground on a page shares one Python worker (see runtime.js).

import { element } from "./dom.js";
import example from "./example.py";
import graphCss from "./graph.css";
import { GraphView } from "./graph-view.js";
import css from "./playground.css";
import { sharedRuntime } from "./runtime.js";
import { codeFromLink, shareLink, store } from "./share.js";
import { Stepper } from "./stepper.js";
import { TablePanel } from "./table.js";

const WORKER_URL = new URL("./worker.js", import.meta.url);
const SAVE_DELAY_MS = 300;

// CodeMirror is most of the page's JavaScript: fetch it alongside, so that
// nothing delays starting Python, and show the code as plain text until then.
const editorModule = import("./editor.js");

const sheet = new CSSStyleSheet();
sheet.replaceSync(css + graphCss);

class AutogradPlayground extends HTMLElement {
  connectedCallback() {
    if (this.shadowRoot) return;
    this.runtime = sharedRuntime(WORKER_URL); // first: Python's boot is the long pole
    this.defaultCode = this.textContent.trim() ? this.textContent : example;
    this.storageKey = `autograd-playground:${this.id || location.pathname}`;
    this.build();
    this.runtime.addEventListener("phase", () => this.onPhase());
    this.state = "loading";
    this.onPhase();
    if (this.linkError) this.print("error", `${this.linkError}\n`);
  }

  build() {
    const root = this.attachShadow({ mode: "open" });
    root.adoptedStyleSheets = [sheet];
    const button = (text, title, action) => {
      const b = element("button", { type: "button", textContent: text, title });
      b.addEventListener("click", action);
      return b;
    };
    this.runButton = button("Run", "Run the code (Ctrl+Enter, Cmd+Enter or Shift+Enter)", () => this.run());
    this.stopButton = button("Stop", "Stop the running code", () => this.stop());
    this.status = element("span", { className: "status", role: "status" });
    this.link = element("input", { className: "link", readOnly: true, hidden: true, ariaLabel: "Share link" });
    this.output = element("pre", { className: "output", role: "log", ariaLabel: "Output" });
    this.output.setAttribute("aria-live", "polite");
    this.output.tabIndex = 0;
    this.tables = new TablePanel();
    this.picture = new GraphView();
    this.stepper = new Stepper();
    this.linkViews();
    this.pendingCode = this.initialCode();
    this.placeholder = element("pre", { className: "placeholder", textContent: this.pendingCode });
    const editorBox = element("div", { className: "editor" }, [this.placeholder]);
    root.append(element("div", { className: "playground" }, [
      element("div", { className: "toolbar" }, [
        this.runButton,
        this.stopButton,
        button("Reset", "Put back the example code (undo with Ctrl+Z)", () => this.reset()),
        button("Share", "Copy a link that opens this code", () => this.share()),
        this.status,
        this.link,
      ]),
      editorBox,
      element("section", { className: "results", ariaLabel: "Results" }, [
        element("h2", { textContent: "Output" }),
        this.output,
        element("h2", { textContent: "Nodes" }),
        element("div", { className: "views" }, [this.tables.root, this.picture.root]),
        this.stepper.root,
      ]),
    ]));
    editorModule.then((editor) => {
      this.editor = editor;
      this.view = editor.createEditor({
        parent: editorBox,
        root,
        doc: this.pendingCode,
        onChange: () => this.scheduleSave(),
      });
      this.placeholder.remove();
    });
    root.addEventListener("keydown", (event) => this.onKey(event), { capture: true });
    addEventListener("pagehide", () => this.save());
  }

  /** Keep the table, the picture, the stepper and the editor showing the same node. */
  linkViews() {
    this.tables.root.addEventListener("table-change", () => {
      const t = this.tables.current ?? null;
      this.picture.show(t, (i) => this.tables.changed(t, i));
      this.stepper.show(t);
      this.markNodeLine(null);
    });
    this.tables.onSelect = this.picture.onSelect = (i) => this.selectNode(i);
    this.stepper.onStep = ({ grads, current, targets }) => {
      this.tables.setGrads(grads);
      this.picture.setGrads(grads);
      for (const view of [this.tables, this.picture]) view.setMarks({ current, targets });
      if (current !== null) {
        this.tables.reveal(current);
        this.markNodeLine(this.tables.current.line[current]);
      }
    };
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

  /** The code to open with: a share link's, else the learner's saved code, else the default. */
  initialCode() {
    const linked = codeFromLink();
    if (linked instanceof Error) this.linkError = linked.message;
    else if (linked !== null) return linked;
    return store.get(this.storageKey) ?? this.defaultCode;
  }

  get state() {
    return this.dataset.state;
  }

  set state(value) {
    this.dataset.state = value;
    this.runButton.disabled = value === "running";
    this.stopButton.disabled = value !== "running";
  }

  get code() {
    return this.view ? this.view.state.doc.toString() : this.pendingCode;
  }

  set code(text) {
    if (this.view) {
      this.editor.setText(this.view, text);
    } else {
      this.pendingCode = this.placeholder.textContent = text;
    }
  }

  /** Mark the line where the run failed (null: no mark), once the editor is there. */
  markLine(line) {
    if (this.view) this.editor.markLine(this.view, line);
  }

  onPhase() {
    const phase = this.runtime.phase;
    if (phase === "ready" && !this.announced) {
      this.announced = true;
      if (this.state === "loading") this.state = "ready";
      this.dispatchEvent(new Event("ready"));
    }
    if (phase.startsWith("failed")) this.state = "error";
    if (this.state !== "running") this.setStatus(phaseText(phase));
  }

  onKey(event) {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey || event.shiftKey)) {
      event.preventDefault();
      event.stopPropagation();
      this.run();
    }
  }

  /** Run the editor's code; resolves with runner.py's result when the run ends. */
  async run() {
    if (this.state === "running") return this.job.done;
    this.state = "running";
    this.setStatus(this.runtime.ready ? "running…" : `${phaseText(this.runtime.phase)} (then running)`);
    this.output.replaceChildren();
    this.markLine(null);
    this.save();
    this.job = this.runtime.run(this.code, (stream, text) => this.print(stream, text));
    const result = await this.job.done;
    this.showResult(result);
    this.state = result.status;
    this.dispatchEvent(new CustomEvent("run-end", { detail: result }));
    return result;
  }

  stop() {
    if (this.state === "running") this.runtime.stop(this.job);
  }

  /** Back to the default code, as one change that Ctrl+Z undoes. */
  reset() {
    this.code = this.defaultCode;
    this.view?.focus();
  }

  /** Copy a link that opens this code; also shown in a field, for when copying is not allowed. */
  async share() {
    const link = shareLink(this.code);
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

  print(stream, text) {
    const atEnd = this.output.scrollTop + this.output.clientHeight >= this.output.scrollHeight - 4;
    this.output.append(element("span", { className: stream, textContent: text }));
    if (atEnd) this.output.scrollTop = this.output.scrollHeight;
  }

  showResult(result) {
    if (result.error) this.print("error", result.error);
    this.markLine(result.line ?? null);
    this.tables.setTables(result.tables);
    const time = result.ms === undefined ? "" : ` in ${Math.round(result.ms)} ms`;
    const words = { done: `ran${time}`, error: `error${time}`, stopped: "stopped" };
    const restarting = this.runtime.ready ? "" : `; ${phaseText(this.runtime.phase)}`;
    this.setStatus(words[result.status] + restarting);
  }

  setStatus(text) {
    this.status.textContent = text;
  }

  scheduleSave() {
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => this.save(), SAVE_DELAY_MS);
  }

  save() {
    clearTimeout(this.saveTimer);
    if (this.code !== this.defaultCode || store.get(this.storageKey) !== null) {
      store.set(this.storageKey, this.code);
    }
  }
}

/** A runtime phase for the status line: the ones still in progress end in "…". */
function phaseText(phase) {
  return phase === "ready" || phase.startsWith("failed") ? phase : `${phase}…`;
}

customElements.define("autograd-playground", AutogradPlayground);
