// The code an author writes inside <autograd-playground>. It sits in the page
// as plain text, readable before (or without) the script, so it carries the
// indentation of the surrounding markup; that is removed here. An exercise's
// parts are children of their own, which the page does not show:
//   <script type="text/x-python" data-role="check">     Python run on the learner's globals
//   <template data-role="hint">                         shown one at a time, on request
//   <script type="text/x-python" data-role="solution">  loaded into the editor, on request

/** The element's code (its text outside the exercise's parts) with the indentation its
 *  lines share removed; null when it has none. */
export function authoredCode(element) {
  const outside = [...element.childNodes].filter((node) =>
    node.nodeType === Node.TEXT_NODE || (node.nodeType === Node.ELEMENT_NODE && !node.dataset.role));
  return dedent(outside.map((node) => node.textContent).join(""));
}

/**
 * The exercise written inside the element: its checks (Python texts), its hints
 * (each a fragment of the author's markup) and its solution (null: none).
 */
export function authoredExercise(element) {
  const parts = (role) => [...element.children].filter((child) => child.dataset.role === role);
  return {
    checks: parts("check").map((script) => dedent(script.textContent)).filter(Boolean),
    hints: parts("hint").map((template) => template.content),
    solution: dedent(parts("solution")[0]?.textContent ?? ""),
  };
}

/** `text` without its leading blank lines, trailing space and shared indentation; null if blank. */
function dedent(raw) {
  const text = raw.replace(/^(?:[ \t]*\n)+/, "").trimEnd();
  if (!text) return null;
  const lines = text.split("\n").map((line) => (line.trim() ? line : ""));
  const indent = lines.filter(Boolean).map((line) => /^[ \t]*/.exec(line)[0]).reduce(commonPrefix);
  return `${lines.map((line) => line.slice(indent.length)).join("\n")}\n`;
}

function commonPrefix(a, b) {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return a.slice(0, i);
}

/**
 * Where a playground keeps its learner's edits and progress: its id, else a hash of
 * its code, else (the full-page playground, which has none) the page's path.
 */
export function playgroundKey(element) {
  const code = authoredCode(element);
  return element.id || (code === null ? location.pathname : codeKey(code));
}

/**
 * A short stable name for `code` (FNV-1a, 32 bits, of its UTF-8): where a
 * playground without an id keeps its learner's edits, so that each playground
 * on a page has its own.
 */
function codeKey(code) {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(code)) hash = Math.imul(hash ^ byte, 0x01000193);
  return `code-${(hash >>> 0).toString(16).padStart(8, "0")}`;
}
