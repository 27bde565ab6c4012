"""rows() and columns() for the playground's table and to_dot() for Graphviz, on awkward graphs."""

import json
import math
from dataclasses import dataclass
from typing import NamedTuple

import pydot
import pytest
from hypothesis import given

from engine import Backward, Graph, MakeValue, VAdd, VMul, VPow, VTanh, rows, to_dot
from engine.inspect import COLUMNS, columns
from tests.engine.random_graphs import programs, run_program

NASTY = 'x<y & "q" \\ <img src=x onerror=alert(1)>'


@pytest.fixture
def awkward():
    g = Graph()
    a = MakeValue(g, math.nan, label=NASTY)
    b = MakeValue(g, math.inf, label="b")
    c = MakeValue(g, -math.inf)
    s = VAdd(g, VMul(g, a, b), c)
    VPow(g, VTanh(g, s), 2)
    Backward(g, len(g.nodes) - 1)
    return g


def test_rows_describe_every_node_in_index_order():
    g = Graph()
    a = MakeValue(g, 2.0, label="a")
    b = MakeValue(g, -3.0, label="b")
    VPow(g, VMul(g, a, b), 2)
    assert rows(g) == [
        {"index": 0, "label": "a", "op": None, "args": [], "text": "leaf",
         "data": 2.0, "grad": 0.0, "line": None},
        {"index": 1, "label": "b", "op": None, "args": [], "text": "leaf",
         "data": -3.0, "grad": 0.0, "line": None},
        {"index": 2, "label": None, "op": "Mul", "args": [0, 1], "text": "Mul(0, 1)",
         "data": -6.0, "grad": 0.0, "line": None},
        {"index": 3, "label": None, "op": "Pow", "args": [2], "text": "Pow(2, 2)",
         "data": 36.0, "grad": 0.0, "line": None},
    ]


def test_rows_survive_json_with_nan_and_inf(awkward):
    text = json.dumps(rows(awkward), allow_nan=False)
    back = json.loads(text)
    assert back[0]["data"] == "nan" and back[1]["data"] == "inf" and back[2]["data"] == "-inf"
    assert back[0]["label"] == NASTY
    assert all(isinstance(r["grad"], (float, str)) for r in back)


def test_dot_quotes_labels_and_shows_non_finite_numbers(awkward):
    dot = to_dot(awkward)
    assert dot.startswith("digraph autograd {") and dot.rstrip().endswith("}")
    escaped = NASTY.replace("\\", "\\\\").replace('"', '\\"')
    assert f'v0 [shape=box, label="{escaped}\\ndata nan\\ngrad nan"];' in dot
    assert 'label="#2\\ndata -inf' in dot
    assert "v0 -> op3;" in dot and "v1 -> op3;" in dot and "op3 -> v3;" in dot


def test_dot_is_valid_graphviz(awkward):
    (parsed,) = pydot.graph_from_dot_data(to_dot(awkward))
    boxes = [n for n in parsed.get_nodes() if n.get("shape") == "box"]
    assert len(boxes) == len(awkward.nodes)
    assert len(parsed.get_edges()) == 3 + 3 + 2 + 2  # Mul, Add: in, in, out; Tanh, Pow: in, out


class Add(NamedTuple):
    a: int
    b: int


@dataclass
class Mul:
    a: int
    b: int


class Value:
    def __init__(self, data, op=None):
        self.data, self.grad, self.op = data, 0.0, op


class LearnerGraph:
    def __init__(self):
        self.nodes = [Value(1.0), Value(2.0), Value(3.0, Add(0, 1)), Value(6.0, Mul(2, 1)),
                      Value(6.0, ("Tanh", 3))]


def test_rows_read_a_learners_own_classes():
    table = rows(LearnerGraph())
    assert [r["text"] for r in table] == ["leaf", "leaf", "Add(0, 1)", "Mul(2, 1)", "Tanh(3)"]
    assert [r["args"] for r in table] == [[], [], [0, 1], [2, 1], [3]]
    assert table[3]["data"] == 6.0 and table[3]["label"] is None


def test_rows_refuse_what_is_not_a_graph():
    with pytest.raises(TypeError, match="rows: expected a graph"):
        rows([1, 2, 3])


def by_rows(g) -> dict[str, list]:
    """columns() as rows() has them: the definition its quick reading must match."""
    table = rows(g)
    return {key: [row[key] for row in table] for key in COLUMNS}


@given(programs())
def test_an_engine_graphs_columns_are_its_rows_by_field(program):
    leaves, steps = program
    g = Graph()
    for x in leaves:
        MakeValue(g, x, label=f"x{len(g.nodes)}")
    Backward(g, run_program(steps)(g, list(range(len(leaves)))))
    g.lines = {i: i + 1 for i in range(0, len(g.nodes), 2)}
    assert columns(g) == by_rows(g)


def test_columns_read_what_a_learner_put_in_an_engine_graph_as_its_rows_do(awkward):
    g = awkward
    g.nodes[1].op = Add(0, 0)  # an op of the learner's own
    g._label[2] = Mul(0, 1)  # not a str, set past the engine's check
    g._data[0] = "two"
    g.lines = {0: 7, 1: "eight", 2.0: 9}
    del g.nodes[5:]
    MakeValue(g, 1.0)  # after Backward: its grad is not kept yet
    assert len(g._grad) < len(g.nodes)
    assert columns(g) == by_rows(g)
    assert columns(g)["text"][1] == "Add(0, 0)" and columns(g)["line"][:3] == [7, None, 9]


def test_columns_of_an_engine_graph_whose_own_columns_were_cut_are_read_as_rows(awkward):
    awkward._kind.pop()
    with pytest.raises(IndexError):
        by_rows(awkward)
    with pytest.raises(IndexError):
        columns(awkward)


def test_columns_of_a_learners_own_classes_are_their_rows_by_field():
    assert columns(LearnerGraph()) == by_rows(LearnerGraph())
