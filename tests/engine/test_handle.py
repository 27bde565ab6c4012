"""Operator sugar records exactly the nodes the course's functions record."""

import math

import pytest

from engine import (
    Graph,
    Handle,
    MakeValue,
    VAdd,
    VDiv,
    VExp,
    VLog,
    VMul,
    VNeg,
    VPow,
    VRelu,
    VSigmoid,
    VSub,
    VTanh,
)


def nodes(g):
    return [(v.data, v.op, v.label) for v in g.nodes]


def test_operators_record_the_same_nodes_as_the_functions():
    sugar = Graph()
    x, y = sugar.value(0.5, label="x"), sugar.value(-2.0, label="y")
    z = ((x * y + 1 - y / x) ** 2).tanh().relu().sigmoid().exp().log()
    (-z).backward()

    plain = Graph()
    a, b = MakeValue(plain, 0.5, label="x"), MakeValue(plain, -2.0, label="y")
    t = VAdd(plain, VMul(plain, a, b), MakeValue(plain, 1))
    t = VSub(plain, t, VDiv(plain, b, a))
    t = VLog(plain, VExp(plain, VSigmoid(plain, VRelu(plain, VTanh(plain, VPow(plain, t, 2))))))
    VNeg(plain, t)

    assert nodes(sugar) == nodes(plain)
    assert x.grad == pytest.approx(sugar.nodes[0].grad) and x.label == "x"


def test_numbers_on_the_left_become_leaves():
    g = Graph()
    x = g.value(4.0)
    assert (2 - x).data == -2.0
    assert (2 / x).data == 0.5
    assert (3 * x).data == 12.0
    assert (1 + x).data == 5.0
    assert isinstance(1 + x, Handle)


def test_handles_of_different_graphs_do_not_mix():
    with pytest.raises(ValueError, match="different graphs"):
        Graph().value(1.0) + Graph().value(2.0)


def test_a_node_exponent_and_non_numbers_are_refused():
    g = Graph()
    x = g.value(2.0)
    with pytest.raises(TypeError, match="exponent must be a number"):
        x ** x
    with pytest.raises(TypeError, match=r"\+: cannot combine a Handle with '1'"):
        x + "1"
    assert len(g.nodes) == 1


def test_exp_overflow_is_inf_not_an_error():
    g = Graph()
    assert g.value(1000.0).exp().data == math.inf


@pytest.mark.parametrize(
    "refused",
    [
        lambda g: g.value(1.0) / 0.0,
        lambda g: g.value(1.0) / 0,
        lambda g: g.value(1.0) / -0.0,
        lambda g: 1.0 / g.value(0.0),
        lambda g: 2 / g.value(-0.0),
    ],
    ids=["x / 0.0", "x / 0", "x / -0.0", "1.0 / zero", "2 / minus zero"],
)
def test_an_operator_an_op_refuses_leaves_no_leaf_for_its_number(refused):
    g = Graph()
    with pytest.raises(ZeroDivisionError, match="VDiv: division by node"):
        refused(g)
    assert len(g.nodes) == 1  # the Handle's own node; the number's leaf went with the op
    assert g.nodes[0].op is None
