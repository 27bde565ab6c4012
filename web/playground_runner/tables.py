"""The graphs the learner's code left behind, as the page's tables: one column per field,
every learner string clipped, and a note instead of a table for a graph that cannot be read.

A table is well-formed whatever the learner's nodes hold: a data or grad that is not a
number shows as its text, an operand that is not a node of the graph links nothing, an
odd line or Backward root is left out, and the table's notes say so. The page takes
anything else in a table for a message the runner never sends."""

from __future__ import annotations

from collections.abc import Callable
from itertools import chain
from types import ModuleType
from typing import NamedTuple

from engine import BackwardSteps, Graph, TopoSort
from engine.graph import VARIANTS
from engine.inspect import columns, engine_ops, is_graph_like, number_columns, shape

from .caps import CELL_CHARS, FULL_LABEL_CHARS, NOTE_CHARS, TITLE_CHARS, clip, describe
from .contract import CONTRACT

# Backward is replayed step by step on graphs up to this size: a learner steps
# through tens of nodes, and a bigger graph's steps would be megabytes of JSON.
MAX_STEP_NODES = 5_000
SENT_STEPS = 100
"""A Backward of up to this many steps comes with the run's table; a longer one's steps are
made when the page asks for them, as the learner starts its replay (Runner.steps): 1,000
steps are 0.4 MB of JSON to make, send and read on every live run, mostly never replayed."""
MAX_TABLES = CONTRACT["table"]["perRun"]
"""A run's tables, show()'s snapshots first: the page lists them all in one picker."""
MAX_SAFE_INT = 2**53 - 1
"""The biggest int the page reads exactly: past it, JSON's numbers are floats."""
NUMBER_WORDS = frozenset(CONTRACT["table"]["numberWords"])
"""How engine.columns() writes the floats that JSON has no number for."""


class Later(NamedTuple):
    """What a table's Backward steps are made from when the page asks for them: a copy of
    the graph as the table shows it, holding only what the engine puts in a graph."""

    graph: Graph
    root: int
    count: int
    """How many steps that Backward has."""

    def steps(self) -> tuple[list[dict] | None, str | None]:
        """(steps, why not), made from a copy of the copy: show()'s tables, and so this,
        are within reach of the learner's code while it runs."""
        copy = engine_copy(self.graph)
        if copy is None:
            return None, "the graph kept for its replay was changed"
        return steps_of(copy, self.root)


class Shape(NamedTuple):
    """What a table shows besides its numbers: its fields of labels, ops, operands and
    lines, and the note of operands that are not nodes."""

    fields: dict
    stray_note: str | None
    counts: dict[int, int]
    """How many steps a Backward takes from each root asked about, by root."""


class Shapes:
    """The shapes of the last run's tables, by title, each with what it was made from
    (engine.inspect.shape): a live step changes numbers, seldom the graph's shape, and a
    table of the same shape takes its shape from here rather than making it again (most
    of a 1,000-node table's cost, more while the page's Python is newly started). Only
    the tables made after the code ended keep and take shapes: show()'s are in reach of
    the learner's code, which could change a shape that later runs would show."""

    def __init__(self) -> None:
        self.last: dict[str, tuple[tuple, Shape]] = {}
        self.now: dict[str, tuple[tuple, Shape]] = {}

    def next_run(self) -> None:
        """The tables made from now on are the next run's: the last run's are kept for it."""
        self.last, self.now = self.now, {}

    def of(self, title: str, graph: object, make: Callable[[], Shape]) -> Shape:
        """The shape of `graph`'s table: the last run's table of this title's when the
        graph is of the same shape, else make()'s; kept for the next run."""
        key = shape(graph)
        if key is None:
            return make()
        kept = self.last.get(title)
        made = kept[1] if kept is not None and kept[0] == key else make()
        self.now[title] = (key, made)
        return made


def table(title: str, graph: object, shapes: Shapes | None = None,
          snapshot: bool = False) -> tuple[dict, Later | None]:
    """One graph as columns (the page formats only the rows in view), with the operands
    and source line of each node, and the steps of its last Backward when it had one;
    with what makes those steps later when there are too many to send with the run.
    Labels longer than a cell holds have their longer text in `fullLabel` (by index);
    a data or grad that is not a number is None, with its text in `notNumbers` (by index);
    `notes` say what is shown otherwise than the graph holds it. Its shape comes from
    `shapes` where it can (Shapes). `snapshot`: show() made it as the code ran."""
    cs: dict = {}

    def make() -> Shape:
        cs.update(columns(graph))
        return shape_of(graph, cs)

    made = make() if shapes is None else shapes.of(title, graph, make)
    data_column, grad_column = (cs["data"], cs["grad"]) if cs else number_columns(graph)
    data, odd_data = numbers(clipped(data_column, CELL_CHARS))
    grad, odd_grad = numbers(clipped(grad_column, CELL_CHARS))
    data_note = not_numbers_note(graph, "data", odd_data) if odd_data else None
    notes = [data_note] if data_note else []
    if odd_grad:
        notes.append(not_numbers_note(graph, "grad", odd_grad))
    if made.stray_note:
        notes.append(made.stray_note)
    root, steps, later, no_steps = backward_steps(graph, data_note, made.counts)
    return {
        "title": title,
        "snapshot": snapshot,
        "count": len(data),
        **made.fields,
        "data": data,
        "grad": grad,
        "notNumbers": {"data": odd_data, "grad": odd_grad},
        "root": root,
        "steps": steps,
        "stepsLater": None if later is None else later.count,
        "noSteps": no_steps,
        "notes": notes,
    }, later


def shape_of(graph: object, cs: dict) -> Shape:
    """The shape of the table of `graph`, whose columns are `cs`."""
    labels = cs["label"]
    count = len(labels)
    shown = clipped(labels, CELL_CHARS)
    ops = clipped(cs["text"], CELL_CHARS)
    args, stray = operands(cs["args"], count)
    return Shape({
        "label": shown,
        "fullLabel": {} if shown is labels else {
            i: clip(label, FULL_LABEL_CHARS) for i, label in enumerate(labels)
            if label is not None and len(label) > CELL_CHARS},
        "op": ops,
        "args": args,
        "missingOperands": stray,
        "line": line_numbers(cs["line"]),
        "forward": forward_rules(graph, cs["op"]),
    }, stray_operands_note(stray, cs["args"][stray[0]], ops, count) if stray else None, {})


def forward_rules(graph: object, op_names: list) -> dict[str, dict[str, str]] | None:
    """What each op of the graph computes, in words, by its name, for a replay of the
    tape being built: {"Mul": {"fn": "VMul", "rule": "{a}.data * {b}.data"}}. None but
    for the engine's own Graph, whose ops are the engine's: a learner's class named Mul
    may compute something else, and its steps go without words."""
    if type(graph) is not Graph:
        return None
    names = set(op_names) - {None}
    return {kind.__name__: {"fn": f"V{kind.__name__}", "rule": kind.forward}
            for kind in VARIANTS if kind.__name__ in names}


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


def numbers(column: list) -> tuple[list, dict[int, str]]:
    """A column of engine.columns() values as the page reads numbers: floats and the words
    for the floats JSON lacks; anything else (a repr, or None) becomes None, and its
    text is given by index. Most columns are all floats: that is checked in C first."""
    if set(map(type, column)) <= {float}:
        return column, {}
    texts = {i: "None" if x is None else x for i, x in enumerate(column)
             if type(x) is not float and x not in NUMBER_WORDS}
    if not texts:
        return column, {}
    return [None if i in texts else x for i, x in enumerate(column)], texts


def not_numbers_note(graph: object, field: str, texts: dict[int, str]) -> str:
    """What the table says of a data or grad column that holds what is not a number."""
    first = min(texts)
    others = len(texts) - 1
    so = f", and so is the {field} of {more(others, 'node', 'nodes')}" if others else ""
    return clip(f"node {first}'s {field} is {texts[first]}{_kind_of(graph, first, field)}, "
                f"not a number{so}", NOTE_CHARS)


def _kind_of(graph: object, index: int, field: str) -> str:
    """", a str": the type of node `index`'s `field`, read again; nothing when it cannot be."""
    try:
        return f", a {type(getattr(graph.nodes[index], field)).__name__}"
    except KeyboardInterrupt:
        raise
    except BaseException:  # the learner's property, raising this time
        return ""


def operands(column: list[list], count: int) -> tuple[list[list], list[int]]:
    """The operand lists with only the node indices of a graph of `count` nodes in them,
    and the nodes whose op names anything else (an index past the end, a str). Checked
    in C first: the engine's ops name only nodes before their own."""
    flat = list(chain.from_iterable(column))
    if not flat or (set(map(type, flat)) == {int} and min(flat) >= 0 and max(flat) < count):
        return column, []

    def is_node(a: object) -> bool:
        return type(a) is int and 0 <= a < count

    stray = [i for i, args in enumerate(column) if not all(map(is_node, args))]
    kept = list(column)
    for i in stray:
        kept[i] = [a for a in column[i] if is_node(a)]
    return kept, stray


def stray_operands_note(stray: list[int], first_args: list, ops: list[str], count: int) -> str:
    """What the table says of ops that name operands the graph does not have: of the
    first such op (whose operands are `first_args`), and how many more there are."""
    i = stray[0]
    named = next(a for a in first_args if type(a) is not int or not 0 <= a < count)
    what = named if type(named) is int else f"a {type(named).__name__}"
    others = len(stray) - 1
    so = f" (so {'does' if others == 1 else 'do'} {more(others, 'op', 'ops')})" if others else ""
    return clip(f"node {i}'s op {ops[i]} names {what}, which is not a node of this graph "
                f"(it has {count:,}){so}: no edge is drawn from it", NOTE_CHARS)


def line_numbers(column: list) -> list:
    """The source line of each node, None where it is not a line number the page can read."""
    return [x if x is not None and 0 < x <= MAX_SAFE_INT else None for x in column]


def backward_steps(
    graph: object, data_note: str | None = None, counts: dict[int, int] | None = None,
) -> tuple[int | None, list[dict] | None, Later | None, str | None]:
    """(root, steps, later, why not) of the engine graph's last Backward: no steps when it
    had none, and a reason instead when its root is not a node, when a node's data is not a
    number (`data_note` says which), or when the graph is too big or has changed too much.
    A Backward of more than SENT_STEPS steps, on a graph that holds only what the engine
    puts in one, has its steps made later, from `later`. How many steps it has is read
    from `counts` (its shape's: Shape), where they have it, and kept there."""
    root = graph.backward_root if isinstance(graph, Graph) else None
    if root is None:
        return None, None, None, None
    if type(root) is not int:
        return None, None, None, (f"its backward_root is not a node index but a "
                                  f"{type(root).__name__}")
    if not 0 <= root < len(graph.nodes):
        return None, None, None, clip(f"its backward_root, {root}, is not a node of the "
                                      f"graph (it has {len(graph.nodes):,})", NOTE_CHARS)
    if data_note is not None:
        return root, None, None, data_note
    if len(graph.nodes) > MAX_STEP_NODES:
        return root, None, None, (f"the graph is too big to step through "
                                  f"({len(graph.nodes):,} nodes; up to {MAX_STEP_NODES:,} "
                                  f"can be)")
    copy = engine_copy(graph)
    counts = {} if counts is None else counts
    try:
        count = 0 if copy is None else counts.get(root) or len(TopoSort(copy, root))
    except (TypeError, ValueError, IndexError) as exc:  # an op rewritten since Backward
        return root, None, None, changed_note(exc)
    if count:
        counts[root] = count
    if count > SENT_STEPS:
        return root, None, Later(copy, root, count), None
    steps, no_steps = steps_of(graph, root)
    return root, steps, None, no_steps


def engine_copy(graph: object) -> Graph | None:
    """A copy of an engine Graph's columns, if they hold only what the engine puts in them
    (floats, its own ops, node indices, str labels): the steps made from it later run the
    engine's code alone, never the learner's. None otherwise. Only exact types are looked
    at before copying, so no code of the learner's runs here either."""
    if type(graph) is not Graph or not {type(graph._data), type(graph._kind), type(graph._a),
                                        type(graph._b)} == {list} \
            or type(graph._label) is not dict:
        return None
    copy = Graph()
    copy._data, copy._kind = list(graph._data), list(graph._kind)
    copy._a, copy._b, copy._label = list(graph._a), list(graph._b), dict(graph._label)
    plain = (set(map(type, copy._data)) <= {float}
             and engine_ops(copy._kind, copy._a, copy._b)
             and set(map(type, copy._label)) <= {int}
             and set(map(type, copy._label.values())) <= {str})
    return copy if plain else None


def steps_of(graph: Graph, root: int) -> tuple[list[dict] | None, str | None]:
    """(steps, why not) of Backward(graph, root), each term's text clipped."""
    try:
        steps = BackwardSteps(graph, root)
    except (TypeError, ValueError, IndexError) as exc:  # an op rewritten since Backward
        return None, changed_note(exc)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # nodes of the learner's own in an engine Graph, say
        return None, f"Backward cannot be replayed on it: {describe(exc)}"
    for step in steps:
        for term in step["terms"]:
            term["text"] = clip(term["text"], NOTE_CHARS)
            term["rule"] = clip(term["rule"], NOTE_CHARS)
    return steps, None


def changed_note(exc: Exception) -> str:
    return clip(f"the graph changed after Backward: {exc}", NOTE_CHARS)


def more(count: int, one: str, many: str) -> str:
    """"1 more graph", "2 more graphs"."""
    return f"{count:,} more {one if count == 1 else many}"


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


def tabulate(graphs: list[tuple[str, object]], note: Callable[[str], None],
             room: int = MAX_TABLES, shapes: Shapes | None = None,
             ) -> list[tuple[dict, Later | None]]:
    """Tables for the first `room` graphs in the globals (each with what makes its steps
    later: see table; its shape from `shapes` where it can), and a note of how many more
    there are; one that cannot be read is noted, not fatal."""
    tables = []
    for name, graph in graphs[:room]:
        try:
            tables.append(table(name, graph, shapes))
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            note(f"cannot show {name} as a table: {describe(exc)}")
    if len(graphs) > room:
        note(f"{more(len(graphs) - room, 'graph', 'graphs')} in the globals not shown: "
             f"a run shows {MAX_TABLES} tables at most")
    return tables
