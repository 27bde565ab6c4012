// The code editor: CodeMirror 6 with Python support, Tab to indent (Esc then
// Tab moves focus on, as a hint under the code says while the editor has focus,
// so that no keyboard user is trapped in it), number literals to drag (scrub.js),
// no autocorrection, long lines wrapped (a phone shows every character without
// scrolling sideways) at their indentation (wrapped-indent.js), a mark on the line where the last run failed, and
// CodeMirror's own light or dark look (its panels and tooltips) switched with the
// playground's. It imports none of the page's other scripts (build.py bundles it on
// its own), so that it runs from a blob: URL too (editor-script.js).

import { indentWithTab, isolateHistory } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { Annotation, Compartment, EditorState, Prec, StateEffect, StateField } from "@codemirror/state";
import { Decoration, EditorView, keymap, showPanel, ViewPlugin } from "@codemirror/view";
import { tags } from "@lezer/highlight";
import { basicSetup } from "codemirror";
import { pageDeadlines } from "./editor-deadlines.js";
import { scrubbing } from "./scrub.js";
import { wrappedIndent } from "./wrapped-indent.js";

// Colours come from CSS variables so that light and dark themes are CSS alone.
const highlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.operatorKeyword], color: "var(--code-keyword)" },
  { tag: [tags.string, tags.special(tags.string)], color: "var(--code-string)" },
  { tag: [tags.number, tags.bool, tags.null], color: "var(--code-number)" },
  { tag: tags.comment, color: "var(--code-comment)", fontStyle: "italic" },
  { tag: [tags.function(tags.variableName), tags.function(tags.propertyName)], color: "var(--code-function)" },
  { tag: [tags.definition(tags.variableName), tags.className], color: "var(--code-definition)" },
]);

/** A mark on one line, set with `view.dispatch({effects: effect.of(line or null)})`
 *  and cleared when the text changes: the failing line, and the selected node's line. */
function lineMark(className, attributes = {}) {
  const effect = StateEffect.define();
  const mark = Decoration.line({ class: className, attributes });
  const field = StateField.define({
    create: () => Decoration.none,
    update(marks, tr) {
      if (tr.docChanged) marks = Decoration.none;
      for (const e of tr.effects) {
        if (e.is(effect)) {
          marks = e.value === null ? Decoration.none : Decoration.set([mark.range(tr.state.doc.line(e.value).from)]);
        }
      }
      return marks;
    },
    provide: (f) => EditorView.decorations.from(f),
  });
  return { effect, field };
}

// Marks the changes setText makes: the page's, not the learner's.
const byPage = Annotation.define();

// Whether CodeMirror draws its own parts dark; reconfigured by setDark.
const darkness = new Compartment();

// The way out of an editor that takes Tab, said under the code while the editor has
// focus (CSS shows it then) and read to screen readers as the code's description.
const TAB_HINT_ID = "tab-hint";
const tabHintPanel = showPanel.of(() => ({
  dom: Object.assign(document.createElement("div"), {
    className: "cm-tab-hint",
    id: TAB_HINT_ID,
    textContent: "Tab indents; to leave the editor, press Esc then Tab.",
  }),
}));

// Where the code runs past the window's bottom (a course page's long code, whose editor
// is as tall as its lines), the hint is lifted to the window's bottom while the editor
// has focus, so that it is seen wherever the page is scrolled to.
const liftTabHint = ViewPlugin.fromClass(class {
  constructor(view) {
    this.view = view;
    this.lifted = false;
    this.place = () => this.view.requestMeasure({
      key: this,
      read: () => this.lift(),
      write: (lift, view) => {
        view.dom.querySelector(".cm-tab-hint").style.transform = lift ? `translateY(${-lift}px)` : "";
        this.lifted = lift > 0;
      },
    });
  }

  update(update) {
    if (update.focusChanged) {
      const method = update.view.hasFocus ? "addEventListener" : "removeEventListener";
      document[method]("scroll", this.place, { capture: true, passive: true });
      window[method]("resize", this.place);
    }
    const moved = update.focusChanged || update.geometryChanged;
    if (moved && (update.view.hasFocus || this.lifted)) this.place();
  }

  /** How far up the hint goes: to the window's bottom, never above the editor's top. */
  lift() {
    if (!this.view.hasFocus) return 0;
    const { top, bottom } = this.view.dom.getBoundingClientRect();
    const hint = this.view.dom.querySelector(".cm-tab-hint");
    return Math.max(0, Math.min(bottom - innerHeight, bottom - top - hint.offsetHeight));
  }

  destroy() {
    document.removeEventListener("scroll", this.place, { capture: true });
    window.removeEventListener("resize", this.place);
  }
});

// Esc, unless something took it (a panel or a completion it closed), lets the next Tab
// within the page's deadlines.escapeThenTabMs move focus on. CodeMirror does so too, for 2 s;
// taking the key here makes that window a deadline a test can set.
const escapeThenTab = Prec.lowest(EditorView.domEventHandlers({
  keydown(event, view) {
    if (event.key !== "Escape") return false;
    view.setTabFocusMode(view.state.facet(pageDeadlines).escapeThenTabMs);
    return true;
  },
}));

const errorLine = lineMark("cm-error-line", { "aria-invalid": "true" });
const nodeLine = lineMark("cm-node-line");

/**
 * An editor in `parent` (inside `root`, a shadow root) holding `doc`;
 * `onChange(text, byPage, scrubbed)` on edits (byPage: made by setText, not the learner;
 * scrubbed: a step of a number, scrub.js); `onScrub(text)` with the code a step of a
 * number makes, before the editor shows it, so that a live run starts while it does;
 * `readOnly`: the learner cannot edit; `dark`: CodeMirror's dark look; `deadlines`: the
 * page's (deadlines.js), read as each starts to count.
 */
export function createEditor({ parent, root, doc, onChange, onScrub, deadlines, readOnly = false, dark = false }) {
  return new EditorView({
    parent,
    root,
    doc,
    dispatchTransactions(transactions, view) {
      // The new text only (newDoc): the new state, whose fields re-parse the code, comes
      // in view.update, once the step's run is on its way.
      const doc = transactions.at(-1).newDoc;
      if (doc !== view.state.doc && transactions.some((tr) => tr.isUserEvent("input.scrub"))) {
        onScrub?.(doc.toString());
      }
      view.update(transactions);
    },
    extensions: [
      basicSetup,
      pageDeadlines.of(deadlines),
      python(),
      syntaxHighlighting(highlight),
      darkness.of(EditorView.darkTheme.of(dark)),
      readOnly ? [] : [keymap.of([indentWithTab]), escapeThenTab, tabHintPanel, liftTabHint, scrubbing()],
      EditorView.lineWrapping,
      wrappedIndent,
      errorLine.field,
      nodeLine.field,
      EditorState.readOnly.of(readOnly),
      EditorView.contentAttributes.of({
        autocorrect: "off",
        autocapitalize: "off",
        spellcheck: "false",
        "aria-label": "Python code",
        // Already in the tab order as contenteditable; the tabindex tells checkers that
        // do not count contenteditable (axe-core) that the keyboard can scroll the code.
        tabindex: "0",
        ...(readOnly ? {} : { "aria-describedby": TAB_HINT_ID }),
      }),
      EditorView.updateListener.of((update) => {
        if (!update.docChanged) return;
        const { transactions } = update;
        const byPageNow = transactions.some((tr) => tr.annotation(byPage));
        onChange(update.state.doc.toString(), byPageNow, transactions.some((tr) => tr.isUserEvent("input.scrub")));
      }),
    ],
  });
}

/** Replace the whole text as an undo step of its own. */
export function setText(view, text) {
  view.dispatch({
    changes: { from: 0, to: view.state.doc.length, insert: text },
    annotations: [isolateHistory.of("full"), byPage.of(true)],
  });
}

/** Switch CodeMirror's own parts to their dark (or light) look. */
export function setDark(view, dark) {
  view.dispatch({ effects: darkness.reconfigure(EditorView.darkTheme.of(dark)) });
}

/** Mark line `line` (1-based) as where the error happened, or clear the mark with null. */
export function markLine(view, line) {
  mark(view, errorLine, line);
}

/** Mark the line that made the selected node, or clear the mark with null. */
export function markNodeLine(view, line) {
  mark(view, nodeLine, line);
}

function mark(view, { effect, field }, line) {
  const valid = line !== null && line >= 1 && line <= view.state.doc.lines;
  // Clearing no mark changes nothing: no update, which would read the page's layout.
  if (!valid && view.state.field(field).size === 0) return;
  const effects = [effect.of(valid ? line : null)];
  if (valid) effects.push(EditorView.scrollIntoView(view.state.doc.line(line).from, { y: "nearest" }));
  view.dispatch({ effects });
}
