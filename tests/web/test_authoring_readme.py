"""What the README and the authoring guide (docs/authoring.md) tell course authors works as
written: the guide's snippets are pieces of the example courses the authoring tests build;
the README's steps, followed literally in fresh venvs beside the authors' wheel, make a
Sphinx course that `check` passes and a MkDocs course with search and a playground."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

import build
from tests.web.authoring import COURSES, authors_wheel, build_sphinx, docs_venv

GUIDE = build.ROOT / "docs" / "authoring.md"
# MkDocs' search box, in Material's header or MkDocs' own theme.
SEARCH_BOX = re.compile(r'<input[^>]*(?:class="md-search__input"|id="mkdocs-search-query")')
SNIPPET = re.compile(
    r"From `(?P<path>examples/courses/[^`]+)`[^:\n]*:\n\n"
    r"(?P<fence>`{3,})\w*\n(?P<code>.*?)\n(?P=fence)\n", re.DOTALL)


def guide_section(start: str, end: str) -> str:
    """The guide's text from the heading `start` to the heading `end`."""
    guide = GUIDE.read_text(encoding="utf-8")
    return guide[guide.index(f"\n{start}\n"):guide.index(f"\n{end}\n")]


def guide_snippets() -> list[tuple[str, str]]:
    """Each snippet the guide takes from an example course: its file's path, its code."""
    section = guide_section("## Sphinx and MyST", "## Any HTML page")
    return [(match["path"], match["code"]) for match in SNIPPET.finditer(section)]


def test_each_snippet_is_in_the_example_course_file_it_names():
    snippets = guide_snippets()
    assert [path for path, _ in snippets] == [
        "examples/courses/sphinx/conf.py",
        "examples/courses/sphinx/data-model.rst",
        "examples/courses/sphinx/backward.md",
        "examples/courses/sphinx/data-model.rst",
        "examples/courses/sphinx/backward.md",
        "examples/courses/mkdocs/mkdocs.yml",
        "examples/courses/mkdocs/docs/index.md",
        "examples/courses/mkdocs/docs/index.md",
    ]
    for path, code in snippets:
        assert code in (build.ROOT / path).read_text(encoding="utf-8"), path


def readme_block(language: str, after: str) -> str:
    """The README's first ```language block after the text `after`."""
    readme = (build.ROOT / "README.md").read_text(encoding="utf-8")
    rest = readme[readme.index(after):]
    return re.search(rf"^(`{{3,}}){language}\n(.*?)\n\1$", rest, re.M | re.S)[2]


def test_the_wheels_readme_names_the_plugins_the_readme_builds_with_search_and_its_docs():
    package_readme = build.PACKAGE_README.read_text(encoding="utf-8")
    assert f"| `{readme_block('yaml', '**MkDocs**')}` |" in package_readme
    assert "`python build.py docs`" in package_readme  # PyPI shows no link into the source


def build_mkdocs(scripts: Path, config: Path) -> str:
    """`mkdocs build --strict` of `config` into site/ beside it; its index.html."""
    built = subprocess.run(
        [scripts / "python", "-m", "mkdocs", "build", "--strict", "-f", config],
        capture_output=True, encoding="utf-8", env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert built.returncode == 0, built.stderr
    return (config.parent / "site" / "index.html").read_text(encoding="utf-8")


def has_search(site: Path, page: str) -> bool:
    """Whether the built page has MkDocs' search box, and the site its index."""
    return bool(SEARCH_BOX.search(page)) and (site / "search" / "search_index.json").exists()


@pytest.mark.xdist_group("authoring")  # building the wheel replaces the one others install
def test_the_readme_installs_the_wheel_build_py_dist_writes():
    wheel = authors_wheel().relative_to(build.ROOT).as_posix()
    install = f'pip install "{wheel}[check]"'
    assert install in (build.ROOT / "README.md").read_text(encoding="utf-8")
    assert install in GUIDE.read_text(encoding="utf-8")


@pytest.mark.xdist_group("authoring")  # the process that builds the authoring venvs
def test_the_readmes_sphinx_steps_make_a_course_that_check_passes(tmp_path):
    scripts = docs_venv("sphinx-check", authors_wheel(), ["sphinx"], extras="check")
    source, out = tmp_path / "docs", tmp_path / "_build" / "html"
    source.mkdir()
    (source / "conf.py").write_text(readme_block("python", "**Sphinx**") + "\n",
                                    encoding="utf-8")
    (source / "index.rst").write_text(
        "Course\n======\n\n" + readme_block("rst", "**Sphinx**") + "\n", encoding="utf-8")
    built = build_sphinx(scripts, source, out)
    assert built.returncode == 0, built.stderr
    done = subprocess.run([scripts / "python", "-m", "autograd_playground", "check", out],
                          capture_output=True, encoding="utf-8", timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"ok   {out}/index.html: 1 playground, all passed (" in done.stdout  # (its time)


@pytest.mark.xdist_group("authoring")
def test_the_readmes_mkdocs_steps_make_a_course_with_search_and_a_playground(tmp_path):
    scripts = docs_venv("mkdocs", authors_wheel(), ["mkdocs", "mkdocs-material"])
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text(
        "# Course\n\n" + readme_block("markdown", "**MkDocs**") + "\n", encoding="utf-8")
    config = tmp_path / "mkdocs.yml"
    config.write_text("site_name: Course\n" + readme_block("yaml", "**MkDocs**") + "\n",
                      encoding="utf-8")
    page = build_mkdocs(scripts, config)
    assert has_search(tmp_path / "site", page)
    assert '<autograd-playground id="first-graph" data-source="index.md:' in page


@pytest.mark.xdist_group("authoring")
def test_the_guides_mkdocs_config_builds_the_example_course_with_search(tmp_path):
    (snippet,) = [code for path, code in guide_snippets()
                  if path == "examples/courses/mkdocs/mkdocs.yml"]
    assert not re.search(r"^site_url:", snippet, re.M)  # `mkdocs serve` serves at the root
    scripts = docs_venv("mkdocs", authors_wheel(), ["mkdocs", "mkdocs-material"])
    config = tmp_path / "mkdocs.yml"
    config.write_text(f"{snippet}\ndocs_dir: {COURSES / 'mkdocs' / 'docs'}\n",
                      encoding="utf-8")
    page = build_mkdocs(scripts, config)
    assert has_search(tmp_path / "site", page)
    assert '<autograd-playground id="md-graph" data-source="index.md:' in page
    backward = (tmp_path / "site" / "backward" / "index.html").read_text(encoding="utf-8")
    admonition = re.search(r'<div class="admonition example">.*?</autograd-playground>',
                           backward, re.S)
    assert admonition and '<autograd-playground id="md-backward"' in admonition[0]
