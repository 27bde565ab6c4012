"""A static server for the playground's site: the MIME types Pyodide needs, and the
headers that let a course page on another origin load it. Standard library only:
build.py serves dist/ with it, the package serves its own copy of the site."""

from __future__ import annotations

import argparse
import errno
import functools
import http.server
import socket
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".py": "text/plain; charset=utf-8",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".gz": "application/gzip",
    ".zst": "application/zstd",
}


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files with the MIME types Pyodide needs and, optionally, cross-origin isolation.

    Isolation (COOP + COEP) makes SharedArrayBuffer available, which is what
    lets Stop interrupt Python instead of restarting it. Every file may be
    loaded by a course page on another origin: CORS for embed.js's module
    imports and fetches, CORP so that a cross-origin isolated page may too.
    """

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    isolation = True
    quiet = False

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Cross-Origin-Resource-Policy", "cross-origin")
        self.send_header("Access-Control-Allow-Origin", "*")
        if self.isolation:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        if not self.quiet:
            super().log_message(format, *args)

    def handle(self) -> None:
        try:
            super().handle()
        except ConnectionError:
            pass  # the browser closed a page it was done with, mid-download


class Server(http.server.ThreadingHTTPServer):
    """A threading HTTP server that owns its port. On Windows SO_REUSEADDR lets a second
    server bind a port another is listening on (CPython gh-85307), so it is off there;
    elsewhere it only lets a restarted server take its port back at once."""

    allow_reuse_address = sys.platform != "win32"


def make_server(directory: Path, port: int = 0, isolation: bool = True,
                quiet: bool = False, handler: type[Handler] = Handler) -> Server:
    """A server for `directory` on 127.0.0.1 (port 0 picks a free one), its requests
    answered by `handler` (Handler, or a subclass: the benchmark's throttled link)."""
    answering = type("SiteHandler", (handler,), {"isolation": isolation, "quiet": quiet})
    return Server(("127.0.0.1", port), functools.partial(answering, directory=str(directory)))


def start_in_background(directory: Path, isolation: bool = True,
                        handler: type[Handler] = Handler) -> tuple[Server, str]:
    """Serve `directory` quietly from a daemon thread; the server and its base URL."""
    server = make_server(directory, isolation=isolation, quiet=True, handler=handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


@contextmanager
def serving(directory: Path, isolation: bool = True,
            handler: type[Handler] = Handler) -> Iterator[str]:
    """Serve `directory` quietly while in the block; yields its base URL."""
    server, url = start_in_background(directory, isolation, handler)
    try:
        yield url
    finally:
        server.shutdown()
        server.server_close()


def free_port(after: int) -> int:
    """The first free port after `after`, else 0 (which lets the system pick one)."""
    for port in range(after + 1, min(after + 101, 65536)):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
                return port
            except OSError:
                pass
    return 0


WSAEACCES = 10013
"""Windows' socket error for a port it reserves (`netsh interface ipv4 show
excludedportrange protocol=tcp` lists them), as OSError.errno."""


def port_number(text: str) -> int:
    """--port's value: a TCP port number."""
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (0 to 65535)")
    return int(text)


def take_port(directory: Path, port: int, isolation: bool, program: str) -> Server:
    """A server for `directory` on `port`, or stop, saying why as `program`: a busy port
    comes with a free one to try."""
    try:
        return make_server(directory, port, isolation)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            sys.exit(f"{program}: port {port} is in use; try --port {free_port(port)}")
        if error.errno in (errno.EACCES, WSAEACCES):
            sys.exit(f"{program}: port {port} may not be used here ({error.strerror}: a port "
                     "under 1024 needs an administrator, and on Windows Hyper-V and WSL "
                     f"reserve ranges of ports); try --port {free_port(port)}")
        sys.exit(f"{program}: cannot serve on port {port}: {error.strerror}")


def serve_until_interrupted(server: Server, isolation: bool) -> None:
    """Say where `server` is, then serve until Ctrl+C."""
    mode = "cross-origin isolated" if isolation else "without isolation headers"
    directory = server.RequestHandlerClass.keywords["directory"]
    print(f"serving {directory} ({mode}) at http://127.0.0.1:{server.server_address[1]}/",
          flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
