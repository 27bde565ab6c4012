"""The course's next chapter: topological sort and the backward pass, with no recursion."""

from __future__ import annotations

from .graph import Graph, Opaque, root_index


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
        if kind is Opaque:
            raise TypeError(f"TopoSort: node {i} has op {v.op!r}, which is not an engine op")
        a = v._a
        b = v._b if kind.arity == 2 else a
        if type(a) is int and type(b) is int and 0 <= a < i and 0 <= b < i:
            needed[a] = needed[b] = 1
        else:
            raise ValueError(
                f"TopoSort: node {i} has op {v.op!r}, whose operands are not all earlier "
                f"nodes: every op must refer to nodes made before it"
            )
    order.reverse()
    return order


def Backward(g: Graph, root: int) -> None:
    """Fill every node `root` depends on with d(root)/d(node).

    Those grads are zeroed first, so calling Backward twice gives the same grads; a node
    used twice gets the sum of both uses (the multivariate chain rule).
    """
    order = TopoSort(g, root_index(g, "Backward", root))
    nodes = g.nodes
    for i in order:
        nodes[i].grad = 0.0
    nodes[root].grad = 1.0
    for i in reversed(order):
        out = nodes[i]
        kind = out._kind
        if kind is not None:
            kind.backward(nodes, out)
    g.backward_root = root


def ZeroGrad(g: Graph) -> None:
    """Set every grad of the graph to zero."""
    for v in g.nodes:
        v.grad = 0.0
