"""The editor's script (web/page/editor-script.js): a first visit downloads its gzipped
copy, decodes it and imports it from a blob: URL; where that fails (a damaged copy, a page
that forbids blob: scripts) the plain script is imported by its URL; a page the site's
service worker controls imports the plain script, which the service worker keeps."""

from __future__ import annotations

import gzip

from playwright.sync_api import Page, Route

import build

from .conftest import Playground
from .test_service_worker import ACTIVE_AND_KEPT, CACHE

# The editor's script, plain and gzipped, by its path in dist/.
PLAIN = next(build.DIST.glob(f"{build.EDITOR_CHUNK}-*.js")).relative_to(build.DIST).as_posix()
GZIPPED = f"{PLAIN}.gz"
# What the page says in the console when it falls back on the plain script.
FALLS_BACK = "The editor's script is loaded as it is stored: "


def editor_requests(page: Page) -> list[str]:
    """The URLs of the editor's scripts that `page` asks for, from now on (not its service
    worker, which downloads the plain one to keep once Python is idle)."""
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url)
            if "/chunks/editor-" in request.url else None)
    return asked


def type_and_run(playground: Playground) -> None:
    """Type code into the editor, as a learner does, and run it."""
    playground.element.locator(".cm-content").click()
    playground.page.keyboard.press("Control+a")
    playground.page.keyboard.type("print(6 * 7)")
    assert playground.run() == "done"
    assert playground.output.strip() == "42"


def test_a_first_visit_imports_the_gzipped_editor(new_context, site):
    page = new_context().new_page()
    asked = editor_requests(page)
    playground = Playground(page).open(site)
    type_and_run(playground)
    assert asked == [f"{site}{GZIPPED}"]


def test_a_damaged_gzipped_editor_falls_back_on_the_plain_script(new_context, site):
    script = gzip.decompress((build.DIST / GZIPPED).read_bytes())
    damaged = bytearray(gzip.compress(script))
    damaged[len(damaged) // 2] ^= 0xFF
    context = new_context()
    context.route(f"**/{GZIPPED}", lambda route: route.fulfill(
        body=bytes(damaged), content_type="application/gzip"))
    page = context.new_page()
    asked = editor_requests(page)
    with page.expect_console_message(lambda m: m.text.startswith(FALLS_BACK)) as message:
        playground = Playground(page).open(site)
    assert f"{GZIPPED} is damaged or cut short" in message.value.text
    type_and_run(playground)
    assert asked == [f"{site}{GZIPPED}", f"{site}{PLAIN}"]


def test_a_page_that_forbids_blob_scripts_imports_the_plain_editor(new_context, site):
    def forbid_blob_scripts(route: Route) -> None:
        response = route.fetch()
        policy = "script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'"  # no blob:
        route.fulfill(response=response,
                      headers={**response.headers, "content-security-policy": policy})

    context = new_context()
    context.route(site, forbid_blob_scripts)
    page = context.new_page()
    asked = editor_requests(page)
    with page.expect_console_message(lambda m: m.text.startswith(FALLS_BACK)):
        playground = Playground(page).open(site)
    type_and_run(playground)
    assert asked == [f"{site}{GZIPPED}", f"{site}{PLAIN}"]


def test_a_page_the_service_worker_controls_imports_the_plain_editor_it_keeps(
        new_context, site):
    context = new_context()
    first = Playground(context.new_page()).open(site)
    assert f"{site}{PLAIN}" in first.page.evaluate(ACTIVE_AND_KEPT, CACHE)
    page = context.new_page()
    responses = []
    page.on("response", lambda response: responses.append(response)
            if "/chunks/editor-" in response.url else None)
    again = Playground(page).open(site)
    assert again.page.evaluate("navigator.serviceWorker.controller !== null")
    type_and_run(again)
    assert [(r.url, r.from_service_worker) for r in responses] == [(f"{site}{PLAIN}", True)]
