"""A run's table of an engine Graph takes its shape (labels, ops, operands, lines, the
note of stray operands, how many steps Backward takes) from the last run's table of the
same title when the graph has the same shape, as a live step's graph has: whatever
changed between the runs, the table is exactly the one made afresh."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given

from engine import Add, Backward, Graph, MakeValue, VMul, VPow, VTanh
from playground_runner.tables import Shapes, table
from tests.engine.random_graphs import programs, run_program
from tests.web.runs import run


def graph_of(program) -> Graph:
    leaves, steps = program
    g = Graph()
    for x in leaves:
        MakeValue(g, x, label=f"x{len(g.nodes)}")
    Backward(g, run_program(steps)(g, list(range(len(leaves)))))
    return g


def chain(w: float = 0.9, links: int = 60) -> Graph:
    """bench/live.py's chain, shorter: more than 100 nodes, so its steps come later."""
    g = Graph()
    y = MakeValue(g, 0.5, label="x")
    weight = MakeValue(g, w, label="w")
    for _ in range(links):
        y = VTanh(g, VMul(g, y, weight))
    Backward(g, y)
    g.lines = {i: 7 for i in range(2, len(g.nodes))}
    return g


def after(first: Graph, second: Graph) -> tuple[dict, dict]:
    """The tables of `first`, then of `second` in the next run, both titled g."""
    shapes = Shapes()
    before, _ = table("g", first, shapes)
    shapes.next_run()
    now, later = table("g", second, shapes)
    assert (later is None) == (now["stepsLater"] is None)
    return before, now


@given(programs(), programs())
def test_a_table_after_any_other_graphs_is_the_table_made_afresh(first, second):
    _, now = after(graph_of(first), graph_of(second))
    assert now == table("g", graph_of(second))[0]


def test_a_graph_of_the_same_shape_takes_the_last_runs_shape():
    before, now = after(chain(0.9), chain(1.1))
    assert now == table("g", chain(1.1))[0]
    assert now["data"] != before["data"]
    for field in ("label", "op", "args", "line"):
        assert now[field] is before[field], field


def relabelled(g: Graph) -> None:
    g.nodes[3].label = "h"


def moved(g: Graph) -> None:
    g.lines[5] = 8


def rewritten(g: Graph) -> None:
    g.nodes[4].op = Add(3, 1)


def rooted_earlier(g: Graph) -> None:
    Backward(g, 9)


def grown(g: Graph) -> None:
    VPow(g, 2, 3)


def poked(g: Graph) -> None:
    g._a[2] = "a str"  # past the engine's checks


@pytest.mark.parametrize("change", [relabelled, moved, rewritten, rooted_earlier, grown, poked])
def test_a_graph_whose_shape_changed_has_its_table_made_afresh(change: Callable[[Graph], None]):
    changed = chain()
    change(changed)
    before, now = after(chain(), changed)
    fresh = chain()
    change(fresh)
    assert now == table("g", fresh)[0]
    assert now != before


CHAIN = ("from engine import Graph, MakeValue, VMul, VTanh, Backward\n"
         "g = Graph()\n"
         "y = MakeValue(g, 0.5, label='x')\n"
         "w = MakeValue(g, {w}, label='w')\n"
         "for _ in range(60):\n"
         "    y = VTanh(g, VMul(g, y, w))\n"
         "Backward(g, y)\n")


def test_a_live_steps_tables_are_those_of_a_run_after_another_graph():
    run(CHAIN.format(w=0.9))
    stepped, _ = run(CHAIN.format(w=1.1))
    run("from engine import Graph, MakeValue\ng = Graph()\nMakeValue(g, 1.0)\n")
    afresh, _ = run(CHAIN.format(w=1.1))
    assert stepped["tables"] == afresh["tables"]


def test_a_show_table_the_code_changed_leaves_the_next_runs_tables_as_they_are():
    code = CHAIN.format(w=0.9) + "show(g)\n"
    first, _ = run(code + "show.tables[0][0]['op'][2] = 'changed'\n")
    assert first["tables"][0]["op"][2] == "changed"
    second, _ = run(code)
    assert [t["op"][2] for t in second["tables"]] == ["Mul(0, 1)", "Mul(0, 1)"]
