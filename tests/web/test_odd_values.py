"""A valid program is never a protocol failure: a learner's odd value is theirs to see, as
text in the table, with a note, and the picture and the stepper leave out what they
cannot draw and say so. The engine's own nodes refuse data that is not a number, and
the run's error says so; a learner's own classes can hold anything."""

from __future__ import annotations

import pytest

from .runs import MINE
from .test_graph import edges, run_and_draw, stepper

GRAPH = (
    "from engine import Add, Backward, Graph, MakeValue, VMul\n"
    "g = Graph()\n"
    "a = MakeValue(g, 2.0, label='a')\n"
    "b = VMul(g, a, a)\n"
)
SAFE = 2**53


def mine(data: str) -> str:
    """A program whose graph g, of the learner's classes, has `data` as node 0's data."""
    return f"{MINE}g = Mine(Node({data}), Node(4.0, ('Mul', 0, 0)))\n"


# What each learner did to a graph, and the table's notes then.
ODD = {
    "a str data": (mine("'one'"), ["node 0's data is 'one', a str, not a number"]),
    "a None data": (mine("None"), ["node 0's data is None, a NoneType, not a number"]),
    "a bool data": (mine("True"), ["node 0's data is True, a bool, not a number"]),
    "a complex data": (mine("1j"), ["node 0's data is 1j, a complex, not a number"]),
    "a list grad": (GRAPH + "g.nodes[a].grad = [1]",
                    ["node 0's grad is [1], a list, not a number"]),
    "a None grad": (GRAPH + "g.nodes[b].grad = None",
                    ["node 1's grad is None, a NoneType, not a number"]),
    "an operand past 2**53": (
        GRAPH + f"g.nodes[b].op = Add(0, {SAFE})",
        [f"node 1's op Add(0, {SAFE}) names {SAFE}, which is not a node of this graph "
         "(it has 2): no edge is drawn from it"]),
    "a line of 0": (GRAPH + "g.lines = {0: 0, 1: -1}", []),
    "a backward_root past the end": (GRAPH + "g.backward_root = 99", []),
}


def notes(playground) -> list[str]:
    return playground.element.locator(".table-notes li").all_inner_texts()


@pytest.mark.parametrize("odd", ODD.values(), ids=ODD.keys())
def test_a_graph_with_an_odd_value_runs_and_shows_its_table_with_a_note(playground, odd):
    code, expected_notes = odd
    assert playground.run(f"{code}\nprint('ok')\n") == "done"
    assert playground.output == "ok\n"
    assert playground.graphs() == ["g (2 nodes)"]
    assert notes(playground) == expected_notes


def test_data_the_engine_refuses_is_the_runs_error_naming_it_and_its_line(playground):
    assert playground.run(GRAPH + "g.nodes[a].data = 'one'\n") == "error"
    last = playground.output.strip().splitlines()[-1]
    assert last == "TypeError: Value.data must be a real number, got 'one' (str)"
    assert playground.marked_line() == "g.nodes[a].data = 'one'"
    assert playground.graphs() == ["g (2 nodes)"]
    assert [row[3] for row in playground.rows()] == ["2.0", "4.0"]


def test_a_data_that_is_not_a_number_is_its_text_in_the_cell_and_the_picture(playground):
    run_and_draw(playground, mine("'one'") + "g.nodes[1].grad = None\n")
    assert [row[3:] for row in playground.rows()] == [["'one'", "0.0"], ["4.0", "None"]]
    cell = playground.element.locator("tbody td.data").first
    assert cell.get_attribute("title") == "'one': not a number"
    texts = playground.element.locator("svg.graph g.value text").all_text_contents()
    assert "data 'one'" in texts and "grad None" in texts


def test_the_picture_draws_no_edge_from_an_operand_that_is_not_a_node_and_says_so(playground):
    run_and_draw(playground, GRAPH + "g.nodes[b].op = Add(0, 99)\n")
    assert edges(playground) == {("v0", "op1"), ("op1", "v1")}
    assert playground.element.locator(".picture-note").inner_text() == (
        "Node 1's op names what is not a node of this graph: no edge is drawn from it.")


def test_the_stepper_says_why_backward_cannot_be_replayed(playground):
    assert playground.run(GRAPH + "Backward(g, b)\ng.backward_root = 99\n") == "done"
    assert stepper(playground).is_visible()
    assert stepper(playground).locator(".step-where").inner_text() == (
        "Backward cannot be replayed: its backward_root, 99, is not a node of the graph "
        "(it has 2).")
    built_on_graph = (
        f"{MINE}from engine import Graph\n"
        "class Built(Graph):\n"
        "    nodes = []\n"
        "g = Built()\n"
        "g.nodes = [Node('one'), Node(4.0, ('Mul', 0, 0))]\n"
        "g.backward_root = 1\n"
    )
    assert playground.run(built_on_graph) == "done"
    assert stepper(playground).locator(".step-where").inner_text() == (
        "Backward cannot be replayed: node 0's data is 'one', a str, not a number.")
