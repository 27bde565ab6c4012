"""Reuse accumulates, Backward is idempotent and leaves one root's grads, ZeroGrad clears, copies
are independent."""

import sys

import pytest

from engine import (
    Backward,
    Graph,
    MakeValue,
    VAdd,
    VMul,
    VTanh,
    ZeroGrad,
)


def test_a_times_a_accumulates_both_uses():
    g = Graph()
    a = MakeValue(g, 3.0)
    sq = VMul(g, a, a)
    Backward(g, sq)
    assert g.nodes[a].grad == 6.0


def test_a_plus_a_accumulates_both_uses():
    g = Graph()
    a = MakeValue(g, 3.0)
    Backward(g, VAdd(g, a, a))
    assert g.nodes[a].grad == 2.0


def test_a_diamond_sums_both_paths():
    g = Graph()
    a = MakeValue(g, 0.5)
    left = VMul(g, a, MakeValue(g, 3.0))  # 3a
    right = VTanh(g, a)  # tanh a
    top = VMul(g, left, right)  # 3a * tanh a
    Backward(g, top)
    t = g.nodes[right].data
    assert g.nodes[a].grad == pytest.approx(3 * t + 3 * 0.5 * (1 - t * t))


def test_backward_twice_gives_the_same_grads():
    g = Graph()
    a = MakeValue(g, 0.3)
    b = MakeValue(g, -1.2)
    root = VTanh(g, VMul(g, VAdd(g, a, b), a))
    Backward(g, root)
    first = [v.grad for v in g.nodes]
    Backward(g, root)
    assert [v.grad for v in g.nodes] == first


def test_the_graph_remembers_the_root_of_its_last_backward():
    g = Graph()
    a = MakeValue(g, 1.0)
    assert g.backward_root is None
    Backward(g, VTanh(g, a))
    Backward(g, VMul(g, a, a))
    assert g.backward_root == 2
    assert g.copy().backward_root == 2


def test_nodes_the_root_does_not_depend_on_get_zero():
    g = Graph()
    a = MakeValue(g, 1.0)
    other = MakeValue(g, 2.0)
    g.nodes[other].grad = 42.0
    Backward(g, VMul(g, a, a))
    assert g.nodes[other].grad == 0.0


def test_a_second_root_leaves_none_of_the_first_roots_grads():
    g = Graph()
    a = MakeValue(g, 3.0)
    b = MakeValue(g, 2.0)
    ab = VMul(g, a, b)
    Backward(g, ab)
    assert (g.nodes[a].grad, g.nodes[b].grad) == (2.0, 3.0)
    aa = VMul(g, a, a)
    Backward(g, aa)
    assert [v.grad for v in g.nodes] == [6.0, 0.0, 0.0, 1.0]


def test_backward_from_an_intermediate_node_zeroes_the_nodes_after_it():
    g = Graph()
    a = MakeValue(g, 0.5)
    t = VTanh(g, a)
    top = VMul(g, t, t)
    Backward(g, top)
    Backward(g, t)
    assert g.nodes[top].grad == 0.0
    assert g.nodes[t].grad == 1.0
    assert g.nodes[a].grad == 1 - g.nodes[t].data ** 2


def test_zero_grad_clears_every_grad():
    g = Graph()
    a = MakeValue(g, 2.0)
    Backward(g, VMul(g, a, VTanh(g, a)))
    assert any(v.grad for v in g.nodes)
    ZeroGrad(g)
    assert all(v.grad == 0.0 for v in g.nodes)


def test_a_copy_is_independent_of_the_original():
    g = Graph()
    a = MakeValue(g, 2.0, label="a")
    root = VMul(g, a, a)
    clone = g.copy()
    Backward(clone, root)
    clone.nodes[a].data = 100.0
    VAdd(clone, a, a)
    assert len(g.nodes) == 2 and len(clone.nodes) == 3
    assert g.nodes[a].data == 2.0 and g.nodes[a].grad == 0.0
    assert clone.nodes[root].op == g.nodes[root].op
    assert clone.nodes[a].label == "a"


def test_a_million_node_chain_needs_no_recursion():
    assert sys.getrecursionlimit() <= 10_000
    g = Graph()
    x = MakeValue(g, 0.0)
    step = MakeValue(g, 1.0)
    for _ in range(1_000_000 - 2):
        x = VAdd(g, x, step)
    Backward(g, x)
    assert len(g.nodes) == 1_000_000
    assert g.nodes[step].grad == 999_998.0
    assert g.nodes[0].grad == 1.0
