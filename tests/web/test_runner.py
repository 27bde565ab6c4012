"""The runner in CPython: what each table tells the picture, the links and the stepper."""

from __future__ import annotations

from pathlib import Path

import build
import playground_runner as runner
from playground_runner.tables import MAX_STEP_NODES
from tests.web.runs import run

WITH_BACKWARD = (build.WEB / "shared" / "example.py").read_text(encoding="utf-8")  # Backward last
EXAMPLE = WITH_BACKWARD.replace("Backward(g, e)\n", "")  # the graph, every grad still zero


def tables(code: str) -> list[dict]:
    result, _ = run(code)
    assert result["status"] == "done", result["error"]
    return result["tables"]


def line_of(code: str, text: str) -> int:
    return next(n for n, line in enumerate(code.splitlines(), 1) if text in line)


def test_each_node_carries_its_operands_and_the_learners_line_that_made_it():
    (g,) = tables(EXAMPLE)
    assert g["args"] == [[], [], [], [0, 1], [3, 2], [4]]
    a, e = line_of(EXAMPLE, 'label="a"'), line_of(EXAMPLE, "VTanh(g")
    assert g["line"] == [a, a + 1, a + 2, e, e, e]


def test_lines_are_recorded_only_while_the_learners_code_runs():
    tables(EXAMPLE)
    from engine import Graph, MakeValue

    g = Graph()
    MakeValue(g, 1.0)
    assert g.lines == {}


def test_a_graph_without_backward_has_no_steps():
    (g,) = tables(EXAMPLE)
    assert g["root"] is None and g["steps"] is None and g["noSteps"] is None


def test_after_backward_the_steps_replay_it_and_end_with_its_grads():
    (g,) = tables(WITH_BACKWARD)
    assert g["root"] == 5
    assert [step["node"] for step in g["steps"]] == [5, 4, 3, 2, 1, 0]
    last = {}
    for step in g["steps"]:
        for term in step["terms"]:
            last[term["operand"]] = term["grad"]
    assert [last.get(i, 1.0) for i in range(6)] == g["grad"]
    assert g["steps"][0]["terms"][0]["text"].startswith("#4.grad += #5.grad * (1 - #5.data**2)")


SNAPSHOT_BEFORE = WITH_BACKWARD.replace("Backward(g, e)", "show(g, 'before')\nBackward(g, e)")


def test_a_snapshot_before_backward_has_no_steps_and_one_after_has_them():
    before, after = tables(SNAPSHOT_BEFORE)
    assert before["steps"] is None and len(after["steps"]) == 6


def test_a_snapshot_says_so_and_a_graph_of_the_globals_does_not():
    assert [(t["title"], t["snapshot"]) for t in tables(SNAPSHOT_BEFORE)] == [
        ("before", True), ("g", False)]


def test_a_graph_too_big_to_replay_keeps_its_root_but_has_no_steps():
    code = (
        "from engine import Backward, Graph, MakeValue, VAdd\n"
        "g = Graph()\n"
        "s = MakeValue(g, 1.0)\n"
        f"for _ in range({MAX_STEP_NODES}):\n"
        "    s = VAdd(g, s, s)\n"
        "Backward(g, s)\n"
    )
    (g,) = tables(code)
    assert g["root"] == MAX_STEP_NODES and g["steps"] is None
    assert g["noSteps"] == "the graph is too big to step through (5,001 nodes; up to 5,000 can be)"


def test_a_graph_changed_after_backward_says_why_it_cannot_be_replayed():
    code = WITH_BACKWARD + "g.nodes[4].op = ('Custom', 3)\n"
    (g,) = tables(code)
    assert g["root"] == 5 and g["steps"] is None
    assert g["noSteps"].startswith("the graph changed after Backward: TopoSort: node 4")


def test_a_learners_own_graph_has_operands_but_no_lines_or_steps():
    code = (
        "class V:\n    def __init__(s, d, o): s.data, s.grad, s.op = d, 0.0, o\n"
        "class G:\n    nodes = [V(1.0, None), V(2.0, ('Neg', 0))]\ngraph = G()\n"
    )
    (g,) = tables(code)
    assert g["args"] == [[], [0]] and g["line"] == [None, None] and g["steps"] is None


def test_the_runner_module_is_the_one_the_site_ships():
    assert Path(runner.__file__) == build.WEB / "playground_runner" / "__init__.py"
