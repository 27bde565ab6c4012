"""The MkDocs plugin: `plugins: [autograd-playground]` in mkdocs.yml, then

    ```playground {#first-graph timeout=10 readonly}
    print("hello")
    ```

in a page. The fence's attributes are the element's (web/page/options.js): `#name` or
`id=name`, `name=value` (quoted or not), and a bare name for a flag. An exercise's parts
follow its code, each from a line of its own (parts.py): `/// check` and `/// solution`
hold Python, each `/// hint` Markdown. An <autograd-playground> element written as HTML
goes into the page whole, blank lines and all. A fence's code runs as the page is built
(bake.py): its results go into the element, and code that fails stops the build, naming
its page and line. Every page loads
embed.js (as extra_javascript, a module), so that a page Material's instant navigation
swaps in finds the element defined; the site is copied into the built docs once a build.
"""

from __future__ import annotations

import re
import secrets
from pathlib import Path

from markdown import Markdown
from markdown.extensions import Extension
from mkdocs.config.config_options import ExtraScriptValue
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from .bake import BakeError
from .built import results_html
from .element import Exercise, OptionError, playground_html
from .parts import PartError, blank_lines_before, marked_parts
from .site import export, site
from .sources import Found, SourceError, markdown_playgrounds, parse_attributes

STATIC = "autograd-playground"  # the site's folder in the built docs


class WholeElements(Extension):
    """Markdown keeps an <autograd-playground> written as HTML whole, as it keeps a <div>:
    to its closing tag, blank lines and all (an element it does not know as a block
    would end at its code's first blank line)."""

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Markdown's name)
        md.block_level_elements.append("autograd-playground")


class PlaygroundPlugin(BasePlugin):
    """Markdown's playground fences become <autograd-playground> elements, and raw
    elements go through whole."""

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        script = ExtraScriptValue(f"{STATIC}/embed.js")
        script.type = "module"
        config.extra_javascript.append(script)
        config.extra_javascript.append(f"{STATIC}/served-only.js")  # says what file:// cannot
        config.extra_css.append(f"{STATIC}/embed.css")  # the code, until embed.js has loaded
        # A page's fences go through Markdown as placeholders, then in as HTML.
        self.nonce = secrets.token_hex(8)
        self.slots: dict[str, list[str]] = {}
        # Hints are Markdown, with the site's extensions.
        self.hints = Markdown(extensions=config.markdown_extensions,
                              extension_configs=config.mdx_configs)
        config.markdown_extensions.append(WholeElements())
        return config

    def element(self, found: Found, source: str) -> str:
        """The element's HTML for a fence, with its body's parts (parts.py), and `source`,
        where its code begins."""
        body = marked_parts(found.text)
        hints = [self.hints.reset().convert(hint) for hint in body.texts("hint")]
        exercise = Exercise(body.texts("check"), hints, body.solution)
        attributes = parse_attributes(found.attributes)
        playground_html(body.code, attributes, exercise)  # says what it cannot take, first
        built = results_html(body.code, attributes, bool(exercise.checks), site())
        return playground_html(body.code, attributes, exercise, built, source)

    def on_page_markdown(self, markdown: str, page: Page, config: MkDocsConfig,
                         files: Files) -> str:
        slots = self.slots[page.file.src_uri] = []
        # The lines of the page's front matter, which MkDocs has taken off `markdown`.
        source = page.file.content_string
        skipped = source[:-len(markdown)].count("\n") if source.endswith(markdown) else 0

        def placeholder(found: Found) -> str | None:
            if found.kind != "fence":  # a raw element goes through Markdown whole
                return None
            try:
                # The code begins on the line after the fence's, but for blank lines.
                first = skipped + found.line + 1 + blank_lines_before(found.text)
                slots.append(self.element(found, f"{page.file.src_uri}:{first}"))
            except PartError as error:
                raise PluginError(f"{page.file.src_uri}:{skipped + found.line + error.line + 1}"
                                  f": playground: {error}") from None
            except OptionError as error:
                raise PluginError(f"{page.file.src_uri}:{skipped + found.line}: playground: "
                                  f"{error}") from None
            except BakeError as error:
                line = skipped + found.line + (error.line or 0)
                raise PluginError(f"{page.file.src_uri}:{line}: playground: its code failed "
                                  f"when the page was built: {error}") from None
            return f"autograd-playground-{self.nonce}-{len(slots) - 1}"

        try:
            return markdown_playgrounds(markdown, placeholder)
        except SourceError as error:
            raise PluginError(f"{page.file.src_uri}:{skipped + error.line}: {error}") from None

    def on_page_content(self, html: str, page: Page, config: MkDocsConfig,
                        files: Files) -> str:
        slots = self.slots.pop(page.file.src_uri, [])
        return re.sub(
            rf"(?:<p>)?autograd-playground-{self.nonce}-(\d+)(?:</p>)?",
            lambda slot: slots[int(slot[1])], html)

    def on_post_build(self, config: MkDocsConfig) -> None:
        export(Path(config.site_dir) / STATIC)
