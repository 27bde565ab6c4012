"""Run the learner's code inside Pyodide and describe what it left behind.

The worker imports this module once, after the engine is installed. Each run
gets a fresh namespace; output streams to the page in batches; errors come
back as a traceback of the learner's own frames; every graph the code left
in its globals (or passed to `show`) comes back as a table, all as one JSON
string so the page parses it once. While the code runs, the engine notes which
of its lines made each node, so the page can point from a node to its line.
"""

from __future__ import annotations

import builtins
import json
import linecache
import sys
import time
import traceback
from collections.abc import Callable
from types import ModuleType

from engine import BackwardSteps, Graph, rows
from engine.graph import record_lines
from engine.inspect import is_graph_like

FILENAME = "<playground>"
MAX_LINES = 10_000
MAX_CHARS = 250_000
FLUSH_SECONDS = 0.05
TRUNCATED = "\n… output truncated (more than 10,000 lines or 250 kB)\n"
# Backward is replayed step by step on graphs up to this size: a learner steps
# through tens of nodes, and a bigger graph's steps would be megabytes of JSON.
MAX_STEP_NODES = 5_000


class Output:
    """stdout and stderr together, in order, capped, sent to the page in timed batches."""

    def __init__(self, send: Callable[[str], None]) -> None:
        self.send = send
        self.pending: list[list[str]] = []
        self.lines = 0
        self.chars = 0
        self.truncated = False
        self.last_flush = float("-inf")  # so the first write goes out at once

    def write(self, stream: str, text: str) -> None:
        if self.truncated or not text:
            return
        kept = text  # past a cap, the part that fits is kept, then a note says the rest was cut
        if text.count("\n") > MAX_LINES - self.lines:
            kept = "".join(line + "\n" for line in text.split("\n")[: MAX_LINES - self.lines])
        kept = kept[: MAX_CHARS - self.chars]
        self.lines += kept.count("\n")
        self.chars += len(kept)
        self.truncated = kept != text
        pieces = [(stream, kept), ("stderr", TRUNCATED)] if self.truncated else [(stream, kept)]
        for name, piece in pieces:
            if self.pending and self.pending[-1][0] == name:
                self.pending[-1][1] += piece
            elif piece:
                self.pending.append([name, piece])
        if self.truncated or time.monotonic() - self.last_flush > FLUSH_SECONDS:
            self.flush()

    def flush(self) -> None:
        if self.pending:
            self.send(json.dumps(self.pending))
            self.pending = []
        self.last_flush = time.monotonic()


class Stream:
    """A text file object that writes into an Output under one stream name."""

    def __init__(self, output: Output, name: str) -> None:
        self.output = output
        self.name = name

    def write(self, text: str) -> int:
        self.output.write(self.name, text)
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


class NoInput:
    """stdin for code that calls input(): there is no one to type, so say so plainly."""

    def readline(self, size: int = -1) -> str:
        raise EOFError("input() has no keyboard here: put the value in the code instead")

    read = readline


def learner_frames_only(exc: BaseException) -> str:
    """The traceback of `exc` without this module's or the engine's frames."""
    te = traceback.TracebackException.from_exception(exc)
    for part in _chain(te):
        part.stack = traceback.StackSummary.from_list(
            [f for f in part.stack if f.filename == FILENAME]
        )
    return "".join(te.format())


def _chain(te: traceback.TracebackException):
    """`te` and the exceptions it was raised from or during."""
    seen = set()
    while te is not None and id(te) not in seen:
        seen.add(id(te))
        yield te
        te = te.__cause__ or te.__context__


def error_line(exc: BaseException) -> int | None:
    """The learner's line where `exc` happened: the innermost frame in their code."""
    if isinstance(exc, SyntaxError) and exc.filename == FILENAME:
        return exc.lineno
    line = None
    for frame, lineno in traceback.walk_tb(exc.__traceback__):
        if frame.f_code.co_filename == FILENAME:
            line = lineno
    return line


def table(title: str, graph: object) -> dict:
    """One graph as columns (the page formats only the rows in view), with the operands
    and source line of each node, and the steps of its last Backward when it had one."""
    rs = rows(graph)
    root, steps, no_steps = backward_steps(graph)
    return {
        "title": title,
        "count": len(rs),
        "label": [r["label"] for r in rs],
        "op": [r["text"] for r in rs],
        "data": [r["data"] for r in rs],
        "grad": [r["grad"] for r in rs],
        "args": [r["args"] for r in rs],
        "line": [r["line"] for r in rs],
        "root": root,
        "steps": steps,
        "noSteps": no_steps,
    }


def backward_steps(graph: object) -> tuple[int | None, list[dict] | None, str | None]:
    """(root, steps, why not) of the engine graph's last Backward: no steps when it had
    none, and a reason instead when the graph is too big or has changed too much."""
    root = graph.backward_root if isinstance(graph, Graph) else None
    if root is None:
        return None, None, None
    if len(graph.nodes) > MAX_STEP_NODES:
        return root, None, (f"the graph is too big to step through ({len(graph.nodes):,} "
                            f"nodes; up to {MAX_STEP_NODES:,} can be)")
    try:
        return root, BackwardSteps(graph, root), None
    except (TypeError, ValueError, IndexError) as exc:  # an op rewritten since Backward
        return root, None, f"the graph changed after Backward: {exc}"


def graphs_in(namespace: dict) -> list[tuple[str, object]]:
    """The graph-like objects among the learner's globals, each once, in definition order."""
    found: dict[int, tuple[str, object]] = {}
    for name, value in namespace.items():
        if name.startswith("__") or isinstance(value, ModuleType):
            continue
        if id(value) not in found and is_graph_like(value):
            found[id(value)] = (name, value)
    return list(found.values())


def run(code: str, send_output: Callable[[str], None]) -> str:
    """Run `code` in a fresh namespace; returns the result as JSON for the page."""
    output = Output(send_output)
    snapshots: list[dict] = []

    def show(graph: object, title: str | None = None) -> None:
        """Snapshot `graph` now as a table of its own, named `title`."""
        if not is_graph_like(graph):
            raise TypeError("show() needs a graph: an object with a `nodes` list "
                            "whose items have data, grad and op")
        snapshots.append(table(title or f"show #{len(snapshots) + 1}", graph))

    namespace = {"__name__": "__main__", "__builtins__": builtins, "show": show}
    linecache.cache[FILENAME] = (len(code), None, code.splitlines(True), FILENAME)
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin = NoInput()
    sys.stdout, sys.stderr = Stream(output, "stdout"), Stream(output, "stderr")
    status, error, line = "done", None, None
    started = time.perf_counter()
    try:
        with record_lines(FILENAME):
            exec(compile(code, FILENAME, "exec"), namespace)
    except KeyboardInterrupt:
        status = "stopped"
    except BaseException as exc:  # the learner's error, SystemExit included, is a result
        status, error, line = "error", learner_frames_only(exc), error_line(exc)
    finally:
        elapsed = time.perf_counter() - started
        sys.stdin, sys.stdout, sys.stderr = saved
    ended = time.time() * 1000
    try:
        tables = snapshots + tabulate(graphs_in(namespace), output)
    except KeyboardInterrupt:  # a Stop that came just as the code ended
        status, tables = "stopped", snapshots
    output.flush()
    result = {"status": status, "error": error, "line": line, "ms": elapsed * 1000,
              "ended": ended, "tables": tables}
    return json.dumps(result, allow_nan=False)


def tabulate(graphs: list[tuple[str, object]], output: Output) -> list[dict]:
    """Tables for the graphs in the globals; one that cannot be read is reported, not fatal."""
    tables = []
    for name, graph in graphs:
        try:
            tables.append(table(name, graph))
        except Exception as exc:
            output.write("stderr", f"cannot show {name} as a table: {exc!r}\n")
    return tables
