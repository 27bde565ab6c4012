"""The MkDocs plugin: `plugins: [autograd-playground]` in mkdocs.yml, then

    ```playground {#first-graph timeout=10 readonly}
    print("hello")
    ```

in a page. The fence's attributes are the element's (web/src/options.js): `#name` or
`id=name`, `name=value` (quoted or not), and a bare name for a flag. Every page loads
embed.js (as extra_javascript, a module), so that a page Material's instant navigation
swaps in finds the element defined; the site is copied into the built docs once a build.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from pathlib import Path

from mkdocs.config.config_options import ExtraScriptValue
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from .element import OptionError, playground_html
from .site import export

STATIC = "autograd-playground"  # the site's folder in the built docs
FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>.*)$")
PLAYGROUND = re.compile(r"playground(?:[ \t]+\{(?P<attributes>.*)\})?[ \t]*")
ATTRIBUTE = re.compile(
    r"""[ \t]*(?:\#(?P<id>[^\s}]+)|(?P<name>[\w-]+)"""
    r"""(?:=(?:"(?P<double>[^"]*)"|'(?P<single>[^']*)'|(?P<bare>[^\s"'}]+)))?)[ \t]*""")


def parse_attributes(text: str) -> dict[str, str | None]:
    """`{#x readonly timeout=10}`'s inside as the element's attributes (None for a flag)."""
    attributes: dict[str, str | None] = {}
    position = 0
    while position < len(text):
        match = ATTRIBUTE.match(text, position)
        if not match or match.end() == position:
            raise OptionError(f"cannot read the attributes at {text[position:]!r}: write "
                              '#name, name=value, name="a value" or a bare name')
        if match["id"]:
            attributes["id"] = match["id"]
        else:
            value = next((v for v in match.group("double", "single", "bare") if v is not None),
                         None)
            attributes[match["name"]] = value
        position = match.end()
    return attributes


def closing_fence(fence: str) -> re.Pattern[str]:
    """What closes a fence: its character, at least as many times."""
    return re.compile(rf"[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*")


def playground_fences(markdown: str, replace: Callable[[str, str, int], str]) -> str:
    """`markdown` with each playground fence replaced by `replace(code, attributes, line)`'s
    text (`attributes` as written between the braces, `line` the fence's, from 1), at the
    fence's indentation; other fences (and any playground fence written inside one, as an
    example) are left as they are."""
    lines, out, i = markdown.split("\n"), [], 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if not fence:
            out.append(lines[i])
            i += 1
            continue
        closing = closing_fence(fence["fence"])
        end = next((j for j in range(i + 1, len(lines)) if closing.fullmatch(lines[j])),
                   len(lines))
        playground = PLAYGROUND.fullmatch(fence["info"])
        if playground:
            indent = fence["indent"]
            code = "\n".join(line.removeprefix(indent) for line in lines[i + 1:end])
            out += ["", indent + replace(code, playground["attributes"] or "", i + 1), ""]
        else:
            out += lines[i:end + 1]
        i = end + 1
    return "\n".join(out)


class PlaygroundPlugin(BasePlugin):
    """Markdown's playground fences become <autograd-playground> elements."""

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        script = ExtraScriptValue(f"{STATIC}/embed.js")
        script.type = "module"
        config.extra_javascript.append(script)
        config.extra_javascript.append(f"{STATIC}/served-only.js")  # says what file:// cannot
        config.extra_css.append(f"{STATIC}/embed.css")  # the code, until embed.js has loaded
        # A page's playgrounds go through Markdown as placeholders, then in as HTML.
        self.nonce = secrets.token_hex(8)
        self.slots: dict[str, list[str]] = {}
        return config

    def on_page_markdown(self, markdown: str, page: Page, config: MkDocsConfig,
                         files: Files) -> str:
        slots = self.slots[page.file.src_uri] = []
        # The lines of the page's front matter, which MkDocs has taken off `markdown`.
        source = page.file.content_string
        skipped = source[:-len(markdown)].count("\n") if source.endswith(markdown) else 0

        def placeholder(code: str, attributes: str, line: int) -> str:
            try:
                slots.append(playground_html(code, parse_attributes(attributes)))
            except OptionError as error:
                raise PluginError(f"{page.file.src_uri}:{skipped + line}: playground: "
                                  f"{error}") from None
            return f"autograd-playground-{self.nonce}-{len(slots) - 1}"

        return playground_fences(markdown, placeholder)

    def on_page_content(self, html: str, page: Page, config: MkDocsConfig,
                        files: Files) -> str:
        slots = self.slots.pop(page.file.src_uri, [])
        return re.sub(
            rf"(?:<p>)?autograd-playground-{self.nonce}-(\d+)(?:</p>)?",
            lambda slot: slots[int(slot[1])], html)

    def on_post_build(self, config: MkDocsConfig) -> None:
        export(Path(config.site_dir) / STATIC)
