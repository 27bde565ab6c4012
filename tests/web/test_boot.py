"""How Python starts: from the memory snapshot made at build time, else fresh, saying why.

The snapshot path is the default in every other test; here, each way it can
fail is served to a fresh context (context.route also sees the worker's
requests), and the page must still run the chapter's example.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import struct
import subprocess
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from itertools import pairwise

import pytest
import zstandard

import build

from .conftest import NO_SNAPSHOT, RUN_MS, SNAPSHOT, Playground, set_deadlines
from .pages import PlaygroundAt, course_page, playground
from .test_run import CHAPTER_ROWS
from .test_stop import LOOP, SWALLOW

PAGE = 4096  # the snapshot's pages, as web/worker/snapshot-pages.js keeps them


def stored_snapshot() -> bytes:
    """Our snapshot as stored, inflated (see web/worker/snapshot-pages.js)."""
    return zstandard.decompress((build.DIST / "snapshot" / "memory.zst").read_bytes())


def altered_snapshot(at: slice) -> bytes:
    """Our snapshot, compressed, with the bytes `at` of its header changed. Pyodide's header:
    a magic number (bytes 0 to 4), ..., the build id of its Pyodide (16 to 48). It is
    stored after the list of ranges kept, the first of which starts at the header."""
    stored = bytearray(stored_snapshot())
    ranges = int.from_bytes(stored[8:12], "little")
    header = 12 + 8 * ranges
    at = slice(header + at.start, header + at.stop)
    stored[at] = bytes(255 - byte for byte in stored[at])
    return zstd(bytes(stored))


def zstd(data: bytes) -> bytes:
    """`data` as the snapshot is stored: compressed with Zstandard."""
    return zstandard.compress(data)


def serve_snapshot(context, body: bytes) -> None:
    """Serve `body` as the snapshot, with site.json vouching for it (its SHA-256)."""
    site = json.loads((build.DIST / "site.json").read_text(encoding="utf-8"))
    site["snapshot"]["sha256"] = hashlib.sha256(body).hexdigest()
    context.route("**/site.json", lambda route: route.fulfill(json=site))
    context.route(SNAPSHOT, lambda route: route.fulfill(body=body))


def claim_size(context, size: int) -> None:
    """Serve a site.json that gives the snapshot `size` bytes."""
    site = json.loads((build.DIST / "site.json").read_text(encoding="utf-8"))
    site["snapshot"]["size"] = size
    context.route("**/site.json", lambda route: route.fulfill(json=site))


def requests_and_warnings(context) -> tuple[list[str], list[str]]:
    """Every URL the context requests, and every console warning of its pages' and
    workers', as they come."""
    urls: list[str] = []
    warnings: list[str] = []
    context.on("request", lambda request: urls.append(request.url))
    context.on("console", lambda message: message.type == "warning"
               and warnings.append(message.text))
    return urls, warnings


def test_the_snapshot_keeps_only_its_pages_that_are_not_zeros():
    stored = stored_snapshot()
    mark, size, count = struct.unpack_from("<4sII", stored)
    starts_and_lengths = struct.unpack_from(f"<{2 * count}I", stored, 12)
    ranges = list(zip(starts_and_lengths[::2], starts_and_lengths[1::2], strict=True))
    data = stored[12 + 8 * count:]
    assert mark == b"AGPS"
    assert size == json.loads((build.DIST / "site.json").read_text(
        encoding="utf-8"))["snapshot"]["size"]
    assert len(data) == sum(length for _, length in ranges) < size / 2
    assert all(start % PAGE == 0 for start, _ in ranges)
    # In order, apart (touching ranges are one), and every page kept has a byte not zero.
    assert all(a + n < b for (a, n), (b, _) in pairwise(ranges))
    assert all(any(data[at:at + PAGE]) for at in range(0, len(data), PAGE))


def test_the_snapshot_is_made_the_same_bytes_from_the_same_files(tmp_path):
    """Builds that change neither Python nor the engine give the snapshot the same
    SHA-256, so a returning visitor's browser can revalidate it, not download it again."""
    again = tmp_path / "dist"
    (again / "snapshot").mkdir(parents=True)
    for name in ("site.json", "snapshot/files.json"):
        shutil.copy(build.DIST / name, again / name)
    (again / "pyodide").symlink_to(build.DIST / "pyodide")
    subprocess.run([build.need("node", "nodejs"), build.TOOLS / "make-snapshot.mjs", again,
                    tmp_path / "facts.json"], check=True, capture_output=True)
    built = (build.DIST / "snapshot" / "memory.zst").read_bytes()
    assert (again / "snapshot" / "memory.zst").read_bytes() == built


def test_python_starts_from_the_snapshot_and_not_from_the_wheel(new_context, site):
    context = new_context()
    urls, warnings = requests_and_warnings(context)
    playground = Playground(context.new_page()).open(site)
    assert playground.run() == "done"
    assert playground.rows() == CHAPTER_ROWS
    assert [url for url in urls if url.endswith("/snapshot/memory.zst")] != []
    assert [url for url in urls if url.endswith(".whl")] == []
    assert [text for text in warnings if NO_SNAPSHOT in text] == []


@pytest.mark.parametrize(
    ("serve", "why"),
    [
        (lambda context: context.route(SNAPSHOT, lambda route: route.fulfill(status=404)),
         "snapshot/memory.zst is missing (HTTP 404)"),
        (lambda context: context.route(SNAPSHOT, lambda route: route.fulfill(body=b"\x1f\x8b??")),
         "snapshot/memory.zst is corrupt, or from another build (its SHA-256 differs)"),
        (lambda context: serve_snapshot(context, zstd(stored_snapshot()[:1_000_000])),
         "snapshot/memory.zst could not be inflated: it is smaller than site.json says"),
        (lambda context: serve_snapshot(context, zstd(b"not all of Python's memory")),
         "snapshot/memory.zst could not be inflated: it is not a snapshot (its first bytes "
         "are not a snapshot's)"),
        (lambda context: serve_snapshot(context, gzip.compress(stored_snapshot())),
         "snapshot/memory.zst could not be inflated: it is not Zstandard's"),
        (lambda context: serve_snapshot(context, zstd(b"AGPS" + bytes(12))),
         "snapshot/memory.zst could not be inflated: it is 0 bytes, where site.json says {size}"),
        (lambda context: claim_size(context, 8 * 1024 ** 3),
         "site.json gives it a size of 8589934592 bytes, which no Python memory has"),
        (lambda context: serve_snapshot(context, altered_snapshot(slice(16, 20))),
         "restoring it failed: Snapshot build id mismatch"),
        (lambda context: serve_snapshot(context, altered_snapshot(slice(0, 4))),
         "restoring it failed: Snapshot has invalid magic number"),
    ],
    ids=["missing", "corrupt", "short", "not-ours", "gzip", "another-size", "eight-gigabytes",
         "another-build", "not-a-snapshot"],
)
def test_without_a_usable_snapshot_python_boots_fresh_and_says_why(new_context, site, serve,
                                                                    why):
    context = new_context()
    urls, warnings = requests_and_warnings(context)
    serve(context)
    playground = Playground(context.new_page()).open(site)
    assert playground.run() == "done"
    assert playground.rows() == CHAPTER_ROWS
    size = json.loads((build.DIST / "site.json").read_text(encoding="utf-8"))["snapshot"]["size"]
    assert NO_SNAPSHOT + why.format(size=size) in warnings
    assert [url for url in urls if url.endswith(".whl")] != []  # the engine, from its wheel


SNAPSHOT_STALL_MS = 1_000  # the tests' deadline for a stalled snapshot, from the page's 5 s
EXAMPLE = (build.ROOT / "web" / "shared" / "example.py").read_text(encoding="utf-8")
# A screen and more above the playground: Python starts once it is seen, not as the page
# opens, so that the test sets the deadline first.
BELOW_THE_FOLD = '<div style="height: 300vh"></div>\n'


@pytest.fixture
def cut_off() -> Iterator[str]:
    """A server that answers with the snapshot's headers and first megabyte, then sends
    nothing more (until the test ends): a connection gone quiet mid-download."""
    body = (build.DIST / "snapshot" / "memory.zst").read_bytes()
    over = threading.Event()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "application/zstd")
            self.send_header("Content-Length", str(len(body)))
            # Another origin than the site's: the worker's fetch, routed here, must be let in.
            self.send_header("Access-Control-Allow-Origin", "*")
            self.send_header("Cross-Origin-Resource-Policy", "cross-origin")
            self.end_headers()
            self.wfile.write(body[:1_000_000])
            self.wfile.flush()
            over.wait()

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/snapshot/memory.zst"
    over.set()
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("stall", ["held", "cut off"])
def test_a_snapshot_download_that_stalls_gives_way_to_a_fresh_boot_saying_so(new_context,
                                                                              site, pages,
                                                                              cut_off, stall):
    context = new_context()
    urls, warnings = requests_and_warnings(context)
    if stall == "held":  # not a byte of it ever comes
        context.route(SNAPSHOT, lambda route: None)
    else:  # a megabyte, then nothing
        context.route(SNAPSHOT, lambda route: route.continue_(url=cut_off))
    page = context.new_page()
    page.goto(pages.add("stall.html", course_page(site, BELOW_THE_FOLD, playground(EXAMPLE))))
    page.wait_for_function("() => customElements.get('autograd-playground') !== undefined")
    set_deadlines(page, snapshotStallMs=SNAPSHOT_STALL_MS)
    stalled = PlaygroundAt(page, "autograd-playground")
    assert stalled.state == "loading"  # Python not started yet
    stalled.record_statuses()
    assert stalled.run() == "done"
    assert stalled.rows() == CHAPTER_ROWS
    said = "starting Python without its snapshot, whose download stalled… Your run is queued"
    assert any(status.startswith(said) for status in stalled.statuses_shown)
    assert [text for text in warnings if text.startswith(
        NO_SNAPSHOT + "snapshot/memory.zst stalled: no byte of Python's files came for ")] != []
    assert [url for url in urls if url.endswith(".whl")] != []  # the engine, from its wheel


# Where the worker keeps the snapshot it inflated, for the next load (snapshot-cache.js).
KEPT = "autograd-playground snapshot"


def kept_snapshots(page, until) -> list[str]:
    """The URLs snapshots are kept under in `page`'s Cache Storage, once `until` (a
    test of that list) holds, as the worker keeps and forgets them, or after RUN_MS."""
    deadline = time.monotonic() + RUN_MS / 1000
    while True:
        urls = page.evaluate("""async (name) => {
          const keys = await (await caches.open(name)).keys();
          return keys.map((request) => request.url);
        }""", KEPT)
        if until(urls) or time.monotonic() > deadline:
            return urls
        page.wait_for_timeout(50)


def with_sha256(sha256: str):
    """A test that the snapshot whose download has `sha256` is among the URLs kept."""
    return lambda urls: any(url.endswith(f"?sha256={sha256}") for url in urls)


def site_sha256(page) -> str:
    """The SHA-256 of the snapshot's download, as `page`'s site.json gives it."""
    return page.evaluate("fetch('site.json').then((response) => response.json())")[
        "snapshot"]["sha256"]


def test_a_returning_visitor_restores_the_kept_snapshot_without_downloading_it(new_context,
                                                                               site):
    context = new_context()
    first = Playground(context.new_page()).open(site)
    sha256 = site_sha256(first.page)
    assert [url.split("/")[-1] for url in kept_snapshots(first.page, with_sha256(sha256))] == [
        f"memory.zst?sha256={sha256}"]
    urls, warnings = requests_and_warnings(context)
    playground = Playground(context.new_page()).open(site)
    assert playground.run() == "done"
    assert playground.rows() == CHAPTER_ROWS
    assert [url for url in urls if "/snapshot/memory.zst" in url] == []
    assert [text for text in warnings if NO_SNAPSHOT in text] == []


def test_a_snapshot_kept_from_another_build_is_not_restored(new_context, site):
    context = new_context()
    first = Playground(context.new_page()).open(site).page
    assert kept_snapshots(first, with_sha256(site_sha256(first))) != []
    # The next build's snapshot (here one Pyodide refuses) is downloaded, not the one kept.
    urls, warnings = requests_and_warnings(context)
    serve_snapshot(context, altered_snapshot(slice(16, 20)))
    playground = Playground(context.new_page()).open(site)
    assert playground.run() == "done"
    assert [url for url in urls if url.endswith("/snapshot/memory.zst")] != []
    assert NO_SNAPSHOT + "restoring it failed: Snapshot build id mismatch" in warnings


def test_a_damaged_kept_snapshot_is_forgotten_and_downloaded_at_once(new_context, site):
    context = new_context()
    page = context.new_page()
    page.goto(site + "site.json")
    sha256 = site_sha256(page)
    key = site + f"snapshot/memory.zst?sha256={sha256}"
    page.evaluate("""async ([name, key]) => {
      await (await caches.open(name)).put(key, new Response("not a snapshot"));
    }""", [KEPT, key])
    urls, warnings = requests_and_warnings(context)
    playground = Playground(context.new_page()).open(site)
    assert playground.run() == "done"
    assert playground.rows() == CHAPTER_ROWS
    # Its bytes are not those the build recorded: never restored, Python restores from
    # the snapshot downloaded in their place, and keeps that.
    assert [text for text in warnings if text.startswith(
        "The snapshot this browser kept is not the build's (its SHA-256 differs)")] != []
    assert [text for text in warnings if text.startswith(NO_SNAPSHOT)] == []
    assert [url for url in urls if url.endswith("/snapshot/memory.zst")] != []
    assert kept_snapshots(playground.page, with_sha256(sha256)) == [key]


def test_random_numbers_differ_on_every_load(open_playground, site):
    code = "import random\nprint(random.random())"
    numbers = set()
    for _ in range(2):
        playground = open_playground(site)
        assert playground.run(code) == "done"
        numbers.add(playground.output.strip())
    assert len(numbers) == 2, numbers


@pytest.mark.parametrize("boot_path", ["snapshot", "fresh"], indirect=True)
def test_the_engine_has_its_source_files_and_its_metadata(playground):
    code = ("import inspect, importlib.metadata, engine\n"
            "print(inspect.getsource(engine.Backward).splitlines()[0])\n"
            "print(importlib.metadata.version('autograd-engine'))")
    assert playground.run(code) == "done"
    first_line, version = playground.output.split("\n")[:2]
    assert first_line.startswith("def Backward(")
    wheel = json.loads((build.DIST / "site.json").read_text(encoding="utf-8"))["engine"]
    assert wheel.endswith(f"-{version}-py3-none-any.whl")


def test_stops_restart_restores_python_from_the_snapshot(new_context, plain_site):
    context = new_context()
    urls, warnings = requests_and_warnings(context)
    playground = Playground(context.new_page()).open(plain_site)
    example = playground.code
    playground.start(LOOP)
    playground.wait_for_output("looping")
    playground.button("Stop").click()
    assert playground.wait_for("stopped") == "stopped"
    assert playground.run(example) == "done"
    assert playground.rows() == CHAPTER_ROWS
    assert playground.python_starts == 2
    # The new worker restores the memory the page kept from the first one.
    assert len([url for url in urls if url.endswith("/snapshot/memory.zst")]) == 1
    assert [url for url in urls if url.endswith(".whl")] == []
    assert [text for text in warnings if NO_SNAPSHOT in text] == []


def test_stops_restart_needs_neither_the_wasm_nor_the_snapshot_again(new_context, plain_site):
    context = new_context()
    playground = Playground(context.new_page()).open(plain_site)
    example = playground.code
    playground.start(LOOP)
    playground.wait_for_output("looping")
    # From here on neither can be downloaded: the new worker does without, nor asks.
    asked = []

    def refuse(route) -> None:
        asked.append(route.request.url)
        route.fulfill(status=404)

    for path in ("**/pyodide.asm.wasm.zst", SNAPSHOT):
        context.route(path, refuse)
    playground.button("Stop").click()
    assert playground.wait_for("stopped") == "stopped"
    assert playground.run(example) == "done"
    assert playground.rows() == CHAPTER_ROWS
    assert playground.python_starts == 2
    assert asked == []


def on_a_slow_link(context, page) -> None:
    """Have `page` (and its workers) estimate its link at 0.5 Mbit/s, as
    navigator.connection says, without slowing a byte of it."""
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.overrideNetworkState", {
        "offline": False, "latency": 300,
        "downloadThroughput": 0.5e6 / 8, "uploadThroughput": 0.5e6 / 8})


def is_snapshot(request) -> bool:
    return request.url.endswith("/snapshot/memory.zst")


def test_on_a_slow_link_python_boots_fresh_and_the_snapshot_downloads_for_next_time(
    new_context, site
):
    context = new_context()
    _, warnings = requests_and_warnings(context)
    requests = []
    context.on("request", lambda request: requests.append(request))
    page = context.new_page()
    on_a_slow_link(context, page)
    with context.expect_event("requestfinished", is_snapshot):
        playground = Playground(page).open(site)
        assert playground.run() == "done"
    assert playground.rows() == CHAPTER_ROWS
    slow = [text for text in warnings if text.startswith(NO_SNAPSHOT + "the link is slow")]
    assert slow != []
    wheel = next(i for i, r in enumerate(requests) if r.url.endswith(".whl"))
    # Only looked for in the cache before; downloaded once Python is up.
    downloads = [i for i, r in enumerate(requests) if is_snapshot(r) and r.failure is None]
    assert downloads != []
    assert min(downloads) > wheel


def test_on_a_slow_link_python_restores_from_the_snapshot_in_the_cache(new_context, site):
    context = new_context()
    Playground(context.new_page()).open(site)  # a first visit, on a fast link
    urls, warnings = requests_and_warnings(context)
    page = context.new_page()
    on_a_slow_link(context, page)
    playground = Playground(page).open(site)
    assert playground.run() == "done"
    assert playground.rows() == CHAPTER_ROWS
    assert [url for url in urls if url.endswith(".whl")] == []
    assert [text for text in warnings if NO_SNAPSHOT in text] == []


def test_where_stop_interrupts_python_the_page_keeps_no_copy_of_its_memory(new_context, site):
    context = new_context()
    urls, _ = requests_and_warnings(context)
    playground = Playground(context.new_page()).open(site)
    example = playground.code
    kept_snapshots(playground.page, with_sha256(site_sha256(playground.page)))
    set_deadlines(playground.page, stopGraceMs=0)  # restarted at once: it ignores Stop
    playground.start(SWALLOW)
    playground.button("Stop").click()
    assert playground.wait_for("stopped") == "stopped"
    assert playground.run(example) == "done"
    assert playground.python_starts == 2
    # Restarts are rare here: the new worker restores the snapshot kept in the Cache
    # Storage, as a returning visitor's does (it is not downloaded again).
    assert len([url for url in urls if url.endswith("/snapshot/memory.zst")]) == 1
    assert [url for url in urls if url.endswith(".whl")] == []
