"""A stranger's link cannot plant anything the site uses later: learner code runs in the
Python worker, which can write the origin's Cache Storage (where the service worker keeps
scripts and the worker keeps the snapshot), IndexedDB, and send any request; every byte a
later visit takes from a cache is checked against the SHA-256 the build recorded, so what
was planted is forgotten, never run."""

from __future__ import annotations

import hashlib
import json
import time

import pytest

import build

from .conftest import RUN_MS, Playground
from .test_run import CHAPTER_ROWS
from .test_service_worker import ACTIVE_AND_KEPT, CACHE, kept_scripts

SNAPSHOT_CACHE = "autograd-playground snapshot"
EXAMPLE = (build.WEB / "shared" / "example.py").read_text(encoding="utf-8")
PLANTED = "localStorage.setItem('planted', 'yes');"

# Learner code that rewrites every entry of every cache it finds (through js.self too),
# writes IndexedDB and PUTs a script over the site's, in JavaScript that goes on after
# the run.
PLANT = f"""import js
js.self.eval('''(async () => {{
  for (const name of await self.caches.keys()) {{
    const cache = await self.caches.open(name);
    for (const request of await cache.keys()) {{
      if (name === {json.dumps(SNAPSHOT_CACHE)}) {{
        const bytes = new Uint8Array(await (await cache.match(request)).arrayBuffer());
        bytes[bytes.length - 1] ^= 1;
        await cache.put(request, new Response(bytes));
      }} else {{
        await cache.put(request, new Response({json.dumps(PLANTED)},
          {{ headers: {{ "Content-Type": "text/javascript" }} }}));
      }}
    }}
  }}
  await fetch("embed.js", {{ method: "PUT", body: {json.dumps(PLANTED)} }}).catch(() => null);
  await new Promise((done) => {{
    const open = indexedDB.open("autograd-playground", 1);
    open.onupgradeneeded = () =>
      open.result.createObjectStore("kept").put({json.dumps(PLANTED)}, "code");
    open.onsuccess = open.onerror = done;
  }});
}})()''')
print('planting')
"""

# The SHA-256 of every entry of a cache, by URL.
DIGESTS = """async (name) => {
  const cache = await caches.open(name);
  const digests = {};
  for (const request of await cache.keys()) {
    const bytes = await (await cache.match(request)).arrayBuffer();
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    digests[request.url] = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  }
  return digests;
}"""


def build_digests(site: str) -> dict[str, str]:
    """What the build's kept scripts hash to, by the URL they are kept under."""
    def digest(url: str) -> str:
        path = url.removeprefix(site).split("?")[0]
        return hashlib.sha256((build.DIST / path).read_bytes()).hexdigest()
    return {url: digest(url) for url in kept_scripts(site)}


def stored_snapshot_sha256() -> str:
    return json.loads((build.DIST / "site.json").read_text(encoding="utf-8"))[
        "snapshot"]["storedSha256"]


def until(what: str, value):
    """Poll `value()` until it is truthy (the pages' caches are written as promises
    settle, after the run that asked); its value."""
    deadline = time.monotonic() + RUN_MS / 1000
    while not (got := value()):
        assert time.monotonic() < deadline, f"still not {what}"
        time.sleep(0.2)
    return got


def cache_digests(page, name: str) -> list[str]:
    return list(page.evaluate(DIGESTS, name).values())


@pytest.fixture
def planted(new_context, site):
    """A context whose browser kept the site's scripts and snapshot, then ran PLANT."""
    context = new_context()
    first = Playground(context.new_page()).open(site)
    page, stored = first.page, [stored_snapshot_sha256()]
    assert page.evaluate(ACTIVE_AND_KEPT, CACHE) == kept_scripts(site)
    until("kept", lambda: cache_digests(page, SNAPSHOT_CACHE) == stored)
    assert first.run(PLANT) == "done"
    planted_digest = hashlib.sha256(PLANTED.encode()).hexdigest()
    planted_scripts = [planted_digest] * len(kept_scripts(site))
    until("planted", lambda: cache_digests(page, CACHE) == planted_scripts)
    until("changed", lambda: cache_digests(page, SNAPSHOT_CACHE) not in ([], stored))
    until("written", lambda: page.evaluate("indexedDB.databases().then((dbs) => dbs.length)"))
    first.page.close()
    return context


def test_scripts_planted_in_the_cache_never_run_and_the_builds_take_their_place(planted, site):
    again = Playground(planted.new_page()).open(site)  # controlled by the service worker
    assert again.run(EXAMPLE) == "done"
    assert again.rows() == CHAPTER_ROWS
    again.page.wait_for_function("() => document.querySelector('autograd-playground').view")
    assert again.page.evaluate("localStorage.getItem('planted')") is None
    assert again.page.evaluate(DIGESTS, CACHE) == build_digests(site)


def test_a_snapshot_changed_in_the_cache_is_forgotten_and_downloaded_again(planted, site):
    page = planted.new_page()
    with page.expect_console_message(
        lambda m: m.text.startswith("The snapshot this browser kept is not the build's")
    ):
        again = Playground(page).open(site)
    assert again.run(EXAMPLE) == "done"
    assert again.rows() == CHAPTER_ROWS
    until("kept again", lambda: cache_digests(page, SNAPSHOT_CACHE) == [stored_snapshot_sha256()])


def test_a_put_over_the_sites_files_changes_nothing_it_serves(planted, site):
    again = Playground(planted.new_page()).open(site)
    served = again.page.evaluate("fetch('embed.js', { cache: 'no-store' }).then((r) => r.text())")
    assert served == (build.DIST / "embed.js").read_text(encoding="utf-8")
    assert again.run(EXAMPLE) == "done"
