"""The tables of code that ended without error go to the page as soon as they are made,
ahead of the run's end: freeing what the code left (its objects' __del__ included) and
putting Python back come after, while the page paints them."""

from __future__ import annotations

import json

from .runs import RUNNER, strict_json

GRAPH = "from engine import Graph, MakeValue\ng = Graph()\nMakeValue(g, 2.0, label='a')\n"
FREED_LAST = "class Late:\n    def __del__(self):\n        print('freed')\n\nlate = Late()\n"


def run_ahead(code: str) -> tuple[dict, list[tuple[str, object]]]:
    """Run `code` as the worker does, its tables sent ahead: the result, and what was sent
    on the way, in order: ("output", pairs) and ("tables", tables)."""
    sent: list[tuple[str, object]] = []
    result = strict_json(RUNNER.run(
        code, lambda batch: sent.append(("output", strict_json(batch))),
        send_tables=lambda text: sent.append(("tables", strict_json(text)))))
    RUNNER.tidy()
    return result, sent


def printed(sent: list[tuple[str, object]]) -> str:
    return "".join(text for kind, pairs in sent if kind == "output" for _, text in pairs)


def test_the_tables_go_before_what_the_end_of_the_run_prints_and_the_result_has_none():
    code = GRAPH + FREED_LAST
    result, sent = run_ahead(code)
    kinds = [kind for kind, _ in sent]
    assert kinds.count("tables") == 1
    ahead = kinds.index("tables")
    assert printed(sent[:ahead]) == "" and printed(sent[ahead:]) == "freed\n"
    (tables,) = [what for kind, what in sent if kind == "tables"]
    alone = strict_json(RUNNER.run(code, lambda batch: None))  # tables sent with the result
    RUNNER.tidy()
    assert [t["title"] for t in tables] == ["g"]
    assert tables == alone["tables"]
    assert result["status"] == "done"
    assert result["tables"] == []


def test_code_that_ended_in_an_error_sends_its_tables_with_its_result():
    result, sent = run_ahead(GRAPH + "1 / 0\n")
    assert "tables" not in [kind for kind, _ in sent]
    assert result["status"] == "error"
    assert [t["title"] for t in result["tables"]] == ["g"]


def test_code_that_leaves_no_graph_sends_nothing_ahead():
    result, sent = run_ahead("print('no graph')\n")
    assert "tables" not in [kind for kind, _ in sent]
    assert result["tables"] == []


def test_a_table_that_cannot_be_sent_is_said_and_left_out_of_those_ahead_and_of_the_steps():
    code = (GRAPH + "show(g, 'snap')\n"  # its one node: no steps
            "show.tables[0][0]['extra'] = {1, 2}\n"  # a set: no JSON has it
            "from engine import Backward, VMul\n"
            "y = 0\nfor _ in range(150):\n    y = VMul(g, y, 0)\nBackward(g, y)\n")
    result, sent = run_ahead(code)
    (tables,) = [what for kind, what in sent if kind == "tables"]
    assert [t["title"] for t in tables] == ["g"]  # snap, first, is left out
    assert "cannot show snap as a table" in printed(sent)
    assert result["tables"] == []
    # The steps the page asks for of its table 0 are those of g, the table it has.
    (g,) = tables
    assert g["stepsLater"] > 100
    assert len(json.loads(RUNNER.steps(0))["steps"]) == g["stepsLater"]
    assert json.loads(RUNNER.steps(1))["steps"] is None
