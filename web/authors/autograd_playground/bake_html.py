"""An HTML page with its playgrounds' results computed when it is built written into
them (`python -m autograd_playground bake PAGE.html...`, and build.py for the site's own
pages): each playground's earlier results are taken out and its code's results written
in their place, so baking a page again gives the same page. An exercise gets none: its
results would give its answer away."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .bake import BakeError
from .built import results_html
from .sources import ElementReader


class PageBakeError(Exception):
    """A playground of the page failed at build time: the message names where."""


@dataclass
class Span:
    """Where a playground element's parts are in the page's text, by offset."""

    line: int  # of its start tag, from 1
    close: int = 0  # where its end tag starts
    built: tuple[int, int] | None = None  # its earlier results, start and end


class SpanReader(ElementReader):
    """ElementReader that also notes where each playground's end tag and built results
    are, to write the page anew around them."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.html = html
        self.line_starts = [0]  # HTMLParser counts lines by "\n" alone
        for line in html.split("\n"):
            self.line_starts.append(self.line_starts[-1] + len(line) + 1)
        self.spans: list[Span] = []

    def position(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "autograd-playground" and not self.inside:
            self.spans.append(Span(self.getpos()[0]))
        elif self.inside == 1 and dict(attrs).get("data-role") == "built":
            self.spans[-1].built = (self.position(), 0)
        super().handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if self.inside == 2 and self.role == "built":
            start, _ = self.spans[-1].built
            self.spans[-1].built = (start, self.html.index(">", self.position()) + 1)
        elif self.inside == 1 and tag == "autograd-playground":
            self.spans[-1].close = self.position()
        super().handle_endtag(tag)


def bake_page(html: str, site: Path, name: str, empty_code: str | None = None) -> str:
    """`html` with each playground's results computed anew (`empty_code` for a
    playground without code of its own: the site's full page); `name` says which page
    in errors. Raises PageBakeError for a playground whose code fails."""
    reader = SpanReader(html)
    reader.feed(html)
    reader.close()
    for playground, span in reversed(list(zip(reader.found, reader.spans, strict=True))):
        code = playground.code or empty_code or ""
        try:
            built = results_html(code, playground.attributes, bool(playground.checks), site,
                                 show_code=not playground.code)
        except BakeError as error:
            where = f" on line {error.line} of its code" if error.line else ""
            raise PageBakeError(f"{name}:{span.line}: the playground failed when the page "
                                f"was built{where}: {error}") from None
        html = html[:span.close] + (built and built + "\n") + html[span.close:]
        if span.built:
            start, end = span.built
            end += html[end:end + 1] == "\n"
            html = html[:start] + html[end:]
    return html


def bake_files(pages: list[Path], site: Path) -> None:
    """Bake each of `pages` in place."""
    for page in pages:
        text = page.read_bytes().decode("utf-8")  # its line ends as they are
        page.write_bytes(bake_page(text, site, str(page)).encode("utf-8"))
