"""Bad input gets an error that names the function, the operand and the graph's size, and
the graph is left exactly as it was."""

import math
import random

import pytest

from engine import (
    Add,
    Backward,
    BackwardSteps,
    Graph,
    MakeValue,
    Mul,
    TopoSort,
    VAdd,
    Value,
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
from engine.nn import Neuron

try:
    import numpy
except ImportError:  # numpy's ints are one kind of index among others: tested if installed
    numpy = None


@pytest.fixture
def six():
    g = Graph()
    a, b, c = (MakeValue(g, x) for x in (2.0, -3.0, 10.0))
    VTanh(g, VAdd(g, VMul(g, a, b), c))
    return g


def snapshot(g):
    return [(v.data, v.grad, v.op, v.label) for v in g.nodes]


class Position:
    """A node index of someone's own type, as numpy's ints are: it has __index__."""

    def __init__(self, i: int) -> None:
        self.i = i

    def __index__(self) -> int:
        return self.i

    def __repr__(self) -> str:
        return f"Position({self.i})"


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda g: VAdd(g, 0, 7), IndexError,
         "VAdd: operand b=7 is not a node of this graph (it has 6 nodes)"),
        (lambda g: VMul(g, -7, 0), IndexError,
         "VMul: operand a=-7 is not a node of this graph (it has 6 nodes)"),
        (lambda g: VTanh(g, 6), IndexError,
         "VTanh: operand a=6 is not a node of this graph (it has 6 nodes)"),
        (lambda g: VAdd(g, True, 0), TypeError,
         "VAdd: operand a=True is not a node index (an int), it is a bool"),
        (lambda g: VMul(g, 0, 1.0), TypeError,
         "VMul: operand b=1.0 is not a node index (an int), it is a float"),
        (lambda g: VAdd(g, "0", 1), TypeError,
         "VAdd: operand a='0' is not a node index (an int), it is a str"),
        (lambda g: MakeValue(g, "2"), TypeError,
         "MakeValue: data must be a real number, got '2' (str)"),
        (lambda g: MakeValue(g, None), TypeError,
         "MakeValue: data must be a real number, got None (NoneType)"),
        (lambda g: MakeValue(g, 1.0, label=3), TypeError,
         "MakeValue: label must be a str or None, got 3"),
        (lambda g: VLog(g, 1), ValueError,
         "VLog: log of node 1 is undefined: its data -3.0 is not positive"),
        (lambda g: VAdd(g, 0, Position(6)), IndexError,
         "VAdd: operand b=Position(6) is not a node of this graph (it has 6 nodes)"),
        (lambda g: VNeg(g, Position(-7)), IndexError,
         "VNeg: operand a=Position(-7) is not a node of this graph (it has 6 nodes)"),
        (lambda g: Backward(g, False), TypeError,
         "Backward: root=False is not a node index (an int), it is a bool"),
        (lambda g: g.nodes[True], TypeError, "node index True is not an int, it is a bool"),
        (lambda g: g.nodes["1"], TypeError, "node index '1' is not an int, it is a str"),
        (lambda g: setattr(g.nodes[5], "op", Add(0, False)), TypeError,
         "op Add(a=0, b=False): operand False is not a node index (an int), it is a bool"),
        (lambda g: MakeValue(g, 2**1100), OverflowError,
         "MakeValue: data must be a real number within a float's range (±1.8e308), got an "
         "int of about 331 digits"),
        (lambda g: VPow(g, 0, 2**1100), OverflowError,
         "VPow: the exponent must be a number within a float's range (±1.8e308), got an int "
         "of about 331 digits"),
        (lambda g: VPow(g, 1, -(10**400)), OverflowError,
         "VPow: the exponent must be a number within a float's range (±1.8e308), got an int "
         "of about 400 digits"),
        (lambda g: g.nodes.append(Value(10**400)), OverflowError,
         "Value: data must be a real number within a float's range (±1.8e308), got an int "
         "of about 400 digits"),
        (lambda g: g.nodes.append(Value([1.0])), TypeError,
         "Value: data must be a real number, got [1.0] (list)"),
    ],
)
def test_bad_operands_are_named_and_leave_the_graph_unchanged(six, call, error, message):
    before = snapshot(six)
    with pytest.raises(error) as info:
        call(six)
    assert str(info.value) == message
    assert snapshot(six) == before


def test_division_by_a_zero_node_names_it():
    g = Graph()
    a, zero = MakeValue(g, 1.0), MakeValue(g, 0.0)
    with pytest.raises(ZeroDivisionError, match=r"VDiv: division by node 1, whose data is 0\.0"):
        VDiv(g, a, zero)
    assert len(g.nodes) == 2


def test_a_fractional_power_of_a_negative_number_is_refused():
    g = Graph()
    a = MakeValue(g, -8.0)
    with pytest.raises(ValueError, match=r"VPow: node 0 \(data -8\.0\) to the power 0\.5"):
        VPow(g, a, 0.5)
    with pytest.raises(TypeError, match="VPow: the exponent must be a number"):
        VPow(g, a, a == 0)
    assert len(g.nodes) == 1


@pytest.mark.parametrize("fn", [Backward, TopoSort])
@pytest.mark.parametrize(
    ("root", "message"),
    [
        (6, "root=6 is not a node of this graph (it has 6 nodes)"),
        (-7, "root=-7 is not a node of this graph (it has 6 nodes)"),
        (True, "root=True is not a node index (an int), it is a bool"),
        ("5", "root='5' is not a node index (an int), it is a str"),
    ],
)
def test_a_bad_root_is_named(six, fn, root, message):
    before = snapshot(six)
    with pytest.raises((IndexError, TypeError)) as info:
        fn(six, root)
    assert str(info.value) == f"{fn.__name__}: {message}"
    assert snapshot(six) == before


@pytest.mark.parametrize("fn", [Backward, TopoSort])
def test_an_op_referring_forward_is_refused_not_followed(fn):
    g = Graph()
    MakeValue(g, 1.0)
    MakeValue(g, 2.0)
    root = VAdd(g, 0, 1)
    g.nodes[0].op = Add(1, 2)  # a hand-edited node that points at a later one
    g.nodes[1].grad = 5.0
    before = snapshot(g)
    with pytest.raises(ValueError, match=f"{fn.__name__}: node 0 has op Add.*not all earlier"):
        fn(g, root)
    assert snapshot(g) == before


@pytest.mark.parametrize("fn", [Backward, TopoSort])
def test_an_op_referring_to_its_own_node_is_refused_not_followed(fn):
    g = Graph()
    MakeValue(g, 1.0)
    root = VMul(g, 0, 0)
    g.nodes[1].op = Mul(0, 1)
    with pytest.raises(ValueError, match=rf"{fn.__name__}: node 1 has op Mul\(a=0, b=1\), "
                                         "whose operands are not all earlier nodes"):
        fn(g, root)
    assert g.nodes[1].op == Mul(0, 1)


def test_a_value_made_on_its_own_brings_its_op_into_the_graph_it_joins():
    g = Graph()
    MakeValue(g, 2.0)
    MakeValue(g, 3.0)
    v = Value(6.0, op=Mul(0, 1))  # refers to g's nodes, not to its own one-node graph's
    g.nodes.append(v)
    Backward(g, 2)
    assert [n.grad for n in g.nodes] == [3.0, 2.0, 1.0]
    assert TopoSort(g, 2) == [0, 1, 2]


def test_a_list_of_values_of_ones_own_is_differentiated_by_each_ones_place_in_it():
    class OwnGraph:
        nodes = [Value(2.0), Value(3.0), Value(6.0, op=Mul(0, 1)), Value(6.0, op=Add(2, 3))]

    g = OwnGraph()
    Backward(g, 2)
    assert [v.grad for v in g.nodes] == [3.0, 2.0, 1.0, 0.0]
    with pytest.raises(ValueError, match=r"Backward: node 3 has op Add\(a=2, b=3\), whose"):
        Backward(g, 3)
    assert [v.grad for v in g.nodes] == [3.0, 2.0, 1.0, 0.0]


@pytest.mark.parametrize("op", [Add(0, True), Add(0, 1.0), Add("0", 1)])
def test_an_op_whose_operands_are_not_node_indices_is_refused_when_set(op):
    g = Graph()
    MakeValue(g, 1.0)
    with pytest.raises(TypeError, match=r"op Add\(.*\): operand .* is not a node index"):
        g.nodes[0].op = op
    assert g.nodes[0].op is None


def test_a_foreign_op_is_kept_but_not_differentiated():
    g = Graph()
    MakeValue(g, 1.0)
    g.nodes[0].op = ("my add", 0, 0)
    assert g.nodes[0].op == ("my add", 0, 0)
    with pytest.raises(TypeError, match=r"node 0 has op \('my add', 0, 0\).*not an engine op"):
        Backward(g, 0)


def test_nan_and_inf_flow_through_forward_and_backward():
    g = Graph()
    nan, inf = MakeValue(g, math.nan), MakeValue(g, math.inf)
    root = VTanh(g, VMul(g, VAdd(g, nan, inf), inf))
    Backward(g, root)
    assert math.isnan(g.nodes[root].data)
    assert math.isnan(g.nodes[nan].grad)


INDEX_TYPES = [int, Position] + ([numpy.int64] if numpy else [])
OPS = [(VAdd, 2), (VSub, 2), (VMul, 2), (VDiv, 2), (VNeg, 1), (VExp, 1), (VLog, 1),
       (VTanh, 1), (VRelu, 1), (VSigmoid, 1), (lambda g, a: VPow(g, a, 3), 1)]


@pytest.mark.parametrize("index", INDEX_TYPES)
@pytest.mark.parametrize(("op", "arity"), OPS)
def test_an_op_reads_its_operands_as_a_list_reads_an_index(op, arity, index):
    g = Graph()
    MakeValue(g, 2.0)
    MakeValue(g, 3.0)
    by_hand = g.copy()
    op(g, *[index(i) for i in (-1, 0)[:arity]])
    op(by_hand, *(1, 0)[:arity])
    assert snapshot(g) == snapshot(by_hand)


@pytest.mark.parametrize("index", INDEX_TYPES)
def test_a_root_a_view_and_an_ops_operands_are_read_as_a_list_reads_an_index(index):
    g = Graph()
    a = MakeValue(g, 2.0)
    VMul(g, a, VTanh(g, a))
    assert TopoSort(g, index(-1)) == [0, 1, 2]
    assert BackwardSteps(g, index(-1)) == BackwardSteps(g, 2)
    Backward(g, index(-2))
    assert g.backward_root == 1 and g.nodes[index(-3)].grad == g.nodes[a].grad > 0
    g.nodes.append(Value(1.0, op=Add(index(-1), index(-3))))  # the last node then, and a
    g.nodes[index(-2)].op = Mul(index(0), index(-3))
    assert [v.op for v in g.nodes[2:]] == [Mul(0, 1), Add(2, 0)]
    model = Neuron(g, 2, rng=random.Random(1))
    x = [MakeValue(g, 0.5), MakeValue(g, -1.5)]
    first = len(g.nodes)
    out = model([index(-2), index(-1)])
    assert [g.nodes[first].op, g.nodes[first + 2].op] == [Mul(w, xi) for w, xi in zip(
        model.w, x, strict=True)]
    assert g.nodes[out].data == model.forward([0.5, -1.5])


def test_a_neuron_refuses_an_input_past_the_graphs_end_that_its_own_nodes_would_fill():
    g = Graph()
    x = MakeValue(g, 1.0)
    model = Neuron(g, 2, rng=random.Random(1))
    before = snapshot(g)
    with pytest.raises(IndexError) as info:
        model([x, 4])  # node 4 is not there yet: the neuron's first product would be
    assert str(info.value) == "VMul: operand b=4 is not a node of this graph (it has 4 nodes)"
    assert snapshot(g) == before
