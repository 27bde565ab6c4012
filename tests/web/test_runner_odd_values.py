"""A learner's odd value is theirs to see: whatever a graph's nodes hold, its table is one
the page reads (tests/web/tables.py says what that is), and what the table shows
otherwise than the graph holds it, a note says."""

from __future__ import annotations

import pytest

from tests.web.contract import CONTRACT
from tests.web.runs import run
from tests.web.tables import assert_page_reads

GRAPH = (
    "from engine import Add, Backward, Graph, MakeValue, VMul\n"
    "g = Graph()\n"
    "a = MakeValue(g, 2.0, label='a')\n"
    "b = VMul(g, a, a)\n"
)
MAX_TABLES = CONTRACT["table"]["perRun"]


def table_of(code: str) -> dict:
    result, output = run(GRAPH + code)
    assert result["status"] == "done", result["error"]
    (table,) = result["tables"]
    assert_page_reads(table)
    return table


@pytest.mark.parametrize(("value", "text", "kind"), [
    ("'one'", "'one'", "str"),
    ("None", "None", "NoneType"),
    ("True", "True", "bool"),
    ("1j", "1j", "complex"),
])
def test_a_data_that_is_not_a_number_shows_as_its_text_with_a_note(value, text, kind):
    table = table_of(f"g.nodes[a].data = {value}\n")
    assert table["data"] == [None, 4.0]
    assert table["notNumbers"] == {"data": {"0": text}, "grad": {}}
    assert table["notes"] == [f"node 0's data is {text}, a {kind}, not a number"]


def test_grads_that_are_not_numbers_show_as_text_and_one_note_counts_them():
    table = table_of("g.nodes[a].grad = [1]\ng.nodes[b].grad = None\n")
    assert table["grad"] == [None, None]
    assert table["notNumbers"]["grad"] == {"0": "[1]", "1": "None"}
    assert table["notes"] == ["node 0's grad is [1], a list, not a number, "
                              "and so is the grad of 1 more node"]


def test_numbers_too_big_or_not_finite_stay_numbers():
    table = table_of("g.nodes[a].data = 10**400\ng.nodes[b].grad = float('nan')\n")
    assert table["data"] == ["inf", 4.0] and table["grad"] == [0.0, "nan"]
    assert table["notes"] == []


@pytest.mark.parametrize("operand", ["2**53", "99"])
def test_an_operand_that_is_not_a_node_links_nothing_and_a_note_names_it(operand):
    table = table_of(f"g.nodes[b].op = Add(0, {operand})\n")
    assert table["args"] == [[], [0]] and table["missingOperands"] == [1]
    assert table["op"][1] == f"Add(0, {eval(operand)})"
    assert table["notes"] == [f"node 1's op Add(0, {eval(operand)}) names {eval(operand)}, "
                              "which is not a node of this graph (it has 2): "
                              "no edge is drawn from it"]


def test_a_learners_op_naming_a_node_past_the_end_links_only_the_nodes_it_names():
    code = (
        "class V:\n    def __init__(s, o): s.data, s.grad, s.op = 1.0, 0.0, o\n"
        "class Mine:\n    nodes = [V(None), V(('Add', 0, 99)), V(('Neg', -1))]\nmine = Mine()\n"
    )
    result, _ = run(code)
    (table,) = [t for t in result["tables"] if t["title"] == "mine"]
    assert_page_reads(table)
    assert table["args"] == [[], [0], []] and table["missingOperands"] == [1, 2]
    assert table["notes"] == ["node 1's op Add(0, 99) names 99, which is not a node of this "
                              "graph (it has 3) (so does 1 more op): no edge is drawn from it"]


@pytest.mark.parametrize("lines", ["{0: 0, 1: -3}", "{0: 2**53, 1: 2}"])
def test_lines_that_are_not_line_numbers_are_left_out(lines):
    table = table_of(f"g.lines = {lines}\n")
    assert table["line"] == ([None, None] if "-3" in lines else [None, 2])


@pytest.mark.parametrize("root", ["99", "-1"])
def test_a_backward_root_that_is_not_a_node_says_so_and_has_no_root(root):
    table = table_of(f"g.backward_root = {root}\n")
    assert table["root"] is None and table["steps"] is None
    assert table["noSteps"] == f"its backward_root, {root}, is not a node of the graph (it has 2)"


def test_backward_is_not_replayed_once_a_data_is_not_a_number():
    table = table_of("Backward(g, b)\ng.nodes[a].data = 'one'\n")
    assert table["root"] == 1 and table["steps"] is None
    assert table["noSteps"] == "node 0's data is 'one', a str, not a number"


def test_a_million_graphs_in_the_globals_make_100_tables_and_a_note():
    code = "class G:\n    nodes = []\nglobals().update({f'g{i}': G() for i in range(1_000_000)})\n"
    result, output = run(code)
    assert [t["title"] for t in result["tables"]] == [f"g{i}" for i in range(MAX_TABLES)]
    assert output == ("999,900 more graphs in the globals not shown: "
                      "a run shows 100 tables at most\n")


def test_show_called_past_the_limit_keeps_the_first_snapshots_and_says_how_many_more():
    result, output = run(GRAPH + "for i in range(150):\n    show(g, f's{i}')\n")
    assert [t["title"] for t in result["tables"]] == [f"s{i}" for i in range(MAX_TABLES)]
    assert output == ("50 more snapshots of show() not shown: a run shows 100 tables at most\n"
                      "1 more graph in the globals not shown: a run shows 100 tables at most\n")
