"""The standard library's zip comes after the first result (web/worker/stdlib-later.js):
a first run that imports a module the memory snapshot lacks waits for it, and works."""

from __future__ import annotations

import pytest

from tests.web.conftest import Playground
from tests.web.pages import course_page, playground

# difflib is in no page's first run, nor in the snapshot: Python reads it from the zip.
IMPORTS_DIFFLIB = """\
import sys
print("snapshot had it" if "difflib" in sys.modules else "from the zip")
import difflib
print(difflib.SequenceMatcher(None, "graph", "grape").ratio())
"""


@pytest.fixture
def first_run_page(pages, site: str) -> str:
    """A page whose one playground runs nothing until Run: its first run is the test's."""
    return pages.add("stdlib-later.html", course_page(site, playground(IMPORTS_DIFFLIB)))


def test_a_first_run_imports_a_module_the_snapshot_lacks(new_context, first_run_page: str):
    context = new_context()
    asked: list[str] = []
    context.on("request", lambda request: asked.append(request.url))
    page = Playground(context.new_page()).open(first_run_page)
    assert not any(url.endswith("/python_stdlib.zip") for url in asked), asked
    assert page.run() == "done", page.output
    assert page.output.splitlines() == ["from the zip", "0.8"]


def test_the_zip_downloads_once_after_the_first_result_for_later_runs(
        new_context, first_run_page: str):
    context = new_context()
    asked: list[str] = []
    context.on("request", lambda request: asked.append(request.url))
    page = Playground(context.new_page()).open(first_run_page)
    with context.expect_event("requestfinished",
                              lambda request: request.url.endswith("/python_stdlib.zip")):
        assert page.run("print(1)") == "done"
    code = "import csv, io\nprint(next(csv.reader(io.StringIO('a,b'))))"
    assert page.run(code) == "done", page.output
    assert page.output.strip() == "['a', 'b']"
    assert sum(url.endswith("/python_stdlib.zip") for url in asked) == 1, asked


def test_a_zip_that_cannot_be_had_fails_the_import_naming_it(new_context, first_run_page: str):
    context = new_context()
    context.route("**/python_stdlib.zip", lambda route: route.fulfill(status=404, body="gone"))
    warnings: list[str] = []
    page = Playground(context.new_page())
    context.on("console", lambda message: warnings.append(message.text))
    page.open(first_run_page)
    assert page.run() == "error"
    assert "can't read Zip file: '/lib/python314.zip'" in page.output, page.output
    assert any("python_stdlib.zip could not be downloaded: HTTP 404" in text for text in warnings)
    assert page.run("print(sum(range(4)))") == "done", page.output
    assert page.output.strip() == "6"
