"""An exercise's parts as an author writes them inside a playground, after its code: the
checks (Python run on the learner's globals), the hints (prose, shown one at a time) and
the solution (Python). web/page/authored.js reads them from the element.

In Sphinx the parts are directives nested in the playground directive, in either syntax:

    .. check::               ```{check}           :::{hint}
                             ```                  :::
       assert c == 10

and in a MkDocs fence each part starts at a line of its own: `/// check`, `/// hint`,
`/// solution`. Neither can be a line of Python, so the code ends where the parts begin.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

ROLES = ("check", "hint", "solution")
RST_PART = re.compile(r"\.\. (?P<role>[\w-]+)::[ \t]*")
MYST_PART = re.compile(r"(?P<fence>`{3,}|~{3,}|:{3,})\{(?P<role>[\w-]+)\}[ \t]*")
MARKED_PART = re.compile(r"///[ \t]*(?P<role>\S*)[ \t]*")


class PartError(ValueError):
    """A part the playground cannot take; `line` is where, from 0 in the body."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


@dataclass
class Part:
    role: str  # one of ROLES
    text: str  # as written, without the indentation its lines share
    line: int  # where it starts, from 0 in the body


@dataclass
class Body:
    """A playground's body: its code and its exercise's parts."""

    code: str
    parts: list[Part]

    def texts(self, role: str) -> list[str]:
        return [part.text for part in self.parts if part.role == role]

    @property
    def solution(self) -> str | None:
        return next(iter(self.texts("solution")), None)


def known(role: str, line: int, how: str) -> str:
    if role not in ROLES:
        raise PartError(f"{role!r} is not a part of an exercise: write {how}", line)
    return role


def trimmed(lines: list[str]) -> str:
    """`lines` as one text, without their shared indentation and blank lines around."""
    return textwrap.dedent("\n".join(lines)).strip("\n")


def blank_lines_before(text: str) -> int:
    """How many blank lines come before `text`'s first line of code (trimmed drops them):
    where the code begins in the page's source."""
    lines = text.split("\n")
    return next((i for i, line in enumerate(lines) if line.strip()), len(lines))


def directive_parts(body: str) -> Body:
    """The code and parts of a Sphinx playground directive's content (rST or MyST)."""
    lines = body.split("\n")
    how = "check, hint or solution"
    start = next((i for i, line in enumerate(lines)
                  if RST_PART.fullmatch(line) or MYST_PART.fullmatch(line)), len(lines))
    parts, i = [], start
    while i < len(lines):
        line = lines[i]
        rst, myst = RST_PART.fullmatch(line), MYST_PART.fullmatch(line)
        if rst:
            end = next((j for j in range(i + 1, len(lines))
                        if lines[j].strip() and not lines[j][0].isspace()), len(lines))
            parts.append(Part(known(rst["role"], i, how), trimmed(lines[i + 1:end]), i))
            i = end
        elif myst:
            closing = re.compile(rf"{re.escape(myst['fence'][0])}{{{len(myst['fence'])},}}"
                                 r"[ \t]*")
            end = next((j for j in range(i + 1, len(lines)) if closing.fullmatch(lines[j])),
                       None)
            if end is None:
                raise PartError(f"the {myst['role']} part's {myst['fence']} is never closed",
                                i)
            parts.append(Part(known(myst["role"], i, how), trimmed(lines[i + 1:end]), i))
            i = end + 1
        elif line.strip():
            raise PartError(f"after the exercise's first part only more parts may follow "
                            f"({how}), not {line.strip()!r}", i)
        else:
            i += 1
    return checked(Body(trimmed(lines[:start]), parts))


def marked_parts(body: str) -> Body:
    """The code and parts of a MkDocs playground fence's body."""
    lines = body.split("\n")
    how = "/// check, /// hint or /// solution"
    starts = [(i, known(mark["role"], i, how))
              for i, mark in enumerate(map(MARKED_PART.fullmatch, lines)) if mark]
    bounds = [i for i, _ in starts] + [len(lines)]  # each part ends where the next starts
    parts = [Part(role, trimmed(lines[i + 1:bounds[k + 1]]), i)
             for k, (i, role) in enumerate(starts)]
    return checked(Body(trimmed(lines[:bounds[0]]), parts))


def checked(body: Body) -> Body:
    """`body`, if its parts make an exercise the element takes."""
    for part in body.parts:
        if not part.text.strip():
            raise PartError(f"the {part.role} part is empty", part.line)
    if body.parts and not body.texts("check"):
        raise PartError("hints and a solution need a check: the exercise is what its "
                        "checks ask for", body.parts[0].line)
    solutions = [part for part in body.parts if part.role == "solution"]
    if len(solutions) > 1:
        raise PartError("an exercise has one solution", solutions[1].line)
    return body
