"""Once Python is up in a fresh worker, and while the page is quiet, the worker warms it
up: it runs the chapter's example WARM_RUNS times, unseen (web/worker/warm-up.js), so
that the learner's first steps of a number run on code V8 has optimized by then. Each
such run is in the worker's performance timeline. A worker restarted with the module of
the worker before skips the warm-up, as that module is optimized already."""

from __future__ import annotations

from playwright.sync_api import Page, Worker

from build import WEB
from tests.web.conftest import BOOT_MS, FINAL_STATES, RUN_MS, Playground

WARM_RUNS = 40  # warm-up.js's
IDLE_MS = 250  # warm-up.js's
EXAMPLE = (WEB / "shared" / "example.py").read_text(encoding="utf-8")
WARM_UPS = "performance.getEntriesByName('python warm-up run')"
REACHES_IN = "import sys\nframe = sys._getframe()\nprint('ran')\n"


def python_worker(page: Page, name: str = "python") -> Worker:
    return next(w for w in page.workers if w.evaluate("self.name") == name)


def warm_ups(worker: Worker) -> list[dict]:
    """The worker's warm-up runs so far: their starts and durations, in its clock."""
    return worker.evaluate(WARM_UPS + ".map(({startTime, duration}) => ({startTime, duration}))")


def wait_for_warm_ups(page: Page, worker: Worker, count: int) -> list[dict]:
    """The worker's warm-up runs, once it has made `count` of them."""
    waited = 0
    while len(runs := warm_ups(worker)) < count:
        assert waited < BOOT_MS, f"{len(runs)} warm-up runs after {BOOT_MS} ms"
        page.wait_for_timeout(100)
        waited += 100
    return runs


def test_a_fresh_worker_runs_the_example_unseen_while_the_page_is_quiet(playground):
    shown = playground.output, playground.rows()  # the results computed when it was built
    runs = wait_for_warm_ups(playground.page, python_worker(playground.page), WARM_RUNS)
    assert len(runs) == WARM_RUNS
    assert playground.state == "ready"
    assert playground.status == "ready"  # not a run's "ran in … ms"
    assert (playground.output, playground.rows()) == shown


def test_a_run_pressed_as_python_starts_shows_its_own_output_alone(new_context, site):
    page = new_context().new_page()
    playground = Playground(page)
    page.goto(site)
    playground.code = EXAMPLE
    playground.button("Run").click()  # before Python is up: queued
    assert playground.wait_for(*FINAL_STATES, timeout=RUN_MS) == "done"
    shown = playground.output, playground.rows()
    wait_for_warm_ups(page, python_worker(page), WARM_RUNS)
    assert (playground.output, playground.rows()) == shown
    assert playground.output.startswith("e = 0.99")
    assert [row[1] for row in playground.rows()] == ["a", "b", "c", "#3", "#4", "#5"]


def test_a_restarted_worker_does_not_warm_up(playground):
    page = playground.page
    fresh = wait_for_warm_ups(page, python_worker(page), WARM_RUNS)
    took = fresh[-1]["startTime"] + fresh[-1]["duration"] - fresh[0]["startTime"]
    assert playground.run(REACHES_IN) == "done"  # the next run starts a fresh Python
    assert playground.run(EXAMPLE) == "done"
    restarted = python_worker(page, "python (restarted)")
    # As long as the fresh worker took for all its warm-up runs, and as long again, once
    # the page is quiet: the restarted worker's module runs them faster than that.
    page.wait_for_timeout(IDLE_MS + 2 * took)
    assert warm_ups(restarted) == []
    assert playground.state == "done"


# Keeps the page's Stop buffer (runtime.js: the one shared buffer of 4 bytes) in reach.
KEEP_STOP_BUFFER = """
globalThis.SharedArrayBuffer = class extends SharedArrayBuffer {
  constructor(...args) {
    super(...args);
    if (this.byteLength === 4) globalThis.stopBuffer = new Int32Array(this);
  }
};
"""
SIGINT = 2


def test_a_stop_signalled_while_the_worker_warms_up_is_not_for_its_runs(new_context, site):
    """The page repeats a Stop's signal until the end of the stopped run reaches it,
    which can be after the worker has gone on to a warm-up run: that signal is not for
    it, and it neither stops the warm-up nor breaks Python."""
    context = new_context()
    context.add_init_script(KEEP_STOP_BUFFER)
    playground = Playground(context.new_page()).open(site)
    page = playground.page
    page.evaluate(f"globalThis.signalling = setInterval(() => (stopBuffer[0] = {SIGINT}), 1)")
    wait_for_warm_ups(page, python_worker(page), WARM_RUNS)
    page.evaluate("clearInterval(signalling)")
    assert playground.state == "ready"
    assert playground.run(EXAMPLE) == "done"
    assert playground.output.startswith("e = 0.99")
