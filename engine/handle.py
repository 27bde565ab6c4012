"""Operator sugar: a Handle is a node index that knows its graph, so models read as maths.

`x * y + 1` records exactly the nodes `VAdd(g, VMul(g, x, y), MakeValue(g, 1))` would.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .autograd import Backward
from .graph import Graph, MakeValue, as_float, caught_up
from .ops import VAdd, VDiv, VExp, VLog, VMul, VNeg, VPow, VRelu, VSigmoid, VSub, VTanh


class Handle:
    """A node of a graph; arithmetic with numbers or other Handles of the same graph."""

    __slots__ = ("graph", "index", "_cut")

    def __init__(self, graph: Graph, index: int) -> None:
        self.graph = graph
        self.index = index
        self._cut = graph._cut

    def _at(self) -> int:
        """The node's index, or an error if the node was deleted (see Graph._cut)."""
        if self._cut:
            self._cut = caught_up(self.index, self._cut)
        return self.index

    @property
    def data(self) -> float:
        return self.graph.nodes[self._at()].data

    @data.setter
    def data(self, x: float) -> None:
        """Set the node's number, as micrograd's `p.data -= lr * p.grad` does (nodes made
        from it keep theirs until the next forward pass)."""
        self.graph.nodes[self._at()].data = as_float(x, "Handle.data")

    @property
    def grad(self) -> float:
        return self.graph.nodes[self._at()].grad

    @grad.setter
    def grad(self, x: float) -> None:
        """Set the node's grad, as micrograd's `p.grad = 0` does."""
        self.graph.nodes[self._at()].grad = as_float(x, "Handle.grad")

    @property
    def label(self) -> str | None:
        return self.graph.nodes[self._at()].label

    def __repr__(self) -> str:
        return f"Handle(index={self.index}, data={self.data!r}, grad={self.grad!r})"

    def _operand(self, other: Any, symbol: str) -> int:
        if isinstance(other, Handle):
            if other.graph is not self.graph:
                raise ValueError(f"{symbol}: the two values belong to different graphs")
            return other._at()
        if isinstance(other, (int, float)) and not isinstance(other, bool):
            return MakeValue(self.graph, other)
        raise TypeError(f"{symbol}: cannot combine a Handle with {other!r}")

    def _binary(self, fn: Callable[[Graph, int, int], int], other: Any, symbol: str) -> Handle:
        g = self.graph
        if type(other) is Handle and other.graph is g and not (self._cut or other._cut):
            return Handle(g, fn(g, self.index, other.index))
        return self._with(fn, other, symbol, reflected=False)

    def _reflected(self, fn: Callable[[Graph, int, int], int], other: Any, symbol: str) -> Handle:
        return self._with(fn, other, symbol, reflected=True)

    def _with(self, fn: Callable[[Graph, int, int], int], other: Any, symbol: str,
              reflected: bool) -> Handle:
        """fn of this node and `other`, a Handle or a number made a leaf first: should fn
        refuse (a division by zero), the leaf goes too, so the graph is as it was."""
        g = self.graph
        size = len(g._data)
        mine = self._at()
        operand = self._operand(other, symbol)
        try:
            index = fn(g, operand, mine) if reflected else fn(g, mine, operand)
        except BaseException:
            g._truncate(size)
            raise
        return Handle(g, index)

    def _unary(self, fn: Callable[[Graph, int], int]) -> Handle:
        return Handle(self.graph, fn(self.graph, self._at()))

    def __add__(self, other: Any) -> Handle:
        return self._binary(VAdd, other, "+")

    def __radd__(self, other: Any) -> Handle:
        return self._reflected(VAdd, other, "+")

    def __sub__(self, other: Any) -> Handle:
        return self._binary(VSub, other, "-")

    def __rsub__(self, other: Any) -> Handle:
        return self._reflected(VSub, other, "-")

    def __mul__(self, other: Any) -> Handle:
        return self._binary(VMul, other, "*")

    def __rmul__(self, other: Any) -> Handle:
        return self._reflected(VMul, other, "*")

    def __truediv__(self, other: Any) -> Handle:
        return self._binary(VDiv, other, "/")

    def __rtruediv__(self, other: Any) -> Handle:
        return self._reflected(VDiv, other, "/")

    def __pow__(self, k: Any) -> Handle:
        if isinstance(k, Handle):
            raise TypeError("**: the exponent must be a number, not a node")
        return Handle(self.graph, VPow(self.graph, self._at(), k))

    def __neg__(self) -> Handle:
        return self._unary(VNeg)

    def tanh(self) -> Handle:
        return self._unary(VTanh)

    def relu(self) -> Handle:
        return self._unary(VRelu)

    def sigmoid(self) -> Handle:
        return self._unary(VSigmoid)

    def exp(self) -> Handle:
        return self._unary(VExp)

    def log(self) -> Handle:
        return self._unary(VLog)

    def backward(self) -> None:
        """Backward(graph, this node)."""
        Backward(self.graph, self._at())


def value(g: Graph, x: float, label: str | None = None) -> Handle:
    """A new leaf as a Handle, for writing models with + - * / ** and methods."""
    return Handle(g, MakeValue(g, x, label))


Graph.value = value  # `g.value(x)`: the sugar extends the core, which does not import it
