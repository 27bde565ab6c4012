"""Playgrounds as authors write them in a page's source, found without the docs tools:
Markdown's fences (MkDocs' ```playground {...} and MyST's ```{playground}) and raw
<autograd-playground> elements, reStructuredText's `.. playground::` directives, and the
elements of an HTML page. The MkDocs plugin finds its fences and elements here; `try`
reads every kind.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser

from .element import OptionError
from .parts import Body, directive_parts, marked_parts

FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>.*)$")
PLAYGROUND = re.compile(r"playground(?:[ \t]+\{(?P<attributes>.*)\})?[ \t]*")
MYST_PLAYGROUND = re.compile(r"\{playground\}[ \t]*")
ATTRIBUTE = re.compile(
    r"""[ \t]*(?:\#(?P<id>[^\s}]+)|(?P<name>[\w-]+)"""
    r"""(?:=(?:"(?P<double>[^"]*)"|'(?P<single>[^']*)'|(?P<bare>[^\s"'}]+)))?)[ \t]*""")
# A raw element starts a line (indented less than a code block) and ends at its closing tag.
RAW_START = re.compile(r" {0,3}<autograd-playground(?:[\s>]|$)")
RAW_END = "</autograd-playground>"
OPTION = re.compile(r":(?P<name>[\w-]+):(?:[ \t]+(?P<value>.*?))?[ \t]*")
RST_PLAYGROUND = re.compile(r"(?P<indent>[ \t]*)\.\. playground::[ \t]*")


class SourceError(ValueError):
    """Markup that cannot be read; `line` is where, from 1 in the page."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


@dataclass
class Found:
    """A playground in a Markdown page: a MkDocs `fence`, a `myst` fence or a `raw`
    element; its text (a fence's body without the fence's indentation, or the element's
    HTML as written), a fence's attributes, and its first line (from 1)."""

    kind: str
    text: str
    attributes: str
    line: int


@dataclass
class Authored:
    """A playground as written: its code, attributes and exercise's parts, and its line."""

    line: int
    code: str
    attributes: dict[str, str | None] = field(default_factory=dict)
    checks: list[str] = field(default_factory=list)
    solution: str | None = None


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


def markdown_playgrounds(markdown: str, replace: Callable[[Found], str | None]) -> str:
    """`markdown` with each playground replaced by `replace(found)`'s text, at its
    indentation (None leaves it as it is); other fences (and any playground written
    inside one, as an example) are left as they are."""
    lines, out, i = markdown.split("\n"), [], 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if RAW_START.match(lines[i]):
            end = next((j for j in range(i, len(lines)) if RAW_END in lines[j]), None)
            if end is None:
                raise SourceError(f"<autograd-playground> is never closed by {RAW_END}", i + 1)
            found, indent, block = Found("raw", "\n".join(lines[i:end + 1]), "", i + 1), "", \
                lines[i:end + 1]
        elif fence:
            closing = closing_fence(fence["fence"])
            end = next((j for j in range(i + 1, len(lines)) if closing.fullmatch(lines[j])),
                       len(lines))
            indent, block = fence["indent"], lines[i:end + 1]
            body = "\n".join(line.removeprefix(indent) for line in lines[i + 1:end])
            mkdocs = PLAYGROUND.fullmatch(fence["info"])
            found = (Found("fence", body, mkdocs["attributes"] or "", i + 1) if mkdocs
                     else Found("myst", body, "", i + 1)
                     if MYST_PLAYGROUND.fullmatch(fence["info"]) else None)
        else:
            out.append(lines[i])
            i += 1
            continue
        replaced = found and replace(found)
        out += block if replaced is None else ["", indent + replaced, ""]
        i = end + 1
    return "\n".join(out)


def options_and_content(lines: list[str]) -> tuple[dict[str, str | None], list[str]]:
    """A directive's `:name: value` options (None for a flag) and the content after them."""
    options: dict[str, str | None] = {}
    i = 0
    while i < len(lines) and (option := OPTION.fullmatch(lines[i])):
        options[option["name"]] = option["value"]
        i += 1
    return options, lines[i:]


def authored(line: int, body: Body, attributes: dict[str, str | None]) -> Authored:
    return Authored(line, body.code, attributes, body.texts("check"), body.solution)


def directive(line: int, text: str) -> Authored:
    """A Sphinx playground directive's options and content, in either syntax."""
    options, content = options_and_content(text.split("\n"))
    return authored(line, directive_parts("\n".join(content)), options)


def in_markdown(markdown: str) -> list[Authored]:
    """The playgrounds of a MkDocs or MyST page, in order."""
    found: list[Found] = []
    markdown_playgrounds(markdown, lambda one: found.append(one))
    playgrounds = []
    for one in found:
        if one.kind == "fence":
            playgrounds.append(authored(one.line, marked_parts(one.text),
                                        parse_attributes(one.attributes)))
        elif one.kind == "myst":
            playgrounds.append(directive(one.line, one.text))
        else:
            playgrounds += [Authored(one.line + raw.line - 1, raw.code, raw.attributes,
                                     raw.checks, raw.solution) for raw in in_html(one.text)]
    return playgrounds


def in_rst(rst: str) -> list[Authored]:
    """The playground directives of a reStructuredText page, in order."""
    lines, playgrounds = rst.split("\n"), []
    for i, line in enumerate(lines):
        start = RST_PLAYGROUND.fullmatch(line)
        if start:
            indent = len(start["indent"])
            end = next((j for j in range(i + 1, len(lines)) if lines[j].strip()
                        and len(lines[j]) - len(lines[j].lstrip()) <= indent), len(lines))
            block = textwrap.dedent("\n".join(lines[i + 1:end]))
            playgrounds.append(directive(i + 1, block.strip("\n")))
    return playgrounds


class ElementReader(HTMLParser):
    """The <autograd-playground> elements of HTML, read as web/page/authored.js reads them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[Authored] = []
        self.inside = 0  # depth of elements inside the playground being read
        self.role: str | None = None
        self.code: list[str] = []
        self.parts: dict[str, list[str]] = {}
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "autograd-playground" and not self.inside:
            self.inside, self.code, self.parts = 1, [], {"check": [], "solution": []}
            self.found.append(Authored(self.getpos()[0], "", dict(attrs)))
        elif self.inside:
            self.inside += 1
            role = dict(attrs).get("data-role")
            if self.inside == 2 and role:
                self.role, self.text = role, []

    def handle_endtag(self, tag: str) -> None:
        if not self.inside:
            return
        self.inside -= 1
        if self.inside == 1 and self.role:
            self.parts.setdefault(self.role, []).append(dedent("".join(self.text)))
            self.role = None
        elif self.inside == 0:
            playground = self.found[-1]
            playground.code = dedent("".join(self.code))
            playground.checks = [check for check in self.parts["check"] if check]
            playground.solution = next(iter(self.parts["solution"]), None) or None

    def handle_data(self, data: str) -> None:
        if self.inside:
            (self.text if self.role else self.code).append(data)


def dedent(text: str) -> str:
    """`text` without blank lines around and the indentation its lines share."""
    return textwrap.dedent(text.rstrip().lstrip("\n")).strip("\n")


def in_html(html: str) -> list[Authored]:
    reader = ElementReader()
    reader.feed(html)
    reader.close()
    return reader.found


READERS: dict[str, Callable[[str], list[Authored]]] = {
    ".md": in_markdown, ".markdown": in_markdown, ".rst": in_rst, ".html": in_html,
    ".htm": in_html,
}


def exercises(playgrounds: list[Authored]) -> Iterator[tuple[int, Authored]]:
    """The playgrounds that are exercises (they have checks), numbered from 1."""
    yield from enumerate((one for one in playgrounds if one.checks), 1)
