"""The learner's error as they can read it: only their own frames, at most the first and
last few of a deep recursion, and the line to mark in the editor.

An error of many parts (a group of groups thousands deep, a long chain of causes) is
freed a part at a time: freed at once, each part frees the next in a nested C call, and
a few hundred levels down Pyodide runs out of the browser's stack and Python crashes."""

from __future__ import annotations

import gc
import sys
import traceback
from collections import deque
from collections.abc import Iterator
from types import TracebackType

from .caps import ERROR_CHARS, clip

FILENAME = "<playground>"
EDGE_FRAMES = 10
"""A deep recursion's traceback shows this many of the learner's frames at each end."""
HIDDEN = "<hidden frames>"
"""The file name of the frame that stands in for the frames left out."""
MANY_PARTS = 100
"""An error of this many parts (itself, its causes, contexts and groups' errors) or more is
freed a part at a time (see Parting)."""


def learner_traceback(exc: BaseException) -> str:
    """The traceback of `exc` (and of the errors it came from) as text, clipped. It reads
    each traceback once and formats at most 2 * EDGE_FRAMES + 1 frames per error, however
    deep; it never raises, since a learner's exception may be made to fail when printed."""
    try:
        for part in _errors(exc):
            part.__traceback__ = _learner_frames(part.__traceback__)
        te = traceback.TracebackException.from_exception(exc)
        parts = list(_errors(te))
        try:
            for part in parts:
                part.stack = ElidedStack(part.stack)
            text = "".join(te.format())
        finally:
            for part in parts:  # so that each is freed alone
                part.__cause__ = part.__context__ = part.exceptions = None
        clipped = clip(text, ERROR_CHARS)
        return text if clipped is text else clipped + "\n"
    except KeyboardInterrupt:
        raise
    except BaseException as failure:
        return f"{_name(exc)} (it could not be printed: {_name(failure)})\n"


class Parting:
    """Learner errors of many parts, held until nothing else holds them, then freed a part
    at a time, each after the parts that hold it."""

    def __init__(self) -> None:
        self.held: list[list[BaseException]] = []

    def hold(self, exc: BaseException) -> None:
        """Hold every part of `exc`, if it has many, with their tracebacks let go: the
        frames they hold, and the globals those hold, are freed without it."""
        try:
            parts = list(_errors(exc))  # each part before the ones it holds
            if len(parts) < MANY_PARTS:
                return
            for part in parts:
                part.__traceback__ = None
        except KeyboardInterrupt:
            raise
        except BaseException:  # a learner's error whose parts fail to be read or let go
            return
        self.held.append(parts)

    def release(self) -> None:
        """Free each error held that nothing else holds by now: the globals of the run
        that raised it, if a cycle (their functions) kept them, go in a collection first."""
        if not self.held:
            return
        gc.collect()
        kept = []
        for parts in self.held:
            if sys.getrefcount(parts[0]) > 2:  # this list's reference, and the call's
                kept.append(parts)
                continue
            for i in range(len(parts)):
                parts[i] = None
        self.held = kept


def error_line(exc: BaseException) -> int | None:
    """The learner's line where `exc` happened: the innermost frame in their code."""
    try:
        if isinstance(exc, SyntaxError) and exc.filename == FILENAME:
            return exc.lineno if type(exc.lineno) is int else None
        line = None
        for frame, lineno in traceback.walk_tb(exc.__traceback__):
            if frame.f_code.co_filename == FILENAME and type(lineno) is int:
                line = lineno
        return line
    except KeyboardInterrupt:
        raise
    except BaseException:
        return None


class ElidedStack(traceback.StackSummary):
    """A stack that writes the stand-in frame as how many frames it stands for."""

    def format_frame_summary(self, frame_summary, *args, **kwargs):
        if frame_summary.filename == HIDDEN:
            return f"  … {frame_summary.lineno:,} frames hidden …\n"
        return super().format_frame_summary(frame_summary, *args, **kwargs)


def _learner_frames(tb: TracebackType | None) -> TracebackType | None:
    """A traceback of the learner's frames in `tb`: all of them, or the first and last
    EDGE_FRAMES with a stand-in for the rest between them."""
    head: list[TracebackType] = []
    tail: deque[TracebackType] = deque(maxlen=EDGE_FRAMES)
    hidden = 0
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == FILENAME:
            if len(head) < EDGE_FRAMES:
                head.append(tb)
            else:
                if len(tail) == EDGE_FRAMES:
                    hidden += 1
                tail.append(tb)
        tb = tb.tb_next
    kept = [(tb.tb_frame, tb.tb_lasti, tb.tb_lineno) for tb in head]
    if hidden:
        kept.append(_stand_in(hidden))
    kept += [(tb.tb_frame, tb.tb_lasti, tb.tb_lineno) for tb in tail]
    linked = None
    for frame, lasti, lineno in reversed(kept):
        linked = TracebackType(linked, frame, lasti, lineno)
    return linked


def _stand_in(hidden: int):
    """(frame, lasti, lineno) of a frame whose line number is `hidden`, in file HIDDEN."""
    code = compile("_getframe()", HIDDEN, "eval").replace(co_firstlineno=hidden)
    frame = eval(code, {"_getframe": sys._getframe})
    return frame, frame.f_lasti, hidden


def _errors(exc) -> Iterator:
    """`exc` and every error it was raised from, during, or with (an exception group's),
    each once. Works alike on exceptions and on TracebackExceptions."""
    seen: set[int] = set()
    todo = [exc]
    while todo:
        part = todo.pop()
        if part is None or id(part) in seen:
            continue
        seen.add(id(part))
        yield part
        todo += [part.__cause__, part.__context__, *(getattr(part, "exceptions", None) or ())]


def _name(exc: BaseException) -> str:
    return type(exc).__name__
