// Wrapped lines keep their indentation: on a phone the editor wraps long lines, and a
// wrapped line's rows after its first start where its code starts, not at column 0, so
// that a wrapped line in a block still reads as inside the block. Each visible indented
// line gets a hanging indent (padding as wide as its indentation, and as much negative
// text-indent for its first row), as CodeMirror's own forum suggests; CodeMirror's
// selection drawing allows for a line's negative text-indent.

import { countColumn, RangeSetBuilder } from "@codemirror/state";
import { Decoration, EditorView, ViewPlugin } from "@codemirror/view";

const hangs = new Map(); // columns -> the line decoration for that indentation

function hang(columns) {
  if (!hangs.has(columns)) {
    hangs.set(columns, Decoration.line({ class: "cm-hang", attributes: { style: `--hang: ${columns}ch` } }));
  }
  return hangs.get(columns);
}

function decorate(view) {
  const builder = new RangeSetBuilder();
  const { doc, tabSize } = view.state;
  for (const { from, to } of view.visibleRanges) {
    for (let pos = from; pos <= to; ) {
      const line = doc.lineAt(pos);
      const indent = /^[ \t]*/.exec(line.text)[0];
      if (indent && indent.length < line.length) builder.add(line.from, line.from, hang(countColumn(indent, tabSize)));
      pos = line.to + 1;
    }
  }
  return builder.finish();
}

export const wrappedIndent = [
  ViewPlugin.fromClass(
    class {
      constructor(view) {
        this.decorations = decorate(view);
      }

      update(update) {
        if (update.docChanged || update.viewportChanged) this.decorations = decorate(update.view);
      }
    },
    { decorations: (plugin) => plugin.decorations },
  ),
  EditorView.baseTheme({
    // CodeMirror's own padding of a line (6px) is kept before the indentation.
    ".cm-line.cm-hang": { paddingLeft: "calc(6px + var(--hang))", textIndent: "calc(-1 * var(--hang))" },
    ".cm-line.cm-hang *": { textIndent: "0" },
  }),
];
