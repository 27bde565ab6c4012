"""The chapter's example, e = tanh(a*b + c), exactly as the course builds it."""

import math

import pytest

from engine import (
    Add,
    Backward,
    Graph,
    MakeValue,
    Mul,
    Tanh,
    TopoSort,
    VAdd,
    VMul,
    VTanh,
)

A, B, C = 2.0, -3.0, 10.0


@pytest.fixture
def chapter():
    g = Graph()
    a = MakeValue(g, A, label="a")
    b = MakeValue(g, B, label="b")
    c = MakeValue(g, C, label="c")
    ab = VMul(g, a, b)
    s = VAdd(g, ab, c)
    e = VTanh(g, s)
    return g, (a, b, c, ab, s, e)


def test_each_op_returns_the_index_of_the_node_it_pushed(chapter):
    g, indices = chapter
    assert indices == (0, 1, 2, 3, 4, 5)
    assert len(g.nodes) == 6


def test_leaves_have_no_op_and_zero_grad(chapter):
    g, _ = chapter
    for leaf, x, label in zip(g.nodes[:3], (A, B, C), "abc", strict=False):
        assert leaf.op is None
        assert leaf.data == x
        assert leaf.grad == 0.0
        assert leaf.label == label


def test_ops_record_their_operand_indices(chapter):
    g, _ = chapter
    assert g.nodes[3].op == Mul(0, 1)
    assert g.nodes[4].op == Add(3, 2)
    assert g.nodes[5].op == Tanh(4)
    assert repr(g.nodes[4].op) == "Add(a=3, b=2)"


def test_forward_values_are_computed_at_once(chapter):
    g, _ = chapter
    assert g.nodes[3].data == A * B
    assert g.nodes[4].data == A * B + C
    assert g.nodes[5].data == math.tanh(A * B + C)
    assert all(v.grad == 0.0 for v in g.nodes)


def test_backward_gives_the_hand_derived_grads(chapter):
    g, (a, b, c, ab, s, e) = chapter
    Backward(g, e)
    t = math.tanh(A * B + C)
    ds = 1 - t**2  # d tanh(s)/ds
    assert g.nodes[e].grad == 1.0
    assert g.nodes[s].grad == pytest.approx(ds)
    assert g.nodes[ab].grad == pytest.approx(ds)
    assert g.nodes[c].grad == pytest.approx(ds)
    assert g.nodes[a].grad == pytest.approx(ds * B)
    assert g.nodes[b].grad == pytest.approx(ds * A)


def test_topological_order_puts_operands_before_users(chapter):
    g, (a, b, c, ab, s, e) = chapter
    order = TopoSort(g, e)
    assert sorted(order) == [0, 1, 2, 3, 4, 5]
    position = {node: k for k, node in enumerate(order)}
    for node in order:
        op = g.nodes[node].op
        for operand in () if op is None else op:
            assert position[operand] < position[node]


def test_topological_sort_leaves_out_what_the_root_does_not_need(chapter):
    g, (a, b, c, ab, s, e) = chapter
    assert TopoSort(g, ab) == [a, b, ab]


def test_ops_work_with_match(chapter):
    g, _ = chapter
    described = []
    for v in g.nodes:
        match v.op:
            case None:
                described.append("leaf")
            case Mul(x, y):
                described.append(f"{x}*{y}")
            case Add(a=x, b=y):
                described.append(f"{x}+{y}")
            case Tanh(x):
                described.append(f"tanh {x}")
    assert described == ["leaf", "leaf", "leaf", "0*1", "3+2", "tanh 4"]
