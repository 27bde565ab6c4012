"""The graphs the learner's code left behind, as the page's tables: one column per field,
every learner string clipped, and a note instead of a table for a graph that cannot be read."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

from engine import BackwardSteps, Graph, rows
from engine.inspect import is_graph_like

from .caps import CELL_CHARS, FULL_LABEL_CHARS, NOTE_CHARS, TITLE_CHARS, clip, describe

# Backward is replayed step by step on graphs up to this size: a learner steps
# through tens of nodes, and a bigger graph's steps would be megabytes of JSON.
MAX_STEP_NODES = 5_000


def table(title: str, graph: object) -> dict:
    """One graph as columns (the page formats only the rows in view), with the operands
    and source line of each node, and the steps of its last Backward when it had one.
    Labels longer than a cell holds have their longer text in `fullLabel` (by index)."""
    rs = rows(graph)
    root, steps, no_steps = backward_steps(graph)
    labels = [r["label"] for r in rs]
    shown = clipped(labels, CELL_CHARS)
    return {
        "title": title,
        "count": len(rs),
        "label": shown,
        "fullLabel": {} if shown is labels else {
            i: clip(label, FULL_LABEL_CHARS) for i, label in enumerate(labels)
            if label is not None and len(label) > CELL_CHARS},
        "op": clipped([r["text"] for r in rs], CELL_CHARS),
        "data": clipped([r["data"] for r in rs], CELL_CHARS),
        "grad": clipped([r["grad"] for r in rs], CELL_CHARS),
        "args": [r["args"] for r in rs],
        "line": [r["line"] for r in rs],
        "root": root,
        "steps": steps,
        "noSteps": no_steps,
    }


def clipped(column: list, limit: int) -> list:
    """The column with its strings clipped to `limit`; most columns have no long string,
    so look for one first, with loops that run in C."""
    if str not in map(type, column):
        return column
    try:
        longest = max(map(len, filter(None, column)), default=0)
    except TypeError:  # strings among numbers
        longest = max(len(x) for x in column if type(x) is str)
    if longest <= limit:
        return column
    return [clip(x, limit) if type(x) is str else x for x in column]


def backward_steps(graph: object) -> tuple[int | None, list[dict] | None, str | None]:
    """(root, steps, why not) of the engine graph's last Backward: no steps when it had
    none, and a reason instead when the graph is too big or has changed too much."""
    root = graph.backward_root if isinstance(graph, Graph) else None
    if root is None:
        return None, None, None
    if type(root) is not int:
        return None, None, f"its backward_root is not a node index but a {type(root).__name__}"
    if len(graph.nodes) > MAX_STEP_NODES:
        return root, None, (f"the graph is too big to step through ({len(graph.nodes):,} "
                            f"nodes; up to {MAX_STEP_NODES:,} can be)")
    try:
        steps = BackwardSteps(graph, root)
    except (TypeError, ValueError, IndexError) as exc:  # an op rewritten since Backward
        return root, None, clip(f"the graph changed after Backward: {exc}", NOTE_CHARS)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # nodes of the learner's own in an engine Graph, say
        return root, None, f"Backward cannot be replayed on it: {describe(exc)}"
    for step in steps:
        for term in step["terms"]:
            term["text"] = clip(term["text"], NOTE_CHARS)
    return root, steps, None


def graphs_in(namespace: dict, note: Callable[[str], None]) -> list[tuple[str, object]]:
    """The graph-like objects among the learner's globals, each once, in definition order.
    A value that fails when asked whether it is a graph is noted and left out."""
    found: dict[int, tuple[str, object]] = {}
    for name, value in list(namespace.items()):
        if type(name) is not str or name.startswith("__"):
            continue
        try:
            if id(value) not in found and not isinstance(value, ModuleType) \
                    and is_graph_like(value):
                found[id(value)] = (clip(name, TITLE_CHARS), value)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # the learner's code, raising what it likes
            note(f"cannot tell whether {clip(name, TITLE_CHARS)} is a graph: {describe(exc)}")
    return list(found.values())


def tabulate(graphs: list[tuple[str, object]], note: Callable[[str], None]) -> list[dict]:
    """Tables for the graphs in the globals; one that cannot be read is noted, not fatal."""
    tables = []
    for name, graph in graphs:
        try:
            tables.append(table(name, graph))
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            note(f"cannot show {name} as a table: {describe(exc)}")
    return tables
