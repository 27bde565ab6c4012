"""The course's data model: a Graph of Values that refer to each other by index."""

from __future__ import annotations

import math
import operator
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from numbers import Real
from typing import Any, overload

from . import lines
from .lines import note_line

VARIANTS: set[type] = set()
"""The engine's op variants (filled by `ops.variant`): the ops Backward can differentiate."""


def variant(cls: type) -> type:
    """Register an op variant class."""
    VARIANTS.add(cls)
    return cls


class Opaque:
    """Marks a Value whose op is some other object, or an engine op that refers to a node
    not before it: kept as is, shown, never differentiated."""


class Value:
    """One node: its number, the gradient Backward fills in, and the op that made it.

    A Value is a view of one row of a Graph's columns (see Graph), so reading and
    assigning `data`, `grad`, `op` and `label` read and write the graph. `Value(...)`
    made by hand is the one row of a graph of its own until `g.nodes.append` moves it
    into g. Reading `op` rebuilds the variant, so `v.op == Add(2, 1)` and `match v.op:`
    work as the course writes them. A copy or a pickle of a view is a Value of its own,
    as a copy of a list's item would be (see __reduce__).
    """

    __slots__ = ("_graph", "_index", "_cut")

    def __init__(
        self, data: float, grad: float = 0.0, op: Any = None, label: str | None = None
    ) -> None:
        if type(data) is not float:
            data = as_float(data, "Value: data")
        if label is not None and type(label) is not str:
            raise bad_label(label, "Value: label")
        self._graph = Graph()
        self._index = 0
        self._cut = self._graph._cut
        self._graph._append(data, grad, op, label)

    @classmethod
    def _view(cls, g: Graph, index: int) -> Value:
        v = object.__new__(cls)
        v._graph = g
        v._index = index
        v._cut = g._cut
        return v

    # Each read and write first checks that no deletion took the node (see Graph._cut):
    # data, grad and reading op write the check out, as a call would cost as much as
    # the read; label and setting op call _row.

    @property
    def data(self) -> Any:
        if self._cut:
            self._cut = caught_up(self._index, self._cut)
        return self._graph._data[self._index]

    @data.setter
    def data(self, x: Any) -> None:
        if type(x) is not float:
            x = as_float(x, "Value.data")
        if self._cut:
            self._cut = caught_up(self._index, self._cut)
        self._graph._data[self._index] = x

    @property
    def grad(self) -> Any:
        if self._cut:
            self._cut = caught_up(self._index, self._cut)
        grads = self._graph._grad
        return grads[self._index] if self._index < len(grads) else 0.0

    @grad.setter
    def grad(self, x: Any) -> None:
        if self._cut:
            self._cut = caught_up(self._index, self._cut)
        grads = self._graph._grad
        if self._index >= len(grads):
            grads.extend([0.0] * (self._index + 1 - len(grads)))
        grads[self._index] = x

    @property
    def label(self) -> Any:
        g, i = self._row()
        return g._label.get(i)

    @label.setter
    def label(self, label: Any) -> None:
        if label is not None and type(label) is not str:
            raise bad_label(label, "Value.label")
        g, i = self._row()
        if label is None:
            g._label.pop(i, None)
        else:
            g._label[i] = label

    @property
    def op(self) -> Any:
        if self._cut:
            self._cut = caught_up(self._index, self._cut)
        g, i = self._graph, self._index
        kind = g._kind[i]
        if kind is None:
            return None
        if kind is Opaque:
            return g._a[i]
        b = g._b[i]
        return _new(kind, (g._a[i],) if b is None else (g._a[i], b))

    @op.setter
    def op(self, op: Any) -> None:
        g, i = self._row()
        g._kind[i], g._a[i], g._b[i] = _op_parts(op, i, len(g._data))

    def _row(self) -> tuple[Graph, int]:
        """The graph and index of this view's node, once checked."""
        if self._cut:
            self._cut = caught_up(self._index, self._cut)
        return self._graph, self._index

    def __eq__(self, other: object) -> bool:
        """Two views of one node are one Value, as the course's list would hold it
        (micrograd's build_topo keeps a set of them). A view of a deleted node equals
        only itself: a set kept across a training step holds none of the new nodes."""
        if not isinstance(other, Value):
            return NotImplemented
        if self is other:
            return True
        return (self._graph is other._graph and self._index == other._index
                and self._alive() and other._alive())

    def __hash__(self) -> int:
        return hash((self._graph, self._index))

    def _alive(self) -> bool:
        """Whether no deletion took this view's node."""
        try:
            self._row()
        except ReferenceError:
            return False
        return True

    def __reduce__(self) -> tuple[type[Value], tuple[Any, Any, Any, Any]]:
        """Copy and pickle a view as the Value it reads as, on its own: copying a list's
        item gives a Value the list does not see, and a view's graph may have 65,000 nodes."""
        return Value, (self.data, self.grad, self.op, self.label)

    def __repr__(self) -> str:
        label = f", label={self.label!r}" if self.label is not None else ""
        return f"Value(data={self.data!r}, grad={self.grad!r}, op={self.op!r}{label})"


def caught_up(index: int, cut: list[Any]) -> list[Any]:
    """The graph's `_cut` now, once sure that none of the deletions recorded from `cut` on
    took node `index`; else the error naming the one that did, so that a view or a Handle
    never reads or writes the node made in its node's place."""
    while cut:
        start, cut = cut
        if start <= index:
            raise ReferenceError(f"node {index} was deleted by del g.nodes[{start}:] (g.nodes"
                                 f"[{index}] is another node now, if the graph grew again)")
    return cut


_new = tuple.__new__
_new_object = object.__new__


def _text(bound: int | None) -> str:
    """A slice's bound as it was written."""
    return "" if bound is None else str(bound)


def _op_parts(op: Any, index: int, size: int) -> tuple[Any, Any, Any]:
    """An op as the (kind, a, b) a Graph of `size` nodes stores in its columns for node
    `index`, its operands read as the ops read them (see as_index). An engine op whose
    operands are not all earlier nodes is stored as it was given, as Opaque, which
    TopoSort and Backward refuse: so they need not check each node's operands (the ops'
    own nodes refer to earlier ones, as they read them)."""
    if op is None:
        return None, None, None
    if type(op) in VARIANTS:
        operands = []
        for operand in op[: op.arity]:
            i = as_index(operand)
            if i is None:
                raise TypeError(f"op {op!r}: operand {operand!r} is not a node index "
                                f"(an int), it is a {type(operand).__name__}")
            operands.append(i + size if i < 0 else i)
        if 0 <= min(operands) and max(operands) < index:
            b = operands[1] if op.arity == 2 else op[1] if len(op) > 1 else None
            return type(op), operands[0], b
    return Opaque, op, None


class Nodes(Sequence[Value]):
    """`g.nodes`: the graph's rows as Values, a list as the course uses one (index, len,
    iteration, append). Only the newest nodes can be deleted, as the others' indices are
    what later ops refer to."""

    __slots__ = ("_graph",)

    def __init__(self, graph: Graph) -> None:
        self._graph = graph

    def __len__(self) -> int:
        return len(self._graph._data)

    @overload
    def __getitem__(self, i: int) -> Value: ...
    @overload
    def __getitem__(self, i: slice) -> list[Value]: ...
    def __getitem__(self, i: int | slice) -> Value | list[Value]:
        g = self._graph
        if type(i) is int and 0 <= i < len(g._data):  # the course's own use, without a call
            v = _new_object(Value)
            v._graph, v._index, v._cut = g, i, g._cut
            return v
        if isinstance(i, slice):
            return [Value._view(g, j) for j in range(*i.indices(len(self)))]
        return Value._view(g, self._position(i))

    def _position(self, i: int) -> int:
        """Index i of a node (see as_index), or an error naming it."""
        n = len(self)
        index = as_index(i)
        if index is None:
            raise TypeError(f"node index {i!r} is not an int, it is a {type(i).__name__}")
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError(f"node index {i} out of range (the graph has {n} nodes)")
        return index

    def __iter__(self) -> Iterator[Value]:
        """The nodes in order, up to the end the graph has at each step (as a list's)."""
        g = self._graph
        j = 0
        while j < len(g._data):
            yield Value._view(g, j)
            j += 1

    def __setitem__(self, i: int | slice, v: Value | Iterable[Value]) -> None:
        """Copy Value v's contents into node i. A slice gets as many Values, each copied
        into its node, or, where it ends at the newest node, any number in their place."""
        if isinstance(i, slice):
            self._assign_slice(i, v)
            return
        node = self[i]
        if not isinstance(v, Value):
            raise TypeError(f"g.nodes holds Values, not {type(v).__name__}")
        node.data, node.grad, node.op, node.label = v.data, v.grad, v.op, v.label

    def _assign_slice(self, i: slice, values: Iterable[Value]) -> None:
        rows = []
        for k, v in enumerate(values):
            if not isinstance(v, Value):
                raise TypeError(f"g.nodes holds Values: item {k} is a {type(v).__name__}")
            rows.append((v.data, v.grad, v.op, v.label))
        g, n = self._graph, len(self)
        start, stop, step = i.indices(n)
        targets = range(start, stop, step)
        if len(rows) == len(targets):
            for j, (data, grad, op, label) in zip(targets, rows, strict=True):
                node = Value._view(g, j)
                node.data, node.grad, node.op, node.label = data, grad, op, label
        elif step == 1 and max(start, stop) >= n:
            g._truncate(start)
            for row in rows:
                g._append(*row)
        elif step == 1:
            raise ValueError(f"g.nodes[{_text(i.start)}:{_text(i.stop)}] = {len(rows)} values "
                             f"would move the nodes after them, which later ops refer to by "
                             f"index: assign as many values, or to the newest nodes")
        else:
            raise ValueError(f"attempt to assign {len(rows)} values to an extended slice of "
                             f"{len(targets)} nodes")

    def __delitem__(self, i: int | slice) -> None:
        """Delete as a list does, when what goes is the newest nodes (or nothing)."""
        if isinstance(i, slice):
            doomed = range(*i.indices(len(self)))
        else:
            index = self._position(i)
            doomed = range(index, index + 1)
        if not doomed:
            return
        first = min(doomed[0], doomed[-1])  # a range's ends, not a walk over it
        if len(doomed) != len(self) - first:
            raise ValueError("only the newest nodes can be deleted (del g.nodes[k:]): later "
                             "ops refer to the others by index")
        self._graph._truncate(first)

    def append(self, v: Value) -> None:
        """Move Value v into the graph as its newest node: v is that node from now on."""
        if not isinstance(v, Value):
            raise TypeError(f"g.nodes holds Values, not {type(v).__name__}: "
                            f"make one with Value(data, grad, op, label)")
        g = self._graph
        g._append(v.data, v.grad, v.op, v.label)
        v._graph, v._index, v._cut = g, len(g._data) - 1, g._cut

    def extend(self, values: Iterable[Value]) -> None:
        for v in values:
            self.append(v)

    def __repr__(self) -> str:
        return repr(list(self))


class Graph:
    """An append-only tape: every node comes after its operands, so index order is topological.

    The nodes are stored as columns, one list per field, rather than as an object each:
    a node is then a few list slots and its number, which costs far less to make and
    to free (and nothing for the cyclic collector to track); `g.nodes` shows the rows
    as Values. `_grad` may be shorter than the graph: the missing grads are 0.0, so the
    ops need not append one. `g.value(x)`, a leaf as a Handle, is the operator sugar's
    (handle.py), which builds on this module; this module does not import it.
    """

    __slots__ = ("_data", "_grad", "_kind", "_a", "_b", "_label", "_cut", "lines",
                 "backward_root")

    def __init__(self) -> None:
        self._data: list[Any] = []
        self._grad: list[Any] = []
        self._kind: list[Any] = []
        """The op's variant class, None for a leaf, Opaque for some other op object (or
        one that refers to a node not before it)."""
        self._a: list[Any] = []
        """The op's first operand (or the other op object itself)."""
        self._b: list[Any] = []
        """The op's second operand or constant, or None."""
        self._label: dict[int, Any] = {}
        self._cut: list[Any] = []
        """Empty until the next deletion, which fills it with [the index it deleted from,
        the next such list]: a view keeps the one current when it was made, so it reads
        and writes while that is empty, and else catches up (see caught_up)."""
        self.lines: dict[int, int] = {}
        """The source line that made each node, while `record_lines` is on."""
        self.backward_root: int | None = None
        """The root of the last Backward, so a page can replay it step by step."""

    @property
    def nodes(self) -> Nodes:
        return Nodes(self)

    @nodes.setter
    def nodes(self, values: Iterable[Value]) -> None:
        self.nodes[:] = values

    def _append(self, data: Any, grad: Any, op: Any, label: Any) -> None:
        n = len(self._data)
        kind, a, b = _op_parts(op, n, n)
        self._data.append(data)
        self._kind.append(kind)
        self._a.append(a)
        self._b.append(b)
        Value._view(self, n).grad = grad
        if label is not None:
            self._label[n] = label

    def _truncate(self, n: int) -> None:
        """Drop the nodes from index n on."""
        if n >= len(self._data):
            return
        cut, self._cut = self._cut, []
        cut += (n, self._cut)
        del self._data[n:], self._grad[n:], self._kind[n:], self._a[n:], self._b[n:]
        for i in [i for i in self._label if i >= n]:
            del self._label[i]
        noted = getattr(self, "lines", None)  # the learner's to change: maybe not a dict now
        if isinstance(noted, dict):
            forget_lines(noted, n)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"<Graph with {len(self._data)} nodes>"

    def copy(self) -> Graph:
        """An independent graph: the columns hold immutable things, so copying the
        lists is enough."""
        clone = Graph()
        clone._data, clone._grad = self._data[:], self._grad[:]
        clone._kind, clone._a, clone._b = self._kind[:], self._a[:], self._b[:]
        clone._label = dict(self._label)
        clone.lines = dict(self.lines)
        clone.backward_root = self.backward_root
        return clone


def forget_lines(noted: dict[Any, Any], n: int) -> None:
    """Drop the lines noted of nodes n and after (the int keys >= n). The ops note nodes in
    order, so where the keys are ints in ascending order those are the last ones, and the
    others are kept without a Python step per node: a training step deletes 65,000."""
    keys = list(noted)
    if list(map(type, keys)).count(int) == len(keys) and keys == sorted(keys):
        kept = dict(islice(noted.items(), bisect_left(keys, n)))
        noted.clear()
        noted.update(kept)
        return
    for i in [i for i in noted if type(i) is int and i >= n]:
        del noted[i]


def MakeValue(g: Graph, x: float, label: str | None = None) -> int:
    """Push a leaf (zero grad, op None) and return its index."""
    if type(x) is not float:
        x = as_float(x, "MakeValue: data")
    if label is not None and type(label) is not str:
        raise bad_label(label, "MakeValue: label")
    try:
        data = g._data
    except AttributeError:
        raise not_a_graph(g, "MakeValue") from None
    n = _len(data)
    data.append(x)
    g._kind.append(None)
    g._a.append(None)
    g._b.append(None)
    if label is not None:
        g._label[n] = label
    line = lines.now
    if line is not None:  # recording: see engine.lines
        if line and type(g.lines) is dict:
            g.lines[n] = line
        else:
            note_line(g, n)
    return n


_len = len
"""len for MakeValue, which keys a leaf's label by its index: a learner's code may rebind
builtins.len, and the label must still land on its node."""

def as_float(x: Any, what: str) -> float:
    """x as a float, or an error saying that `what` must be a real number (one a float
    holds). An int is one without asking Real, whose check costs more than a node in
    Pyodide."""
    if type(x) is int or isinstance(x, Real) and not isinstance(x, bool):
        try:
            return float(x)
        except OverflowError:
            raise out_of_range(f"{what} must be a real number", x) from None
    raise TypeError(f"{what} must be a real number, got {x!r} ({type(x).__name__})")


def out_of_range(what: str, x: Any) -> OverflowError:
    """The error for a number no float holds: its size, not its hundreds of digits."""
    size = (f"an int of about {round(x.bit_length() * math.log10(2))} digits"
            if isinstance(x, int) else f"a {type(x).__name__} beyond it")
    return OverflowError(f"{what} within a float's range (±1.8e308), got {size}")


def bad_label(label: Any, what: str) -> TypeError:
    return TypeError(f"{what} must be a str or None, got {label!r}")


def as_index(i: Any) -> int | None:
    """i as a node index, read as a list reads an index but for a bool (which is a
    mistake, not a 0 or 1): an int, or anything with __index__, as numpy's ints; a
    negative one counts from the end, where the caller knows the end. None if i is not
    one."""
    if type(i) is int:
        return i
    if isinstance(i, bool) or not hasattr(type(i), "__index__"):
        return None
    return operator.index(i)


def not_a_graph(g: Any, fn: str) -> TypeError:
    return TypeError(f"{fn}: expected a Graph, got {type(g).__name__}")


def _nodes_of(g: Any, fn: str) -> Sequence[Value]:
    try:
        return g.nodes
    except AttributeError:
        raise not_a_graph(g, fn) from None


def node_indices(fn: str, size: int, role: str = "operand ", **operands: Any) -> list[int]:
    """The operands as nodes of a graph of `size` nodes (see as_index), or the error
    naming the first that is not one: the ops' way with any operand but an int >= 0."""
    indices = [as_index(i) for i in operands.values()]
    if all(i is not None and -size <= i < size for i in indices):
        return [i + size if i < 0 else i for i in indices]
    raise bad_operand(fn, size, role, **operands)


def bad_operand(fn: str, size: int, role: str = "operand ", **operands: Any) -> Exception:
    """The error for the first operand that is not a node of a graph of `size` nodes:
    named, with the graph's size."""
    for name, given in operands.items():
        index = as_index(given)
        if index is None:
            return TypeError(
                f"{fn}: {role}{name}={given!r} is not a node index "
                f"(an int), it is a {type(given).__name__}"
            )
        if not -size <= index < size:
            return IndexError(
                f"{fn}: {role}{name}={given!r} is not a node of this graph "
                f"(it has {size} nodes)"
            )
    return ValueError(f"{fn}: invalid operands {operands!r}")


def columns(g: Any, fn: str) -> tuple[list[Any], list[Any], list[Any], list[Any]]:
    """A graph's data, kind, a and b columns: a Graph's own lists, or for any other
    object with a `nodes` list (a learner's own graph class) lists read from its nodes,
    where a node that is not a Value has an op no engine pass can differentiate. Either
    way an op's operands are earlier nodes, or its kind is Opaque (see _op_parts)."""
    if isinstance(g, Graph):
        return g._data, g._kind, g._a, g._b
    nodes = _nodes_of(g, fn)
    rows = [_parts(v, i, len(nodes)) for i, v in enumerate(nodes)]
    data, kinds, firsts, seconds = (list(column) for column in zip(*rows, strict=True)) \
        if rows else ([], [], [], [])
    return data, kinds, firsts, seconds


def _parts(v: Any, index: int, size: int) -> tuple[Any, Any, Any, Any]:
    """Node v's row, as it stands at `index` of `size` nodes (a Value's own index is in
    its own graph)."""
    if isinstance(v, Value):
        return (v.data, *_op_parts(v.op, index, size))
    return getattr(v, "data", None), Opaque, getattr(v, "op", v), None


def root_index(g: Graph, fn: str, root: int) -> int:
    """The node a pass starts from, read as the ops read their operands."""
    size = len(_nodes_of(g, fn))
    if type(root) is int and 0 <= root < size:
        return root
    (root,) = node_indices(fn, size, "", root=root)
    return root
