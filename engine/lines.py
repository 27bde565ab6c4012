"""Which line of the learner's code made each node, for the playground's table.

While `record_lines(program)` is on, each op notes in `g.lines` the line of `program`
(the learner's compiled code, run in globals whose `__file__` is its file name) that
is running at the innermost of its frames on the stack, however deep in the engine
the node is made.

Where Python has sys.monitoring (3.12 and later, Pyodide's included) the learner's
code objects report each new line as it runs, into `now`, so a node reads the line from
a variable: a frame walk costs several times the op itself. An op stores a known line
itself, as a call would cost as much as the store, and calls `note_line` otherwise. A
return, yield, resume or exception of the learner's code leaves the line unknown until
the next one is reported; meanwhile, and always in older Pythons, `note_line` walks the
stack (and keeps what it found as `now` until the next report).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import CodeType
from typing import Any

now: int | None = None
"""While `record_lines` is on, the learner's line running now, or 0 while it is not known
(then `note_line` finds it); None while off. The ops read it after pushing a node: an op
whose graph's `lines` is a dict stores a known line there, else calls `note_line`."""

_filename: str | None = None
"""The learner's file: the name their code is compiled with, and the `__file__` of the
globals it runs in (reading a frame's code is audited; its globals are not)."""

_told = False
"""Whether sys.monitoring tells `now` in this recording (else it stays 0)."""

MONITORING: Any = getattr(sys, "monitoring", None)
TOOL_NAME = "autograd lines"


@contextmanager
def record_lines(program: CodeType) -> Iterator[None]:
    """While on, each new node notes in `g.lines` the line of `program` that made it.
    Off, the only cost is one test per node."""
    global now, _filename, _told, _walker
    saved = now, _filename, _told, _walker
    inside = now is not None  # inside another recording: walk the stack only
    now, _filename = 0, program.co_filename
    _walker = _learner_lines()
    next(_walker)
    tool = None if inside else _watch(_code_objects(program))
    _told = tool is not None
    try:
        yield
    finally:
        if tool is not None:
            _unwatch(tool, _code_objects(program))
        now, _filename, _told, _walker = saved
        if inside:  # the outer recording's line: its code runs on, from its call of ours
            now = 0


def note_line(g: Any, index: int, count: int = 1) -> None:
    """Note the learner's line that made node `index`, and the `count - 1` nodes after it
    (called by the function that pushed them, while recording: one look for all of them)."""
    global now
    line = now
    if not line:
        line = next(_walker, None)  # None too once a Stop ended the generator mid-run
        if line is None:
            return
        if _told:  # good until sys.monitoring tells of another line
            now = line
    try:  # read as an attribute, not with getattr(): this runs once a node
        noted = g.lines
    except AttributeError:
        return
    if isinstance(noted, dict):  # the learner's to replace: with a list, nothing is noted
        for i in range(index, index + count):  # in Pyodide, faster than update(fromkeys())
            noted[i] = line


def _learner_lines() -> Iterator[int | None]:
    """Each time it is resumed, the line of the learner's file that is running below the
    node's op, or None. A generator's frame, taken once, links to whoever resumes it:
    so no node calls sys._getframe, which is audited (PEP 578), and which a playground
    that watches its code with an audit hook would make twice as slow."""
    here = sys._getframe()
    yield None
    while True:
        frame = here.f_back.f_back.f_back  # note_line's, then the op's, then its caller's
        while frame is not None and frame.f_globals.get("__file__") != _filename:
            frame = frame.f_back
        yield None if frame is None else frame.f_lineno


_walker = _learner_lines()


def _code_objects(code: CodeType) -> list[CodeType]:
    """`code` and every function, class body and lambda defined in it."""
    found = [code]
    for const in code.co_consts:
        if isinstance(const, CodeType):
            found += _code_objects(const)
    return found


def _told_line(code: CodeType, line: int) -> None:
    global now
    if _told:  # not while a recording inside this one walks the stack
        now = line


def _line_unknown(*event: Any) -> None:
    global now
    now = 0


LINE_EVENTS = ("LINE", "PY_RETURN", "PY_YIELD", "PY_RESUME")
"""The events of the learner's code objects: a new line, and the line's end as its
frame returns, yields or resumes another's line."""


def _watch(codes: list[CodeType]) -> int | None:
    """Take a free sys.monitoring tool id and have `codes` tell their lines; None where
    Python has no sys.monitoring or every tool id is taken."""
    if MONITORING is None:
        return None
    free = [i for i in range(6) if MONITORING.get_tool(i) is None]
    if not free:
        return None
    tool, events = free[-1], MONITORING.events
    MONITORING.use_tool_id(tool, TOOL_NAME)
    MONITORING.register_callback(tool, events.LINE, _told_line)
    for name in LINE_EVENTS[1:]:
        MONITORING.register_callback(tool, getattr(events, name), _line_unknown)
    MONITORING.register_callback(tool, events.PY_UNWIND, _line_unknown)
    MONITORING.set_events(tool, events.PY_UNWIND)  # an exception leaves a frame: global only
    local = 0
    for name in LINE_EVENTS:
        local |= getattr(events, name)
    for code in codes:
        MONITORING.set_local_events(tool, code, local)
    return tool


def _unwatch(tool: int, codes: list[CodeType]) -> None:
    """Free the tool id and its events (Python 3.12 and 3.13 keep them past freeing)."""
    if MONITORING.get_tool(tool) != TOOL_NAME:  # the learner's code freed it
        return
    for code in codes:
        MONITORING.set_local_events(tool, code, 0)
    MONITORING.set_events(tool, 0)
    for name in (*LINE_EVENTS, "PY_UNWIND"):
        MONITORING.register_callback(tool, getattr(MONITORING.events, name), None)
    MONITORING.free_tool_id(tool)
