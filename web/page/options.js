// The attributes an author sets on <autograd-playground>; embed.html takes the
// same names as URL parameters.
//
//   readonly      the code can be run but not edited
//   autorun       run once at page load (this also starts Python at once)
//   height        the element's height, a CSS length ("24rem"; a bare number is
//                 pixels), or "auto": as tall as its code and output
//   timeout       seconds a run may take before it is stopped
//   live          each edit re-runs the code (live.js); live="off" turns it off
//   hide-output   no output panel
//   hide-table    no nodes: no table, picture or stepper
//   theme         light or dark; when absent, as the page is (see host-theme.js)
//   id            the key the learner's edits are kept under
//
// The looks are CSS (options.css); the helpers below read the rest.

import css from "./options.css";

export const ATTRIBUTES = [
  "readonly", "autorun", "live", "height", "timeout", "hide-output", "hide-table", "theme", "id",
];

export const optionsSheet = new CSSStyleSheet();
optionsSheet.replaceSync(css);

/** The `height` attribute as a CSS length, or "" when there is none. */
export function cssHeight(element) {
  const value = element.getAttribute("height")?.trim() ?? "";
  return /^\d+(\.\d+)?$/.test(value) ? `${value}px` : value;
}

/** The `timeout` attribute in ms, or null: no limit. */
export function timeoutMs(element) {
  const seconds = Number(element.getAttribute("timeout"));
  return seconds > 0 ? seconds * 1000 : null;
}

/** Whether edits re-run the code: the `live` attribute, unless it is "off". */
export function isLive(element) {
  return element.hasAttribute("live") && element.getAttribute("live") !== "off";
}
