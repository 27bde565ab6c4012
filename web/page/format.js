// How the page writes a runner table's ops, names and numbers, the same in the table,
// the picture and the stepper. Numbers are floats, or the strings
// "nan", "inf", "-inf" (JSON has no such numbers). A learner's value that is not
// a number comes as null, with its text beside it, which the table writes as is.

const NON_FINITE = { nan: "NaN", inf: "inf", "-inf": "-inf" };

// The format of counts, made once (when first needed): making one is slow, and counts
// are written on every live step and every frame a run streams.
let countFormat = null;

/** A count as English writes it: 1,000. */
export function counted(n) {
  return (countFormat ??= new Intl.NumberFormat("en")).format(n);
}

function notANumber(x) {
  return x === null ? "" : (NON_FINITE[x] ?? String(x));
}

/** A float as Python's repr would write it: the full value, shown on hover. */
export function fullNumber(x) {
  if (typeof x !== "number") return notANumber(x);
  if (Object.is(x, -0)) return "-0.0";
  const text = String(x);
  if (/^-?\d+$/.test(text)) return `${text}.0`;
  return text.replace(/e([+-])(\d)$/, "e$10$2");
}

/** A float to about 6 significant digits, for the cell itself. */
export function shortNumber(x) {
  if (typeof x !== "number") return notANumber(x);
  if (x === 0) return fullNumber(x); // keeps -0.0's sign, which rounding would drop
  const size = Math.abs(x);
  if (size >= 1e6 || size < 1e-4) {
    return x.toExponential(5).replace(/\.?0+e/, "e").replace(/e([+-])(\d)$/, "e$10$2");
  }
  return fullNumber(Number(x.toPrecision(6)));
}

/** A node's op as the chapter writes it: `None` for a leaf (the runner's tables say "leaf"). */
export function opText(op) {
  return op === "leaf" ? "None" : op;
}

/** True for a leaf's op: a node made by MakeValue, with nothing to pass its grad back to. */
export function isLeaf(op) {
  return op === "leaf";
}

/** Node i of table `t` by name: its label, else `#i`, as engine.BackwardSteps names it. */
export function nodeName(t, i) {
  return t.label[i] || `#${i}`;
}
