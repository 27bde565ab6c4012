"""The playground in a real browser: one server per isolation mode and one Chromium per session.

The site is dist/ as `python build.py` leaves it, served by build.py's own
server code. Every test gets a fresh browser context (empty cache and
storage) and waits on the element's `data-state`, never on sleeps.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

import build

# How long a test waits for Python to start or a run to end before it fails: far
# beyond what any machine takes, so that only a page that hangs fails.
BOOT_MS = 120_000
RUN_MS = 120_000
FINAL_STATES = ("done", "error", "stopped")
# A deadline a test means never to reach.
NEVER_MS = 3_600_000
# The memory snapshot Python starts from; without it, the worker boots Python fresh.
SNAPSHOT = "**/snapshot/memory.zst"
# What the worker says in the console when it boots fresh, before why.
NO_SNAPSHOT = "Python boots without its snapshot: "
# For a test module: run each of its tests on both of the ways Python starts.
BOTH_BOOT_PATHS = pytest.mark.parametrize("boot_path", ["snapshot", "fresh"], indirect=True)


def within(function: str, ms: int = RUN_MS) -> str:
    """`function`, JavaScript that returns a promise, made to fail once `ms` have passed:
    Playwright's evaluate waits on a promise with no timeout, so an event that never
    comes (a frame, a run's end, a service worker's activation) would hang the test."""
    return (f"(f => (...args) => Promise.race([f(...args), new Promise((_, fail) => "
            f"setTimeout(() => fail(new Error('not settled within {ms} ms')), {ms}))]))"
            f"({function})")


def painted(page: Page) -> None:
    """Wait for two frames: what observers were going to redraw is drawn."""
    page.evaluate(within("() => new Promise(r => requestAnimationFrame(() => "
                         "requestAnimationFrame(r)))"))


def set_deadlines(page: Page, **ms: int) -> None:
    """Set the page's deadlines (deadlines.js: stopGraceMs, wholePictureMs, ...)."""
    page.evaluate(
        "ms => Object.assign(customElements.get('autograd-playground').deadlines, ms)", ms
    )


def serve(isolation: bool) -> Iterator[str]:
    if not (build.DIST / "index.html").exists():
        pytest.fail(f"{build.DIST} is not built: run `python build.py` first "
                    "(`python build.py test` builds, then tests)", pytrace=False)
    server, url = build.start_server(isolation=isolation)
    yield url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def pages() -> Iterator:
    """A server for the pages a test module writes (tests/web/pages.py's CoursePages)."""
    from tests.web.pages import CoursePages  # pages.py builds on this module

    server = CoursePages()
    yield server
    server.close()


@pytest.fixture(scope="session")
def site() -> Iterator[str]:
    """The site served with the cross-origin isolation headers (Stop can interrupt)."""
    yield from serve(isolation=True)


@pytest.fixture(scope="session")
def plain_site() -> Iterator[str]:
    """The site served without isolation headers (Stop has to restart the worker)."""
    yield from serve(isolation=False)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    try:
        chromium = build.find_chromium()
    except build.ChromiumNotFoundError as missing:
        pytest.fail(str(missing), pytrace=False)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=build.CHROMIUM_ARGS)
        yield browser
        browser.close()


WHERE = """el => `${el.id || el.localName}: ${el.dataset.state}, "${
  el.shadowRoot?.querySelector('.status')?.textContent ?? ''}", Python ${el.runtime?.phase}, ${
  el.runtime?.current ? `run ${el.runtime.current.id} in flight` : 'no run in flight'}, ${
  el.runtime?.queue?.length ?? 0} queued`"""
"""Where a playground is, in words, for a test that waited for it in vain: its state and
status, its Python's phase, and its runs."""


class Playground:
    """The page's <autograd-playground>, driven the way a learner drives it."""

    selector = "autograd-playground"

    def __init__(self, page: Page) -> None:
        self.page = page
        self.element = page.locator(self.selector)
        self.workers: list[str] = []  # the URL of each worker the page started, in order
        if isinstance(page, Page):  # not a frame's playground
            page.on("worker", lambda worker: self.workers.append(worker.url))

    @property
    def python_starts(self) -> int:
        """How many Python workers the page has started: one, plus one per restart. A
        worker is known here once it has said something: after a run in it ends."""
        return sum(url.endswith("/worker.js") for url in self.workers)

    def open(self, url: str) -> Playground:
        self.page.goto(url)
        self.wait_for("ready")
        return self

    @property
    def state(self) -> str:
        return self.element.get_attribute("data-state")

    def wait_for(self, *states: str, timeout: float = BOOT_MS) -> str:
        """Wait until the playground is in one of `states`; past the timeout, fail saying
        where it is (WHERE)."""
        try:
            self.page.wait_for_function(
                "([selector, states]) => states.includes(document.querySelector(selector)"
                "?.dataset.state)",
                arg=[self.selector, list(states)],
                timeout=timeout,
            )
        except PlaywrightTimeoutError:
            where = self.element.evaluate(WHERE)
            raise AssertionError(f"not {' or '.join(states)} within {timeout / 1000:g} s: "
                                 f"{where}") from None
        return self.state

    @property
    def code(self) -> str:
        return self.element.evaluate("el => el.code")

    @code.setter
    def code(self, text: str) -> None:
        self.element.evaluate("(el, text) => { el.code = text; }", text)

    def button(self, name: str):
        return self.page.get_by_role("button", name=name, exact=True)

    def run(self, code: str | None = None) -> str:
        """Press Run (after putting `code` in the editor) and wait for the run to end."""
        if code is not None:
            self.code = code
        self.button("Run").click()
        return self.wait_for(*FINAL_STATES, timeout=RUN_MS)

    def run_detail(self) -> dict:
        """Run the element's code to its end (its run()); the run-end event's detail."""
        return self.element.evaluate(within(
            "el => new Promise(done => { el.addEventListener('run-end', e => done(e.detail), "
            "{once: true}); el.run(); })"))

    @property
    def output(self) -> str:
        return self.element.locator(".output").inner_text()

    def wait_for_output(self, text: str) -> None:
        """Wait until the output shows `text`, while the code may still be running."""
        self.page.wait_for_function(
            "text => document.querySelector('autograd-playground')"
            ".shadowRoot.querySelector('.output').textContent.includes(text)",
            arg=text,
            timeout=RUN_MS,
        )

    def start(self, code: str) -> None:
        """Press Run on `code` without waiting for the run to end."""
        self.code = code
        self.button("Run").click()
        assert self.state == "running"

    @property
    def status(self) -> str:
        return self.element.locator(".status").inner_text()

    def record_statuses(self) -> None:
        """Keep, from now on, every text the status line shows: a restart's says why only
        until the fresh Python is up (see statuses_shown)."""
        self.element.evaluate("""el => {
            el.statusesShown = [];
            new MutationObserver((records) => {
              for (const record of records) {
                for (const node of record.addedNodes) el.statusesShown.push(node.textContent);
              }
            }).observe(el.shadowRoot.querySelector(".status"), { childList: true });
        }""")

    @property
    def statuses_shown(self) -> list[str]:
        return self.element.evaluate("el => el.statusesShown")

    def rows(self) -> list[list[str]]:
        """The live table's rendered rows as cell texts: index, label, op, data, grad (not
        the results computed when the page was built, in the element's light DOM)."""
        return self.element.locator("tbody tr:not(.spacer)").evaluate_all(
            "rows => rows.filter(r => !r.closest('[data-role=built]'))"
            ".map(r => [...r.cells].map(c => c.textContent))"
        )

    def measure(self, selector: str, function: str) -> list:
        """`function` of the elements of the playground's own (shadow) tree that `selector`
        matches, found and measured in one task of the page. A locator's evaluate_all finds
        them in one call and measures them in the next: rows redrawn in between (the table
        resized as its picture comes) are measured off screen, 0 px tall."""
        return self.element.evaluate(
            f"(el, selector) => ({function})([...el.shadowRoot.querySelectorAll(selector)])",
            selector,
        )

    def full_values(self, column: str) -> list[float]:
        """A number column's full values, from the live table's cells' hover titles."""
        titles = self.element.locator(f"tbody td.{column}").evaluate_all(
            "cells => cells.filter(c => !c.closest('[data-role=built]')).map(c => c.title)"
        )
        return [float(t) for t in titles]

    def graphs(self) -> list[str]:
        """The names of the tables to pick from."""
        return self.element.locator("select.picker option").all_inner_texts()

    def marked_line(self) -> str | None:
        marked = self.element.locator(".cm-error-line")
        return marked.inner_text() if marked.count() else None

    def answers(self) -> bool:
        """Whether the page runs a script and paints a frame within RUN_MS."""
        return self.page.evaluate(
            within("() => new Promise(done => requestAnimationFrame(() => done(true)))")
        )


# Deadlines a loaded machine can miss with nothing wrong (deadlines.js): the ping after
# each result, after which the page takes Python for dead and restarts it; the snapshot's
# download and Python's start, past which the page boots Python afresh or gives up.
# Pages under test wait as long as it takes, unless a test of the deadline sets it.
PATIENT_DEADLINES = (
    "customElements.whenDefined('autograd-playground').then(() => Object.assign("
    "customElements.get('autograd-playground').deadlines, "
    f"{{pingMs: {NEVER_MS}, snapshotStallMs: {NEVER_MS}, bootStallMs: {NEVER_MS}}}))"
)


@pytest.fixture
def new_context(browser: Browser):
    """Makes fresh browser contexts (empty cache and storage) whose every wait may last
    RUN_MS; closes them all afterwards, its routes' handlers made quiet first: one still
    serving a request (a worker restarted as the test ends) would otherwise fail the
    next test with its error."""
    contexts: list[BrowserContext] = []

    def new_context_(**context_options) -> BrowserContext:
        context = browser.new_context(**context_options)
        context.set_default_timeout(RUN_MS)
        context.add_init_script(PATIENT_DEADLINES)
        contexts.append(context)
        return context

    yield new_context_
    for context in contexts:
        for owner in (context, *context.pages):
            quiet_routes(owner)
        context.close()


def quiet_routes(owner: BrowserContext | Page) -> None:
    """What `unroute_all(behavior="ignoreErrors")` does to the handlers of `owner`'s routes
    (the errors they raise from now on are ignored), without its message to the browser:
    Playwright's Chromium driver waits for ever for the answer of a worker the page has
    ended (microsoft/playwright#42278: its fix is in neither 1.64.1, pinned here, nor
    1.65.3), and the test then hangs as it ends."""
    for handler in owner._impl_obj._routes:
        handler._ignore_exception = True


def without_snapshot(context: BrowserContext) -> None:
    """Serve `context` no snapshot (a 404), so that the worker boots Python fresh."""
    context.route(SNAPSHOT, lambda route: route.fulfill(status=404, body="no snapshot"))


@pytest.fixture
def boot_path(request) -> str:
    """How the page's Python starts: from the snapshot (the default), or "fresh", the
    worker's fallback when it has no snapshot. BOTH_BOOT_PATHS runs a module on both."""
    return getattr(request, "param", "snapshot")


@pytest.fixture
def open_playground(new_context, boot_path: str):
    """Opens the playground at a URL in a fresh context, on the test's boot path."""

    def open_(url: str, setup=None, **context_options) -> Playground:
        context = new_context(**context_options)
        if boot_path == "fresh":
            without_snapshot(context)
        if setup:
            setup(context)
        return Playground(context.new_page()).open(url)

    return open_


@pytest.fixture
def playground(open_playground, site: str) -> Playground:
    """A ready playground on the cross-origin isolated site."""
    return open_playground(site)
