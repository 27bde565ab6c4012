// embed.html, the playground in an iframe for course platforms that strip
// scripts: the author's code in the fragment (`#code=<base64url>`, as share
// links have it), the element's attributes as URL parameters
// (`?timeout=5&hide-table`; height is "auto" unless given), and the frame's
// height sent to the parent page whenever it changes, so that a few lines
// there can size the iframe to fit:
//
//   {type: "autograd-playground:height", height: <CSS pixels>}

import { ATTRIBUTES } from "./options.js";
import { codeFromLink } from "./share.js";

const HEIGHT_MESSAGE = "autograd-playground:height";

/** Put a playground, configured by this page's URL, in `parent`. */
export function mountFrame(parent = document.body) {
  const params = new URLSearchParams(location.search);
  const playground = document.createElement("autograd-playground");
  playground.setAttribute("height", "auto"); // the frame grows to fit, unless a height is given
  for (const name of ATTRIBUTES) {
    if (params.has(name)) playground.setAttribute(name, params.get(name));
  }
  const code = codeFromLink();
  // Unreadable code is left to the element, which reports the link's error.
  if (typeof code === "string") playground.textContent = code;
  playground.fromLink = true; // so it never runs by itself (autorun is ignored)
  parent.append(playground);
  if (window.parent !== window) {
    new ResizeObserver(() => {
      const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
      window.parent.postMessage({ type: HEIGHT_MESSAGE, height }, "*");
    }).observe(document.documentElement);
  }
  return playground;
}
