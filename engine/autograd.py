"""The course's next chapter: topological sort and the backward pass, with no recursion."""

from __future__ import annotations

from .graph import Graph, Opaque, Value, root_index
from .ops import Add, Div, Exp, Log, Mul, Neg, Pow, Relu, Sigmoid, Sub, Tanh, ieee_div, ieee_pow


def TopoSort(g: Graph, root: int) -> list[int]:
    """The indices of the nodes `root` depends on (itself included), operands before users.

    The tape is append-only, so one sweep down from `root` finds them: a node is needed
    if a needed node uses it, and every user sits above its operands.
    """
    root = root_index(g, "TopoSort", root)
    nodes = g.nodes
    needed = bytearray(root + 1)
    needed[root] = 1
    order = []
    for i in range(root, -1, -1):
        if not needed[i]:
            continue
        order.append(i)
        v = nodes[i]
        kind = v._kind
        if kind is None:
            continue
        a = v._a
        b = v._b if kind is not Opaque and kind.arity == 2 else a
        if kind is Opaque or not (type(a) is int and type(b) is int and 0 <= a < i and 0 <= b < i):
            raise bad_op("TopoSort", i, v)
        needed[a] = needed[b] = 1
    order.reverse()
    return order


def bad_op(fn: str, i: int, v: Value) -> Exception:
    """The error for node i, whose op cannot be differentiated."""
    if v._kind is Opaque:
        return TypeError(f"{fn}: node {i} has op {v.op!r}, which is not an engine op")
    return ValueError(
        f"{fn}: node {i} has op {v.op!r}, whose operands are not all earlier "
        f"nodes: every op must refer to nodes made before it"
    )


def Backward(g: Graph, root: int) -> None:
    """Set every grad of the graph to d(root)/d(node): 1.0 for the root, 0.0 for each node
    the root does not depend on (so the grads are always one root's, whatever an earlier
    Backward left), and for a node used twice the sum of both uses (the multivariate chain
    rule). Calling it twice gives the same grads. A bad op raises before any grad changes.
    """
    root = root_index(g, "Backward", root)
    nodes = g.nodes
    for v, grad in zip(nodes, chain_rule(nodes, root, 1.0), strict=True):
        v.grad = grad
    g.backward_root = root


def chain_rule(nodes: list[Value], root: int, seed: float) -> list[float]:
    """Every node's grad when the root's is `seed`, in a new list: the nodes are only read.

    One sweep down from `root` (the tape is append-only, so users come after their
    operands): each node the root needs adds its grad times its local derivative to its
    operands'. The ops are tested in order of how often models use them, each arm beside
    its derivative, so there is no call per node.
    """
    grads = [0.0] * len(nodes)
    grads[root] = seed
    needed = [False] * (root + 1)
    needed[root] = True
    for i in range(root, -1, -1):
        if not needed[i]:
            continue
        v = nodes[i]
        kind = v._kind
        if kind is Mul:
            a = v._a
            b = v._b
            if a >= i or b >= i:
                break
            grad = grads[i]
            grads[a] += grad * nodes[b].data  # d(a*b)/da = b
            grads[b] += grad * nodes[a].data  # d(a*b)/db = a
            needed[a] = needed[b] = True
        elif kind is Add:
            a = v._a
            b = v._b
            if a >= i or b >= i:
                break
            grad = grads[i]
            grads[a] += grad  # d(a+b)/da = 1
            grads[b] += grad  # d(a+b)/db = 1
            needed[a] = needed[b] = True
        elif kind is None:
            continue
        elif kind is Relu:
            a = v._a
            if a >= i:
                break
            if not v.data <= 0:  # d(relu a)/da = 1 if a > 0 else 0; nan passes (as torch)
                grads[a] += grads[i]
            needed[a] = True
        elif kind is Tanh:
            a = v._a
            if a >= i:
                break
            t = v.data
            grads[a] += grads[i] * (1.0 - t * t)  # d(tanh a)/da = 1 - tanh(a)**2
            needed[a] = True
        elif kind is Sub:
            a = v._a
            b = v._b
            if a >= i or b >= i:
                break
            grad = grads[i]
            grads[a] += grad  # d(a-b)/da = 1
            grads[b] -= grad  # d(a-b)/db = -1
            needed[a] = needed[b] = True
        elif kind is Pow:
            a = v._a
            if a >= i:
                break
            k = v._b
            if k != 0:  # a**0 is constant: grad 0 for every a, 0 and nan included (as torch)
                grads[a] += grads[i] * (k * ieee_pow(nodes[a].data, k - 1))  # k * a**(k-1)
            needed[a] = True
        elif kind is Sigmoid:
            a = v._a
            if a >= i:
                break
            s = v.data
            grads[a] += grads[i] * (1.0 - s) * s  # d(σ(a))/da = σ(a) * (1 - σ(a))
            needed[a] = True
        elif kind is Exp:
            a = v._a
            if a >= i:
                break
            grads[a] += grads[i] * v.data  # d(e**a)/da = e**a = out
            needed[a] = True
        elif kind is Neg:
            a = v._a
            if a >= i:
                break
            grads[a] -= grads[i]  # d(-a)/da = -1
            needed[a] = True
        elif kind is Div:
            a = v._a
            b = v._b
            if a >= i or b >= i:
                break
            grad = grads[i]
            y = nodes[b].data
            grads[a] += ieee_div(grad, y)  # d(a/b)/da = 1/b
            # d(a/b)/db = -a/b² = -out/b, as torch orders it: out/b first, so a grad that
            # underflowed to 0 times an out/b that overflowed is nan, not a silent 0.0
            grads[b] -= grad * ieee_div(v.data, y)
            needed[a] = needed[b] = True
        elif kind is Log:
            a = v._a
            if a >= i:
                break
            grads[a] += ieee_div(grads[i], nodes[a].data)  # d(log a)/da = 1/a
            needed[a] = True
        else:  # Opaque: some other object as op
            break
    else:
        return grads
    raise bad_op("Backward", i, nodes[i])


def ZeroGrad(g: Graph) -> None:
    """Set every grad of the graph to zero."""
    for v in g.nodes:
        v.grad = 0.0
