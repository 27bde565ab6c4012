"""Small seeded graphs to try a learner's TopoSort or Backward on: first a few shapes that
catch the usual mistakes (a node used twice, a leaf the root does not use, a root that is
not the last node), then random ones. Each can print the code that builds it, so that a
learner can paste it and try it."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from itertools import cycle
from typing import Any, NamedTuple

from .graph import Graph, MakeValue
from .ops import Add, Mul, Neg, Sigmoid, Sub, Tanh, VAdd, VMul, VNeg, VSigmoid, VSub, VTanh

BINARY: dict[type, Callable[..., int]] = {Add: VAdd, Sub: VSub, Mul: VMul}
UNARY: dict[type, Callable[..., int]] = {Neg: VNeg, Tanh: VTanh, Sigmoid: VSigmoid}
"""The ops the graphs may use: smooth everywhere, so every grad is a fair test."""
FORWARD = {**BINARY, **UNARY}

SHAPES: tuple[tuple[int, tuple[tuple[Any, ...], ...], int], ...] = (
    # (leaves, ops, root): "B" a two-operand op, "U" a one-operand op, on node indices
    (3, (("B", 0, 1), ("B", 3, 2), ("U", 4)), 5),  # the chapter's tanh(a*b + c)
    (2, (("B", 0, 0), ("B", 2, 1), ("U", 3)), 4),  # a node as both operands: a*a
    (2, (("B", 0, 1), ("U", 2), ("B", 3, 2)), 4),  # a node used by two ops
    (4, (("B", 0, 1), ("B", 4, 3), ("U", 5)), 6),  # leaf 2 is not on the root's path
    (2, (("B", 0, 1), ("U", 2), ("B", 3, 1)), 3),  # the root is not the last node
)


class Step(NamedTuple):
    op: type | None
    """The op variant, or None for a leaf."""
    args: tuple
    """A leaf's (data,), an op's operand indices."""


class ExerciseGraph(NamedTuple):
    steps: tuple[Step, ...]
    root: int

    def build(self) -> Graph:
        g = Graph()
        for op, args in self.steps:
            if op is None:
                MakeValue(g, *args)
            else:
                FORWARD[op](g, *args)
        return g

    def code(self, call: str) -> str:
        """The code that builds this graph, then `call(g, root)`."""
        lines = ["g = Graph()"]
        for i, (op, args) in enumerate(self.steps):
            if op is None:
                lines.append(f"n{i} = MakeValue(g, {args[0]!r})")
            else:
                operands = ", ".join(f"n{a}" for a in args)
                lines.append(f"n{i} = {FORWARD[op].__name__}(g, {operands})")
        lines.append(f"{call}(g, n{self.root})")
        return "\n".join(lines)


def exercise_graphs(ops: Iterable[type], count: int, seed: int) -> list[ExerciseGraph]:
    """`count` graphs over `ops` (the shapes first, then random ones). Each place for an op
    takes the next of `ops` of its arity, in turn, so every op appears as soon as there
    are enough places, and (Mul, Add, Tanh) makes the first graph the chapter's."""
    rng = random.Random(seed)
    ops = list(ops)
    unknown = [op for op in ops if op not in FORWARD]
    binary = [op for op in ops if op in BINARY]
    unary = [op for op in ops if op in UNARY]
    if type(count) is not int or count < 1:
        raise ValueError(f"the number of graphs must be an int of 1 or more, got {count!r}")
    if unknown or not binary or not unary:
        names = ", ".join(getattr(op, "__name__", repr(op)) for op in unknown)
        raise ValueError(
            "the graphs' ops must include one or more of Add, Sub, Mul and one or more of "
            "Neg, Tanh, Sigmoid, and no others" + (f" (not {names})" if names else "")
        )
    kinds = {"B": cycle(binary), "U": cycle(unary)}
    graphs = []
    for k in range(count):
        leaves, layout, root = SHAPES[k] if k < len(SHAPES) else _random_layout(rng)
        steps = [Step(None, (_leaf_data(rng),)) for _ in range(leaves)]
        steps += [Step(next(kinds[slot]), tuple(operands)) for slot, *operands in layout]
        graphs.append(ExerciseGraph(tuple(steps), root))
    return graphs


def _random_layout(rng: random.Random) -> tuple[int, tuple[tuple[Any, ...], ...], int]:
    """Each op uses the node made just before it (so every node is on the root's path), a
    two-operand op also any earlier node (so some nodes are used twice)."""
    leaves = rng.randint(2, 3)
    layout = []
    for i in range(leaves, leaves + rng.randint(3, 6)):
        if rng.random() < 0.3:
            layout.append(("U", i - 1))
        else:
            layout.append(("B", i - 1, rng.randrange(i)))
    return leaves, tuple(layout), leaves + len(layout) - 1


def _leaf_data(rng: random.Random) -> float:
    """A short number away from 0, so that no product hides a wrong grad."""
    return rng.choice((-1, 1)) * rng.randint(2, 12) / 10
