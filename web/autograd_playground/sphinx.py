"""The Sphinx extension: `extensions = ["autograd_playground.sphinx"]` in conf.py, then

    .. playground::
       :id: first-graph
       :timeout: 10

       print("hello")

in reStructuredText, or the same as a ```{playground} fence in MyST. The HTML
builders write an <autograd-playground> element, copy the site into
_static/autograd-playground/ once a build, and load embed.js on the pages that have a
playground (as sphinx.ext.mathjax loads MathJax: other pages stay as they were); the
other builders write the code as a code block.
"""

from __future__ import annotations

from importlib.metadata import version
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective, SphinxTranslator

from .element import FLAGS, VALUES, OptionError, playground_html
from .site import export

STATIC = "autograd-playground"  # the site's folder under _static/


class playground(nodes.General, nodes.Element):  # noqa: N801 (docutils names nodes so)
    """A playground: its code and attributes, and a literal block for non-HTML builders."""


def option(name: str):
    """The option's converter: a flag, or a value the element checks."""
    if name in FLAGS:
        return directives.flag
    choices = VALUES[name]
    return (lambda value: directives.choice(value, choices)) if choices else directives.unchanged


class PlaygroundDirective(SphinxDirective):
    has_content = True
    option_spec = {name: option(name) for name in (*FLAGS, *VALUES)}

    def run(self) -> list[nodes.Node]:
        code = "\n".join(self.content)
        attributes = {name: self.options[name] for name in self.option_spec
                      if name in self.options}
        try:
            html = playground_html(code, attributes)
        except OptionError as error:
            raise self.error(f"playground: {error}") from None
        node = playground(html=html)
        node += nodes.literal_block(code, code, language="python")
        self.set_source_info(node)
        return [node]


def visit_html(translator: SphinxTranslator, node: playground) -> None:
    translator.body.append(node["html"] + "\n")
    raise nodes.SkipNode


def visit_other(translator: SphinxTranslator, node: playground) -> None:
    """Other builders write the literal block inside."""


def depart_other(translator: SphinxTranslator, node: playground) -> None:
    pass


def add_script(app: Sphinx, pagename: str, templatename: str, context: dict,
               doctree: nodes.document | None) -> None:
    """Load embed.js, embed.css (the code shown until the script has loaded) and
    served-only.js (what a page opened as a file says) on a page that has a playground,
    or on every page when a theme or extension asks for every asset on every page
    (app.set_html_assets_policy)."""
    has_playground = doctree is not None and any(True for _ in doctree.findall(playground))
    if has_playground or app.registry.html_assets_policy == "always":
        app.add_js_file(f"{STATIC}/embed.js", type="module")
        app.add_js_file(f"{STATIC}/served-only.js")
        app.add_css_file(f"{STATIC}/embed.css")


def copy_site(app: Sphinx, exception: Exception | None) -> None:
    if exception is None and app.builder.format == "html":
        export(Path(app.outdir) / "_static" / STATIC)


def setup(app: Sphinx) -> dict:
    other = (visit_other, depart_other)
    app.add_node(playground, html=(visit_html, None), latex=other, text=other, man=other,
                 texinfo=other)
    app.add_directive("playground", PlaygroundDirective)
    app.connect("html-page-context", add_script)
    app.connect("build-finished", copy_site)
    return {"version": version("autograd-playground"), "parallel_read_safe": True,
            "parallel_write_safe": True}
