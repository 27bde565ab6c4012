"""What bench/page.py and bench/screenshot.py share: dist/ served by build.py's own
server, and the Chromium that build.py finds, started the way the tests start it."""

from __future__ import annotations

import importlib.util
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT_MS = 120_000
# The site's own server (web/authors/autograd_playground/server.py), for link.py.
sys.path.insert(0, str(ROOT / "web" / "authors"))


def load_build():
    """build.py as a module (these scripts run from bench/, not from the repository root)."""
    spec = importlib.util.spec_from_file_location("build", ROOT / "build.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    return build


def chromium_args() -> list[str]:
    # Eager memory measurement: measureUserAgentSpecificMemory() answers at
    # once instead of at the next scheduled GC (up to 20 s later).
    return [*load_build().CHROMIUM_ARGS, "--enable-blink-features=ForceEagerMeasureMemory"]


@contextmanager
def launched_browser() -> Iterator[Browser]:
    """Chromium, as build.py finds it."""
    with sync_playwright() as playwright:
        chromium = load_build().find_chromium()
        browser = playwright.chromium.launch(executable_path=chromium, args=chromium_args())
        yield browser
        browser.close()


@contextmanager
def served_browser(isolation: bool = True) -> Iterator[tuple[Browser, str]]:
    """Chromium, and the URL where dist/ is served."""
    server, url = load_build().start_server(isolation=isolation)
    try:
        with launched_browser() as browser:
            yield browser, url
    finally:
        server.shutdown()


@contextmanager
def returning_visitor(browser: Browser, **options) -> Iterator[BrowserContext]:
    """A context with a profile of its own on disk, as a visitor's browser has: its HTTP
    cache and compiled-wasm cache persist (a new_context() never caches the 9.6 MB wasm).
    `options`: the context's, as for new_context()."""
    with tempfile.TemporaryDirectory() as profile:
        context = browser.browser_type.launch_persistent_context(
            profile, executable_path=load_build().find_chromium(), args=chromium_args(),
            **options)
        context.set_default_timeout(TIMEOUT_MS)
        yield context
        context.close()


def wait_for_state(page: Page, state: str) -> None:
    """Wait for the page's playground to reach `state`."""
    page.wait_for_function(
        "state => document.querySelector('autograd-playground')?.dataset.state === state",
        arg=state,
        timeout=TIMEOUT_MS,
    )
