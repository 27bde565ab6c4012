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
 * Where a playground keeps its learner's edits and progress: its id (an exercise on two
 * pages keeps one progress), else the page's path and a hash of its code, else (the
 * full-page playground, which has none) the page's path. Two playgrounds never write
 * one key: a later one on the page with the same id, or the same code and no id, has
 * its place among them after it (":2", ":3"), and a repeated id is told in the console.
 */
export function playgroundKey(element) {
  const base = baseKey(element);
  const same = [...element.ownerDocument.querySelectorAll("autograd-playground")]
    .filter((other) => baseKey(other) === base);
  const place = Math.max(0, same.indexOf(element));
  if (place > 0 && element.id) {
    console.warn(`Two playgrounds on this page have the id "${element.id}": each needs its own, ` +
      `so this one keeps the learner's code under "${base}:${place + 1}"`);
  }
  return place === 0 ? base : `${base}:${place + 1}`;
}

/** Where a playground without an id kept its learner's code before keys named the
 *  page: a hash of its code alone; null for any other. */
export function earlierKey(element) {
  const code = element.id ? null : authoredCode(element);
  return code === null || playgroundKey(element) !== baseKey(element) ? null : codeKey(code);
}

const baseKeys = new WeakMap();

function baseKey(element) {
  if (!baseKeys.has(element)) {
    const code = authoredCode(element);
    const path = location.pathname;
    baseKeys.set(element, element.id || (code === null ? path : `${path}#${codeKey(code)}`));
  }
  return baseKeys.get(element);
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
