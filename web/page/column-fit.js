// How a node table shares its width between its columns, in characters: every number
// whole on one line, the label's column as wide as its longest label (up to LABEL_CHARS)
// and the op's as its longest op. When that is wider than the table's room, the op and
// then the label wrap onto a row's two lines (a label after a dot: `L1.n1.` over `w1`,
// an op at its space: `Mul(23,` over `48)`), so that a learner tells `L1.n1.w1` from
// `L1.n1.w2` without hovering, with no sideways scroll.

// The longest label the label's column is made wide for; a longer one is whole on hover.
export const LABEL_CHARS = 24;
// The characters a line may break after, besides a space: in `L1.n1.w1`, `Tanh(4)`, `w_1`.
const BREAKS_AFTER = /(?<=[.(_])/;

/** The characters of `text`'s longer line when it is written on two lines, broken where
 *  the table lets it (at a space, or after BREAKS_AFTER: breakable() below), or anywhere
 *  when it has no such place. */
export function twoLineChars(text) {
  let best = Infinity;
  const lines = (first, second) => (best = Math.min(best, Math.max(first, second)));
  let end = 0;
  for (const part of text.split(BREAKS_AFTER).slice(0, -1)) lines((end += part.length), text.length - end);
  for (let i = 1; i < text.length; i++) if (text[i] === " ") lines(i, text.length - i - 1);
  return best === Infinity ? Math.ceil(text.length / 2) : best;
}

/** What a column of `texts` needs: its longest text on one line (`one`) and on two
 *  (`two`), each at least `fewest` (its heading) and at most `most` characters. */
export function textNeed(texts, fewest, most) {
  let one = fewest;
  let two = fewest;
  for (const text of texts) {
    if (text.length <= two) continue; // fits either way
    one = Math.max(one, text.length);
    two = Math.max(two, twoLineChars(text.slice(0, most)));
  }
  return { one: Math.min(one, most), two: Math.min(two, most) };
}

/** The label's and op's column widths (null: what is left) and whether each wraps, for
 *  `room` characters of text in all: the number columns' `numbers` and the label's and
 *  op's needs. The column that does not wrap takes what is left, so that the other wraps
 *  only where it must. Where even both wrapped leave too little, each keeps its two
 *  lines' width and the table scrolls sideways: no column is squeezed out of sight. */
export function fit({ numbers, label, op, room }) {
  const left = room - numbers;
  if (label.one + op.one <= left) return { label: null, op: op.one, wrapOp: false, wrapLabel: false };
  if (label.one + op.two <= left) return { label: label.one, op: null, wrapOp: true, wrapLabel: false };
  return { label: label.two + op.two <= left ? null : label.two, op: op.two, wrapOp: true, wrapLabel: true };
}

/** `text` as nodes a line may break between: after BREAKS_AFTER (a space breaks anyway). */
export function breakable(text) {
  const parts = text.split(BREAKS_AFTER);
  return parts.flatMap((part, i) => (i === 0 ? [part] : [document.createElement("wbr"), part]));
}
