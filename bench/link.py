"""dist/ served as a plain static host sends it (no compression), over a link of a given
bandwidth and latency, with a count of every response body's bytes and when each was
asked for: bench/page.py --throttled measures on it, and a test keeps what a first visit
downloads before its first result within its budget.

The link is the server's, so it slows every request alike: the page's, its workers' and
its service worker's (DevTools' emulation on a page misses its workers' own fetches).
"""

from __future__ import annotations

import threading
import time
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO
from urllib.parse import unquote, urlsplit

from autograd_playground.server import Handler, serving

CHUNK = 16 * 1024  # what the link sends at a time, in turn with the other responses


@dataclass
class Response:
    """One response body sent: the path asked for, when (time.time(), s), its bytes."""

    path: str
    asked_at: float
    sent: int = 0


@dataclass
class Link:
    """A link of `mbit_per_s` (None: as fast as the machine) whose responses each start
    `latency_ms` after their request, shared by every response at once."""

    mbit_per_s: float | None = None
    latency_ms: float = 0
    responses: list[Response] = field(default_factory=list)
    free_at: float = 0.0  # when the link has sent what it was given so far
    lock: threading.Lock = field(default_factory=threading.Lock)

    def send(self, data: bytes) -> None:
        """Wait for the link to carry `data`, in its turn."""
        if self.mbit_per_s is None:
            return
        with self.lock:
            self.free_at = max(self.free_at, time.monotonic()) + len(data) * 8 / (
                self.mbit_per_s * 1e6)
            until = self.free_at
        time.sleep(max(0.0, until - time.monotonic()))

    def bytes_asked(self, since_s: float, before_s: float) -> dict[str, int]:
        """The bytes sent for each path whose requests came between `since_s` and
        `before_s` (time.time())."""
        sizes: dict[str, int] = {}
        for response in self.responses:
            if since_s <= response.asked_at < before_s:
                sizes[response.path] = sizes.get(response.path, 0) + response.sent
        return sizes


class LinkHandler(Handler):
    """The site's own static handler, sending through `link`."""

    link: Link

    def handle_one_request(self) -> None:
        self.response: Response | None = None
        super().handle_one_request()

    def send_head(self):  # noqa: ANN201 (SimpleHTTPRequestHandler's)
        self.response = Response(unquote(urlsplit(self.path).path), time.time())
        with self.link.lock:
            self.link.responses.append(self.response)
        time.sleep(self.link.latency_ms / 1000)
        return super().send_head()

    def copyfile(self, source: BinaryIO, outputfile: BinaryIO) -> None:
        while chunk := source.read(CHUNK):
            self.link.send(chunk)
            outputfile.write(chunk)
            if self.response:
                self.response.sent += len(chunk)


def serving_over(link: Link, directory: Path,
                 isolation: bool = True) -> AbstractContextManager[str]:
    """Serve `directory` over `link` while in the block (a context manager that yields
    its base URL)."""
    return serving(directory, isolation, type("OverLink", (LinkHandler,), {"link": link}))
