"""The site's service worker (web/site/service-worker.js): once Python is up, the page
registers it, and it keeps the scripts whose URLs name their content, so that a
returning visitor's browser neither asks for nor compiles them again."""

from __future__ import annotations

import hashlib
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

import build
from autograd_playground.server import serving
from bench.link import Link, serving_over

from .conftest import Playground, within
from .test_run import CHAPTER_ROWS

CACHE = "autograd-playground scripts"

# Once the page's service worker is active: the URLs it keeps.
ACTIVE_AND_KEPT = within("""async (cache) => {
  const { active } = await navigator.serviceWorker.ready;
  if (active.state !== "activated") {
    await new Promise((done) => active.addEventListener("statechange", done, { once: true }));
  }
  return (await (await caches.open(cache)).keys()).map((request) => request.url).sort();
}""")

# Ask for the service worker again (as the browser does on a later visit), wait for
# the new one to be active, and return the URLs kept then.
UPDATED_AND_KEPT = within("""async (cache) => {
  const registration = await navigator.serviceWorker.getRegistration();
  const activated = new Promise((done) => registration.addEventListener("updatefound", () => {
    const next = registration.installing;
    next.addEventListener("statechange", () => next.state === "activated" && done());
  }));
  await registration.update();
  await activated;
  return (await (await caches.open(cache)).keys()).map((request) => request.url).sort();
}""")


@pytest.fixture
def site_copy(tmp_path) -> Iterator[tuple[str, Path]]:
    """dist/ served from a folder of its own (its files linked, its service worker
    copied, for the test to replace), and that service worker's file."""
    for entry in build.DIST.iterdir():
        (tmp_path / entry.name).symlink_to(entry)
    worker = tmp_path / "service-worker.js"
    worker.unlink()
    shutil.copy(build.DIST / "service-worker.js", worker)
    with serving(tmp_path) as url:
        yield url, worker


def pyodide_script_url(site: str) -> str:
    """Pyodide's script's URL with its SHA-256, as the worker asks for it."""
    digest = hashlib.sha256((build.DIST / "pyodide" / build.PYODIDE_SCRIPT).read_bytes())
    return f"{site}pyodide/{build.PYODIDE_SCRIPT}?sha256={digest.hexdigest()}"


def kept_scripts(site: str) -> list[str]:
    """The URLs the site's service worker keeps: its scripts whose URLs name their
    content, Pyodide's and the editor's (plain); not the charts' (see test_plots)."""
    [editor] = build.DIST.glob(f"{build.EDITOR_CHUNK}-*.js")
    return sorted([pyodide_script_url(site), f"{site}{editor.relative_to(build.DIST).as_posix()}"])


def test_a_returning_visitor_gets_pyodides_script_from_the_service_worker(new_context, site):
    context = new_context()
    first = Playground(context.new_page()).open(site)
    kept = first.page.evaluate(ACTIVE_AND_KEPT, CACHE)
    assert kept == kept_scripts(site)
    responses = []
    context.on("response", lambda response: responses.append(response))
    again = Playground(context.new_page()).open(site)
    assert again.run() == "done"
    assert again.rows() == CHAPTER_ROWS
    scripts = [r for r in responses if "/pyodide.asm.mjs" in r.url]
    # Asked for by its content: what is kept under that URL is never another build's.
    assert [r.url for r in scripts] == [pyodide_script_url(site)]
    assert scripts[0].from_service_worker
    # Everything else comes from the network, as without a service worker.
    assert not any(r.from_service_worker for r in responses if r.url not in kept)


def test_the_service_worker_keeps_the_scripts_a_first_visit_downloaded_gzipped(new_context):
    link = Link()
    with serving_over(link, build.DIST) as site:
        page = Playground(new_context().new_page()).open(site).page
        assert page.evaluate(ACTIVE_AND_KEPT, CACHE) == kept_scripts(site)
    asked = {response.path for response in link.responses}
    plain = {urlsplit(url).path for url in kept_scripts(site)}
    assert {f"{path}.gz" for path in plain} <= asked
    assert not plain & asked


def test_a_new_builds_service_worker_keeps_its_scripts_and_forgets_the_others(
    new_context, site_copy
):
    site, service_worker = site_copy
    page = Playground(new_context().new_page()).open(site).page
    before = page.evaluate(ACTIVE_AND_KEPT, CACHE)
    chunk = re.search(r"chunks/[^\"]+\.js", service_worker.read_text(encoding="utf-8"))[0]
    assert f"{site}{chunk}" in before
    # Another build: the same Pyodide, and embed.js where the editor's chunk was.
    text = service_worker.read_text(encoding="utf-8")
    service_worker.write_text(text.replace(chunk, "embed.js"), encoding="utf-8")
    after = page.evaluate(UPDATED_AND_KEPT, CACHE)
    still_kept = [url for url in kept_scripts(site) if url != f"{site}{chunk}"]
    assert after == sorted([*still_kept, f"{site}embed.js"])


def test_where_no_service_worker_can_be_registered_the_page_says_so_and_runs_as_before(
    new_context, site
):
    context = new_context()
    context.route("**/service-worker.js", lambda route: route.fulfill(status=404))
    page = context.new_page()
    with page.expect_console_message(lambda m: m.text.startswith("Pyodide's script is not kept")):
        playground = Playground(page).open(site)
    assert playground.run() == "done"
    assert playground.rows() == CHAPTER_ROWS
    registrations = page.evaluate("navigator.serviceWorker.getRegistrations()")
    assert registrations == []
