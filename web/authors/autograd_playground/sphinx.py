"""The Sphinx extension: `extensions = ["autograd_playground.sphinx"]` in conf.py, then

    .. playground::
       :id: first-graph
       :timeout: 10

       print("hello")

in reStructuredText, or the same as a ```{playground} fence in MyST. An exercise's
parts follow its code as directives nested in it (parts.py): `check` and `solution`
hold Python, each `hint` prose in the page's syntax. The HTML builders write an
<autograd-playground> element, copy the site into _static/autograd-playground/ once a
build, and load embed.js on the pages that hold a playground element, however it came
there (the directive, raw HTML; as sphinx.ext.mathjax loads MathJax: other pages stay
as they were); the other builders write the code as a code block. A playground's code
runs as the page is read (bake.py): its results go into the element, and code that
fails is an error of the build, logged at its file and line.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective, SphinxTranslator

from .bake import BakeError
from .built import results_html
from .element import FLAGS, VALUES, Exercise, OptionError, playground_html
from .parts import PartError, directive_parts
from .site import export, site

STATIC = "autograd-playground"  # the site's folder under _static/
# What loads the script: a playground element, or a box where one could not be built.
ELEMENT = re.compile(r"<autograd-playground[\s>]|class=\"autograd-playground-error\"")
# Where a playground could not be built: seen in the page, and failed by `check`.
ERROR_BOX = ('<div class="autograd-playground-error" role="alert" data-source="{source}" '
             'style="border: 2px solid #c62828; border-radius: 4px; padding: 0.75em 1em; '
             'margin: 1em 0; white-space: pre-wrap">{text}</div>\n')
logger = logging.getLogger(__name__)


class playground(nodes.General, nodes.Element):  # noqa: N801 (docutils names nodes so)
    """A playground: its code, attributes, checks and solution; a literal block for
    non-HTML builders, and its hints."""


class playground_hint(nodes.General, nodes.Element):  # noqa: N801
    """One hint of an exercise, as the page's prose: only the HTML builders show it."""


class EveryOption(dict):
    """Lets every option through to run() as text, whatever its name: run() checks names
    and values itself, so that a mistake is an error of Sphinx's, at its place, and a box
    in the page, rather than docutils' message and a playground silently gone."""

    def __contains__(self, name: object) -> bool:
        return True

    def __missing__(self, name: str) -> Callable[[str | None], str]:
        return directives.unchanged


class PlaygroundDirective(SphinxDirective):
    has_content = True
    # Its own options named (docutils reads no options of a directive with none).
    option_spec = EveryOption.fromkeys((*FLAGS, *VALUES), directives.unchanged)

    def run(self) -> list[nodes.Node]:
        try:
            return [self.playground()]
        except OptionError as error:
            return [self.problem(str(error))]
        except PartError as error:
            return [self.problem(f"line {self.content_offset + error.line + 1}: {error}")]

    def problem(self, message: str) -> nodes.Node:
        """Say `message` through Sphinx's logger at the directive's place (so `-W` stops
        the build), and put a box saying it in the page in the playground's place, which
        `check` fails on."""
        logger.error(f"playground: {message}", location=(self.env.docname, self.lineno))
        where = f"{self.source_file()}:{self.lineno}"
        text = html.escape(f"This playground could not be built: {message} ({where})")
        return nodes.raw("", ERROR_BOX.format(source=html.escape(where), text=text),
                         format="html")

    def source_file(self) -> str:
        """The page's source file, from the docs' source folder."""
        return Path(self.env.doc2path(self.env.docname, False)).as_posix()

    def code_line(self, code: str) -> int:
        """The line of the page's source where `code` begins, for `check` to point at: the
        first at or after the directive's that holds its first line (rST and MyST count
        a directive's content lines each their own way)."""
        first = code.split("\n", 1)[0].strip()
        path = Path(self.env.doc2path(self.env.docname))
        lines = path.read_text(encoding="utf-8").splitlines() if path.is_file() else []
        return next((n for n in range(self.lineno, len(lines) + 1)
                     if lines[n - 1].strip() == first), self.lineno)

    def playground(self) -> nodes.Node:
        """The playground node, or OptionError or PartError for what it cannot take."""
        unknown = [name for name in self.options if name not in (*FLAGS, *VALUES)]
        if unknown:
            raise OptionError(f"the directive's option {unknown[0]!r} is unknown; its "
                              f"options are {', '.join((*FLAGS, *VALUES))}")
        body = directive_parts("\n".join(self.content))
        attributes = dict(self.options)
        exercise = Exercise(body.texts("check"), [], body.solution)
        playground_html(body.code, attributes, exercise)  # says what it cannot take
        source = f"{self.source_file()}:{self.code_line(body.code)}"
        node = playground(code=body.code, attributes=attributes, checks=exercise.checks,
                          solution=exercise.solution, source=source,
                          built=self.built(body.code, attributes, exercise))
        node += nodes.literal_block(body.code, body.code, language="python")
        for part in body.parts:
            if part.role == "hint":
                hint = playground_hint()
                self.state.nested_parse(StringList(part.text.split("\n")),
                                        self.content_offset + part.line + 1, hint)
                node += hint
        self.set_source_info(node)
        return node

    def built(self, code: str, attributes: dict, exercise: Exercise) -> str:
        """The results of the code computed now; an error of the build where it fails."""
        try:
            return results_html(code, attributes, bool(exercise.checks), site())
        except BakeError as error:
            line = self.code_line(code) + (error.line or 1) - 1
            logger.error(f"playground: its code failed when the page was built: {error}",
                         location=(self.env.docname, line))
            return ""


def html_of(translator: SphinxTranslator, node: nodes.Element) -> str:
    """What `translator` writes for `node`'s children."""
    body, translator.body = translator.body, []
    try:
        for child in node.children:
            child.walkabout(translator)
        return "".join(translator.body)
    finally:
        translator.body = body


def visit_html(translator: SphinxTranslator, node: playground) -> None:
    hints = [html_of(translator, hint) for hint in node.findall(playground_hint)]
    exercise = Exercise(node["checks"], hints, node["solution"])
    translator.body.append(playground_html(node["code"], node["attributes"], exercise,
                                           node["built"], node["source"]) + "\n")
    raise nodes.SkipNode


def skip(translator: SphinxTranslator, node: nodes.Element) -> None:
    raise nodes.SkipNode


def visit_other(translator: SphinxTranslator, node: playground) -> None:
    """Other builders write the literal block inside."""


def depart_other(translator: SphinxTranslator, node: playground) -> None:
    pass


def add_script(app: Sphinx, pagename: str, templatename: str, context: dict,
               doctree: nodes.document | None) -> None:
    """Load embed.js, embed.css (the code shown until the script has loaded) and
    served-only.js (what a page opened as a file says) on a page whose body holds a
    playground element, or on every page when a theme or extension asks for every asset
    on every page (app.set_html_assets_policy)."""
    has_playground = ELEMENT.search(context.get("body", "")) is not None
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
    hidden = (skip, None)
    app.add_node(playground_hint, html=hidden, latex=hidden, text=hidden, man=hidden,
                 texinfo=hidden)
    app.add_directive("playground", PlaygroundDirective)
    app.connect("html-page-context", add_script)
    app.connect("build-finished", copy_site)
    return {"version": version("autograd-playground"), "parallel_read_safe": True,
            "parallel_write_safe": True}
