// Number literals the learner can change without typing ("try changing a, b, or
// c"): drag one sideways, or put the cursor on it and press Alt+↑ / Alt+↓ (with
// Shift, ten steps). A step is the literal's last digit: 2.0 moves by 0.1, 3 by 1.
// The literal is found in CodeMirror's Python syntax tree, so digits in names,
// strings and comments are left alone; a minus written before it is its sign.
// The change is an edit like any other (saved, shared, re-run when live); a whole
// drag is one undo step. Steps are exact, in the literal's own digits (a 20-digit int, a
// hundred decimals); a literal in another notation (1e-4, 0x1f, 1_000, 2j) is left
// alone, and Alt+↑ on it changes nothing (it does not move the line).

import { isolateHistory } from "@codemirror/commands";
import { ensureSyntaxTree, syntaxTree } from "@codemirror/language";
import { Prec, Transaction } from "@codemirror/state";
import { Decoration, EditorView, keymap, ViewPlugin } from "@codemirror/view";
import { pageDeadlines } from "./editor-deadlines.js";

const PLAIN = /^(\d+)(?:\.(\d*))?$/; // 12, 2.0, 3.: not 1e-4, 0x1f, 2j or 1_000
const PX_PER_STEP = 4;
const DRAG_AFTER_PX = 3; // less is a click: it places the cursor
const draggable = Decoration.mark({ class: "cm-scrub", attributes: { title: "drag sideways, or Alt+↑ / Alt+↓, to change" } });

/**
 * The number literal at `pos` in `state`, or null: its range (with the minus written
 * before it), its value in units of its last digit (a BigInt), its decimals, and
 * whether it is written as a float; `plain` false for one in another notation.
 */
export function literalAt(state, pos) {
  // The tree up to the end of pos's line: the background parse may be behind (a long
  // code, a busy machine), and a step must not fall through to moving the line.
  const tree = ensureSyntaxTree(state, state.doc.lineAt(pos).to, state.facet(pageDeadlines).scrubParseMs) ?? syntaxTree(state);
  for (const side of [1, -1]) {
    const node = tree.resolveInner(pos, side);
    if (node.name !== "Number") continue;
    const text = state.sliceDoc(node.from, node.to);
    const plain = PLAIN.exec(text);
    if (!plain) return { plain: false };
    const sign = node.prevSibling;
    const negative = node.parent?.name === "UnaryExpression" && sign?.name === "ArithOp" &&
      state.sliceDoc(sign.from, sign.to) === "-";
    const decimals = plain[2]?.length ?? 0;
    const units = BigInt(plain[1] + (plain[2] ?? ""));
    return {
      plain: true,
      from: negative ? sign.from : node.from,
      to: node.to,
      float: plain[2] !== undefined,
      decimals,
      units: negative ? -units : units,
    };
  }
  return null;
}

/** The literal's text after `steps` steps (negative: down), digit for digit. */
export function stepped(literal, steps) {
  const { float, decimals } = literal;
  const units = literal.units + BigInt(steps);
  const digits = (units < 0n ? -units : units).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const text = decimals ? `${whole}.${digits.slice(-decimals)}` : whole;
  return (units < 0n ? "-" : "") + text + (float && decimals === 0 ? "." : "");
}

/** Replace `range` (where the literal is now) by `literal`'s value `steps` steps on, in
 *  one transaction with `spec` (and, with `cursorAfter`, the cursor put after it); where
 *  the literal is then. */
function setSteps(view, range, literal, steps, spec = {}, cursorAfter = false) {
  const insert = stepped(literal, steps);
  const to = range.from + insert.length;
  const selection = cursorAfter ? { selection: { anchor: to } } : {};
  view.dispatch({ changes: { from: range.from, to: range.to, insert }, userEvent: "input.scrub", ...selection, ...spec });
  return { from: range.from, to };
}

/** Alt+↑ / Alt+↓ on a literal; elsewhere CodeMirror's own (move the line). */
function stepKey(steps) {
  return (view) => {
    if (view.state.readOnly) return false;
    const literal = literalAt(view.state, view.state.selection.main.head);
    if (!literal) return false;
    if (!literal.plain) return true; // left alone: not stepped, nor is the line moved
    setSteps(view, literal, literal, steps, { annotations: isolateHistory.of("full") }, true);
    return true;
  };
}

/** Every plain number literal in view, marked: the pointer says it can be dragged, and
 *  touch drags it rather than scroll the page. */
function literalMarks(view) {
  const marks = [];
  for (const { from, to } of view.visibleRanges) {
    syntaxTree(view.state).iterate({
      from,
      to,
      enter(node) {
        if (node.name !== "Number") return;
        const literal = literalAt(view.state, node.from);
        if (literal?.plain) marks.push(draggable.range(literal.from, literal.to));
      },
    });
  }
  return Decoration.set(marks, true);
}

/** Dragging a literal: each PX_PER_STEP pixels sideways is a step; one undo step in all. */
const dragging = ViewPlugin.fromClass(
  class {
    constructor(view) {
      this.view = view;
      this.drag = null;
      this.marks = literalMarks(view);
    }

    update(update) {
      if (update.docChanged || update.viewportChanged || syntaxTree(update.startState) !== syntaxTree(update.state)) {
        this.marks = literalMarks(update.view);
      }
    }

    down(event) {
      const { view } = this;
      if (event.button !== 0 || view.state.readOnly || event.shiftKey || event.ctrlKey || event.metaKey) return false;
      const pos = view.posAtCoords({ x: event.clientX, y: event.clientY });
      const literal = pos === null ? null : literalAt(view.state, pos);
      if (!literal?.plain) return false;
      event.preventDefault(); // no text selection, on this literal, until the pointer goes up
      view.contentDOM.setPointerCapture(event.pointerId);
      const text = view.state.sliceDoc(literal.from, literal.to);
      this.drag = { literal, text, range: literal, pos, x: event.clientX, steps: 0, moved: false };
      return true;
    }

    move(event) {
      const { drag, view } = this;
      if (!drag) return;
      const dx = event.clientX - drag.x;
      if (!drag.moved && Math.abs(dx) < DRAG_AFTER_PX) return;
      drag.moved = true;
      const steps = Math.trunc(dx / PX_PER_STEP);
      if (steps === drag.steps) return;
      drag.steps = steps;
      // Each step is shown (and run, when live) but kept out of the history: the drag's
      // one undo step is made as it ends.
      const unrecorded = { annotations: Transaction.addToHistory.of(false) };
      drag.range = setSteps(view, drag.range, drag.literal, steps, unrecorded);
    }

    up() {
      const { drag, view } = this;
      if (!drag) return;
      this.drag = null;
      if (!drag.moved) { // a click: the cursor goes where it was
        view.dispatch({ selection: { anchor: drag.pos } });
        view.focus();
        return;
      }
      const { from, to } = drag.range;
      const final = view.state.sliceDoc(from, to);
      if (final === drag.text) return;
      // Put the original back unrecorded, then make the whole drag one recorded change.
      view.dispatch({ changes: { from, to, insert: drag.text }, annotations: Transaction.addToHistory.of(false) });
      view.dispatch({
        changes: { from, to: from + drag.text.length, insert: final },
        userEvent: "input.scrub",
        annotations: isolateHistory.of("full"),
      });
    }
  },
  {
    decorations: (plugin) => plugin.marks,
    eventHandlers: {
      pointerdown(event) {
        return this.down(event);
      },
      // Where the browser has it (Chromium), the pointer's raw moves: a pointermove
      // waits for the next frame, so a step, and its live run, would start up to a
      // frame later. The pointermove that follows finds the step already taken.
      pointerrawupdate(event) {
        this.move(event);
      },
      pointermove(event) {
        this.move(event);
      },
      pointerup() {
        this.up();
      },
      pointercancel() {
        this.up();
      },
    },
  },
);

const theme = EditorView.baseTheme({
  ".cm-scrub": { cursor: "ew-resize", touchAction: "none" },
  ".cm-scrub:hover": { textDecoration: "underline dotted" },
});

/** The extension: dragging, and Alt+↑ / Alt+↓. */
export function scrubbing() {
  return [
    dragging,
    theme,
    Prec.high(keymap.of([
      { key: "Alt-ArrowUp", run: stepKey(1), shift: stepKey(10) },
      { key: "Alt-ArrowDown", run: stepKey(-1), shift: stepKey(-10) },
    ])),
  ];
}
