"""When Python cannot start, the page says why and offers to start it again (Retry); Run
says it cannot run, and nothing stays "running"; a start that falls silent is tried again
in a fresh worker."""

from __future__ import annotations

import pytest

from .conftest import SNAPSHOT, Playground, set_deadlines

FAILURES = {
    "site.json not JSON": (
        lambda context: context.route("**/site.json", lambda route: route.fulfill(body="<html>")),
        "site.json is not JSON"),
    "the wasm missing": (
        lambda context: context.route("**/pyodide.asm.wasm.zst",
                                      lambda route: route.fulfill(status=404)),
        "Pyodide's wasm could not be loaded"),
    "the wheel and the snapshot missing": (
        lambda context: (context.route("**/*.whl", lambda route: route.fulfill(status=404)),
                         context.route(SNAPSHOT, lambda route: route.fulfill(status=404))),
        "the engine's wheel wheels/"),
}


@pytest.mark.parametrize(("serve", "why"), FAILURES.values(), ids=FAILURES.keys())
def test_a_failed_start_says_why_and_run_ends_saying_it_cannot_run(new_context, site, serve,
                                                                   why):
    context = new_context()
    serve(context)
    playground = Playground(context.new_page())
    playground.page.goto(site)
    playground.wait_for("error")
    assert playground.element.locator(".status").inner_text().startswith(f"failed: {why}")
    assert playground.button("Retry").is_visible()
    assert playground.run() == "error"
    assert playground.output.startswith(f"Python could not start: {why}")
    assert "Press Retry to start it again." in playground.output
    assert playground.element.locator(".tables .empty").inner_text() == \
        "No graph: the output says why."
    assert "failed: " in playground.element.locator(".status").inner_text()
    assert playground.python_starts == 1  # Run started none: it ended at once


def test_retry_starts_python_again_and_a_run_works_once_it_can_start(new_context, site):
    context = new_context()
    context.route("**/site.json", lambda route: route.fulfill(body="<html>"))
    playground = Playground(context.new_page())
    playground.page.goto(site)
    playground.wait_for("error")
    code = "print('at last')"
    assert playground.run(code) == "error"
    assert playground.output.startswith("Python could not start: site.json is not JSON")
    context.unroute("**/site.json")  # the site's folder is whole again
    playground.button("Retry").click()
    assert playground.wait_for("ready") == "ready"
    assert playground.button("Retry").is_hidden()
    assert playground.code == code
    assert playground.run() == "done"
    assert playground.output.strip() == "at last"


STALL_MS = 2_000  # the tests' deadline for a silent start, from the page's 60 s
WASM = "**/pyodide.asm.wasm.zst"


def silent_start(new_context, site: str, answered: int) -> tuple[Playground, list[str]]:
    """A page whose first worker falls silent as it starts: its request for Python's wasm
    is never answered. Requests after the first `answered` are not answered either."""
    context = new_context()
    asked: list[str] = []

    def hold(route) -> None:
        asked.append(route.request.url)
        if 1 < len(asked) <= 1 + answered:
            route.continue_()
        # else left unanswered, as a stalled download or compile is

    context.route(WASM, hold)
    playground = Playground(context.new_page())
    playground.page.goto(site)
    set_deadlines(playground.page, bootStallMs=STALL_MS)
    return playground, asked


def test_a_start_that_falls_silent_is_tried_again_in_a_fresh_worker(new_context, site):
    playground, asked = silent_start(new_context, site, answered=1)
    playground.start("print('started the second time')")
    assert playground.wait_for("done") == "done"
    assert playground.output.strip() == "started the second time"
    assert len(asked) == 2  # one request for the wasm per worker


def test_a_start_that_falls_silent_twice_fails_saying_so_and_retry_starts_again(new_context,
                                                                               site):
    playground, asked = silent_start(new_context, site, answered=0)
    assert playground.run("print('at last')") == "error"
    assert playground.output.startswith("Python could not start: Python stalled as it "
                                        "started, twice (nothing came from it for ")
    assert len(asked) == 2
    playground.page.context.unroute(WASM)
    playground.button("Retry").click()
    assert playground.run() == "done"
    assert playground.output.strip() == "at last"
