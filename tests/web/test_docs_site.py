"""This project's documentation as a site: `python build.py docs` builds docs/ with MkDocs,
Material and the authors' own plugin, so every page has MkDocs' search, the first page
and the authoring guide's examples are live playgrounds that `check` passes, and the site
works offline from a plain static server, under any path."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

import build
from autograd_playground.server import serving
from tests.web.authoring import do_the_exercise, requests_elsewhere, run_every_playground
from tests.web.conftest import RUN_MS

# It builds the authors' wheel and the MkDocs venv the authoring tests use: one process.
pytestmark = pytest.mark.xdist_group("authoring")

GUIDE = build.ROOT / "docs" / "authoring.md"
INDEX = build.ROOT / "docs" / "index.md"
SEARCH_BOX = 'class="md-search__input"'


@pytest.fixture(scope="module")
def docs_site() -> Path:
    built = subprocess.run([sys.executable, *build.STRICT_ENCODING, build.ROOT / "build.py",
                            "docs"], capture_output=True, encoding="utf-8", timeout=1800)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    return build.DOCS_SITE


def test_every_page_of_docs_is_built_with_mkdocs_search_box(docs_site):
    pages = sorted(f"{page.stem}.html" for page in (build.ROOT / "docs").glob("*.md"))
    assert pages
    for page in pages:
        assert SEARCH_BOX in (docs_site / page).read_text(encoding="utf-8"), page
    index = json.loads((docs_site / "search" / "search_index.json").read_text(
        encoding="utf-8"))
    assert {doc["location"].split("#")[0] for doc in index["docs"]} >= set(pages)


def test_check_runs_the_authoring_guides_live_playground_and_exercise_and_passes(docs_site):
    done = subprocess.run(
        [sys.executable, *build.STRICT_ENCODING, "-m", "autograd_playground", "check",
         docs_site, "--json"], capture_output=True, encoding="utf-8", timeout=900,
        env={**os.environ, "PYTHONPATH": str(build.AUTHORS)})
    assert done.returncode == 0, done.stdout + done.stderr
    pages = {Path(page["page"]).relative_to(docs_site).as_posix():
             [(playground["id"], playground["status"]) for playground in page["playgrounds"]]
             for page in json.loads(done.stdout)["pages"]}
    assert pages.pop("authoring.html") == [("authoring-first-graph", "passed"),
                                           ("authoring-exercise", "passed")]
    assert pages.pop("index.html") == [("index-example", "passed")]
    assert pages and all(playgrounds == [] for playgrounds in pages.values())


def test_the_first_pages_playground_holds_the_full_pages_example():
    (fence,) = re.findall(r"^```playground \{#index-example[^}]*\}\n(.*?)^```$",
                          INDEX.read_text(encoding="utf-8"), re.M | re.S)
    assert fence == build.EXAMPLE.read_text(encoding="utf-8")


def test_the_live_exercise_is_the_html_the_guide_shows(docs_site):
    guide = GUIDE.read_text(encoding="utf-8")
    (shown,) = [block for block in re.findall(r"```html\n(.*?)```\n", guide, re.S)
                if 'id="authoring-exercise"' in block]
    assert guide.count(shown) == 2  # shown as code, then written as it is, live
    assert shown in (docs_site / "authoring.html").read_text(encoding="utf-8")


def test_the_site_works_offline_under_any_path_with_search_and_live_playgrounds(
        docs_site, tmp_path, new_context):
    shutil.copytree(docs_site, tmp_path / "any" / "path")
    with serving(tmp_path, isolation=False) as url:  # as a plain static host
        page = new_context().new_page()
        elsewhere = requests_elsewhere(page, url)
        page.goto(url + "any/path/index.html")  # the first page's example, live
        ran = run_every_playground(page)
        assert ran["index-example"]["state"] == "done"
        assert ran["index-example"]["output"].startswith("e = 0.99932")
        assert ran["index-example"]["rows"] == 6

        page.goto(url + "any/path/authoring.html")

        page.get_by_role("textbox", name="Search").click()
        page.keyboard.type("exercise")  # as a reader types: Material searches on keys
        # Material builds its search index in a worker first: as long as a run may take.
        expect(page.locator(".md-search-result__item").first).to_be_visible(timeout=RUN_MS)
        page.keyboard.press("Escape")

        ran = run_every_playground(page)
        assert ran["authoring-first-graph"] == {"state": "done", "output": "e = 0.9993\n",
                                                "rows": 6}
        assert ran["authoring-exercise"]["state"] == "done"
        # Its given code is the learner's to finish; its solution passes.
        expect(page.locator("#authoring-exercise")).to_have_attribute("data-check", "failed")
        exercise = do_the_exercise(page, "authoring-exercise")
        assert [hint["text"] for hint in exercise["hints"]] == [
            "Multiply a and b first.", "Then add c, then take VTanh of the sum."]
        assert exercise["solution"] == {"check": "passed", "messages": []}
        assert elsewhere == []
