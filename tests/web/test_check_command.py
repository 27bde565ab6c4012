"""`python -m autograd_playground check`: a whole course's playgrounds run headlessly, and
each that ends in an error or runs past its timeout listed, with its page, id, the error's
last line and the learner's failing line.

A course is a folder of pages beside a copy of the built site (as a docs build leaves
it), which the command serves itself, or pages at URLs. Each check run launches its own
Chromium, as a course's CI would. The last test runs the command as installed: the
authors' wheel with its `check` extra and Sphinx alone in a fresh venv, on a course
Sphinx built.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from xml.etree import ElementTree

import pytest

import build
from autograd_playground import check, server
from autograd_playground.bake_html import bake_page
from tests.web.authoring import authors_wheel, docs_venv, untimed
from tests.web.pages import course_page, playground

# Every playground that should pass gets a timeout of its own far beyond any machine's
# run, so that the command's --timeout (1 s) applies to the looping one only.
ROOMY = "600"
BROKEN = "x = 1\ny = 0\nprint(x / y)\nprint('never')\n"
LOOP = "while True:\n    pass\n"
GRAPH = "from engine import Graph, MakeValue\ng = Graph()\nMakeValue(g, 2.0, label='a')\n"


def local_page(*body: str) -> str:
    """A course page that loads the site copied beside it, in playground/."""
    return course_page("playground/", *body)


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A course folder: a page with a broken playground, a looping one (which runs as the
    page loads, with no timeout of its own) and a good one after them; a page of notes
    with none; a good page one folder down; and the site copied into playground/, whose
    own pages are not the course's."""
    if not (build.DIST / "index.html").exists():
        pytest.fail(f"{build.DIST} is not built: run `python build.py` first", pytrace=False)
    folder = tmp_path_factory.mktemp("course")
    shutil.copytree(build.DIST, folder / "playground")
    (folder / "bad.html").write_text(local_page(
        playground(BROKEN, id="broken", timeout=ROOMY),
        playground(LOOP, autorun=True),
        playground("print('still here')", timeout=ROOMY),
    ), encoding="utf-8")
    (folder / "notes.html").write_text("<!doctype html>\n<title>Notes</title>\n<p>Read on.\n",
        encoding="utf-8")
    (folder / "part2").mkdir()
    (folder / "part2" / "good.html").write_text(course_page(
        "../playground/",
        playground("print('hello')", id="hello", timeout=ROOMY),
        playground(GRAPH, timeout=ROOMY),
    ), encoding="utf-8")
    return folder


def test_a_course_folder_lists_the_error_and_the_loop_and_passes_the_rest(course, capsys):
    status = check.main([str(course), "--timeout", "1"])
    out = capsys.readouterr().out
    assert status == 1
    assert untimed(out) == [
        f"FAIL {course}/bad.html: 3 playgrounds, 2 failed",
        "     playground 1 (broken): error: "
        "ZeroDivisionError: division by zero",
        "       at line 3: print(x / y)",
        "     playground 2: timeout: ran past its timeout of 1 s",
        f"ok   {course}/part2/good.html: 2 playgrounds, all passed",
        "3 pages, 5 playgrounds, 0 exercises: 2 failed; 1 page without playgrounds",
    ]


def broken_course(folder: Path, missing: str) -> Path:
    """A course of one page of two playgrounds, beside a copy of the site without `missing`."""
    shutil.copytree(build.DIST, folder / "playground")
    (folder / "playground" / missing).unlink()
    (folder / "lesson.html").write_text(local_page(
        playground("print(1)", id="first", timeout=ROOMY), playground("print(2)")),
            encoding="utf-8")
    return folder


def test_a_task_that_ignores_its_cancelling_does_not_keep_the_check_from_ending():
    """As a Playwright task caught mid-call at the end of the check does: asyncio.run
    would wait for it forever."""
    async def stubborn() -> None:
        while True:
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                continue

    async def work() -> str:
        asyncio.get_running_loop().create_task(stubborn())
        await asyncio.sleep(0)
        return "reports"

    result = []
    ending = threading.Thread(target=lambda: result.append(check.run_to_end(work(), 0.1)),
                              daemon=True)
    ending.start()
    ending.join(timeout=60)
    assert result == ["reports"]


def test_a_site_without_its_worker_fails_each_playground_saying_python_did_not_start(
    tmp_path, capsys
):
    course = broken_course(tmp_path, "worker.js")
    assert check.main([str(course)]) == 1
    why = "not run: Python did not start: failed: the Python worker failed to start"
    assert untimed(capsys.readouterr().out) == [
        f"FAIL {course}/lesson.html: 2 playgrounds, 2 failed",
        f"     playground 1 (first): {why}: unknown error",
        f"     playground 2: {why}: unknown error",
        "1 page, 2 playgrounds, 0 exercises: 2 failed",
    ]


def test_a_site_without_pyodides_wasm_fails_each_playground_saying_why(tmp_path, capsys):
    course = broken_course(tmp_path, "pyodide/pyodide.asm.wasm.zst")
    assert check.main([str(course)]) == 1
    why = "not run: Python did not start: failed: Pyodide's wasm could not be loaded: "
    lines = untimed(capsys.readouterr().out)
    assert lines[0] == f"FAIL {course}/lesson.html: 2 playgrounds, 2 failed"
    assert lines[1].startswith(f"     playground 1 (first): {why}")
    assert lines[2].startswith(f"     playground 2: {why}")
    assert lines[3:] == ["1 page, 2 playgrounds, 0 exercises: 2 failed"]


def holding(held: str, release: threading.Event) -> type[server.Handler]:
    """The site's handler, but leaving each request for a file whose name ends with `held`
    unanswered until `release` is set."""
    class Holding(server.Handler):
        def do_GET(self) -> None:
            if self.path.split("?")[0].endswith(held):
                release.wait()
            else:
                super().do_GET()
    return Holding


def test_python_that_has_not_started_by_the_boot_deadline_fails_each_playground(
    tmp_path, monkeypatch, capsys
):
    course = broken_course(tmp_path, "bare.html")  # the site whole, as far as Python goes
    monkeypatch.setattr(check, "BOOT_S", 0)
    release = threading.Event()
    with server.serving(course, handler=holding("pyodide.asm.wasm.zst", release)) as site:
        page = f"{site}lesson.html"
        assert check.main([page]) == 1  # Python cannot start: its wasm never comes
        release.set()
    why = "not run: Python did not start within 0 s (it was loading Python)"
    assert untimed(capsys.readouterr().out) == [
        f"FAIL {page}: 2 playgrounds, 2 failed",
        f"     playground 1 (first): {why}",
        f"     playground 2: {why}",
        "1 page, 2 playgrounds, 0 exercises: 2 failed",
    ]


def exercise(starter: str, solution: str | None, id: str = "exercise",
             timeout: str = ROOMY) -> str:
    """An exercise whose author's check asks for c to be 10, with its starter code and
    its solution (see the exercises in docs/authoring.md)."""
    written = "" if solution is None else (
        f'  <script type="text/x-python" data-role="solution">\n{solution}\n  </script>\n')
    return (f'<autograd-playground id="{id}" timeout="{timeout}">\n    {starter}\n'
            '  <script type="text/x-python" data-role="check">\n'
            'assert c == 10, "Make c equal 10."\n  </script>\n'
            '  <template data-role="hint">Ten is 9 + 1.</template>\n'
            f"{written}</autograd-playground>\n")


# An exercise whose solution fails its check: the starter sets c to 9, so does the solution.
FAILED_CHECK = exercise("c = 9", "c = 9")


def test_a_course_whose_exercises_are_right_passes(tmp_path, capsys):
    """course.html's exercises: each starter fails its checks, each solution passes."""
    shutil.copytree(build.DIST, tmp_path / "playground")
    chapter = (build.DIST / "course.html").read_text(encoding="utf-8")
    for name in ("page-theme.js", "embed.css", "embed.js"):
        chapter = chapter.replace(f'="{name}"', f'="playground/{name}"')
    (tmp_path / "course.html").write_text(chapter, encoding="utf-8")
    assert check.main([str(tmp_path)]) == 0
    assert untimed(capsys.readouterr().out) == [
        f"ok   {tmp_path}/course.html: 6 playgrounds, all passed",
        "1 page, 6 playgrounds, 4 exercises: 0 failed",
    ]


def test_a_page_whose_built_results_its_code_no_longer_gives_is_listed(tmp_path, capsys):
    shutil.copytree(build.DIST, tmp_path / "playground")
    page = bake_page(local_page(
        playground(GRAPH.replace("2.0", "2.5"), id="graph", timeout=ROOMY),
        playground("print(6 * 7)", id="printing", timeout=ROOMY),
        playground("print(6 * 8)", id="same", timeout=ROOMY),
    ), build.DIST, "page.html")
    (tmp_path / "page.html").write_text(page, encoding="utf-8")
    assert check.main([str(tmp_path)]) == 0  # as built, the page shows what its code gives
    changed = page.replace("MakeValue(g, 2.5", "MakeValue(g, 4.5").replace("6 * 7", "6 * 9")
    (tmp_path / "page.html").write_text(changed, encoding="utf-8")
    assert check.main([str(tmp_path)]) == 1
    stale = ("stale results: the page shows results computed when it was built that its "
             "code no longer gives")
    assert untimed(capsys.readouterr().out)[-4:] == [
        f"FAIL {tmp_path}/page.html: 3 playgrounds, 2 failed",
        f"     playground 1 (graph): {stale}: table 1, node 0 (build the page again)",
        f"     playground 2 (printing): {stale}: its output (build the page again)",
        "1 page, 3 playgrounds, 0 exercises: 2 failed",
    ]


def test_an_exercise_whose_solution_fails_or_whose_starter_passes_is_listed(
        tmp_path, capsys):
    shutil.copytree(build.DIST, tmp_path / "playground")
    (tmp_path / "lesson.html").write_text(local_page(
        exercise("c = 9", "c = 10", id="right"),
        exercise("c = 9", "c = 11", id="wrong-solution"),
        exercise("c = 10", "c = 10", id="nothing-to-do"),
        exercise("c = 9", "c = 1 / 0", id="broken-solution"),
        exercise("c = 9", None, id="no-solution"),
        exercise("c = 10", None, id="no-solution-nothing-to-do"),
    ), encoding="utf-8")
    assert check.main([str(tmp_path)]) == 1
    assert untimed(capsys.readouterr().out) == [
        f"FAIL {tmp_path}/lesson.html: 6 playgrounds, 4 failed",
        "     playground 2 (wrong-solution), its solution: check failed: Make c equal 10.",
        "     playground 3 (nothing-to-do), its starter: starter passed: it passes every check, "
        "so it leaves the learner nothing to do",
        "     playground 4 (broken-solution), its solution: error: "
        "ZeroDivisionError: division by zero",
        "       at line 1: c = 1 / 0",
        "     playground 6 (no-solution-nothing-to-do), its starter: starter passed: it passes "
        "every check, so it leaves the learner nothing to do",
        "1 page, 6 playgrounds, 6 exercises: 4 failed",
    ]


def run_command(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(build.AUTHORS)}
    return subprocess.run([sys.executable, *build.STRICT_ENCODING, "-m", "autograd_playground",
                           "check", *args],
                          capture_output=True, encoding="utf-8", env=env, timeout=900)


def test_urls_give_a_json_report_with_pages_that_fail_to_load(site, pages):
    fine = pages.add("fine.html", course_page(site, playground("print(1)", id="one")))
    failing = pages.add("failing.html", course_page(
        site,
        playground("def f(n):\n    return [0][n]\n\nf(3)\n"),
        FAILED_CHECK,
    ))
    scriptless = pages.add("scriptless.html", "<!doctype html>\n"
                           + playground("print(1)", id="alone") + playground("print(2)"))
    missing = site + "missing.html"
    done = run_command(fine, failing, scriptless, missing, "--json")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert [page["page"] for page in report["pages"]] == [fine, failing, scriptless, missing]
    assert report["exit_status"] == 1
    assert (report["playgrounds"], report["failed"]) == (5, 4)
    by_page = {page["page"]: page for page in report["pages"]}
    assert by_page[fine]["playgrounds"] == [{
        "index": 1, "id": "one", "status": "passed", "error": None, "line": None,
        "code": None, "part": None, "exercise": False, "source": None, "failed": False}]
    index_error, exercise = by_page[failing]["playgrounds"]
    assert index_error == {
        "index": 1, "id": None, "status": "error", "error": "IndexError: list index out of range",
        "line": 2, "code": "return [0][n]", "part": None, "exercise": False, "source": None,
        "failed": True}
    assert exercise == {
        "index": 2, "id": "exercise", "status": "check failed", "error": "Make c equal 10.",
        "line": None, "code": None, "part": "solution", "exercise": True, "source": None,
        "failed": True}
    not_defined = "<autograd-playground> is not defined: did the page's embed.js load?"
    assert [(one["id"], one["status"], one["error"])
            for one in by_page[scriptless]["playgrounds"]] == [
        ("alone", "not run", not_defined), (None, "not run", not_defined)]
    assert by_page[missing]["error"] == "did not load: HTTP 404 File not found"
    assert by_page[missing]["playgrounds"] == []


def test_a_url_that_does_not_answer_is_a_failure_with_its_reason(capsys):
    with server.serving(Path(__file__).parent) as base:
        pass  # now nothing listens on its port
    status = check.main([base + "lesson.html"])
    out = capsys.readouterr().out
    assert status == 1
    assert untimed(out) == [
        f"FAIL {base}lesson.html: did not load: net::ERR_CONNECTION_REFUSED at {base}lesson.html",
        "1 page, 0 playgrounds, 0 exercises: 0 failed; 1 page could not be checked",
    ]


def pages_without_playgrounds(folder: Path) -> Path:
    """A docs site's pages that hold no playground: its index and its search page."""
    (folder / "index.html").write_text("<!doctype html>\n<title>Home</title>\n",
        encoding="utf-8")
    (folder / "search.html").write_text("<!doctype html>\n<title>Search</title>\n",
        encoding="utf-8")
    return folder


def test_a_course_with_no_playground_at_all_exits_3_saying_so(tmp_path):
    folder = pages_without_playgrounds(tmp_path)
    done = run_command(str(folder))
    assert done.returncode == 3
    assert untimed(done.stdout) == ["2 pages, 0 playgrounds, 0 exercises: 0 failed; "
                                        "2 pages without playgrounds"]
    assert "no playground on any page" in done.stderr


def test_verbose_lists_the_pages_without_playgrounds_by_name(tmp_path, capsys):
    folder = pages_without_playgrounds(tmp_path)
    assert check.main([str(folder), "--verbose"]) == 3
    assert untimed(capsys.readouterr().out) == [
        f"--   {folder}/index.html: no playgrounds",
        f"--   {folder}/search.html: no playgrounds",
        "2 pages, 0 playgrounds, 0 exercises: 0 failed; 2 pages without playgrounds",
    ]


def misbehaving_course(folder: Path, action: str) -> Path:
    """A course of two pages: a lesson whose own script does `action` as the first of its
    two playgrounds ends its run, then the next lesson, which passes."""
    shutil.copytree(build.DIST, folder / "playground")
    (folder / "lesson.html").write_text(local_page(
        playground("print(1)", timeout=ROOMY),
        playground("print(2)", timeout=ROOMY),
        '<script>\ndocument.querySelector("autograd-playground").addEventListener(\n'
        f'  "run-end", () => {{ {action} }}, {{ once: true }});\n</script>\n',
    ), encoding="utf-8")
    (folder / "next.html").write_text(local_page(playground("print(3)", timeout=ROOMY)),
        encoding="utf-8")
    return folder


# What a lesson's script does as a run ends, and why the check of the lesson stops
# ({site}: where the command serves the course).
MISBEHAVIOURS = {
    "navigates away": ('location.href = "next.html";',
                       "the page navigated away to {site}next.html"),
    "removes its playgrounds": (
        'document.querySelectorAll("autograd-playground").forEach((el) => el.remove());',
        "a playground was removed from the page"),
    "reloads": ("location.reload();", "the page reloaded itself"),
    "replaces its body": ('document.body = document.createElement("body");',
                          "a playground was removed from the page"),
    "closes its window": ("window.close();", "the page closed itself"),
    "alerts": ('alert("Well done!");', "the page opened a dialog (alert: Well done!)"),
    "asks to confirm": ('confirm("Go on?");', "the page opened a dialog (confirm: Go on?)"),
    "throws": ('throw new TypeError("no lesson here");',
               "the page threw an error (TypeError: no lesson here)"),
}


@pytest.mark.parametrize("misbehaviour", MISBEHAVIOURS)
def test_a_page_that_misbehaves_while_checked_fails_saying_what_it_did_and_the_check_goes_on(
    tmp_path, misbehaviour
):
    action, reason = MISBEHAVIOURS[misbehaviour]
    course = misbehaving_course(tmp_path, action)
    done = run_command(str(course))  # in a process of its own, should it never end
    assert done.returncode == 1, done.stderr
    site = re.search(r"http://127\.0\.0\.1:\d+/", done.stdout)
    reason = reason.format(site=site and site.group())
    assert untimed(done.stdout) == [
        f"FAIL {course}/lesson.html: {reason} while it was checked",
        f"ok   {course}/next.html: 1 playground, all passed",
        "2 pages, 2 playgrounds, 0 exercises: 0 failed; 1 page could not be checked",
    ]


@pytest.mark.parametrize(("target", "problem"), [
    ("nowhere", "nowhere: no such file or folder, and not an http(s) URL"),
    ("empty", "empty: no .html files in this folder"),
])
def test_a_target_that_is_no_page_is_an_error_naming_it(tmp_path, monkeypatch, capsys,
                                                         target, problem):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "empty").mkdir()
    assert check.main([target]) == 2
    assert capsys.readouterr().err == f"autograd-playground check: {problem}\n"


@pytest.mark.parametrize("timeout", ["0", "-1", "soon", "inf"])
def test_timeout_must_be_a_positive_number_of_seconds(course, capsys, timeout):
    with pytest.raises(SystemExit) as stop:
        check.main([str(course), "--timeout", timeout])
    assert stop.value.code == 2
    assert f"{timeout!r} is not a positive number of seconds" in capsys.readouterr().err


def test_without_playwright_it_says_what_to_install_from_an_index(course, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "playwright.async_api", None)  # as if not installed
    assert check.main([str(course)]) == 4
    assert capsys.readouterr().err == (
        "autograd-playground check: the check needs Playwright beside this package: "
        "pip install 'playwright>=1.49,<2' (what the wheel's check extra installs)\n")


def test_without_a_chromium_it_says_so(course, monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("CHROMIUM", str(tmp_path / "no-chrome"))
    assert check.main([str(course)]) == 5
    assert capsys.readouterr().err.startswith(
        f"autograd-playground check: CHROMIUM={tmp_path / 'no-chrome'} is not an executable")


LESSON_RST = """A lesson
========

.. playground::
   :id: fine

   print("fine")

.. playground::
   :id: broken

   values = [1, 2, 3]
   print(values[3])

.. playground::
   :id: exercise

   c = 9

   .. check::

      assert c == 10, "Make c equal 10."

   .. hint::

      Ten is *9 + 1*.

   .. solution::

      c = 10
"""


def playwright_range() -> tuple[str, str]:
    """The `check` extra's range of Playwright versions: its lowest and its bound."""
    pyproject = (build.AUTHORS / "pyproject.toml").read_text(encoding="utf-8")
    lowest, bound = re.search(r'check = \["playwright>=([\d.]+),<([\d.]+)"\]', pyproject).groups()
    return lowest, bound


@pytest.mark.xdist_group("authoring")  # the process that builds the authoring venvs
@pytest.mark.parametrize("playwright", ["oldest", "newest"])
def test_the_installed_package_checks_a_sphinx_course_and_finds_its_broken_playground(
    tmp_path, playwright
):
    """With the oldest Playwright the `check` extra takes, and the newest there is."""
    lowest, _ = playwright_range()
    tools = ["sphinx", f"playwright=={lowest}"] if playwright == "oldest" else ["sphinx"]
    scripts = docs_venv(f"sphinx-check-{playwright}", authors_wheel(), tools, extras="check")
    source, out = tmp_path / "source", tmp_path / "html"
    source.mkdir()
    (source / "conf.py").write_text('extensions = ["autograd_playground.sphinx"]\n',
        encoding="utf-8")
    (source / "index.rst").write_text(LESSON_RST, encoding="utf-8")
    # Without -W: the broken playground is an error of the build, which goes on, and
    # the page has it, with no results computed when it was built, for `check` to run.
    built = subprocess.run([scripts / "python", "-m", "sphinx", "-q", source, out],
                           capture_output=True, encoding="utf-8")
    assert "index.rst:13: ERROR: playground: its code failed when the page was built: " \
        "IndexError: list index out of range" in built.stderr, built.stderr
    done = subprocess.run([scripts / "python", "-m", "autograd_playground", "check", out,
                           "--json"], capture_output=True, encoding="utf-8", timeout=900)
    assert done.returncode == 1, done.stderr
    pages = {Path(page["page"]).relative_to(out).as_posix(): page["playgrounds"]
             for page in json.loads(done.stdout)["pages"]}
    assert pages == {"genindex.html": [], "search.html": [], "index.html": [
        {"index": 1, "id": "fine", "status": "passed", "error": None, "line": None,
         "code": None, "part": None, "exercise": False, "source": "index.rst:7",
         "failed": False},
        {"index": 2, "id": "broken", "status": "error",
         "error": "IndexError: list index out of range", "line": 2,
         "code": "print(values[3])", "part": None, "exercise": False,
         "source": "index.rst:12", "failed": True},
        {"index": 3, "id": "exercise", "status": "passed", "error": None, "line": None,
         "code": None, "part": None, "exercise": True, "source": "index.rst:18",
         "failed": False},
    ]}


def test_jobs_check_pages_side_by_side_with_the_same_verdicts(course, capsys):
    assert check.main([str(course), "--timeout", "1", "--jobs", "1"]) == 1
    one_at_a_time = untimed(capsys.readouterr().out)
    assert check.main([str(course), "--timeout", "1", "--jobs", "4"]) == 1
    assert untimed(capsys.readouterr().out) == one_at_a_time


@pytest.mark.parametrize("jobs", ["0", "-2", "two"])
def test_jobs_must_be_a_number_of_pages(course, capsys, jobs):
    with pytest.raises(SystemExit) as stop:
        check.main([str(course), "--jobs", jobs])
    assert stop.value.code == 2
    assert f"{jobs!r} is not a number of pages (1 or more)" in capsys.readouterr().err


def test_each_page_says_how_long_its_check_took(course, capsys):
    check.main([str(course), "--timeout", "1"])
    pages = [line for line in capsys.readouterr().out.splitlines() if line.startswith(
        ("ok", "FAIL"))]
    assert len(pages) == 2
    assert all(re.search(r" \(\d+\.\d s\)$", line) for line in pages), pages


@pytest.fixture(scope="module")
def sourced_course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A page whose playgrounds say where their code is in the page's source, as the
    Sphinx and MkDocs builds write it: a broken one, an exercise whose check fails with a
    message of two lines, and a good one."""
    folder = tmp_path_factory.mktemp("sourced")
    shutil.copytree(build.DIST, folder / "playground")
    two_lines = exercise("c = 9", "c = 9", id="two-lines").replace(
        '"Make c equal 10."', '"Make c equal 10.\\nTen is 9 + 1."').replace(
        'timeout=', 'data-source="lessons/one.md:20" timeout=')
    (folder / "one.html").write_text(local_page(
        playground(BROKEN, id="broken", timeout=ROOMY, data_source="lessons/one.md:10"),
        two_lines,
        playground("print(1)", timeout=ROOMY, data_source="lessons/one.md:30"),
    ), encoding="utf-8")
    return folder


def test_a_message_of_several_lines_is_indented_under_its_page(sourced_course, capsys):
    assert check.main([str(sourced_course)]) == 1
    assert untimed(capsys.readouterr().out) == [
        f"FAIL {sourced_course}/one.html: 3 playgrounds, 2 failed",
        "     playground 1 (broken): error: ZeroDivisionError: division by zero",
        "       at line 3: print(x / y)",
        "       in lessons/one.md:12",
        "     playground 2 (two-lines), its solution: check failed: Make c equal 10.",
        "       Ten is 9 + 1.",
        "       in lessons/one.md:20",
        "1 page, 3 playgrounds, 1 exercise: 2 failed",
    ]


def test_junit_has_a_case_per_playground_named_with_its_page_and_source_line(
        sourced_course, tmp_path, capsys):
    junit = tmp_path / "check.xml"
    assert check.main([str(sourced_course), "--junit", str(junit), "--sources", "docs"]) == 1
    page = f"{sourced_course}/one.html"
    (suite,) = ElementTree.parse(junit).getroot()
    assert (suite.get("name"), suite.get("tests"), suite.get("failures")) == (page, "3", "2")
    cases = [(case.get("name"), case.find("failure") is not None, case.findtext("failure"))
             for case in suite]
    assert cases == [
        (f"{page}, playground 1 (broken) [docs/lessons/one.md:12]", True,
         "ZeroDivisionError: division by zero\nat line 3: print(x / y)"),
        (f"{page}, playground 2 (two-lines), its solution [docs/lessons/one.md:20]", True,
         "Make c equal 10.\nTen is 9 + 1."),
        (f"{page}, playground 3 [docs/lessons/one.md:30]", False, None),
    ]


def test_on_github_actions_each_failure_is_an_annotation_on_its_source_line(
        sourced_course, monkeypatch, capsys):
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    assert check.main([str(sourced_course), "--sources", "docs"]) == 1
    page = f"{sourced_course}/one.html"
    annotations = [line for line in capsys.readouterr().out.splitlines()
                   if line.startswith("::")]
    assert annotations == [
        "::error file=docs/lessons/one.md,line=12,title=playground check::"
        f"{page}, playground 1 (broken): error: ZeroDivisionError: division by zero",
        "::error file=docs/lessons/one.md,line=20,title=playground check::"
        f"{page}, playground 2 (two-lines), its solution: check failed: "
        "Make c equal 10.%0ATen is 9 + 1.",
    ]


def test_without_github_actions_there_are_no_annotations(sourced_course, monkeypatch, capsys):
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    check.main([str(sourced_course)])
    assert not [line for line in capsys.readouterr().out.splitlines() if line.startswith("::")]
