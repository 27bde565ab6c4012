"""Replaying the tape being built: node by node, each appearing in the table and the
picture as its op pushed it, its line marked, its forward rule in words and numbers, and
the index its function returned with the name the code gave it; a mode of its own, as
Backward's replay is, and one at a time."""

from __future__ import annotations

from playwright.sync_api import expect

from .test_graph import box, node_line, run_and_draw, step_button
from .test_run import PROGRAMS, chapter_grads

BACK = "Show the program's values"


def tape(playground):
    return playground.element.locator(".tape-stepper")


def tape_button(playground, name: str):
    return tape(playground).get_by_role("button", name=name, exact=True)


def told(playground) -> str:
    return tape(playground).locator(".step-where").inner_text()


def greyed_rows(playground) -> list[int]:
    return playground.element.locator("tbody tr.unmade").evaluate_all(
        "rows => rows.map(r => +r.dataset.node)")


def greyed_boxes(playground) -> list[int]:
    return [i for i in range(6) if "unmade" in box(playground, i).get_attribute("class")]


def test_each_node_appears_as_its_op_pushed_it_with_its_rule_in_numbers(playground):
    run_and_draw(playground)
    assert told(playground).startswith("Your code made 6 nodes, each pushed on the tape")
    tape_button(playground, "First node").click()
    expect(playground.element.locator(".replay-band.tape")).to_have_text(
        "Replaying the tape being built: 1 of 6 nodes made — later ones greyed, every grad "
        f"still 0. {BACK}")
    assert told(playground) == ("Node 0, 1 of 6 made (line 5): a = None: a leaf, data 2.0; "
                                "MakeValue returned 0, so a = 0.")
    assert node_line(playground) == 'a = MakeValue(g, 2.0, label="a")'
    assert greyed_rows(playground) == [1, 2, 3, 4, 5]
    assert greyed_boxes(playground) == [1, 2, 3, 4, 5]
    for _ in range(3):
        tape_button(playground, "Next node").click()
    assert told(playground) == ("Node 3, 4 of 6 made (line 8): #3 = Mul(0, 1): a.data * b.data "
                                "= 2.0 * -3.0 = -6.0; VMul returned 3.")
    assert greyed_rows(playground) == [4, 5] and greyed_boxes(playground) == [4, 5]
    assert playground.full_values("grad") == [0.0] * 6  # the tape is built: no grad yet
    assert "current" in box(playground, 3).get_attribute("class")
    tape_button(playground, "Last node").click()
    assert told(playground) == ("Node 5, 6 of 6 made (line 8): #5 = Tanh(4): tanh(#4.data) = "
                                "tanh(4.0) = 0.999329; VTanh returned 5, so e = 5.")
    assert greyed_rows(playground) == []


def test_one_replay_at_a_time_and_one_control_back_to_the_programs_values(playground):
    run_and_draw(playground)
    step_button(playground, "Next").click()  # Backward's replay
    assert playground.element.locator(".stepper").get_attribute("data-step") == "1"
    tape_button(playground, "First node").click()  # the tape's replaces it
    assert playground.element.locator(".stepper").get_attribute("data-step") is None
    assert tape(playground).get_attribute("data-node") == "0"
    step_button(playground, "Last").click()  # and Backward's the tape's
    assert tape(playground).get_attribute("data-node") is None
    assert greyed_rows(playground) == []
    tape_button(playground, "Previous node").click()
    assert tape(playground).get_attribute("data-node") == "4"
    bands = playground.element.locator(".replay-band")
    bands.get_by_role("button", name=BACK).locator("visible=true").click()
    expect(bands.locator("visible=true")).to_have_count(0)
    assert playground.full_values("grad") == chapter_grads()
    assert greyed_rows(playground) == []


def test_the_learners_own_classes_step_by_node_without_an_ops_words(playground):
    code = (PROGRAMS / "class_graph.py").read_text(encoding="utf-8")
    run_and_draw(playground, code)
    tape(playground).focus()
    playground.page.keyboard.press("End")
    assert told(playground).startswith("Node 3, 4 of 4 made")
    assert told(playground).endswith(": #3 = Mul(2, 1), data 6.0.")
    playground.page.keyboard.press("Escape")
    assert tape(playground).get_attribute("data-node") is None
