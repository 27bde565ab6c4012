"""A learner's odd value is theirs to see: whatever a graph's nodes hold, its table is one
the page reads (tests/web/tables.py says what that is), and what the table shows
otherwise than the graph holds it, a note says. The engine's own nodes hold a float as
data and a str or None as label, and refuse anything else with a clear error; a learner's
own classes (their nodes, or a graph built on the engine's Graph) can hold anything."""

from __future__ import annotations

import pytest

from tests.web.contract import CONTRACT
from tests.web.runs import MINE, run
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


ODD_DATA = [
    ("'one'", "'one'", "str"),
    ("None", "None", "NoneType"),
    ("True", "True", "bool"),
    ("1j", "1j", "complex"),
]


def table_of_mine(code: str) -> dict:
    """The table of `mine`, a graph of the learner's own classes that `code` makes."""
    result, _ = run(MINE + code)
    assert result["status"] == "done", result["error"]
    (table,) = [t for t in result["tables"] if t["title"] == "mine"]
    assert_page_reads(table)
    return table


def engine_error(code: str) -> tuple[int, str, list[float]]:
    """The line and last line of the error `code` (after GRAPH) ends with, and the data
    of g's table then."""
    result, _ = run(GRAPH + code)
    assert result["status"] == "error"
    (table,) = result["tables"]
    return result["line"], result["error"].splitlines()[-1], table["data"]


@pytest.mark.parametrize(("value", "text", "kind"), ODD_DATA)
def test_a_data_that_is_not_a_number_shows_as_its_text_with_a_note(value, text, kind):
    table = table_of_mine(f"mine = Mine(Node({value}), Node(4.0, ('Mul', 0, 0)))\n")
    assert table["data"] == [None, 4.0]
    assert table["notNumbers"] == {"data": {"0": text}, "grad": {}}
    assert table["notes"] == [f"node 0's data is {text}, a {kind}, not a number"]


@pytest.mark.parametrize(("value", "text", "kind"), ODD_DATA)
def test_the_engine_refuses_a_data_that_is_not_a_number_naming_it_and_the_line(
    value, text, kind
):
    line, error, data = engine_error(f"g.nodes[a].data = {value}\n")
    assert line == 5
    assert error == f"TypeError: Value.data must be a real number, got {text} ({kind})"
    assert data == [2.0, 4.0]  # the graph as it was


@pytest.mark.parametrize(("code", "error"), [
    ("MakeValue(g, 1.0, label=3)", "TypeError: MakeValue: label must be a str or None, got 3"),
    ("g.nodes[a].label = b'a'", "TypeError: Value.label must be a str or None, got b'a'"),
    ("MakeValue(g, 10**400)", "OverflowError: MakeValue: data must be a real number within "
                              "a float's range (±1.8e308), got an int of about 400 digits"),
    ("g.nodes[a].data = -10**400", "OverflowError: Value.data must be a real number within "
                                   "a float's range (±1.8e308), got an int of about 400 digits"),
])
def test_the_engine_refuses_an_odd_label_or_a_number_no_float_holds(code, error):
    assert engine_error(f"{code}\n") == (5, error, [2.0, 4.0])


def test_grads_that_are_not_numbers_show_as_text_and_one_note_counts_them():
    table = table_of("g.nodes[a].grad = [1]\ng.nodes[b].grad = None\n")
    assert table["grad"] == [None, None]
    assert table["notNumbers"]["grad"] == {"0": "[1]", "1": "None"}
    assert table["notes"] == ["node 0's grad is [1], a list, not a number, "
                              "and so is the grad of 1 more node"]


def test_numbers_too_big_or_not_finite_stay_numbers():
    table = table_of_mine("mine = Mine(Node(10**400), Node(-10**400), Node(4.0))\n"
                          "mine.nodes[2].grad = float('nan')\n")
    assert table["data"] == ["inf", "-inf", 4.0] and table["grad"] == [0.0, 0.0, "nan"]
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
    code = (
        "from engine import Graph\n"
        "class Built(Graph):\n"
        "    nodes = []\n"
        "mine = Built()\n"
        "mine.nodes = [Node('one'), Node(4.0, ('Mul', 0, 0))]\n"
        "mine.backward_root = 1\n"
    )
    table = table_of_mine(code)
    assert table["root"] == 1 and table["steps"] is None
    assert table["noSteps"] == "node 0's data is 'one', a str, not a number"


def test_a_data_set_after_backward_is_the_engines_error_and_the_steps_stay():
    result, _ = run(GRAPH + "Backward(g, b)\ng.nodes[a].data = 'one'\n")
    assert result["status"] == "error" and result["line"] == 6
    assert result["error"].endswith("TypeError: Value.data must be a real number, "
                                    "got 'one' (str)\n")
    (table,) = result["tables"]
    assert table["root"] == 1 and [step["node"] for step in table["steps"]] == [1, 0]


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
