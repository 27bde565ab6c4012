"""The documentation's shape: the README is a short front door, and every table of figures
in docs/performance.md names the command that prints them."""

from __future__ import annotations

import re

import build

PERFORMANCE = build.ROOT / "docs" / "performance.md"
# A command in backticks: a script run with Python, or a look at the built files.
COMMAND = re.compile(r"`(?:python|\.venv/bin/python|ls|bench/)[^`]*`")


def tables(markdown: str) -> list[list[str]]:
    """Each Markdown table of `markdown`, as its lines (header, rule, rows)."""
    found, table = [], []
    for line in [*markdown.splitlines(), ""]:
        if line.startswith("|"):
            table.append(line)
        elif table:
            found.append(table)
            table = []
    return found


def test_the_readme_is_a_front_door_under_200_lines():
    readme = (build.ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < 200
    for reader in ("## Learner", "## Course author", "## Contributor"):
        assert reader in readme


def test_each_table_of_figures_names_the_command_that_prints_them():
    every = tables(PERFORMANCE.read_text(encoding="utf-8"))
    assert len(every) >= 10
    for header, _, *rows in every:
        if COMMAND.search(header.split("|")[1]):
            continue  # one command prints the whole table
        assert "command" in header, header
        for row in rows:
            assert COMMAND.search(row), row
