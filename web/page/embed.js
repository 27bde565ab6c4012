// The one script a course page needs:
//
//   <script type="module" src="https://your.site/path/embed.js"></script>
//   <autograd-playground>
//     print("hello")
//   </autograd-playground>
//
// It defines <autograd-playground> (playground.js; its attributes are in
// options.js) and <autograd-progress> (progress.js), and finds everything else
// it loads (the worker, Pyodide, the engine's wheel) relative to its own URL, so
// the site may be served from any host and path, including another origin than
// the course page's.
// `mountFrame` is what embed.html, the iframe variant, runs.

import "./playground.js";
import "./progress.js";

export { mountFrame } from "./frame.js";
