"""Views of a graph for people: JSON-ready rows for the playground's table, DOT for Graphviz.

Both take any graph-like object (a `nodes` list whose items have data, grad and op), so a
learner's own classes show the same way as the engine's.
"""

from __future__ import annotations

import dataclasses
import math
from types import NoneType
from typing import Any

from .graph import VARIANTS, Graph, Opaque, Value


def is_graph_like(obj: Any) -> bool:
    """True if obj has a `nodes` list whose items all have data, grad and op."""
    if type(obj) is Graph:
        return True  # its nodes are Values
    try:
        nodes = getattr(obj, "nodes", None)
    except Exception:  # a learner's __getattr__ that raises KeyError, say: no `nodes` here
        return False
    if not isinstance(nodes, list) or isinstance(obj, type):
        return False
    return all(hasattr(v, "data") and hasattr(v, "grad") and hasattr(v, "op") for v in nodes)


def rows(g: Any) -> list[dict[str, Any]]:
    """One plain dict per node, in index order:
    {"index", "label", "op", "args", "text", "data", "grad", "line"}.

    `op` is the op's name (None for a leaf), `args` its operand indices, `text` what a
    table shows (`Mul(0, 1)`, `Pow(0, 2)` or `leaf`). Non-finite numbers become the
    strings "nan", "inf" and "-inf", so `json.dumps(rows(g), allow_nan=False)` works.
    `line` is the source line that made the node, if `record_lines` noted one.
    """
    if not is_graph_like(g):
        raise TypeError(
            f"rows: expected a graph (an object with a `nodes` list of values that have "
            f"data, grad and op), got {type(g).__name__}"
        )
    lines = getattr(g, "lines", None)
    if type(lines) is not dict:
        lines = {}
    return [_row(i, v, lines.get(i)) for i, v in enumerate(g.nodes)]


def _row(index: int, v: Any, line: int | None) -> dict[str, Any]:
    name, args, consts = _describe_node(v)
    return {
        "index": index,
        "label": _label(getattr(v, "label", None)),
        "op": name,
        "args": args,
        "text": _op_text(name, args, consts),
        "data": json_number(v.data),
        "grad": json_number(v.grad),
        "line": line if type(line) is int else None,
    }


COLUMNS = ("label", "op", "args", "text", "data", "grad", "line")


def columns(g: Any) -> dict[str, list[Any]]:
    """rows(g) as one list per field of COLUMNS, what a table is made of. An engine Graph's
    are read straight from its own columns: no Value and no dict per node, and, where
    they hold only what the engine puts in them, with loops that run in C or make no
    call per node: several times faster for a big graph (a live re-run makes them on
    every keystroke)."""
    if not _columns_intact(g):
        table = rows(g)
        return {key: [row[key] for row in table] for key in COLUMNS}
    labels, line = _labels_and_lines(g)
    if not set(map(type, labels)) <= {str, NoneType}:
        labels = list(map(_label, labels))
    if not set(map(type, line)) <= {int, NoneType}:
        line = [x if type(x) is int else None for x in line]
    data, grad = number_columns(g)
    return {"label": labels, **_ops(g._kind, g._a, g._b), "data": data, "grad": grad,
            "line": line}


def number_columns(g: Graph) -> tuple[list, list]:
    """The data and grad columns of columns(g), for an engine Graph whose own columns are
    intact: the fields a live step changes."""
    n = len(g._data)
    grads = g._grad[:n]
    grads += [0.0] * (n - len(grads))
    return _json_numbers(g._data), _json_numbers(grads)


def shape(g: Any) -> tuple | None:
    """What columns(g) holds besides the numbers (its ops, operands, labels and lines), as
    a value equal to another graph's shape exactly when those are the same; None but for
    an engine Graph whose columns hold only what the engine puts in them (and whose ops
    have no constant: -0.0 == 0.0, though `Pow(0, -0.0)` is not `Pow(0, 0.0)`)."""
    if not _columns_intact(g):
        return None
    kinds, firsts, seconds = g._kind, g._a, g._b
    if not engine_ops(kinds, firsts, seconds, constants=frozenset()):
        return None
    labels, line = _labels_and_lines(g)
    if not (set(map(type, labels)) <= {str, NoneType} and set(map(type, line)) <= {int, NoneType}):
        return None
    return tuple(kinds), tuple(firsts), tuple(seconds), tuple(labels), tuple(line)


def engine_ops(kinds: list, firsts: list, seconds: list,
               constants: frozenset[type] = frozenset({float})) -> bool:
    """Whether an engine Graph's (kind, a, b) columns hold only what the engine puts in
    them: its own ops, node indices and, as a unary op's constant, an int or one of
    `constants`. Only exact types are looked at before the kinds are hashed, so no code
    of a learner's runs here."""
    return (set(map(type, kinds)) <= {type, NoneType} and set(kinds) - {None} <= VARIANTS
            and set(map(type, firsts)) <= {int, NoneType}
            and set(map(type, seconds)) <= {int, NoneType} | constants)


def _labels_and_lines(g: Graph) -> tuple[list, list]:
    """Each node's label and line, as an engine Graph holds them."""
    n = len(g._data)
    lines = getattr(g, "lines", None)
    if type(lines) is not dict:
        lines = {}
    return list(map(g._label.get, range(n))), list(map(lines.get, range(n)))


def _ops(kinds: list, firsts: list, seconds: list) -> dict[str, list[Any]]:
    """The op, args and text columns of an engine Graph's (kind, a, b) columns: where
    they hold only the engine's ops and numbers, made with no call per node."""
    if not engine_ops(kinds, firsts, seconds):
        ops = [_parts(kind, a, b) for kind, a, b in zip(kinds, firsts, seconds, strict=True)]
        return {"op": [name for name, _, _ in ops], "args": [args for _, args, _ in ops],
                "text": [_op_text(*op) for op in ops]}
    name = {kind: kind.__name__ for kind in set(kinds) - {None}}
    binary = {kind for kind in name if kind.arity == 2}
    triples = list(zip(kinds, firsts, seconds, strict=True))
    return {
        "op": list(map(name.get, kinds)),
        "args": [[a, b] if kind in binary else [] if kind is None else [a]
                 for kind, a, b in triples],
        # A unary op's b, when it has one, is a constant: Pow(0, 2.0).
        "text": ["leaf" if kind is None else f"{name[kind]}({a})" if b is None
                 else f"{name[kind]}({a}, {b})" for kind, a, b in triples],
    }


def _json_numbers(column: list) -> list:
    """list(map(json_number, column)), checked in C first: most columns are all finite
    floats (a sum of finite floats that overflows takes the long way, as one with an
    inf or a nan does)."""
    if set(map(type, column)) == {float} and math.isfinite(sum(column)):
        return list(column)
    return list(map(json_number, column))


def _columns_intact(g: Any) -> bool:
    """Whether g is an engine Graph whose columns are lists of one length, as the engine
    keeps them (a learner may have replaced one)."""
    if type(g) is not Graph or type(g._label) is not dict:
        return False
    kept = (g._data, g._grad, g._kind, g._a, g._b)
    n = len(g._data)
    return set(map(type, kept)) == {list} and len(g._kind) == len(g._a) == len(g._b) == n


def _label(label: Any) -> str | None:
    return label if label is None or type(label) is str else _text(str(label))


def _op_text(name: str | None, args: list[int], consts: list[Any]) -> str:
    """What a table shows of an op: `Mul(0, 1)`, `Pow(0, 2)` or `leaf`."""
    return "leaf" if name is None else f"{name}({', '.join(map(str, args + consts))})"


def _describe_node(v: Any) -> tuple[str | None, list[int], list[Any]]:
    """describe_op(v.op), read straight from an engine Value's slots: big tables are
    made of these."""
    if type(v) is not Value:
        return describe_op(v.op)
    g, i = v._row()
    return _parts(g._kind[i], g._a[i], g._b[i])


def _parts(kind: Any, a: Any, b: Any) -> tuple[str | None, list[int], list[Any]]:
    """describe_op of the op an engine Graph keeps as (kind, a, b) in its columns."""
    if kind is None:
        return None, [], []
    if kind is Opaque:
        return describe_op(a)
    if kind.arity == 2:
        return kind.__name__, [a, b], []
    return kind.__name__, [a], [] if b is None else [b]


def describe_op(op: Any) -> tuple[str | None, list[int], list[Any]]:
    """(name, operand indices, constants) of an op: an engine variant, a learner's
    NamedTuple or dataclass, a tuple like ("Add", 0, 1), or None for a leaf."""
    if op is None:
        return None, [], []
    if type(op) in VARIANTS:
        return type(op).__name__, list(op[: op.arity]), list(op[op.arity :])
    if dataclasses.is_dataclass(op):
        fields = [getattr(op, f.name) for f in dataclasses.fields(op)]
        return type(op).__name__, *_split_fields(fields)
    if isinstance(op, tuple) and hasattr(op, "_fields"):
        return type(op).__name__, *_split_fields(list(op))
    if isinstance(op, (tuple, list)) and op and isinstance(op[0], str):
        return op[0], *_split_fields(list(op[1:]))
    return _text(str(op)), [], []


def _split_fields(fields: list[Any]) -> tuple[list[int], list[Any]]:
    indices = [f for f in fields if type(f) is int]
    return indices, [f for f in fields if type(f) is not int]


def json_number(x: Any) -> float | str | None:
    """A float for JSON; "nan", "inf" or "-inf" where JSON has no number; the repr of
    anything that is not a number."""
    if type(x) is float and x - x == 0:  # finite: the common case, first
        return x
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return None if x is None else _text(repr(x))
    try:
        x = float(x)
    except OverflowError:  # an int too big for a float
        return "inf" if x > 0 else "-inf"
    if math.isfinite(x):
        return x
    return "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")


def _text(text: str) -> str:
    """A plain str: a learner's __str__ or __repr__ may return a str subclass, whose
    methods would run their code wherever the text goes."""
    return str.__str__(text)


def to_dot(g: Any) -> str:
    """Graphviz DOT text: a box per value (label, data, grad), an ellipse per op, and
    edges from operands through the op to its result."""
    lines = [
        "digraph autograd {",
        "  rankdir=LR;",
        '  node [fontname="Helvetica", fontsize=11];',
    ]
    for row in rows(g):
        i = row["index"]
        name = row["label"] if row["label"] is not None else f"#{i}"
        text = f"{name}\ndata {_fmt(row['data'])}\ngrad {_fmt(row['grad'])}"
        lines.append(f"  v{i} [shape=box, label={_quote(text)}];")
        if row["op"] is not None:
            lines.append(f"  op{i} [shape=ellipse, label={_quote(row['text'])}];")
            lines.extend(f"  v{a} -> op{i};" for a in row["args"])
            lines.append(f"  op{i} -> v{i};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _fmt(x: float | str | None) -> str:
    return f"{x:.4g}" if isinstance(x, float) else str(x)


def _quote(text: str) -> str:
    """A DOT quoted string: only backslash, double quote and newlines need escaping."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + escaped.replace("\r", "").replace("\n", "\\n") + '"'
