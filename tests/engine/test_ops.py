"""Every op: forward value, recorded variant, and grads against central finite differences."""

import math

import pytest
from hypothesis import given, settings

import engine
from engine import (
    Backward,
    Div,
    Exp,
    GradCheck,
    Graph,
    Log,
    MakeValue,
    Neg,
    Pow,
    Relu,
    Sigmoid,
    Sub,
    VAdd,
    VDiv,
    VExp,
    VLog,
    VNeg,
    VPow,
    VRelu,
    VSigmoid,
    VSub,
)
from tests.engine.random_graphs import programs, run_program

UNARY = [
    (VNeg, Neg, lambda x: -x),
    (VExp, Exp, math.exp),
    (VLog, Log, math.log),
    (VRelu, Relu, lambda x: max(x, 0.0)),
    (VSigmoid, Sigmoid, lambda x: 1 / (1 + math.exp(-x))),
]
BINARY = [
    (VSub, Sub, lambda x, y: x - y),
    (VDiv, Div, lambda x, y: x / y),
]


@pytest.mark.parametrize(("fn", "variant", "maths"), UNARY)
def test_unary_ops_compute_and_record(fn, variant, maths):
    g = Graph()
    a = MakeValue(g, 0.7)
    out = fn(g, a)
    assert g.nodes[out].data == pytest.approx(maths(0.7))
    assert g.nodes[out].op == variant(a)


@pytest.mark.parametrize(("fn", "variant", "maths"), BINARY)
def test_binary_ops_compute_and_record(fn, variant, maths):
    g = Graph()
    a, b = MakeValue(g, 0.7), MakeValue(g, -1.3)
    out = fn(g, a, b)
    assert g.nodes[out].data == pytest.approx(maths(0.7, -1.3))
    assert g.nodes[out].op == variant(a, b)


def test_power_records_its_constant_exponent():
    g = Graph()
    a = MakeValue(g, 3.0)
    out = VPow(g, a, 2)
    assert g.nodes[out].data == 9.0
    assert g.nodes[out].op == Pow(a, 2)
    Backward(g, out)
    assert g.nodes[a].grad == 6.0


def test_relu_passes_gradient_only_where_positive():
    g = Graph()
    neg, pos = MakeValue(g, -2.0), MakeValue(g, 2.0)
    Backward(g, VAdd(g, VRelu(g, neg), VRelu(g, pos)))
    assert (g.nodes[neg].grad, g.nodes[pos].grad) == (0.0, 1.0)


def test_every_pep8_name_is_the_course_function_itself():
    pairs = {
        "make_value": "MakeValue", "v_add": "VAdd", "v_sub": "VSub", "v_mul": "VMul",
        "v_div": "VDiv", "v_neg": "VNeg", "v_pow": "VPow", "v_exp": "VExp", "v_log": "VLog",
        "v_tanh": "VTanh", "v_relu": "VRelu", "v_sigmoid": "VSigmoid",
        "topo_sort": "TopoSort", "backward": "Backward", "zero_grad": "ZeroGrad",
        "grad_check": "GradCheck",
    }
    for alias, name in pairs.items():
        assert getattr(engine, alias) is getattr(engine, name)


@settings(max_examples=200)
@given(programs())
def test_random_graphs_match_finite_differences(program):
    leaves, steps = program
    check = GradCheck(run_program(steps), leaves, eps=1e-6, rtol=1e-3, atol=1e-5)
    assert check.ok, str(check)


def test_grad_check_names_the_leaf_a_wrong_backward_gets_wrong():
    def half_backward(g, root):
        Backward(g, root)
        g.nodes[1].grad /= 2

    def build(g, x):
        return engine.VMul(g, x[0], x[1])

    check = GradCheck(build, [2.0, 3.0], backward=half_backward)
    assert not check.ok
    assert [c.leaf for c in check.leaves if not c.agrees] == [1]
    report = str(check)
    assert report.startswith("grad check failed")
    assert "leaf 1: Backward gives 1, finite differences give 2" in report
    assert "leaf 0" not in report


def test_the_nodes_ops_make_are_values_like_those_made_by_hand():
    g = Graph()
    a = MakeValue(g, 2.0, label="a")
    b = engine.VTanh(g, engine.VMul(g, a, a))
    by_hand = [engine.Value(2.0, label="a"), engine.Value(4.0, op=engine.Mul(0, 0)),
               engine.Value(math.tanh(4.0), op=engine.Tanh(1))]
    assert all(isinstance(v, engine.Value) for v in g.nodes)
    assert list(map(repr, g.nodes)) == list(map(repr, by_hand))
    g.nodes[b].op = engine.Add(0, 1)
    assert g.nodes[b].op == engine.Add(0, 1) and g.nodes[b].grad == 0.0
