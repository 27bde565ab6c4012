"""A course in Sphinx, with the authors' wheel and Sphinx + myst-parser alone in a fresh
venv: examples/courses/sphinx/ (its rST and MyST pages) builds, and every playground on
it runs in Chromium, offline."""

from __future__ import annotations

import subprocess

import pytest
from playwright.sync_api import expect

from autograd_playground import check
from autograd_playground.server import serving
from tests.web.authoring import (
    COURSES,
    authored_attributes,
    authors_wheel,
    build_sphinx,
    built_results_with_scripts_off,
    do_the_exercise,
    docs_venv,
    lines_at_their_sources,
    looks_before_the_script,
    open_its_share_link,
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
    expect(notes).to_have_count(4)
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
        "rst-exercise": {"state": "done", "output": "", "rows": 6},
    }
    assert authored_attributes(page) == [
        {"id": "rst-graph"},
        {"id": "rst-ops", "readonly": "", "hide-table": "", "timeout": "10"},
        {"id": "rst-copy", "height": "30rem", "theme": "dark"},
        {"id": "rst-exercise"},
    ]
    assert elsewhere == []
    assert page.locator(".autograd-playground-served-only").count() == 0  # served: no note


def test_a_share_link_opens_the_playgrounds_code_in_the_full_page_playground(
        course, new_context):
    page = new_context().new_page()
    page.goto(course + "data-model.html")
    code = page.locator("#rst-graph").evaluate("el => el.code")
    link, opened = open_its_share_link(page, "rst-graph")
    assert link.startswith(course + "_static/autograd-playground/index.html#code=")
    assert opened == code


@pytest.mark.parametrize("page_name", ["data-model.html", "backward.html"])  # rST, MyST
def test_each_playground_says_where_its_code_begins_in_the_pages_source(
        course, new_context, page_name):
    page = new_context().new_page()
    page.goto(course + page_name)
    pairs = lines_at_their_sources(page, COURSES / "sphinx")
    assert len(pairs) >= 4
    assert [code for code, _ in pairs] == [source for _, source in pairs]


def test_the_myst_page_runs_each_playground_with_its_attributes(course, new_context):
    page = new_context().new_page()
    elsewhere = requests_elsewhere(page, course)
    page.goto(course + "backward.html")
    assert run_every_playground(page) == {
        "myst-backward": {"state": "done", "output": "grads: 4.0 3.0\n", "rows": 3},
        "myst-reuse": {"state": "done", "output": "reused: 2.0\n", "rows": None},
        "myst-topo": {"state": "done", "output": None, "rows": 4},
        "myst-exercise": {"state": "done", "output": "", "rows": 3},
    }
    assert elsewhere == []


def test_the_rst_exercise_checks_the_code_gives_two_hints_and_its_solution_passes(
        course, new_context):
    page = new_context().new_page()
    page.goto(course + "data-model.html")
    assert do_the_exercise(page, "rst-exercise") == {
        "starter": {"check": "failed", "messages": ["e is 0.9993: make it negative."]},
        "hints": [
            {"text": "e = tanh(a·b + c), and tanh has the sign of its input.", "code": 1},
            {"text": "With a = 2.0 and b = -3.0, a·b is -6.0: any c below 6.0 will do.",
             "code": 4},
        ],
        "solution": {"check": "passed", "messages": []},
    }


def test_the_myst_exercise_checks_the_code_gives_two_hints_and_its_solution_passes(
        course, new_context):
    page = new_context().new_page()
    page.goto(course + "backward.html")
    assert do_the_exercise(page, "myst-exercise") == {
        "starter": {"check": "failed", "messages": ["a.grad is 4.0, not 5.0."]},
        "hints": [
            {"text": "In y = a·b, the grad of a is the data of b.", "code": 3},
            {"text": "Make b equal 5.0.", "code": 1},
        ],
        "solution": {"check": "passed", "messages": []},
    }


RAW_EXERCISE = """Raw
===

.. raw:: html

   <autograd-playground id="raw-exercise">
   c = 9

   print(c)
   <script type="text/x-python" data-role="check">
   assert c == 10, "Make c equal 10."
   </script>
   <template data-role="hint">Ten is <code>9 + 1</code>.</template>
   <template data-role="hint">Write <code>c = 10</code>.</template>
   <script type="text/x-python" data-role="solution">
   c = 10
   </script>
   </autograd-playground>
"""


def test_a_page_whose_only_playground_is_raw_html_loads_the_script_and_it_works(
        sphinx, tmp_path, new_context):
    source = tmp_path / "source"
    source.mkdir()
    (source / "conf.py").write_text('extensions = ["autograd_playground.sphinx"]\n',
                                    encoding="utf-8")
    (source / "index.rst").write_text(RAW_EXERCISE, encoding="utf-8")
    built = build_sphinx(sphinx, source, tmp_path / "out")
    assert built.returncode == 0, built.stderr
    with serving(tmp_path / "out", isolation=False) as url:
        page = new_context().new_page()
        page.goto(url + "index.html")
        assert page.locator("script[src$='embed.js']").count() == 1
        assert do_the_exercise(page, "raw-exercise") == {
            "starter": {"check": "failed", "messages": ["Make c equal 10."]},
            "hints": [{"text": "Ten is 9 + 1.", "code": 1},
                      {"text": "Write c = 10.", "code": 1}],
            "solution": {"check": "passed", "messages": []},
        }


@pytest.mark.parametrize(("content", "says"), [
    ("   .. check::\n\n      assert c\n\n   .. hints::\n\n      Ten.\n",
     "playground: line 12: 'hints' is not a part of an exercise: "
     "write check, hint or solution"),
    ("   .. hint::\n\n      Ten.\n",
     "playground: line 8: hints and a solution need a check"),
    ("   .. check::\n\n      assert c\n\n   print(c)\n",
     "playground: line 12: after the exercise's first part only more parts may follow"),
    ("   .. check::\n\n      print('</script>')\n",
     "playground: the check's line 1 holds '</script', which would end its script"),
])
def test_a_wrong_part_stops_the_build_naming_it(sphinx, tmp_path, content, says):
    source = tmp_path / "source"
    source.mkdir()
    (source / "conf.py").write_text('extensions = ["autograd_playground.sphinx"]\n',
                                    encoding="utf-8")
    (source / "index.rst").write_text(f"Title\n=====\n\n.. playground::\n\n   c = 9\n\n"
                                      f"{content}", encoding="utf-8")
    built = build_sphinx(sphinx, source, tmp_path / "out")
    assert built.returncode != 0
    assert "index.rst:4" in built.stderr and says in built.stderr, built.stderr


def test_with_scripts_off_a_page_shows_the_results_computed_when_it_was_built(
        course, new_context):
    built_results_with_scripts_off(new_context, course + "data-model.html", "rst-graph",
                                   "rst-exercise")


def test_a_playground_whose_code_fails_fails_the_build_naming_its_file_and_line(
        sphinx, tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    (source / "conf.py").write_text('extensions = ["autograd_playground.sphinx"]\n',
                                    encoding="utf-8")
    (source / "index.rst").write_text("Title\n=====\n\n.. playground::\n\n   x = 1\n"
                                      "   print(y)\n", encoding="utf-8")
    built = build_sphinx(sphinx, source, tmp_path / "out")
    assert built.returncode != 0
    assert ("index.rst:7: ERROR: playground: its code failed when the page was built: "
            "NameError: name 'y' is not defined") in built.stderr, built.stderr


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
    (":theme: blue", "theme is one of light, dark (got 'blue')"),
    (":colour: red", "the directive's option 'colour' is unknown; its options are readonly"),
    (":readonly: yes", "readonly takes no value (got 'yes')"),
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


def test_a_mistake_without_w_is_an_error_box_in_the_page_and_check_fails_on_it(
        sphinx, tmp_path, capsys):
    """Built without -W, a mistake does not pass quietly: Sphinx logs it as an error
    with its place, the page shows it in the playground's place, and `check` fails it."""
    source = tmp_path / "source"
    source.mkdir()
    (source / "conf.py").write_text('extensions = ["autograd_playground.sphinx"]\n',
                                    encoding="utf-8")
    (source / "graphs.rst").write_text(
        "Graphs\n======\n\n.. playground::\n\n   print(1)\n\n"
        ".. playground::\n   :heigth: 3\n\n   print(2)\n\n"
        ".. playground::\n\n   c = 9\n\n   .. check::\n\n      assert c\n\n"
        "   .. hints::\n\n      Ten.\n", encoding="utf-8")
    (source / "index.rst").write_text("Home\n====\n\n.. toctree::\n\n   graphs\n",
                                      encoding="utf-8")
    built = subprocess.run([sphinx / "python", "-m", "sphinx", "-q", source, tmp_path / "out"],
                           capture_output=True, encoding="utf-8")
    assert "graphs.rst:8: ERROR: playground: the directive's option 'heigth' is unknown" \
        in built.stderr, built.stderr
    assert "graphs.rst:13: ERROR: playground: line 21: 'hints' is not a part" \
        in built.stderr, built.stderr
    assert check.main([str(tmp_path / "out")]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith(
        "     playground 2: not built: This playground could not be built: the directive's "
        "option 'heigth' is unknown; its options are ")
    assert lines[1].endswith("(graphs.rst:8)")
    assert lines[2] == "       in graphs.rst:8"
    assert lines[3].startswith("     playground 3: not built: This playground could not be "
                               "built: line 21: 'hints' is not a part of an exercise")


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
