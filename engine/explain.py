"""Backward one node at a time, in words and numbers, for learners stepping through it.

The steps run Backward's own rule for each op on scratch copies of its operands, so every
term is the number Backward adds, and the grads after the last step are Backward's.
"""

from __future__ import annotations

from typing import Any

from .autograd import TopoSort, chain_rule
from .graph import Graph, Nodes, Value, root_index
from .inspect import json_number


def BackwardSteps(g: Graph, root: int) -> list[dict[str, Any]]:
    """The steps of Backward(g, root), without changing g: one per node, in the order
    Backward visits them (reverse topological). Each step is JSON-ready:
    {"node": i, "terms": [{"operand", "text", "rule", "upstream", "local", "value", "grad"},
    ...]}, where `text` reads like `c.grad += e.grad * 1 = 0.00134`: the `rule` in words
    (`c.grad += e.grad * 1`), then its numbers, `upstream` (the node's grad) times `local`
    (its derivative by the operand) giving `value`; `grad` is the operand's grad so far.
    The numbers come apart too, for a page that writes them as its table does."""
    order = TopoSort(g, root_index(g, "BackwardSteps", root))
    work = g.copy()
    nodes = work.nodes
    for i in order:
        nodes[i].grad = 0.0
    nodes[root].grad = 1.0
    return [{"node": i, "terms": _terms(nodes, i)} for i in reversed(order)]


def _terms(nodes: Nodes, i: int) -> list[dict[str, Any]]:
    out = nodes[i]
    g = out._graph
    kind, a, b = g._kind[i], g._a[i], g._b[i]
    if kind is None:
        return []
    operands = (a, b)[: kind.arity]
    parts = _apply_rule(nodes, out, out.grad)
    locals_ = _apply_rule(nodes, out, 1.0)
    names = {"out": _name(nodes, i), "a": _name(nodes, a), "k": b}
    if kind.arity == 2:
        names["b"] = _name(nodes, b)
    terms = []
    for j, rule, part, local in zip(operands, kind.rule, parts, locals_, strict=True):
        nodes[j].grad += part
        words = f"{_name(nodes, j)}.grad += {names['out']}.grad * {rule.format(**names)}"
        numbers = f"{out.grad:.4g} * {local:.4g} = {part:.4g}"
        terms.append({
            "operand": j,
            "text": f"{words} = {numbers}",
            "rule": words,
            "upstream": json_number(out.grad),
            "local": json_number(local),
            "value": json_number(part),
            "grad": json_number(nodes[j].grad),
        })
    return terms


def _apply_rule(nodes: Nodes, out: Value, grad: float) -> list[float]:
    """What Backward's rule for out's op adds to each operand slot when out's grad is
    `grad`: the chain rule run on scratch copies, which keep `a*a`'s two slots apart."""
    g, i = out._graph, out._index
    kind = g._kind[i]
    operands = (g._a[i], g._b[i])[: kind.arity]
    data = [nodes[j].data for j in operands] + [out.data]
    kinds = [None] * kind.arity + [kind]
    firsts = [None] * kind.arity + [0]
    seconds = [None] * kind.arity + [1 if kind.arity == 2 else g._b[i]]
    return chain_rule(data, kinds, firsts, seconds, kind.arity, grad)[: kind.arity]


def _name(nodes: Nodes, i: int) -> str:
    label = nodes[i].label
    return label if label else f"#{i}"
