"""The authoring guide's snippets (docs/authoring.md) are the code the authoring tests
build: each is a piece of the example course file it names."""

from __future__ import annotations

import re

import build

GUIDE = build.ROOT / "docs" / "authoring.md"
SNIPPET = re.compile(
    r"From `(?P<path>examples/courses/[^`]+)`[^:\n]*:\n\n"
    r"(?P<fence>`{3,})\w*\n(?P<code>.*?)\n(?P=fence)\n", re.DOTALL)


def guide_section(start: str, end: str) -> str:
    """The guide's text from the heading `start` to the heading `end`."""
    guide = GUIDE.read_text(encoding="utf-8")
    return guide[guide.index(f"\n{start}\n"):guide.index(f"\n{end}\n")]


def test_each_snippet_is_in_the_example_course_file_it_names():
    section = guide_section("## Sphinx and MyST", "## Any HTML page")
    snippets = [(match["path"], match["code"]) for match in SNIPPET.finditer(section)]
    assert [path for path, _ in snippets] == [
        "examples/courses/sphinx/conf.py",
        "examples/courses/sphinx/data-model.rst",
        "examples/courses/sphinx/backward.md",
        "examples/courses/mkdocs/mkdocs.yml",
        "examples/courses/mkdocs/docs/index.md",
    ]
    for path, code in snippets:
        assert code in (build.ROOT / path).read_text(encoding="utf-8"), path
