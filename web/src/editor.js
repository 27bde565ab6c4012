// The code editor: CodeMirror 6 with Python support, Tab to indent (Esc then
// Tab moves focus on), no autocorrection, long lines wrapped (a phone shows
// every character without scrolling sideways), a mark on the
// line where the last run failed, and CodeMirror's own light or dark look
// (its panels and tooltips) switched with the playground's.

import { indentWithTab, isolateHistory } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { Compartment, EditorState, StateEffect, StateField } from "@codemirror/state";
import { Decoration, EditorView, keymap } from "@codemirror/view";
import { tags } from "@lezer/highlight";
import { basicSetup } from "codemirror";

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

// Whether CodeMirror draws its own parts dark; reconfigured by setDark.
const darkness = new Compartment();

const errorLine = lineMark("cm-error-line", { "aria-invalid": "true" });
const nodeLine = lineMark("cm-node-line");

/**
 * An editor in `parent` (inside `root`, a shadow root) holding `doc`;
 * `onChange(text)` on edits; `readOnly`: the learner cannot edit; `dark`: CodeMirror's dark look.
 */
export function createEditor({ parent, root, doc, onChange, readOnly = false, dark = false }) {
  return new EditorView({
    parent,
    root,
    doc,
    extensions: [
      basicSetup,
      python(),
      syntaxHighlighting(highlight),
      darkness.of(EditorView.darkTheme.of(dark)),
      keymap.of([indentWithTab]),
      EditorView.lineWrapping,
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
      }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) onChange(update.state.doc.toString());
      }),
    ],
  });
}

/** Replace the whole text as an undo step of its own. */
export function setText(view, text) {
  view.dispatch({
    changes: { from: 0, to: view.state.doc.length, insert: text },
    annotations: isolateHistory.of("full"),
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
