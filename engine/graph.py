"""The course's data model: a Graph is a list of Values that refer to each other by index."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from numbers import Real
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .handle import Handle


VARIANTS: set[type] = set()
"""The engine's op variants (filled by `ops.variant`): the ops Backward can differentiate."""


def variant(cls: type) -> type:
    """Register an op variant class."""
    VARIANTS.add(cls)
    return cls


class Opaque:
    """Marks a Value whose op is some other object: kept as is, shown, never differentiated."""


class Value:
    """One node: its number, the gradient Backward fills in, and the op that made it.

    The op's parts (variant and operand indices) live in the Value's own slots rather than
    in a separate tuple, which saves about 40 bytes a node; reading `op` rebuilds the
    variant, so `v.op == Add(2, 1)` and `match v.op:` work as the course writes them.
    """

    __slots__ = ("data", "grad", "label", "_kind", "_a", "_b")

    def __init__(
        self, data: float, grad: float = 0.0, op: Any = None, label: str | None = None
    ) -> None:
        self.data = data
        self.grad = grad
        self.label = label
        self.op = op

    @property
    def op(self) -> Any:
        kind = self._kind
        if kind is None:
            return None
        if kind is Opaque:
            return self._a
        return _new(kind, (self._a,) if self._b is None else (self._a, self._b))

    @op.setter
    def op(self, op: Any) -> None:
        if op is None:
            self._kind = self._a = self._b = None
        elif type(op) in VARIANTS:
            for index in op[: op.arity]:  # so Backward need only check they come earlier
                if type(index) is not int or index < 0:
                    raise TypeError(f"op {op!r}: operand {index!r} is not a node index "
                                    f"(an int >= 0)")
            self._kind = type(op)
            self._a = op[0]
            self._b = op[1] if len(op) > 1 else None
        else:
            self._kind, self._a, self._b = Opaque, op, None

    def __repr__(self) -> str:
        label = f", label={self.label!r}" if self.label is not None else ""
        return f"Value(data={self.data!r}, grad={self.grad!r}, op={self.op!r}{label})"


_new = tuple.__new__


class Node(Value):
    """A Value as MakeValue and the ops make it, which then set every slot. It runs no
    __init__, so `Node()` runs no Python code: in CPython 3.11 that is a third less per
    node than `Value(...)`, and more in Pyodide."""

    __slots__ = ()
    __init__ = object.__init__


class Graph:
    """An append-only tape: every node comes after its operands, so index order is topological."""

    __slots__ = ("nodes", "lines", "backward_root")

    def __init__(self) -> None:
        self.nodes: list[Value] = []
        self.lines: dict[int, int] = {}
        """The source line that made each node, while `record_lines` is on."""
        self.backward_root: int | None = None
        """The root of the last Backward, so a page can replay it step by step."""

    def __len__(self) -> int:
        return len(self.nodes)

    def __repr__(self) -> str:
        return f"<Graph with {len(self.nodes)} nodes>"

    def copy(self) -> Graph:
        """An independent graph: ops are immutable, so only the Values are new."""
        clone = Graph()
        clone.nodes = [Value(v.data, v.grad, v.op, v.label) for v in self.nodes]
        clone.lines = dict(self.lines)
        clone.backward_root = self.backward_root
        return clone

    def value(self, x: float, label: str | None = None) -> Handle:
        """A new leaf as a Handle, for writing models with + - * / ** and methods."""
        from .handle import Handle

        return Handle(self, MakeValue(self, x, label))


def MakeValue(g: Graph, x: float, label: str | None = None) -> int:
    """Push a leaf (zero grad, op None) and return its index."""
    if type(x) is not float:
        x = as_float(x, "MakeValue: data")
    if label is not None and type(label) is not str:
        raise TypeError(f"MakeValue: label must be a str or None, got {label!r}")
    nodes = _nodes_of(g, "MakeValue")  # a clear error for what is not a Graph
    v = Node()
    v.data = x
    v.grad = 0.0
    v.label = label
    v._kind = v._a = v._b = None
    nodes.append(v)
    if _source_file is not None:
        note_line(g, len(nodes) - 1)
    return len(nodes) - 1


_source_file: str | None = None
"""The file name `record_lines` notes lines of, or None when it is off; the ops read it
after pushing a node."""


@contextmanager
def record_lines(filename: str) -> Iterator[None]:
    """While on, each new node notes in `g.lines` the line of `filename` (a learner's
    code, compiled under that name) that made it, however deep the call. Off, the only
    cost is one test per node."""
    global _source_file
    previous, _source_file = _source_file, filename
    try:
        yield
    finally:
        _source_file = previous


def note_line(g: Any, index: int) -> None:
    """Note the learner's line that made node `index` (called by the function that pushed it)."""
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename != _source_file:
        frame = frame.f_back
    lines = getattr(g, "lines", None)
    if frame is not None and isinstance(lines, dict):
        lines[index] = frame.f_lineno


def as_float(x: Any, what: str) -> float:
    """x as a float, or an error saying that `what` must be a real number."""
    if isinstance(x, Real) and not isinstance(x, bool):
        return float(x)
    raise TypeError(f"{what} must be a real number, got {x!r} ({type(x).__name__})")


def _nodes_of(g: Any, fn: str) -> list[Value]:
    try:
        return g.nodes
    except AttributeError:
        raise TypeError(f"{fn}: expected a Graph, got {type(g).__name__}") from None


def bad_operand(g: Any, fn: str, role: str = "operand ", **operands: Any) -> Exception:
    """The error for the first operand that is not a node of g: named, with the graph's size."""
    nodes = _nodes_of(g, fn)
    for name, index in operands.items():
        if type(index) is bool or not isinstance(index, int):
            return TypeError(
                f"{fn}: {role}{name}={index!r} is not a node index "
                f"(an int), it is a {type(index).__name__}"
            )
        if not 0 <= index < len(nodes):
            return IndexError(
                f"{fn}: {role}{name}={index!r} is not a node of this graph "
                f"(it has {len(nodes)} nodes)"
            )
    return ValueError(f"{fn}: invalid operands {operands!r}")


def root_index(g: Graph, fn: str, root: int) -> int:
    """Check the node a pass starts from."""
    if type(root) is int and 0 <= root < len(_nodes_of(g, fn)):
        return root
    raise bad_operand(g, fn, "", root=root)
