"""How the checks speak of the learner's work: the name they gave their function, an
object of theirs (clipped, and safe to show), an exception their code raised, and the
line of their code it came from (never the engine's)."""

from __future__ import annotations

import linecache
import os
import traceback
from typing import Any

ENGINE_DIR = os.path.dirname(os.path.abspath(__file__))
REPR_CHARS = 80


def function_name(fn: Any, check: str, default: str) -> str:
    """The name the learner gave `fn`, for messages (`default` if it has none that reads
    as a name); an AssertionError if it is no function at all."""
    if not callable(fn):
        raise AssertionError(
            f"{check} needs your function {default}(g, root), got {short(fn)} "
            f"(type {type(fn).__name__}), not a function"
        )
    name = getattr(fn, "__name__", None)
    return name if isinstance(name, str) and name.isidentifier() else default


def short(x: Any) -> str:
    """repr(x), clipped; a learner's object may fail to be shown."""
    try:
        text = repr(x)
    except Exception as exc:
        return f"<{type(x).__name__} that cannot be shown: {type(exc).__name__}>"
    return text if len(text) <= REPR_CHARS else text[: REPR_CHARS - 1] + "…"


def exception_text(exc: BaseException) -> str:
    """Its type and message, the message clipped; one may fail to be shown."""
    try:
        text = str(exc)
    except Exception:
        text = ""
    text = text if len(text) <= 300 else text[:299] + "…"
    return type(exc).__name__ + (f": {text}" if text else "")


def learner_line(exc: BaseException) -> str:
    """', at line 12: <its code>' for the innermost frame outside the engine."""
    found = None
    for frame, lineno in traceback.walk_tb(exc.__traceback__):
        filename = frame.f_code.co_filename
        if os.path.dirname(os.path.abspath(filename)) != ENGINE_DIR:
            found = filename, lineno
    if found is None:
        return ""
    filename, lineno = found
    where = "" if filename.startswith("<") else f" of {os.path.basename(filename)}"
    source = linecache.getline(filename, lineno).strip()
    return f", at line {lineno}{where}" + (f": {source}" if source else "")
