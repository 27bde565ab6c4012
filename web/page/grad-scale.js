// Grads on a diverging scale: the sign picks the hue and a glyph (so the sign
// never rests on colour alone), the size picks the strength, on a log scale
// relative to the graph's biggest grad, since grads span many decades.

import { setAttribute } from "./dom.js";

const DECADES = 6;

/** The largest finite |grad| of a column, the scale's top. */
export function gradScale(grads) {
  let top = 0;
  for (const g of grads) if (typeof g === "number" && Number.isFinite(g)) top = Math.max(top, Math.abs(g));
  return top;
}

/** {sign: "pos" | "neg" | "zero" | "odd", level: 0..1} of a grad against `top`. */
function gradShade(grad, top) {
  if (typeof grad !== "number") return { sign: grad === "inf" ? "pos" : grad === "-inf" ? "neg" : "odd", level: 1 };
  if (grad === 0) return { sign: "zero", level: 0 };
  const size = Math.abs(grad);
  const level = top > 0 ? 1 - Math.log10(top / Math.min(size, top)) / DECADES : 1;
  return { sign: grad > 0 ? "pos" : "neg", level: Math.max(0.15, level) };
}

/** Shade `el` (a table cell or a picture box) by its grad; returns the sign. */
export function shade(el, grad, top) {
  const { sign, level } = gradShade(grad, top);
  setAttribute(el, "data-sign", sign);
  const strength = level.toFixed(3);
  if (el.style.getPropertyValue("--level") !== strength) el.style.setProperty("--level", strength);
  return sign;
}
