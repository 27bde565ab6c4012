// The code an author writes inside <autograd-playground>. It sits in the page
// as plain text, readable before (or without) the script, so it carries the
// indentation of the surrounding markup; that is removed here.

/** The element's code with the indentation its lines share removed; null when it has none. */
export function authoredCode(element) {
  const text = element.textContent.replace(/^(?:[ \t]*\n)+/, "").trimEnd();
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
 * A short stable name for `code` (FNV-1a, 32 bits, of its UTF-8): where a
 * playground without an id keeps its learner's edits, so that each playground
 * on a page has its own.
 */
export function codeKey(code) {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(code)) hash = Math.imul(hash ^ byte, 0x01000193);
  return `code-${(hash >>> 0).toString(16).padStart(8, "0")}`;
}
