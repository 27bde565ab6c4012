"""The full page's first screen, as a new learner meets it: it says what the chapter
says, shows only what exists, reaches Backward without typing, names and writes every
node and number one way, and fits a phone."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from .test_graph import box, run_and_draw, step_button, stepper
from .test_prose_layout import painted
from .test_run import chapter_grads

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
MLP = (Path(__file__).parent / "programs" / "mlp_of_two_layers.py").read_text(encoding="utf-8")
NOT_DEFINED = "from engine import Graph, MakeValue\ng = Graph()\nMakeValue(g, 1.0)\nprint(nope)\n"


def expect_no_table_or_picture(playground) -> None:
    for part in (".scroller", ".picture", ".legend"):
        expect(playground.element.locator(part)).to_be_hidden()


def empty_note(playground) -> str:
    return playground.element.locator(".tables .empty").inner_text()


def test_the_header_says_what_a_graph_is_in_the_chapters_words_and_links_the_course(playground):
    header = playground.page.locator("header")
    text = header.inner_text()
    assert "A Graph is a list of Values" in text
    assert "pushes a node and returns its index" in text
    assert "Backward fills the grads" in text
    expect(header.get_by_role("link", name="the course page")).to_have_attribute(
        "href", "course.html"
    )


def test_a_legend_names_each_column_of_the_table_and_stays_closed_until_asked(playground):
    legend = playground.page.locator("details.columns")
    assert legend.get_attribute("open") is None
    legend.locator("summary").click()
    terms = legend.locator("dt").all_inner_texts()
    assert terms == ["index", "label", "op", "data", "grad"]
    assert "None" in legend.locator("dd").nth(2).inner_text()


def test_before_the_first_run_the_results_computed_when_the_page_was_built_show_as_a_runs(
        playground):
    expect(playground.element.locator(".views")).to_be_visible()
    expect(stepper(playground)).to_be_visible()
    assert [row[:3] for row in playground.rows()] == [
        ["0", "a", "None"], ["1", "b", "None"], ["2", "c", "None"], ["3", "#3", "Mul(0, 1)"],
        ["4", "#4", "Add(3, 2)"], ["5", "#5", "Tanh(4)"]]
    expect(playground.element.locator("[data-role=built] table")).to_be_hidden()
    expect(playground.element.locator(".first-hint")).to_be_hidden()


def test_a_syntax_error_says_nothing_ran_and_shows_no_nodes(playground):
    assert playground.run("a = 1\nb = 2\nc = (a +\n") == "error"
    assert empty_note(playground) == "SyntaxError on line 3: nothing ran."
    expect_no_table_or_picture(playground)


def test_code_that_makes_no_graph_says_so_with_no_picture_or_legend(playground):
    run_and_draw(playground)
    assert playground.run("print('no graph here')") == "done"
    assert empty_note(playground) == "This code made no graph."
    expect_no_table_or_picture(playground)


def test_rows_that_survive_an_error_are_not_marked_changed(playground):
    run_and_draw(playground)
    assert playground.run(NOT_DEFINED) == "error"
    assert playground.rows()[0][:4] == ["0", "#0", "None", "1.0"]
    assert playground.element.locator("tbody td.changed").count() == 0


def test_the_example_calls_backward_and_its_replay_waits_for_the_learner(playground):
    assert playground.code.rstrip().endswith("Backward(g, e)")
    run_and_draw(playground)
    expect(stepper(playground)).to_be_visible()
    assert stepper(playground).get_attribute("data-step") is None
    for name in ("First", "Previous", "Next", "Last"):
        expect(step_button(playground, name)).to_be_enabled()
    assert playground.full_values("grad") == pytest.approx(chapter_grads(), rel=1e-12)
    step_button(playground, "Next").click()
    assert stepper(playground).get_attribute("data-step") == "1"
    assert stepper(playground).get_attribute("data-node") == "5"


def test_a_leafs_op_reads_none_in_the_table_the_picture_and_the_stepper(playground):
    run_and_draw(playground)
    assert [row[2] for row in playground.rows()[:3]] == ["None"] * 3
    assert box(playground, 0).locator(".op-tag").text_content() == "None"
    step_button(playground, "Last").click()  # the last step visits a, a leaf
    assert "node 0 (a), op None:" in stepper(playground).locator(".step-where").inner_text()


def test_an_unlabelled_node_has_one_name_in_the_table_the_picture_and_the_stepper(playground):
    run_and_draw(playground)
    assert [row[1] for row in playground.rows()[3:]] == ["#3", "#4", "#5"]
    assert box(playground, 3).locator(".name-line").text_content() == "#3"
    step_button(playground, "Next").click()
    assert "node 5 (#5)" in stepper(playground).locator(".step-where").inner_text()


def test_numbers_have_one_precision_in_table_picture_and_stepper_with_the_full_value_on_hover(
    playground,
):
    run_and_draw(playground)
    step_button(playground, "Last").click()
    grad_a = playground.rows()[0][4]  # 6 significant digits
    assert grad_a == "-0.00402285"
    assert box(playground, 0).locator(".grad-line").text_content() == f"grad ▼ {grad_a}"
    for _ in range(3):
        step_button(playground, "Previous").click()  # back to the Mul's step
    term = stepper(playground).locator(".step-terms li").first
    assert term.inner_text().endswith(f"= {grad_a}")
    full = playground.full_values("grad")[0]
    expect(term.locator(f"[title='{full!r}']")).to_have_text(grad_a)



def test_on_a_phone_a_tap_on_a_number_writes_its_row_whole_under_the_table(
    open_playground, site
):
    playground = open_playground(site, **PHONE)
    run_and_draw(playground)
    data, grad = playground.full_values("data")[0], playground.full_values("grad")[0]
    whole = playground.element.locator(".whole-values")
    playground.element.locator("tbody tr[data-node='0'] td.grad").tap()
    expect(whole).to_have_text(f"a (node 0) in full: data {data!r}, grad {grad!r}")
    assert whole.get_attribute("aria-live") == "polite"  # said by a screen reader too
    playground.element.locator(".scroller").press("ArrowDown")  # by keyboard: the next row
    expect(whole).to_contain_text("b (node 1) in full: data -3.0, grad ")

def test_the_number_columns_headers_are_aligned_as_their_numbers(playground):
    run_and_draw(playground)
    aligns = playground.element.locator("thead th").evaluate_all(
        "ths => ths.map(th => getComputedStyle(th).textAlign)"
    )
    assert aligns[3:] == ["right", "right"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_on_a_phone_every_cell_of_every_row_is_in_view_without_scrolling_sideways(
    open_playground, site, scheme
):
    playground = open_playground(site, color_scheme=scheme, **PHONE)
    run_and_draw(playground)
    painted(playground.page)
    cells = playground.measure(
        "tbody tr[data-node] > *",
        "cells => cells.map(c => { const r = c.getBoundingClientRect();"
        " return [r.left, r.right, c.scrollWidth <= c.clientWidth + 1]; })"
    )
    assert len(cells) == 30
    assert all(left >= 0 and right <= 390 and whole for left, right, whole in cells), cells
    scroller = playground.element.locator(".scroller")
    assert scroller.evaluate("s => s.scrollWidth <= s.clientWidth")


# Of each label and op cell in view: its text, whether it shows whole (nothing cut at its
# side, no third line cut off a wrapped one), its row's height, its right edge and its title.
TEXT_CELLS = """cells => cells.map(c => { const text = c.firstElementChild;
  const whole = c.scrollWidth <= c.clientWidth + 1 && text.scrollHeight <= text.clientHeight + 1;
  return [c.textContent, whole, c.parentElement.getBoundingClientRect().height,
          c.getBoundingClientRect().right, c.title];
})"""


@pytest.mark.parametrize("device", [PHONE, DESKTOP], ids=["390", "1280"])
def test_every_label_and_op_of_an_mlp_shows_whole_with_no_sideways_scroll(
    open_playground, site, device
):
    playground = open_playground(site, **device)
    assert playground.run(MLP) == "done"
    scroller = playground.element.locator(".scroller")
    width = device["viewport"]["width"]
    seen = {}
    for top in (0, 10_000):  # the first rows, then the last (the table draws only those in view)
        scroller.evaluate("(s, top) => { s.scrollTop = top; }", top)
        painted(playground.page)
        cells = playground.measure("tbody tr[data-node] > td:is(.label, .op)", TEXT_CELLS)
        for text, whole, height, right, title in cells:
            assert whole and right <= width, (text, whole, right)
            assert height == pytest.approx(28, abs=0.5), text  # one row's height, wrapped or not
            seen[text] = title
        assert scroller.evaluate("s => s.scrollWidth <= s.clientWidth")
    assert {"L1.n1.w1", "L1.n1.w2", "L2.n4.out", "L3.n1.out", "Mul(104, 104)"} <= set(seen)
    assert seen["L1.n1.w2"] == "L1.n1.w2"  # whole on hover too
    assert playground.page.evaluate("document.documentElement.scrollWidth") <= width


def test_on_a_phone_long_lines_of_code_wrap(open_playground, site):
    playground = open_playground(site, **PHONE)
    playground.code = "x = " + " + ".join(["1.0"] * 40) + "\n"
    scroller = playground.element.locator(".cm-scroller")
    assert scroller.evaluate("s => s.scrollWidth <= s.clientWidth")


# Where the second row of line 2 starts, where its code starts, and where the line starts.
WRAPPED_ROW = """el => {
  const view = el.view;
  const line = view.state.doc.line(2);
  const code = line.from + line.text.search(/\\S/);
  const first = view.coordsAtPos(code);
  for (let pos = code + 1; pos < line.to; pos++) {
    const at = view.coordsAtPos(pos);
    if (at.top >= first.bottom) return [at.left, first.left, view.coordsAtPos(line.from).left];
  }
  return null;
}"""


def test_on_a_phone_a_wrapped_line_goes_on_at_its_indentation(open_playground, site):
    playground = open_playground(site, **PHONE)
    playground.code = "def f(x):\n    return " + " + ".join(["x"] * 40) + "\n"
    row = playground.element.evaluate(WRAPPED_ROW)
    assert row is not None  # the line wraps
    wrapped, code, line = row
    assert wrapped == pytest.approx(code, abs=1)
    assert code > line


def test_on_a_touch_screen_the_pictures_zoom_buttons_are_44px_each_way(open_playground, site):
    playground = open_playground(site, **PHONE)
    run_and_draw(playground)
    for name in ("Zoom in", "Zoom out", "Fit the picture"):
        button = playground.element.get_by_role("button", name=name).bounding_box()
        assert button["width"] >= 44 and button["height"] >= 44, name


def test_on_a_touch_screen_the_legend_speaks_of_touch_and_buttons_are_44px_tall(
    open_playground, site
):
    playground = open_playground(site, **PHONE)
    run_and_draw(playground)
    legend = playground.element.locator(".legend")
    assert "wheel" not in legend.inner_text()
    assert "Drag to pan" in legend.inner_text() and "pinch" in legend.inner_text()
    heights = playground.element.locator("button:visible").evaluate_all(
        "bs => bs.map(b => b.getBoundingClientRect().height)"
    )
    assert heights and min(heights) >= 44


def test_at_1280_the_picture_has_most_of_the_results_width_and_12px_text(open_playground, site):
    playground = open_playground(site, **DESKTOP)
    run_and_draw(playground)
    painted(playground.page)
    results = playground.element.locator(".results").bounding_box()
    frame = playground.element.locator(".picture-frame").bounding_box()
    assert frame["width"] >= 0.9 * results["width"] - 24
    sizes = playground.measure(
        "svg.graph text",
        "ts => ts.map(t => parseFloat(getComputedStyle(t).fontSize)"
        " * t.ownerSVGElement.getScreenCTM().a)"
    )
    assert sizes and min(sizes) >= 12, sizes


def touch(session, kind: str, points: list[tuple[float, float]]) -> None:
    """Fingers on the screen, as Chromium's input gets them from a touch screen."""
    session.send("Input.dispatchTouchEvent", {
        "type": kind,
        "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)],
    })


def test_on_a_touch_screen_two_fingers_pinch_the_picture_to_zoom(open_playground, site):
    playground = open_playground(site, **PHONE)
    run_and_draw(playground)
    frame = playground.element.locator(".picture-frame")
    frame.scroll_into_view_if_needed()
    svg = playground.element.locator("svg.graph")
    fitted = [float(x) for x in svg.get_attribute("viewBox").split()]
    r = frame.bounding_box()
    x, y = r["x"] + r["width"] / 2, r["y"] + r["height"] / 2
    session = playground.page.context.new_cdp_session(playground.page)
    touch(session, "touchStart", [(x - 20, y), (x + 20, y)])
    touch(session, "touchMove", [(x - 60, y), (x + 60, y)])  # three times as far apart
    touch(session, "touchEnd", [])
    pinched = [float(v) for v in svg.get_attribute("viewBox").split()]
    assert pinched[2] == pytest.approx(fitted[2] / 3, rel=0.01)


@pytest.mark.parametrize("device, keys", [(PHONE, False), (DESKTOP, True)],
                         ids=["touch screen", "laptop"])
def test_on_a_touch_screen_the_hints_speak_of_touch_and_the_switch_fits_a_finger(
    open_playground, site, device, keys
):
    playground = open_playground(site, **device)
    header = playground.page.locator("header p").last.inner_text()
    assert ("Alt+↑" in header) is keys and "drag a number sideways" in header
    hint = playground.element.locator(".first-hint").inner_text()
    assert hint.startswith("Press Run (or Ctrl+Enter): " if keys else "Press Run: ")
    switch = playground.page.locator(".page-theme select").bounding_box()
    assert (switch["height"] >= 44) is not keys
