// A course page opened from disk (file://) cannot start its playgrounds: browsers
// do not load a module script (embed.js) from a file. This classic script, which
// they do load, says so above each playground, and how to serve the page instead.
// The Sphinx extension and the MkDocs plugin add it beside embed.js.
if (location.protocol === "file:") {
  addEventListener("DOMContentLoaded", () => {
    for (const playground of document.querySelectorAll("autograd-playground")) {
      const note = document.createElement("p");
      note.className = "autograd-playground-served-only";
      note.setAttribute("role", "note");
      note.textContent =
        "This playground runs only on a page served over HTTP: browsers do not start it " +
        "on a page opened as a file. Serve the built site's folder, for example " +
        "`python -m http.server -d _build/html` (Sphinx) or `mkdocs serve` (MkDocs), " +
        "then open the page at http://localhost:8000/.";
      playground.before(note);
    }
  });
}
