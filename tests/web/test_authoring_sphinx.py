"""A course in Sphinx, with the authors' wheel and Sphinx + myst-parser alone in a fresh
venv: examples/courses/sphinx/ (its rST and MyST pages) builds, and every playground on
it runs in Chromium, offline."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from autograd_playground.server import serving
from tests.web.authoring import (
    COURSES,
    authored_attributes,
    authors_wheel,
    build_sphinx,
    docs_venv,
    looks_before_the_script,
    requests_elsewhere,
    run_every_playground,
)

pytestmark = pytest.mark.xdist_group("authoring")  # one process builds the venvs


@pytest.fixture(scope="module")
def sphinx():
    return docs_venv("sphinx", authors_wheel(), ["sphinx", "myst-parser"])


@pytest.fixture(scope="module")
def built_course(sphinx, tmp_path_factory):
    """The example course, built: its folder."""
    out = tmp_path_factory.mktemp("sphinx-course")
    built = build_sphinx(sphinx, COURSES / "sphinx", out)
    assert built.returncode == 0, built.stderr
    return out


@pytest.fixture(scope="module")
def course(built_course):
    """The example course, served as a plain static host would (no isolation)."""
    with serving(built_course, isolation=False) as url:
        yield url


def test_a_page_opened_as_a_file_says_above_each_playground_how_to_serve_it(
        built_course, new_context):
    page = new_context().new_page()
    page.goto((built_course / "data-model.html").as_uri())
    notes = page.locator("p.autograd-playground-served-only + autograd-playground")
    expect(notes).to_have_count(3)
    note = page.locator("p.autograd-playground-served-only").first.inner_text()
    assert "python -m http.server -d _build/html" in note


def test_the_rst_page_runs_each_playground_with_its_attributes(course, new_context):
    page = new_context().new_page()
    elsewhere = requests_elsewhere(page, course)
    page.goto(course + "data-model.html")
    assert run_every_playground(page) == {
        "rst-graph": {"state": "done", "output": "e = 0.9993\n", "rows": 6},
        "rst-ops": {"state": "done", "output": "True True & <done>\n", "rows": None},
        "rst-copy": {"state": "done", "output": "copies: 1.5 100.0\n", "rows": 2},
    }
    assert authored_attributes(page) == [
        {"id": "rst-graph"},
        {"id": "rst-ops", "readonly": "", "hide-table": "", "timeout": "10"},
        {"id": "rst-copy", "height": "30rem", "theme": "dark"},
    ]
    assert elsewhere == []
    assert page.locator(".autograd-playground-served-only").count() == 0  # served: no note


def test_the_myst_page_runs_each_playground_with_its_attributes(course, new_context):
    page = new_context().new_page()
    elsewhere = requests_elsewhere(page, course)
    page.goto(course + "backward.html")
    assert run_every_playground(page) == {
        "myst-backward": {"state": "done", "output": "grads: 4.0 3.0\n", "rows": 3},
        "myst-reuse": {"state": "done", "output": "reused: 2.0\n", "rows": None},
        "myst-topo": {"state": "done", "output": None, "rows": 4},
    }
    assert elsewhere == []


def test_before_the_script_loads_a_playground_shows_its_code_as_code(course, new_context):
    page = new_context().new_page()
    assert looks_before_the_script(page, course + "data-model.html") == {
        "whiteSpace": "pre", "font": "ui-monospace, monospace", "defined": "false"}


def test_only_pages_with_a_playground_load_the_script(course, new_context):
    page = new_context().new_page()
    page.goto(course + "index.html")
    assert page.locator("script[src$='embed.js']").count() == 0
    page.goto(course + "backward.html")
    assert page.locator("script[src$='embed.js']").count() == 1


@pytest.mark.parametrize(("option", "says"), [
    (":timeout: ten", "timeout is a number of seconds (got 'ten')"),
    (":theme: blue", '"blue" unknown; choose from "light", or "dark"'),
    (":colour: red", 'unknown option: "colour"'),
])
def test_a_wrong_option_stops_the_build_naming_it(sphinx, tmp_path, option, says):
    source = tmp_path / "source"
    source.mkdir()
    (source / "conf.py").write_text('extensions = ["autograd_playground.sphinx"]\n',
        encoding="utf-8")
    (source / "index.rst").write_text(f"Title\n=====\n\n.. playground::\n   {option}\n\n"
                                      "   print(1)\n", encoding="utf-8")
    built = build_sphinx(sphinx, source, tmp_path / "out")
    assert built.returncode != 0
    assert "index.rst:4" in built.stderr and says in built.stderr, built.stderr


def test_a_builder_other_than_html_writes_the_code_as_a_code_block(sphinx, tmp_path):
    built = build_sphinx(sphinx, COURSES / "sphinx", tmp_path, builder="text")
    assert built.returncode == 0, built.stderr
    assert ('   from engine import Add\n'
            '   print(Add(0, 1) == Add(0, 1), Add(0, 1) < Add(1, 0), "&", "<done>")\n'
            ) in (tmp_path / "data-model.txt").read_text(encoding="utf-8")
    assert not (tmp_path / "_static").exists()


def test_a_site_that_wants_every_asset_on_every_page_gets_the_script_everywhere(
        sphinx, tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    (source / "conf.py").write_text('extensions = ["autograd_playground.sphinx"]\n\n\n'
                                    'def setup(app):\n'
                                    '    app.set_html_assets_policy("always")\n', encoding="utf-8")
    (source / "index.rst").write_text("Title\n=====\n\nNo playground here.\n", encoding="utf-8")
    built = build_sphinx(sphinx, source, tmp_path / "out")
    assert built.returncode == 0, built.stderr
    assert ('<script type="module" src="_static/autograd-playground/embed.js"></script>'
            in (tmp_path / "out" / "index.html").read_text(encoding="utf-8"))
