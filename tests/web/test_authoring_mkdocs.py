"""A course in MkDocs with Material, with the authors' wheel and MkDocs + mkdocs-material
alone in a fresh venv: examples/courses/mkdocs/ builds, every playground on it runs in
Chromium, offline, and playgrounds on a page that instant navigation swaps in work."""

from __future__ import annotations

import os
import re
import subprocess

import pytest
from playwright.sync_api import expect

from autograd_playground.server import serving
from tests.web.authoring import (
    COURSES,
    authored_attributes,
    authors_wheel,
    built_results_with_scripts_off,
    do_the_exercise,
    docs_venv,
    lines_at_their_sources,
    looks_before_the_script,
    open_its_share_link,
    requests_elsewhere,
    run_every_playground,
)
from tests.web.conftest import RUN_MS

pytestmark = pytest.mark.xdist_group("authoring")  # one process builds the venvs


@pytest.fixture(scope="module")
def mkdocs():
    return docs_venv("mkdocs", authors_wheel(), ["mkdocs", "mkdocs-material"])


def build_mkdocs(scripts, config, out) -> subprocess.CompletedProcess:
    """`mkdocs build --strict`: warnings are errors."""
    return subprocess.run(
        [scripts / "python", "-m", "mkdocs", "build", "--strict", "-f", config, "-d", out],
        capture_output=True, encoding="utf-8", env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})


@pytest.fixture(scope="module")
def course_folder(tmp_path_factory):
    """Where the course is built: its mkdocs.yml, and the site in site/."""
    return tmp_path_factory.mktemp("mkdocs-course")


@pytest.fixture(scope="module")
def course(mkdocs, course_folder):
    """The example course, served as a plain static host would (no isolation) and built
    for the URL it is served at: Material's instant navigation follows only links to the
    pages its sitemap lists, whose URLs come from site_url."""
    folder = course_folder
    with serving(folder / "site", isolation=False) as url:  # as a plain static host
        config = folder / "mkdocs.yml"
        config.write_text(f"INHERIT: {COURSES / 'mkdocs' / 'mkdocs.yml'}\n"
                          f"docs_dir: {COURSES / 'mkdocs' / 'docs'}\nsite_url: {url}\n",
                              encoding="utf-8")
        built = build_mkdocs(mkdocs, config, folder / "site")
        assert built.returncode == 0, built.stderr
        yield url


def test_a_page_opened_as_a_file_says_above_each_playground_how_to_serve_it(
        course, course_folder, new_context):
    page = new_context().new_page()
    page.goto((course_folder / "site" / "index.html").as_uri())
    notes = page.locator("p.autograd-playground-served-only + autograd-playground")
    expect(notes).to_have_count(3)
    assert "mkdocs serve" in notes.first.evaluate("el => el.previousElementSibling.textContent")


def test_with_scripts_off_a_page_shows_the_results_computed_when_it_was_built(
        course, new_context):
    built_results_with_scripts_off(new_context, course, "md-graph", "md-exercise")


def test_a_playground_whose_code_fails_stops_the_build_naming_its_file_and_line(
        mkdocs, tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text(
        "# Title\n\n```playground\nx = 1\nprint(y)\n```\n", encoding="utf-8")
    config = tmp_path / "mkdocs.yml"
    config.write_text("site_name: A course\nplugins: [autograd-playground]\n",
                      encoding="utf-8")
    built = build_mkdocs(mkdocs, config, tmp_path / "site")
    assert built.returncode != 0
    assert ("index.md:5: playground: its code failed when the page was built: "
            "NameError: name 'y' is not defined") in built.stderr, built.stderr


def test_each_fence_becomes_a_playground_that_runs(course, new_context):
    page = new_context().new_page()
    elsewhere = requests_elsewhere(page, course)
    page.goto(course)
    assert run_every_playground(page) == {
        "md-graph": {"state": "done", "output": "e = 0.9993\n", "rows": 6},
        "md-ops": {"state": "done", "output": "True True & <done>\n", "rows": None},
        "md-exercise": {"state": "done", "output": "", "rows": 6},
    }
    assert authored_attributes(page) == [
        {"id": "md-graph"},
        {"id": "md-ops", "readonly": "", "hide-table": "", "timeout": "10"},
        {"id": "md-exercise"},
    ]
    assert elsewhere == []


def test_a_share_link_opens_the_fences_code_in_the_full_page_playground(course, new_context):
    page = new_context().new_page()
    page.goto(course)
    code = page.locator("#md-graph").evaluate("el => el.code")
    link, opened = open_its_share_link(page, "md-graph")
    assert link.startswith(course + "autograd-playground/index.html#code=")
    assert opened == code


def test_each_fence_says_where_its_code_begins_in_the_pages_source(course, new_context):
    page = new_context().new_page()
    page.goto(course)
    pairs = lines_at_their_sources(page, COURSES / "mkdocs" / "docs")
    assert len(pairs) >= 3
    assert [code for code, _ in pairs] == [source for _, source in pairs]


def test_the_fences_exercise_checks_the_code_gives_two_hints_and_its_solution_passes(
        course, new_context):
    page = new_context().new_page()
    page.goto(course)
    assert do_the_exercise(page, "md-exercise") == {
        "starter": {"check": "failed", "messages": ["e is 0.9993: make it negative."]},
        "hints": [
            {"text": "e = tanh(a·b + c), and tanh has the sign of its input.", "code": 1},
            {"text": "With a = 2.0 and b = -3.0, a·b is -6.0: any c below 6.0 will do.",
             "code": 4},
        ],
        "solution": {"check": "passed", "messages": []},
    }


def test_an_exercise_written_as_html_is_kept_whole_blank_lines_and_all(course, new_context):
    page = new_context().new_page()
    page.goto(course + "backward/")
    element = page.locator("#md-html-exercise")
    assert element.evaluate("el => el.code") == (
        "from engine import Graph, MakeValue, VMul, Backward\n\ng = Graph()\n"
        'a = MakeValue(g, 3.0, label="a")\nb = MakeValue(g, 4.0, label="b")\n'
        "y = VMul(g, a, b)\nBackward(g, y)\n")
    assert do_the_exercise(page, "md-html-exercise") == {
        "starter": {"check": "failed", "messages": ["a.grad is 4.0, not 5.0."]},
        "hints": [
            {"text": "In y = a·b, the grad of a is the data of b.", "code": 3},
            {"text": "Make b equal 5.0.", "code": 1},
        ],
        "solution": {"check": "passed", "messages": []},
    }


def test_playgrounds_follow_materials_dark_mode_switch_live(course, new_context):
    page = new_context().new_page()
    page.goto(course)
    graph = page.locator("#md-graph")
    expect(graph).to_have_css("background-color", "rgb(255, 255, 255)")
    page.get_by_title("Switch to dark mode").click()
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "slate")
    expect(graph).to_have_css("background-color", "rgb(13, 17, 23)")
    page.get_by_title("Switch to light mode").click()
    expect(graph).to_have_css("background-color", "rgb(255, 255, 255)")


def test_before_the_script_loads_a_playground_shows_its_code_as_code(course, new_context):
    page = new_context().new_page()
    assert looks_before_the_script(page, course) == {
        "whiteSpace": "pre", "font": "ui-monospace, monospace", "defined": "false"}


def test_playgrounds_on_pages_swapped_in_by_instant_navigation_run(course, new_context):
    page = new_context().new_page()
    elsewhere = requests_elsewhere(page, course)
    page.goto(course)
    assert run_every_playground(page)["md-graph"]["state"] == "done"
    page.evaluate("window.loadedOnce = true")  # gone if the browser loads a page anew

    page.get_by_role("link", name="the backward pass", exact=True).click()
    # Material changes the URL first, then swaps the page's content in (or, when it cannot,
    # loads the page anew): wait for the content before asking which it did.
    expect(page.locator("h1")).to_have_text("The backward pass", timeout=RUN_MS)
    assert page.url == course + "backward/"
    assert page.evaluate("window.loadedOnce") is True
    assert run_every_playground(page) == {
        "md-backward": {"state": "done", "output": "grads: 4.0 3.0\n", "rows": 3},
        "md-html-exercise": {"state": "done", "output": "", "rows": 3},
    }
    assert authored_attributes(page) == [
        {"id": "md-backward", "height": "30rem", "theme": "dark"},
        {"id": "md-html-exercise"},
    ]

    page.go_back()  # instant navigation's too
    expect(page.locator("h1")).to_have_text("The core data model", timeout=RUN_MS)
    assert page.url == course
    assert page.evaluate("window.loadedOnce") is True
    assert run_every_playground(page)["md-ops"] == {
        "state": "done", "output": "True True & <done>\n", "rows": None}
    assert elsewhere == []


@pytest.mark.parametrize(("fence", "says"), [
    ("```playground {timeout=ten}", "index.md:7: playground: timeout is a number of seconds"),
    ("```playground {#x colour=red}", "index.md:7: playground: unknown attribute 'colour'"),
    ("```playground {#x .wide}", "index.md:7: playground: cannot read the attributes at '.wide'"),
])
def test_a_wrong_attribute_stops_the_build_naming_it(mkdocs, tmp_path, fence, says):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text(
        f"---\ntitle: Front matter\n---\n\n# Title\n\n{fence}\nprint(1)\n```\n",
            encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nplugins:\n  - autograd-playground\n",
        encoding="utf-8")
    built = build_mkdocs(mkdocs, tmp_path / "mkdocs.yml", tmp_path / "site")
    assert built.returncode != 0
    assert says in built.stderr, built.stderr


@pytest.mark.parametrize(("body", "says"), [
    ("```playground\nc = 9\n/// hints\nTen.\n```\n",
     "index.md:9: playground: 'hints' is not a part of an exercise: write /// check, "
     "/// hint or /// solution"),
    ("```playground\nc = 9\n/// hint\nTen.\n```\n",
     "index.md:9: playground: hints and a solution need a check"),
    ("<autograd-playground>\nc = 9\n\nprint(c)\n",
     "index.md:7: <autograd-playground> is never closed by </autograd-playground>"),
])
def test_a_wrong_exercise_stops_the_build_naming_its_line(mkdocs, tmp_path, body, says):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text(
        f"---\ntitle: Front matter\n---\n\n# Title\n\n{body}", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nplugins:\n  - autograd-playground\n",
        encoding="utf-8")
    built = build_mkdocs(mkdocs, tmp_path / "mkdocs.yml", tmp_path / "site")
    assert built.returncode != 0
    assert says in built.stderr, built.stderr


def test_a_fence_in_a_list_becomes_a_playground_and_one_shown_as_an_example_stays(
        mkdocs, tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text(
        "# Title\n\n"
        "1. In a list:\n\n"
        "    ```playground {#in-a-list}\n"
        "    if 1 < 2:\n"
        "        print('&')\n"
        "    ```\n\n"
        "Written as an example:\n\n"
        "````markdown\n"
        "```playground {#an-example}\n"
        "print(2)\n"
        "```\n"
        "````\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nplugins:\n  - autograd-playground\n",
        encoding="utf-8")
    built = build_mkdocs(mkdocs, tmp_path / "mkdocs.yml", tmp_path / "site")
    assert built.returncode == 0, built.stderr
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    # The code, then the results computed when the page was built, inside the list item.
    assert re.search(r'<li>\n<p>In a list:</p>\n<autograd-playground id="in-a-list" '
                     r'data-source="index.md:6">\n'
                     r"if 1 &lt; 2:\n    print\('&amp;'\)\n<div data-role=\"built\".*?</div>\n"
                     r"</autograd-playground>\n</li>", page, re.S), page
    assert "```playground {#an-example}" in page
    assert 'id="an-example"' not in page
