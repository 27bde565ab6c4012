"""The playground in Firefox and WebKit: a fresh browser per test, every one offline.

The sites are tests/web/conftest.py's (`site`, cross-origin isolated, and
`plain_site`). Each browser sends every request for a host other than
127.0.0.1 to `proxy`, which refuses it and notes it, so a test can check that
nothing tried to leave the machine.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

import build
from tests.web.engines.drivers import Browser, Firefox, WebKit


class RefusingProxy:
    """An HTTP proxy that forwards nothing: it answers 502 and keeps each request line."""

    def __init__(self) -> None:
        self.requests: list[str] = []
        requests = self.requests

        class Handler(BaseHTTPRequestHandler):
            def refuse(self) -> None:
                requests.append(self.requestline)
                self.send_error(502, "no network in these tests")

            # http.server's names for each method's handler
            do_GET = do_HEAD = do_POST = do_CONNECT = refuse  # noqa: N815

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="session")
def proxy() -> Iterator[RefusingProxy]:
    server = RefusingProxy()
    yield server
    server.close()


def require(program: str) -> None:
    """Fail with what to do when a program these tests start is not installed."""
    if not shutil.which(program):
        pytest.fail(f"{program} is missing: `python build.py test` installs it", pytrace=False)


@pytest.fixture(scope="session")
def display() -> Iterator[str]:
    """An X display on Xvfb, for WebKitGTK, which cannot run headless."""
    require("Xvfb")
    read, write = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x960x24", "-nolisten", "tcp"],
        pass_fds=[write],
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read, encoding="utf-8") as ready:
        number = ready.readline().strip()  # Xvfb writes its display's number once it is up
    if not number:
        pytest.fail(f"Xvfb did not start (exit status {xvfb.wait()})", pytrace=False)
    yield f":{number}"
    xvfb.terminate()
    xvfb.wait()


@pytest.fixture(params=[Firefox.name, WebKit.name])
def engine(request, proxy: RefusingProxy, tmp_path) -> Iterator[Browser]:
    """A fresh Firefox or WebKit (with empty storage), quit after the test."""
    if request.param == Firefox.name:
        require(str(build.FIREFOX))
        opened: Browser = Firefox(proxy.port, log=tmp_path / "gecko.log")
    else:
        require(str(build.WEBKIT_DRIVER))
        opened = WebKit(proxy.port, display=request.getfixturevalue("display"))
    yield opened
    opened.quit()
