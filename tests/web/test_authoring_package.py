"""The authors' wheel on its own in a fresh venv: its name and version, and
`python -m autograd_playground export` and `serve` with the site it carries."""

from __future__ import annotations

import email
import fnmatch
import json
import re
import subprocess
import sys
import urllib.request
import zipfile
from pathlib import Path

import pytest

import build
from autograd_playground.check import main as check_main
from autograd_playground.server import serving
from tests.web import pages
from tests.web.authoring import authors_wheel, docs_venv, open_its_share_link, untimed

pytestmark = pytest.mark.xdist_group("authoring")  # one process builds the venvs


@pytest.fixture(scope="module")
def package():
    """A venv with the wheel alone; its bin directory."""
    return docs_venv("package", authors_wheel(), [])


def playground(scripts: Path, *args: str | Path, **options) -> subprocess.CompletedProcess:
    command = [scripts / "python", *build.STRICT_ENCODING, "-m", "autograd_playground", *args]
    return subprocess.run(command,
                          capture_output=True, encoding="utf-8", timeout=60, **options)


def files(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def in_wheel(name: str) -> bool:
    """Whether a file of dist/ goes into the authors' wheel: none of its path's parts is
    left out (shutil.ignore_patterns matches each folder's and file's name)."""
    return not any(fnmatch.fnmatch(part, pattern)
                   for part in Path(name).parts for pattern in build.NOT_IN_WHEEL)


def engine_wheel() -> Path:
    """The engine's wheel, as the built site carries it."""
    site = json.loads((build.DIST / "site.json").read_text(encoding="utf-8"))
    return build.DIST / site["engine"]


def test_the_wheel_is_pure_python_with_the_engines_version():
    pyproject = (build.ROOT / "pyproject.toml").read_text(encoding="utf-8")
    engine = re.search(r'^version = "(.+)"$', pyproject, re.MULTILINE)[1]
    assert authors_wheel().name == f"autograd_playground-{engine}-py3-none-any.whl"


def test_the_wheel_carries_the_whole_site_but_source_maps_and_the_benchmarks_page():
    with zipfile.ZipFile(authors_wheel()) as wheel:
        site = sorted(name.removeprefix("autograd_playground/site/")
                      for name in wheel.namelist()
                      if name.startswith("autograd_playground/site/"))
    assert not [name for name in site if name.endswith(".map")]
    assert "bare.html" not in site
    for page in ("index.html", "course.html", "train.html", "learners.html", "page-theme.js",
                 "embed.js", "embed.css", "embed.html", "served-only.js", "worker.js",
                 "site.json", "service-worker.js"):
        assert page in site
    assert [name for name in site if name.startswith("guide/")]  # learners.html's pictures
    assert site == [name for name in files(build.DIST) if in_wheel(name)]


@pytest.mark.parametrize("wheel", [engine_wheel, authors_wheel], ids=["engine", "authors"])
def test_each_wheel_passes_twine_check_with_its_readme_and_licence(wheel):
    checked = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", wheel()],
                             capture_output=True, encoding="utf-8")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    with zipfile.ZipFile(wheel()) as opened:
        (metadata,) = (name for name in opened.namelist() if name.endswith(".dist-info/METADATA"))
        fields = email.message_from_bytes(opened.read(metadata))
        (licence,) = (n for n in opened.namelist() if n.endswith(".dist-info/licenses/LICENSE"))
        assert opened.read(licence) == (build.ROOT / "LICENSE").read_bytes()
    assert fields["License-Expression"] == "MIT"
    assert fields["License-File"] == "LICENSE"
    assert fields["Description-Content-Type"] == "text/markdown"
    assert fields.get_payload().startswith(("# autograd-playground\n", "# Autograd playground\n"))


def test_the_site_names_every_package_it_ships_with_its_license():
    notices = (build.DIST / "THIRD-PARTY-NOTICES.txt").read_text(encoding="utf-8")
    lock = json.loads((build.WEB / "package-lock.json").read_text(encoding="utf-8"))
    shipped = ["@codemirror/view", "@codemirror/lang-python", "@lezer/python", "@viz-js/viz",
               "uplot", "pyodide", "crelt", "style-mod", "w3c-keyname"]
    for name in shipped:
        package = lock["packages"][f"node_modules/{name}"]
        assert f"\n{name} {package['version']} ({package['license']})\n" in notices, name
    for line in ("micropip 0.11.1 (", "CPython (PSF-2.0)", "Graphviz (EPL-1.0)"):
        assert line in notices
    for dev_only in ("esbuild", "marked", "axe-core", "@types/emscripten", "ws"):
        assert f"\n{dev_only} " not in notices, dev_only  # not shipped, not named
    with zipfile.ZipFile(authors_wheel()) as wheel:
        assert wheel.read("autograd_playground/site/THIRD-PARTY-NOTICES.txt").decode() == notices
    for page in ("index.html", "course.html"):
        assert 'href="THIRD-PARTY-NOTICES.txt"' in (build.DIST / page).read_text(encoding="utf-8")


def test_export_writes_the_whole_site_into_a_new_folder_and_over_an_earlier_export(
        package, tmp_path):
    target = tmp_path / "course" / "playground"
    exported = playground(package, "export", target)
    assert exported.returncode == 0, exported.stderr
    assert files(target) == [name for name in files(build.DIST) if in_wheel(name)]
    (target / "embed.js").write_text("stale", encoding="utf-8")
    again = playground(package, "export", target)
    assert again.returncode == 0, again.stderr
    assert (target / "embed.js").read_bytes() == (build.DIST / "embed.js").read_bytes()


def test_the_site_s_own_pages_work_from_an_export(package, tmp_path, capsys):
    """The full-page playground, the chapter and the training page are templates to copy:
    each runs from an export, its exercises' solutions pass and their starters do not."""
    target = tmp_path / "export"
    assert playground(package, "export", target).returncode == 0
    assert check_main([str(target)]) == 0
    said = untimed(capsys.readouterr().out)
    for page, playgrounds in (("index", "1 playground"), ("course", "6 playgrounds"),
                              ("train", "6 playgrounds")):
        assert f"ok   {target}/{page}.html: {playgrounds}, all passed" in said, said


def test_a_share_link_from_a_plain_html_page_opens_its_code(package, tmp_path, new_context):
    course = tmp_path / "course"
    assert playground(package, "export", course / "playground").returncode == 0
    code = "from engine import Graph, MakeValue\ng = Graph()\nMakeValue(g, 2.5, label='x')\n"
    (course / "lesson.html").write_text(
        pages.course_page("playground/", pages.playground(code, id="lesson")), encoding="utf-8")
    with serving(course, isolation=False) as url:
        page = new_context().new_page()
        page.goto(url + "lesson.html")
        link, opened = open_its_share_link(page, "lesson")
    assert link.startswith(url + "playground/index.html#code=")
    assert opened == code


def test_export_refuses_a_folder_that_holds_something_else(package, tmp_path):
    (tmp_path / "notes.md").write_text("mine", encoding="utf-8")
    exported = playground(package, "export", tmp_path)
    assert exported.returncode == 1
    assert exported.stderr == (f"autograd_playground: {tmp_path} is not empty and holds no "
                               "copy of the site (no embed.js and site.json): export into a "
                               "new or empty folder\n")
    assert files(tmp_path) == ["notes.md"]


def test_serve_serves_the_site_with_the_headers_pyodide_and_stop_need(package):
    served = subprocess.Popen([package / "python", *build.STRICT_ENCODING, "-m",
                               "autograd_playground", "serve",
                               "--port", "0"], stdout=subprocess.PIPE, encoding="utf-8")
    try:
        line = served.stdout.readline()
        url = re.fullmatch(r"serving .* \(cross-origin isolated\) at (http://\S+/)\n", line)
        assert url, line
        with urllib.request.urlopen(url[1] + "pyodide/pyodide.asm.wasm.zst") as response:
            assert response.headers["Content-Type"] == "application/zstd"  # as stored
        with urllib.request.urlopen(url[1]) as response:  # the full-page playground
            assert response.read() == (build.DIST / "index.html").read_bytes()
        with urllib.request.urlopen(url[1] + "embed.js") as response:
            assert response.headers["Content-Type"] == "text/javascript"
            assert response.headers["Cross-Origin-Opener-Policy"] == "same-origin"
            assert response.headers["Cross-Origin-Embedder-Policy"] == "require-corp"
            assert response.read() == (build.DIST / "embed.js").read_bytes()
    finally:
        served.terminate()
        served.wait(timeout=30)
        served.stdout.close()


def test_serve_on_a_busy_port_says_so(package, busy_port):
    served = playground(package, "serve", "--port", str(busy_port))
    assert served.returncode == 1
    assert re.fullmatch(rf"autograd_playground: port {busy_port} is in use; try --port \d+\n",
                        served.stderr), served.stderr


TRY_MARKDOWN = """# A lesson

```playground {#right}
c = 9
/// check
assert c == 10, "Make c equal 10."
/// hint
Ten.
/// solution
c = 10
```

<autograd-playground id="nothing-to-do">
c = 10

print(c)
<script type="text/x-python" data-role="check">
assert c == 10, "Make c equal 10."
</script>
</autograd-playground>
"""
TRY_RST = """A lesson
========

.. playground::

   c = 9

   .. check::

      assert c == 10, "Make c equal 10."

   .. solution::

      c = 1 / 0
"""


def test_try_runs_each_exercise_against_its_solution_and_its_starter_code(package, tmp_path):
    (tmp_path / "lesson.md").write_text(TRY_MARKDOWN, encoding="utf-8")
    (tmp_path / "lesson.rst").write_text(TRY_RST, encoding="utf-8")
    tried = playground(package, "try", "lesson.md", "lesson.rst", cwd=tmp_path)
    assert tried.returncode == 1, tried.stderr
    assert tried.stdout.splitlines() == [
        "ok   lesson.md:3: exercise 1 (right)",
        "  solution: passes: it passes every check",
        "  starter code: does not pass, as it should not: Make c equal 10.",
        "FAIL lesson.md:13: exercise 2 (nothing-to-do)",
        "  solution: none to run",
        "  starter code: PASSES every check, so it leaves the learner nothing to do",
        "FAIL lesson.rst:4: exercise 1",
        "  solution: FAILS: it ends with an error (line 1): ZeroDivisionError: division by zero",
        "  starter code: does not pass, as it should not: Make c equal 10.",
        "3 exercises, 2 wrong",
    ]


def test_try_finds_the_example_courses_exercises_right(package):
    courses = build.ROOT / "examples" / "courses"
    tried = playground(package, "try", courses / "sphinx" / "data-model.rst",
                       courses / "sphinx" / "backward.md",
                       courses / "mkdocs" / "docs" / "index.md",
                       courses / "mkdocs" / "docs" / "backward.md")
    assert tried.returncode == 0, tried.stdout + tried.stderr
    assert tried.stdout.splitlines()[-1] == "4 exercises, all right"
    assert [line.split()[-1] for line in tried.stdout.splitlines() if line.startswith("ok")] == [
        "(rst-exercise)", "(myst-exercise)", "(md-exercise)", "(md-html-exercise)"]


def test_try_without_an_exercise_says_so(package, tmp_path):
    (tmp_path / "notes.md").write_text("# Notes\n\n```playground\nprint(1)\n```\n",
                                       encoding="utf-8")
    tried = playground(package, "try", tmp_path / "notes.md")
    assert tried.returncode == 2
    assert tried.stderr == ("autograd_playground try: no exercise (a playground with checks) "
                            f"in {tmp_path / 'notes.md'}\n")
