"""When Python cannot start, the page says why, Run says it cannot run and tries again,
and nothing stays "running"."""

from __future__ import annotations

import pytest

from .conftest import SNAPSHOT, Playground

FAILURES = {
    "site.json not JSON": (
        lambda context: context.route("**/site.json", lambda route: route.fulfill(body="<html>")),
        "site.json is not JSON"),
    "the wasm missing": (
        lambda context: context.route("**/pyodide.asm.wasm",
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
    assert playground.run() == "error"
    assert playground.output.startswith(f"Python could not start: {why}")
    assert "Press Run to try again." in playground.output
    assert "failed: " in playground.element.locator(".status").inner_text()


def test_run_tries_again_and_runs_once_python_can_start(new_context, site):
    context = new_context()
    context.route("**/site.json", lambda route: route.fulfill(body="<html>"))
    playground = Playground(context.new_page())
    playground.page.goto(site)
    playground.wait_for("error")
    context.unroute("**/site.json")
    assert playground.run("print('at last')") == "done"
    assert playground.output.strip() == "at last"
