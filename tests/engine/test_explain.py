"""Stepping through Backward: reverse topological order, the chain rule in words and
numbers, and exactly Backward's grads at the end."""

import math

from hypothesis import given, settings

from engine import Backward, BackwardSteps, Graph, MakeValue, TopoSort, VAdd, VMul, VTanh
from tests.engine.random_graphs import programs, run_program


def chapter():
    g = Graph()
    a = MakeValue(g, 2.0, label="a")
    b = MakeValue(g, -3.0, label="b")
    c = MakeValue(g, 10.0, label="c")
    e = VTanh(g, VAdd(g, VMul(g, a, b), c))
    g.nodes[e].label = "e"
    return g, e


def test_steps_visit_nodes_in_reverse_topological_order():
    g, e = chapter()
    assert [s["node"] for s in BackwardSteps(g, e)] == TopoSort(g, e)[::-1]


def test_each_term_says_the_chain_rule_in_words_and_numbers():
    g, e = chapter()
    steps = {s["node"]: s["terms"] for s in BackwardSteps(g, e)}
    t = math.tanh(4.0)
    assert [x["text"] for x in steps[5]] == [f"#4.grad += e.grad * (1 - e.data**2) = "
                                             f"1 * {1 - t * t:.4g} = {1 - t * t:.4g}"]
    assert steps[4][1]["text"].startswith("c.grad += #4.grad * 1 = ")
    assert steps[3][0]["text"].startswith("a.grad += #3.grad * b.data = ")
    assert steps[0] == []  # a leaf passes nothing on


def test_each_term_gives_its_rule_and_numbers_apart_for_a_page_to_write():
    g, e = chapter()
    (mul,) = [s["terms"] for s in BackwardSteps(g, e) if s["node"] == 3]
    t = math.tanh(4.0)
    de = (1 - t) * (1 + t)  # 1 - t**2 as Backward computes it
    assert [(x["rule"], x["upstream"], x["local"], x["value"]) for x in mul] == [
        ("a.grad += #3.grad * b.data", de, -3.0, -3.0 * de),
        ("b.grad += #3.grad * a.data", de, 2.0, 2.0 * de),
    ]


def test_the_last_step_leaves_exactly_backwards_grads_and_the_graph_untouched():
    g, e = chapter()
    before = [v.grad for v in g.nodes]
    steps = BackwardSteps(g, e)
    assert [v.grad for v in g.nodes] == before
    final = {}
    for step in steps:
        for term in step["terms"]:
            final[term["operand"]] = term["grad"]
    Backward(g, e)
    assert final == {i: g.nodes[i].grad for i in range(5)}


def test_a_node_used_twice_gets_a_term_per_use():
    g = Graph()
    x = MakeValue(g, 3.0, label="x")
    sq = VMul(g, x, x)
    (step, *_) = BackwardSteps(g, sq)
    assert [t["value"] for t in step["terms"]] == [3.0, 3.0]
    assert [t["grad"] for t in step["terms"]] == [3.0, 6.0]


@settings(max_examples=100)
@given(programs())
def test_steps_end_with_backwards_grads_on_random_graphs(program):
    leaves, steps = program
    build = run_program(steps)
    g = Graph()
    root = build(g, [MakeValue(g, x) for x in leaves])
    final = {root: 1.0}
    for step in BackwardSteps(g, root):
        for term in step["terms"]:
            final[term["operand"]] = term["grad"]
    Backward(g, root)
    assert final == {i: g.nodes[i].grad for i in TopoSort(g, root)}
