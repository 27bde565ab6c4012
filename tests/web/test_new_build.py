"""A page open while a new build is deployed never mixes the two: a worker of another
build is not used, nor handed what the page's own had, and the page says to reload."""

from __future__ import annotations

import json

import build

from .conftest import Playground
from .test_stop import LOOP

NEW_VERSION = "a new version of the playground is on the site: reload the page to use it"


def this_build() -> str:
    return json.loads((build.DIST / "site.json").read_text(encoding="utf-8"))["build"]


def test_a_site_json_of_another_build_is_not_used_and_the_page_says_to_reload(new_context,
                                                                                  site):
    context = new_context()
    site_json = {**json.loads((build.DIST / "site.json").read_text(
        encoding="utf-8")), "build": "another"}
    context.route("**/site.json", lambda route: route.fulfill(json=site_json))
    playground = Playground(context.new_page())
    playground.page.goto(site)
    playground.wait_for("error")
    assert playground.element.locator(".status").inner_text() == f"failed: {NEW_VERSION}"
    code = playground.code
    assert playground.run() == "error"
    assert playground.output.startswith(f"Python could not start: {NEW_VERSION}")
    assert playground.code == code


def test_after_a_deploy_a_restarted_worker_of_the_new_build_is_not_used(new_context,
                                                                        plain_site):
    """Without isolation, Stop restarts the worker, which the browser fetches anew: here
    it is the new build's, which must neither run the page's code nor take its memory."""
    context = new_context()
    playground = Playground(context.new_page()).open(plain_site)
    assert playground.run("print('before')") == "done"
    worker = (build.DIST / "worker.js").read_text(encoding="utf-8")
    assert json.dumps(this_build()) in worker
    deployed = worker.replace(json.dumps(this_build()), json.dumps("0" * 16))
    context.route("**/worker.js", lambda route: route.fulfill(
        body=deployed, content_type="text/javascript"))
    playground.code = LOOP
    playground.button("Run").click()
    playground.wait_for_output("looping")
    playground.button("Stop").click()
    playground.wait_for("stopped", "error")
    playground.page.wait_for_function(
        "text => document.querySelector('autograd-playground').shadowRoot"
        ".querySelector('.status').textContent.includes(text)", arg=NEW_VERSION)
    assert playground.run("print('after')") == "error"
    assert NEW_VERSION in playground.output and "after" not in playground.output
