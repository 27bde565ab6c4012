# A course in Sphinx with playgrounds, in reStructuredText (data-model.rst) and MyST
# Markdown (backward.md). Build it with `sphinx-build examples/courses/sphinx out/`.
project = "Building an Autograd Engine"
extensions = ["myst_parser", "autograd_playground.sphinx"]
