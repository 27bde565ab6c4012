"""The author's checks of an exercise, run after the learner's code, in its namespace.

A check is Python that the author wrote inside the playground. The runner runs the
checks only when the learner's code ended without error, and only after it has put
back the builtins, the engine, this package and `sys` as they were (fresh.py), so
code that patched `builtins.__import__` or `engine.checks` no longer can fake a
pass. Each check runs in a copy of the learner's globals with its own names bound on
top: the engine's check helpers, and the builtins, which no global of the learner's
may shadow (a learner's `len` or `AssertionError` is left out of the copy).

Each check stops at its first failure, which becomes one message for the learner:
the assertion's own message, in the author's words; a generic one naming the
check's line when the assertion has none; the learner's own traceback when their
code raised while the check ran it; and, when the check itself breaks (a NameError,
say), that it failed, for the author to fix. Never a traceback into the check.
"""

from __future__ import annotations

import builtins
import traceback

from engine.checks import check_grads, check_graph, check_topo_sort

from .caps import text_of
from .errors import FILENAME, learner_traceback
from .fresh import Stopped

MESSAGE_CHARS = 2_000
"""A check's message: the author's words, or the learner's values in them."""
HELPERS = {helper.__name__: helper for helper in (check_grads, check_graph, check_topo_sort)}
"""The engine's names that every check may use without importing them."""


def run_checks(checks: list[str], namespace: dict) -> dict:
    """Run each check against the learner's `namespace`: whether all passed, and a
    message for each one that did not."""
    messages = []
    for number, source in enumerate(checks, 1):
        message = _run_check(source, f"<check {number}>", namespace)
        if message is not None:
            messages.append(message)
    return {"passed": not messages, "messages": messages}


def check_namespace(namespace: dict) -> dict:
    """A copy of the learner's globals in which the check's own names come first."""
    shadowed = {name for name in vars(builtins) if not name.startswith("__")}
    names = {name: value for name, value in namespace.items() if name not in shadowed}
    names.update(HELPERS)
    names["__builtins__"] = builtins
    return names


def _run_check(source: str, filename: str, namespace: dict) -> str | None:
    """None if the check passes, else its one message."""
    try:
        exec(compile(source, filename, "exec"), check_namespace(namespace))
        return None
    except Stopped:
        raise
    except BaseException as exc:  # whatever the check or the learner's code raised
        return _message(exc, source, filename)


def _message(exc: BaseException, source: str, filename: str) -> str:
    frames = list(traceback.walk_tb(exc.__traceback__))
    if any(frame.f_code.co_filename == FILENAME for frame, _ in frames):
        return f"Your code raised an error while it was checked:\n{learner_traceback(exc)}"
    lines = [line for frame, line in frames if frame.f_code.co_filename == filename]
    if isinstance(exc, SyntaxError) and exc.filename == filename:
        lines.append(exc.lineno)
    where = f"line {lines[-1]} of the check" if lines else "the check"
    if isinstance(exc, AssertionError):
        said = _said(exc)
        if said:
            return said
        text = source.splitlines()[lines[-1] - 1].strip() if lines else ""
        return f"Not yet: {where} does not hold: {text_of(text, MESSAGE_CHARS)}"
    return (f"The check itself failed ({where}), which is for the exercise's author to fix: "
            f"{_last_line(exc)}")


def _last_line(exc: BaseException) -> str:
    """The last line of the error's traceback: its type and message."""
    try:
        return _said(traceback.format_exception_only(exc)[-1]) or type(exc).__name__
    except KeyboardInterrupt:
        raise
    except BaseException:
        return type(exc).__name__


def _said(value: object) -> str:
    """str(value) clipped; "" when it is empty or cannot be had."""
    try:
        return text_of(value, MESSAGE_CHARS).strip()
    except KeyboardInterrupt:
        raise
    except BaseException:
        return ""
