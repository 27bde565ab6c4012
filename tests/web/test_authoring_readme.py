"""The README's snippets for course authors are the code the authoring tests build: each
is a piece of the example course file it names."""

from __future__ import annotations

import re

import build

SNIPPET = re.compile(
    r"From \[`(?P<path>examples/courses/[^`]+)`\]\([^)]*\)[^:]*:\n\n"
    r"(?P<fence>`{3,})\w*\n(?P<code>.*?)\n(?P=fence)\n", re.DOTALL)


def test_each_snippet_is_in_the_example_course_file_it_names():
    readme = (build.ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Embed in a course page"):readme.index("### Any HTML page")]
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
