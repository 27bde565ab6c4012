"""Course pages for the embedding tests: written here, served from a port of their own.

A page served by `CoursePages` is on another origin than the site (another
port), as a course page on its own host would be; it loads the site's
`embed.js` by absolute URL. `isolated=True` serves it cross-origin isolated
(COOP + COEP), as a host page that wants SharedArrayBuffer would be.
"""

from __future__ import annotations

import html
import textwrap
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from playwright.sync_api import Frame, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.web.conftest import BOOT_MS, WHERE, Playground

ISOLATION_HEADERS = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
}


class CoursePages:
    """An HTTP server of HTML pages held in memory."""

    def __init__(self) -> None:
        self.pages: dict[str, tuple[bytes, bool]] = {}
        pages = self.pages

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body, isolated = pages.get(self.path.split("?")[0], (b"", False))
                self.send_response(200 if body else 404)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                for name, value in ISOLATION_HEADERS.items() if isolated else ():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def add(self, name: str, text: str, isolated: bool = False) -> str:
        """Serve `text` as /`name`; returns its URL."""
        self.pages[f"/{name}"] = (text.encode(), isolated)
        return self.url + name

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def playground(code: str = "", **attributes: str | bool) -> str:
    """An <autograd-playground> as an author writes it: the code indented inside, escaped.

    Attribute names are given with underscores for dashes; True is a bare attribute.
    """
    attrs = "".join(
        f" {name.replace('_', '-')}" + ("" if value is True else f'="{html.escape(value)}"')
        for name, value in attributes.items()
    )
    body = textwrap.indent(html.escape(code, quote=False), "    ")
    return f"<autograd-playground{attrs}>\n{body}</autograd-playground>\n"


def course_page(site: str, *body: str, head: str = "") -> str:
    """A page that loads the site's embed.js with one script tag, around `body`."""
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>A course page</title>\n"
        f'<script type="module" src="{site}embed.js"></script>\n{head}</head>\n'
        f"<body>\n{''.join(body)}</body>\n</html>\n"
    )


class PlaygroundAt(Playground):
    """One of the playgrounds of a page (or of a frame's page), found by a CSS selector."""

    def __init__(self, page: Page | Frame, selector: str) -> None:
        self.selector = selector
        super().__init__(page)

    def wait_for_output(self, text: str) -> None:
        self.page.wait_for_function(
            "([selector, text]) => document.querySelector(selector)"
            ".shadowRoot.querySelector('.output').textContent.includes(text)",
            arg=[self.selector, text],
            timeout=BOOT_MS,
        )

    def button(self, name: str):
        return self.element.get_by_role("button", name=name, exact=True)


def wait_for_all(page: Page, state: str, timeout: float = BOOT_MS) -> None:
    """Wait until every playground on the page is in `state`; past the timeout, fail
    saying where each one is."""
    try:
        page.wait_for_function(
            "state => [...document.querySelectorAll('autograd-playground')]"
            ".every(el => el.dataset.state === state)",
            arg=state,
            timeout=timeout,
        )
    except PlaywrightTimeoutError:
        states = page.locator("autograd-playground").evaluate_all(f"els => els.map({WHERE})")
        raise AssertionError(f"not all playgrounds are {state}: {states}") from None
