"""The course's next chapter: topological sort and the backward pass, with no recursion."""

from __future__ import annotations

from typing import Any

from .graph import VARIANTS, Graph, Opaque, columns, root_index
from .ops import Add, Div, Exp, Log, Mul, Neg, Pow, Relu, Sigmoid, Sub, Tanh, ieee_div, ieee_pow


class EnginesOwnError(Exception):
    """Raised by TopoSort or Backward while a check wants the learner's own instead
    (engine.checks); here, as the check runs their code in this module."""


def TopoSort(g: Graph, root: int) -> list[int]:
    """The indices of the nodes `root` depends on (itself included), operands before users.

    The tape is append-only, so one sweep down from `root` finds them: a node is needed
    if a needed node uses it, and every user sits above its operands (an op that does
    not is Opaque in the columns, see graph.columns).
    """
    root = root_index(g, "TopoSort", root)
    _, kinds, firsts, seconds = columns(g, "TopoSort")
    needed = bytearray(root + 1)
    needed[root] = 1
    order = []
    for i in range(root, -1, -1):
        if not needed[i]:
            continue
        order.append(i)
        kind = kinds[i]
        if kind is None:
            continue
        if kind is Opaque:
            raise bad_op("TopoSort", i, kind, firsts[i], seconds[i])
        a = firsts[i]
        needed[a] = needed[seconds[i] if kind.arity == 2 else a] = 1
    order.reverse()
    return order


def bad_op(fn: str, i: int, kind: Any, a: Any, b: Any) -> Exception:
    """The error for node i, whose op (stored as kind, a, b: Opaque, see graph._op_parts)
    cannot be differentiated."""
    if kind is Opaque and type(a) in VARIANTS:
        return ValueError(
            f"{fn}: node {i} has op {a!r}, whose operands are not all earlier "
            f"nodes: every op must refer to nodes made before it"
        )
    op = a if kind is Opaque else tuple.__new__(kind, (a,) if b is None else (a, b))
    return TypeError(f"{fn}: node {i} has op {op!r}, which is not an engine op")


def Backward(g: Graph, root: int) -> None:
    """Set every grad of the graph to d(root)/d(node): 1.0 for the root, 0.0 for each node
    the root does not depend on (so the grads are always one root's, whatever an earlier
    Backward left), and for a node used twice the sum of both uses (the multivariate chain
    rule). Calling it twice gives the same grads. A bad op raises before any grad changes.
    """
    root = root_index(g, "Backward", root)
    grads = chain_rule(*columns(g, "Backward"), root, 1.0)
    if isinstance(g, Graph):
        g._grad = grads
    else:
        for v, grad in zip(g.nodes, grads, strict=True):
            v.grad = grad
    g.backward_root = root


def chain_rule(data: list[Any], kinds: list[Any], firsts: list[Any], seconds: list[Any],
               root: int, seed: float) -> list[float]:
    """Every node's grad when the root's is `seed`, in a new list: the graph's columns
    (see Graph) are only read.

    One sweep down from `root` (the tape is append-only, so users come after their
    operands; an op that does not is Opaque in the columns, see graph.columns): each node
    the root needs adds its grad times its local derivative to its operands'. The ops
    are tested in order of how often models use them, each arm beside its derivative, so
    there is no call per node; each sum is written out
    (`grads[a] = grads[a] + ...`), which takes three bytecodes fewer than `+=`. A node
    the root does not need keeps UNREACHED, a 0.0 of its own: any sum makes a new float,
    so `is` tells the nodes that got a term (and so are needed, even where the term is
    0.0) from the others.
    """
    unreached = UNREACHED
    grads = [unreached] * len(data)
    grads[root] = seed if seed is not unreached else 0.0
    for i in range(root, -1, -1):
        grad = grads[i]
        if grad is unreached:
            continue
        kind = kinds[i]
        if kind is Mul:
            a = firsts[i]
            b = seconds[i]
            grads[a] = grads[a] + grad * data[b]  # d(a*b)/da = b
            grads[b] = grads[b] + grad * data[a]  # d(a*b)/db = a
        elif kind is Add:
            a = firsts[i]
            b = seconds[i]
            grads[a] = grads[a] + grad  # d(a+b)/da = 1
            grads[b] = grads[b] + grad  # d(a+b)/db = 1
        elif kind is None:
            continue
        elif kind is Relu:
            a = firsts[i]
            # d(relu a)/da = 1 if a > 0 else 0; nan passes (as torch)
            grads[a] = grads[a] + (grad if not data[i] <= 0 else 0.0)
        elif kind is Tanh:
            a = firsts[i]
            t = data[i]
            # d(tanh a)/da = 1 - tanh(a)**2, as (1 - t)(1 + t): exact where t is near ±1,
            # where 1 - t*t loses the bits rounding t*t drops (torch's form too)
            grads[a] = grads[a] + grad * ((1.0 - t) * (1.0 + t))
        elif kind is Sub:
            a = firsts[i]
            b = seconds[i]
            grads[a] = grads[a] + grad  # d(a-b)/da = 1
            grads[b] = grads[b] - grad  # d(a-b)/db = -1
        elif kind is Pow:
            a = firsts[i]
            k = seconds[i]
            # k * a**(k-1); a**0 is constant: grad 0 for every a, 0 and nan included (as torch)
            grads[a] = grads[a] + (grad * (k * ieee_pow(data[a], k - 1)) if k != 0 else 0.0)
        elif kind is Sigmoid:
            a = firsts[i]
            s = data[i]
            grads[a] = grads[a] + grad * (1.0 - s) * s  # d(σ(a))/da = σ(a) * (1 - σ(a))
        elif kind is Exp:
            a = firsts[i]
            grads[a] = grads[a] + grad * data[i]  # d(e**a)/da = e**a = out
        elif kind is Neg:
            a = firsts[i]
            grads[a] = grads[a] - grad  # d(-a)/da = -1
        elif kind is Div:
            a = firsts[i]
            b = seconds[i]
            y = data[b]
            grads[a] = grads[a] + ieee_div(grad, y)  # d(a/b)/da = 1/b
            # d(a/b)/db = -a/b² = -out/b, as torch orders it: out/b first, so a grad that
            # underflowed to 0 times an out/b that overflowed is nan, not a silent 0.0
            grads[b] = grads[b] - grad * ieee_div(data[i], y)
        elif kind is Log:
            a = firsts[i]
            grads[a] = grads[a] + ieee_div(grad, data[a])  # d(log a)/da = 1/a
        else:  # Opaque: some other object as op
            break
    else:
        return grads
    raise bad_op("Backward", i, kinds[i], firsts[i], seconds[i])


UNREACHED = float("0.0")
"""The grad chain_rule leaves on the nodes the root does not need (see there)."""


def ZeroGrad(g: Graph) -> None:
    """Set every grad of the graph to zero."""
    if isinstance(g, Graph):
        g._grad = []  # a Graph's missing grads are 0.0
        return
    for v in g.nodes:
        v.grad = 0.0
