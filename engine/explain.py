"""Backward one node at a time, in words and numbers, for learners stepping through it.

The steps run Backward's own rule for each op on scratch copies of its operands, so every
term is the number Backward adds, and the grads after the last step are Backward's.
"""

from __future__ import annotations

from typing import Any

from .autograd import EnginesOwnError, TopoSort, chain_rule  # noqa: F401 (see checks._refusal)
from .graph import Graph, root_index
from .inspect import json_number


def BackwardSteps(g: Graph, root: int) -> list[dict[str, Any]]:
    """The steps of Backward(g, root), without changing g: one per node, in the order
    Backward visits them (reverse topological). Each step is JSON-ready:
    {"node": i, "terms": [{"operand", "text", "rule", "upstream", "local", "value", "grad"},
    ...]}, where `text` reads like `c.grad += e.grad * 1 = 0.00134`: the `rule` in words
    (`c.grad += e.grad * 1`), then its numbers, `upstream` (the node's grad) times `local`
    (its derivative by the operand) giving `value`; `grad` is the operand's grad so far.
    The numbers come apart too, for a page that writes them as its table does.
    The grads so far are kept in a scratch dict, and the graph is read by its columns:
    a page steps through graphs of thousands of nodes."""
    root = root_index(g, "BackwardSteps", root)
    order = TopoSort(g, root)
    grads = dict.fromkeys(order, 0.0)
    grads[root] = 1.0
    return [{"node": i, "terms": _terms(g, i, grads)} for i in reversed(order)]


def _terms(g: Graph, i: int, grads: dict[int, float]) -> list[dict[str, Any]]:
    kind, a, b = g._kind[i], g._a[i], g._b[i]
    if kind is None:
        return []
    operands = (a, b)[: kind.arity]
    upstream = grads[i]
    parts = _apply_rule(g, i, upstream)
    locals_ = _apply_rule(g, i, 1.0)
    names = {"out": _name(g, i), "a": _name(g, a), "k": b}
    if kind.arity == 2:
        names["b"] = _name(g, b)
    terms = []
    for j, rule, part, local in zip(operands, kind.rule, parts, locals_, strict=True):
        grads[j] += part
        words = f"{_name(g, j)}.grad += {names['out']}.grad * {rule.format(**names)}"
        numbers = f"{upstream:.4g} * {local:.4g} = {part:.4g}"
        terms.append({
            "operand": j,
            "text": f"{words} = {numbers}",
            "rule": words,
            "upstream": json_number(upstream),
            "local": json_number(local),
            "value": json_number(part),
            "grad": json_number(grads[j]),
        })
    return terms


def _apply_rule(g: Graph, i: int, grad: float) -> list[float]:
    """What Backward's rule for node i's op adds to each operand slot when its grad is
    `grad`: the chain rule run on scratch copies, which keep `a*a`'s two slots apart."""
    kind, data = g._kind[i], g._data
    operands = (g._a[i], g._b[i])[: kind.arity]
    scratch = [data[j] for j in operands] + [data[i]]
    kinds = [None] * kind.arity + [kind]
    firsts = [None] * kind.arity + [0]
    seconds = [None] * kind.arity + [1 if kind.arity == 2 else g._b[i]]
    return chain_rule(scratch, kinds, firsts, seconds, kind.arity, grad)[: kind.arity]


def _name(g: Graph, i: int) -> str:
    label = g._label.get(i)
    return label if label else f"#{i}"
