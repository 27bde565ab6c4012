"""After every run the table, the picture and `run-end` show the graph exactly as the code
left it; replaying Backward is a mode the learner enters, said where the numbers are, and
leaves with one control; Δ marks only the cells whose shown value changed."""

from __future__ import annotations

import math

import pytest
from playwright.sync_api import expect

from tests.web.conftest import RUN_MS
from tests.web.pages import PlaygroundAt, wait_for_all

from .test_first_screen import PHONE
from .test_graph import box, run_and_draw, step_button, stepper, wait_for_picture
from .test_live import put_cursor_after, wait_for_a
from .test_run import CHAPTER_ROWS, chapter_grads

BACK = "Show the program's values"
# The example, with a grad set by hand after Backward: the table shows it, not Backward's.
BY_HAND = "\ng.nodes[a].grad = 5.0\n"


def band(playground):
    return playground.element.locator(".replay-band.backward")


def back(playground):
    """The band's one control back to the program's values."""
    return band(playground).get_by_role("button", name=BACK, exact=True)


def grad_heading(playground) -> str:
    return playground.element.locator("thead th").last.inner_text()


def picture_grads(playground) -> list[str]:
    return [box(playground, i).locator(".grad-line").text_content() for i in range(6)]


def changed_cells(playground) -> set[tuple[int, str]]:
    """(row, column) of every cell marked Δ."""
    marked = playground.element.locator("tbody td.changed").evaluate_all(
        "cells => cells.map(c => [+c.parentElement.dataset.node, c.className.split(' ')[0]])"
    )
    return {(row, column) for row, column in marked}


def expect_the_programs_values(playground, grads: list[float]) -> None:
    """The table, its heading and the picture show `grads`, with no replay said."""
    assert playground.full_values("grad") == pytest.approx(grads, rel=1e-12)
    assert grad_heading(playground) == "grad"
    expect(band(playground)).to_be_hidden()
    assert stepper(playground).get_attribute("data-step") is None
    wait_for_picture(playground)  # a live run's is drawn once the run has ended
    shown = [float(line.split()[-1]) for line in picture_grads(playground)]
    assert shown == pytest.approx(grads, rel=1e-5)


def test_after_run_table_picture_and_run_end_hold_the_grads_backward_filled(playground):
    playground.element.evaluate(
        "el => el.addEventListener('run-end', (e) => { el.ended = e.detail.tables[0].grad; })"
    )
    run_and_draw(playground)
    expect_the_programs_values(playground, chapter_grads())
    ended = playground.element.evaluate("el => el.ended")
    assert ended == pytest.approx(chapter_grads(), rel=1e-12)


def test_a_grad_the_code_sets_after_backward_is_the_one_shown(playground):
    run_and_draw(playground, playground.code + BY_HAND)
    grads = [5.0, *chapter_grads()[1:]]
    expect_the_programs_values(playground, grads)
    step_button(playground, "Last").click()  # Backward's own grads, at the replay's end
    assert playground.full_values("grad") == pytest.approx(chapter_grads(), rel=1e-12)
    back(playground).click()
    expect_the_programs_values(playground, grads)


def test_a_replay_is_said_over_the_numbers_and_one_control_ends_it(playground):
    run_and_draw(playground)
    step_button(playground, "Next").click()
    expect(band(playground)).to_have_text(
        "Replaying Backward: step 1 of 6 — grads as they were at this step. " + BACK)
    assert grad_heading(playground) == "grad, step 1"
    assert playground.full_values("grad") == [0.0] * 4 + [chapter_grads()[4], 1.0]
    step_button(playground, "First").click()
    expect(band(playground)).to_contain_text("Replaying Backward: before step 1 of 6")
    assert grad_heading(playground) == "grad, step 0"
    assert playground.full_values("grad") == [0.0] * 5 + [1.0]
    assert picture_grads(playground)[0] == "grad 0.0"
    back(playground).click()
    expect_the_programs_values(playground, chapter_grads())


def test_esc_in_the_stepper_ends_a_replay(playground):
    run_and_draw(playground)
    stepper(playground).focus()
    playground.page.keyboard.press("ArrowRight")
    assert stepper(playground).get_attribute("data-step") == "1"
    playground.page.keyboard.press("Escape")
    expect_the_programs_values(playground, chapter_grads())


def test_run_ends_a_replay_and_a_stopped_run_leaves_none_for_the_next(playground):
    run_and_draw(playground)
    step_button(playground, "Next").click()
    run_and_draw(playground)
    expect_the_programs_values(playground, chapter_grads())
    example = playground.code
    step_button(playground, "Last").click()
    playground.start("while True:\n    pass\n")
    playground.button("Stop").click()
    assert playground.wait_for("done", "error", "stopped") in ("error", "stopped")
    run_and_draw(playground, example)
    expect_the_programs_values(playground, chapter_grads())


def test_a_live_edit_keeps_a_replay_at_its_step_and_says_it_is_of_the_edit(playground):
    run_and_draw(playground)
    step_button(playground, "Next").click()
    step_button(playground, "Next").click()
    put_cursor_after(playground, "MakeValue(g, 2")
    playground.page.keyboard.press("Alt+ArrowUp")  # a = 2.1, run live
    wait_for_a(playground, "2.1")
    expect(band(playground)).to_contain_text(
        "Replaying Backward of your edited code: step 2 of 6 — grads as they were at this step.")
    assert stepper(playground).get_attribute("data-step") == "2"
    t = math.tanh(2.1 * -3.0 + 10.0)
    de = (1 - t) * (1 + t)  # 1 - t², as the engine writes it
    assert playground.full_values("grad") == pytest.approx([0.0, 0.0, de, de, de, 1.0], rel=1e-12)
    back(playground).click()
    expect_the_programs_values(playground, [de * -3.0, de * 2.1, de, de, de, 1.0])


def test_delta_marks_only_the_cells_whose_shown_value_changed(playground):
    run_and_draw(playground)
    run_and_draw(playground, playground.code.replace("MakeValue(g, 2.0", "MakeValue(g, 3.0"))
    # a's data and what it feeds; every grad but the root's 1.0. b's and c's data, every
    # label and every op are as they were.
    assert changed_cells(playground) == {
        (0, "data"), (3, "data"), (4, "data"), (5, "data"),
        (0, "grad"), (1, "grad"), (2, "grad"), (3, "grad"), (4, "grad"),
    }
    step_button(playground, "Next").click()  # only #4's grad arrives: Backward's start is alike
    assert {cell for cell in changed_cells(playground) if cell[1] == "grad"} == {(4, "grad")}
    assert "changed" not in box(playground, 1).get_attribute("class")  # b: nothing shown changed
    assert "changed" in box(playground, 0).get_attribute("class")


def test_on_a_phone_and_on_the_course_page_the_table_shows_the_programs_grads(
    new_context, site
):
    phone = PlaygroundAt(new_context(**PHONE).new_page(), "autograd-playground")
    phone.page.goto(site)
    phone.wait_for("ready")
    assert phone.run() == "done"
    assert phone.rows() == CHAPTER_ROWS

    page = new_context().new_page()
    page.goto(site + "course.html")
    engine_backward = PlaygroundAt(page, "#engine-backward")
    engine_backward.element.scroll_into_view_if_needed()
    wait_for_all(page, "ready", timeout=RUN_MS)
    assert engine_backward.run() == "done"
    page.locator("#engine-backward").locator("select.picker").select_option(label="g (6 nodes)")
    assert engine_backward.full_values("grad") == pytest.approx(chapter_grads(), rel=1e-12)
