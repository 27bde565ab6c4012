"""What a first visit downloads before its first result, from a plain static host (no
compression by the server): Pyodide's wasm comes stored in Zstandard, its script, the
largest JSON files and the editor's script stored gzipped, each decoded in the browser (the
editor's: test_editor_script.py), the memory snapshot comes compressed with Zstandard
(test_boot.py), and the standard library's zip comes after the first result (its test:
test_stdlib_later.py); a stored file that is cut short or damaged fails the start with an
error that names it, and one the host decodes itself is used as it comes."""

from __future__ import annotations

import gzip

import pytest

import build
from bench.link import Link, serving_over

from .conftest import Playground

# What a first visit to the full page may download before its first result, counted as
# the server sends it: every response body the page, its workers and its service worker
# asked for before that result.
FIRST_VISIT_BUDGET = 8_000_000

# Before the page's scripts: queue a run as soon as the playground exists, and note when
# its result came (ms since the epoch, as the server's clock).
RUN_AT_ONCE = """
addEventListener("run-end", () => {
  window.firstResultAt ??= performance.timeOrigin + performance.now();
}, true);
customElements.whenDefined("autograd-playground").then(() =>
  document.querySelector("autograd-playground").run());
"""


def test_a_first_visit_downloads_its_budget_before_its_first_result(new_context):
    link = Link()
    with serving_over(link, build.DIST) as url:
        context = new_context()
        context.add_init_script(RUN_AT_ONCE)
        playground = Playground(context.new_page())
        playground.page.goto(url)
        playground.page.wait_for_function("window.firstResultAt")
        assert playground.state == "done"
        sizes = link.bytes_asked(0, playground.page.evaluate("window.firstResultAt") / 1000)
    assert "/pyodide/pyodide.asm.wasm.zst" in sizes
    assert "/pyodide/pyodide.asm.wasm" not in sizes
    assert "/pyodide/pyodide.asm.mjs.gz" in sizes
    assert "/pyodide/pyodide.asm.mjs" not in sizes
    assert "/pyodide/python_stdlib.zip" not in sizes
    editor = next(build.DIST.glob(f"{build.EDITOR_CHUNK}-*.js")).relative_to(build.DIST)
    assert f"/{editor.as_posix()}.gz" in sizes
    assert f"/{editor.as_posix()}" not in sizes
    total = sum(sizes.values())
    assert total <= FIRST_VISIT_BUDGET, sorted(sizes.items(), key=lambda item: -item[1])


def test_a_wasm_cut_short_fails_the_start_naming_it(new_context, site):
    stored = (build.DIST / "pyodide" / "pyodide.asm.wasm.zst").read_bytes()
    context = new_context()
    context.route("**/pyodide.asm.wasm.zst",
                  lambda route: route.fulfill(body=stored[: len(stored) // 2],
                                              content_type="application/zstd"))
    playground = Playground(context.new_page())
    playground.page.goto(site)
    playground.wait_for("error")
    status = playground.element.locator(".status").inner_text()
    assert status.startswith("failed: Pyodide's wasm could not be loaded: "
                             "pyodide/pyodide.asm.wasm.zst is damaged or cut short"), status


def test_a_wasm_the_host_sends_decoded_starts_python(new_context, site):
    """As a host that sends the .zst with `Content-Encoding: zstd` would have it."""
    plain = (build.DIST / "pyodide" / "pyodide.asm.wasm").read_bytes()
    context = new_context()
    context.route("**/pyodide.asm.wasm.zst",
                  lambda route: route.fulfill(body=plain, content_type="application/wasm"))
    playground = Playground(context.new_page())
    playground.page.goto(site)
    playground.run("print(6 * 7)")
    assert playground.output.strip() == "42"


@pytest.mark.parametrize("path", ["pyodide/pyodide-lock.json", "pyodide/pyodide.asm.mjs"])
def test_a_damaged_gzipped_file_fails_the_start_naming_it(new_context, site, path):
    plain = gzip.decompress((build.DIST / f"{path}.gz").read_bytes())
    damaged = bytearray(gzip.compress(plain))
    damaged[len(damaged) // 2] ^= 0xFF
    context = new_context()
    context.route(f"**/{path}.gz",
                  lambda route: route.fulfill(body=bytes(damaged),
                                              content_type="application/gzip"))
    playground = Playground(context.new_page())
    playground.page.goto(site)
    playground.wait_for("error")
    status = playground.element.locator(".status").inner_text()
    assert f"{path}.gz is damaged or cut short" in status, status
