// How a node table shares its width between its columns, in characters: every number
// whole on one line, the label's column as wide as its longest label (up to LABEL_CHARS)
// and the op's as its longest op. When that is wider than the table's room, the op and
// then the label wrap onto a row's two lines (a label after its dots: `L1.n1.` over
// `w1`), so that a learner tells `L1.n1.w1` from `L1.n1.w2` without hovering, with no
// sideways scroll.

// The longest label the label's column is made wide for; a longer one is whole on hover.
export const LABEL_CHARS = 24;

/** The characters of `text`'s longer line when it is written on two lines, broken after
 *  a dot or at a space as the table lets it (breakable() below), or anywhere when it has
 *  neither. */
export function twoLineChars(text) {
  let best = Infinity;
  for (let i = 1; i < text.length; i++) {
    if (text[i - 1] === ".") best = Math.min(best, Math.max(i, text.length - i));
    else if (text[i] === " ") best = Math.min(best, Math.max(i, text.length - i - 1));
  }
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

/** The op's column width and which of the op and label wrap, for `room` characters of
 *  text in all: the number columns' `numbers` and the label's and op's needs. The label's
 *  column takes what is left (more than it needs when there is room to spare). */
export function fit({ numbers, label, op, room }) {
  const left = room - numbers;
  if (label.one + op.one <= left) return { op: op.one, wrapOp: false, wrapLabel: false };
  if (label.one + op.two <= left) return { op: op.two, wrapOp: op.two < op.one, wrapLabel: false };
  return { op: op.two, wrapOp: op.two < op.one, wrapLabel: label.two < label.one };
}

/** `text` as nodes a line may break between: after each dot (a space breaks anyway). */
export function breakable(text) {
  const parts = text.split(/(?<=\.)/);
  return parts.flatMap((part, i) => (i === 0 ? [part] : [document.createElement("wbr"), part]));
}
