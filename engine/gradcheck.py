"""Check a backward pass against central finite differences, leaf by leaf."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

from .autograd import Backward
from .graph import Graph, MakeValue

Build = Callable[[Graph, list[int]], Any]


class LeafCheck(NamedTuple):
    leaf: int
    backward: float
    numeric: float
    agrees: bool


class GradCheckResult(NamedTuple):
    """Truthy when every leaf agrees; prints which ones do not."""

    leaves: list[LeafCheck]

    @property
    def ok(self) -> bool:
        return all(c.agrees for c in self.leaves)

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        bad = [c for c in self.leaves if not c.agrees]
        if not bad:
            return f"grad check passed: all {len(self.leaves)} leaves agree"
        return "grad check failed:\n" + "\n".join(
            f"  leaf {c.leaf}: Backward gives {c.backward:.6g}, "
            f"finite differences give {c.numeric:.6g}"
            for c in bad
        )


def GradCheck(
    build: Build,
    inputs: list[float],
    *,
    backward: Callable[[Graph, int], None] = Backward,
    eps: float = 1e-6,
    rtol: float = 1e-4,
    atol: float = 1e-6,
) -> GradCheckResult:
    """Compare `backward`'s grads with central differences of the function that
    `build(g, leaves)` computes from leaves holding `inputs`; it returns the root's index
    (or a Handle). Pass your own `backward(g, root)` to check it against the maths."""
    g, leaves, root = _evaluate(build, inputs)
    backward(g, root)
    checks = []
    for i, x in enumerate(inputs):
        h = eps * max(1.0, abs(x))
        up = _value_at(build, inputs, i, x + h)
        down = _value_at(build, inputs, i, x - h)
        numeric = (up - down) / (2 * h)
        analytic = g.nodes[leaves[i]].grad
        agrees = math.isclose(analytic, numeric, rel_tol=rtol, abs_tol=atol)
        checks.append(LeafCheck(leaves[i], analytic, numeric, agrees))
    return GradCheckResult(checks)


def _evaluate(build: Build, inputs: list[float]) -> tuple[Graph, list[int], int]:
    g = Graph()
    leaves = [MakeValue(g, x, label=f"x{i}") for i, x in enumerate(inputs)]
    root = build(g, leaves)
    return g, leaves, getattr(root, "index", root)


def _value_at(build: Build, inputs: list[float], i: int, x: float) -> float:
    g, _, root = _evaluate(build, [*inputs[:i], x, *inputs[i + 1 :]])
    return g.nodes[root].data
