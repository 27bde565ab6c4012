"""The <autograd-playground> element as HTML, from a code, the author's attributes
(web/page/options.js reads them) and an exercise's parts (web/page/authored.js reads them):
what the Sphinx directive and the MkDocs fences write."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

# Attributes that are there or not.
FLAGS = ("readonly", "autorun", "live", "hide-output", "hide-table")
# Attributes with a value, and the values each takes (None: any text).
VALUES: dict[str, tuple[str, ...] | None] = {
    "height": None, "timeout": None, "theme": ("light", "dark"), "id": None,
}
ATTRIBUTES = (*FLAGS, *VALUES)
# A number of seconds (timeout); a CSS length, a number of pixels or "auto" (height).
NUMBER = re.compile(r"\d+(\.\d+)?")
LENGTH = re.compile(r"auto|\d+(\.\d+)?([a-z]+|%)?|(calc|min|max|clamp|var)\(.*\)")


# What would end a <script> early: its code is the page's text as it is, unescaped.
SCRIPT_END = re.compile(r"</script|<!--", re.IGNORECASE)


class OptionError(ValueError):
    """An attribute the element does not have, or a value it does not take."""


@dataclass
class Exercise:
    """An exercise's parts: checks and solution as Python, hints as HTML."""

    checks: list[str] = field(default_factory=list)
    hints: list[str] = field(default_factory=list)
    solution: str | None = None


def check(attributes: dict[str, str | None]) -> None:
    """Raise OptionError naming the first attribute or value the element cannot take."""
    for name, value in attributes.items():
        if name not in ATTRIBUTES:
            raise OptionError(f"unknown attribute {name!r}; the playground's attributes "
                                  f"are {', '.join(ATTRIBUTES)}")
        if name in FLAGS:
            if value not in (None, "", name):
                raise OptionError(f"{name} takes no value (got {value!r})")
            continue
        if not value:
            raise OptionError(f"{name} needs a value")
        choices = VALUES[name]
        if choices and value not in choices:
            raise OptionError(f"{name} is one of {', '.join(choices)} (got {value!r})")
        if name == "timeout" and not NUMBER.fullmatch(value):
            raise OptionError(f"timeout is a number of seconds (got {value!r})")
        if name == "height" and not LENGTH.fullmatch(value.strip()):
            raise OptionError(
                f"height is a CSS length, a number of pixels or auto (got {value!r})")


def python_script(role: str, code: str) -> str:
    """A check or the solution: Python in a script the page does not run."""
    found = SCRIPT_END.search(code)
    if found:
        line = code.count("\n", 0, found.start()) + 1
        raise OptionError(f"the {role}'s line {line} holds {found[0]!r}, which would end "
                          "its script in the page: write it otherwise (e.g. '<' '/script')")
    return f'<script type="text/x-python" data-role="{role}">\n{code}\n</script>\n'


def playground_html(code: str, attributes: dict[str, str | None],
                    exercise: Exercise | None = None, built: str = "",
                    source: str | None = None) -> str:
    """The element holding `code` as text, with `attributes` (None or "" for a flag), the
    results computed when the page was built (built.py's HTML, after the code), the parts
    of `exercise`, if it is one, and `source`, where its code's first line is in the page's
    source ("file:line", for `check` to point at)."""
    check(attributes)
    opening = "".join(
        f" {name}" if name in FLAGS else f' {name}="{html.escape(value, quote=True)}"'
        for name, value in attributes.items())
    if source:
        opening += f' data-source="{html.escape(source, quote=True)}"'
    parts = f"{built}\n" if built else ""
    if exercise:
        parts += "".join(python_script("check", text) for text in exercise.checks)
        parts += "".join(f'<template data-role="hint">{hint}</template>\n'
                         for hint in exercise.hints)
        if exercise.solution is not None:
            parts += python_script("solution", exercise.solution)
    return f"<autograd-playground{opening}>\n{html.escape(code, quote=False)}\n" \
           f"{parts}</autograd-playground>"
