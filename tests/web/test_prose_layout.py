"""A playground in a course page's prose column: results below the editor, and as tall as
its content, so that nothing needs scrolling inside it; side by side on a wide page.

Measured at 800 px wide on course.html (a prose column of about 760 px) and at
1300 px wide on index.html, the full-page playground.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.web.conftest import RUN_MS, painted
from tests.web.pages import CoursePages, PlaygroundAt, course_page, playground
from tests.web.test_folding import FONT_PX

PROSE = {"width": 800, "height": 900}
WIDE = {"width": 1300, "height": 900}
ROW_PX = 28  # table.js
THIRTY_LEAVES = (
    "from engine import Graph, MakeValue\n"
    "g = Graph()\n"
    "for i in range(30):\n"
    "    MakeValue(g, float(i), label=f'x{i}')\n"
)
SIX_NODES = (
    "from engine import Backward, Graph, MakeValue, VAdd, VMul, VTanh\n"
    "g = Graph()\n"
    "e = VTanh(g, VAdd(g, VMul(g, MakeValue(g, 2.0), MakeValue(g, -3.0)), MakeValue(g, 10.0)))\n"
)
# 40 nodes: a sum of 13 squares, the picture's tallest shape (a chain).
FORTY_NODES = (
    "from engine import Graph, MakeValue, VAdd, VMul\n"
    "g = Graph()\n"
    "total = MakeValue(g, 0.0, label='total')\n"
    "for i in range(13):\n"
    "    x = MakeValue(g, i / 10, label=f'x{i}')\n"
    "    total = VAdd(g, total, VMul(g, x, x))\n"
)

# Where the parts are on the page, which rows and lines are drawn, and which of the
# playground's boxes would need scrolling (scrollHeight past clientHeight).
MEASURE = """el => {
  const root = el.shadowRoot;
  const box = (e) => {
    const r = e.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
  };
  const one = (selector) => box(root.querySelector(selector));
  const drawing = [...root.querySelectorAll("svg.graph > g")].map(box);
  const stepper = root.querySelector(".stepper");
  return {
    element: box(el),
    editor: one(".editor"),
    results: one(".results"),
    table: one(".scroller"),
    rows: [...root.querySelectorAll("tbody tr[data-node]")].map(box),
    frame: one(".picture-frame"),
    picture: drawing.length === 0 ? null : {
      top: Math.min(...drawing.map((r) => r.top)),
      bottom: Math.max(...drawing.map((r) => r.bottom)),
      left: Math.min(...drawing.map((r) => r.left)),
      right: Math.max(...drawing.map((r) => r.right)),
    },
    stepper: stepper.hidden ? null : box(stepper),
    lineHeights: [...root.querySelectorAll(".cm-line")].map((line) => line.offsetHeight),
    codeWidth: root.querySelector(".cm-scroller").scrollWidth,
    editorWidth: root.querySelector(".cm-scroller").clientWidth,
    scrolling: [...root.querySelectorAll("*")]
      .filter((e) => /auto|scroll/.test(getComputedStyle(e).overflowY))
      .filter((e) => e.scrollHeight > e.clientHeight)
      .map((e) => e.className),
  };
}"""


def inside(inner: dict, outer: dict) -> bool:
    """Whether box `inner` lies within box `outer` (to half a pixel)."""
    return (inner["top"] >= outer["top"] - 0.5 and inner["bottom"] <= outer["bottom"] + 0.5
            and inner["left"] >= outer["left"] - 0.5 and inner["right"] <= outer["right"] + 0.5)


def height(box: dict) -> float:
    return box["bottom"] - box["top"]


def open_at(new_context, url: str, viewport: dict, selector: str) -> PlaygroundAt:
    page = new_context(viewport=viewport).new_page()
    page.goto(url)
    box = PlaygroundAt(page, selector)
    box.element.scroll_into_view_if_needed()
    box.wait_for("ready")
    return box


def run_and_measure(box: PlaygroundAt, nodes: int, code: str | None = None) -> dict:
    """Run, wait until the picture of `nodes` value nodes is drawn and the table has
    followed its new size, then measure."""
    assert box.run(code) == "done"
    box.page.wait_for_function(
        "([selector, nodes]) => {"
        "  const root = document.querySelector(selector).shadowRoot;"
        "  return root.querySelector('.picture').dataset.state === 'drawn'"
        "    && root.querySelectorAll('g.value').length === nodes;"
        "}",
        arg=[box.selector, nodes],
        timeout=RUN_MS,
    )
    painted(box.page)
    return box.element.evaluate(MEASURE)


@pytest.fixture
def chapter(new_context, site) -> PlaygroundAt:
    """The chapter's example, course.html's first playground, in an 800 px wide window."""
    return open_at(new_context, site + "course.html", PROSE, "#data-model")


def test_in_prose_the_chapters_example_shows_everything_with_nothing_to_scroll(chapter):
    m = run_and_measure(chapter, 6)
    assert m["results"]["top"] >= m["editor"]["bottom"] - 0.5  # below the editor
    assert len(m["rows"]) == 6
    assert all(inside(row, m["table"]) and inside(row, m["element"]) for row in m["rows"])
    assert inside(m["picture"], m["frame"]) and inside(m["frame"], m["element"])
    assert m["scrolling"] == []
    # Every line of the code is drawn whole, on one line of its own.
    assert len(m["lineHeights"]) > 1 and len(set(m["lineHeights"])) == 1
    assert m["codeWidth"] <= m["editorWidth"]


def test_in_prose_the_stepper_is_shown_in_full_below_the_nodes(chapter):
    m = run_and_measure(chapter, 6, SIX_NODES + "Backward(g, e)\n")
    assert m["stepper"] is not None
    assert inside(m["stepper"], m["element"])
    assert m["stepper"]["top"] >= max(m["table"]["bottom"], m["frame"]["bottom"]) - 0.5
    assert m["scrolling"] == []


def test_in_prose_thirty_rows_grow_the_playground_instead_of_scrolling(chapter):
    six = run_and_measure(chapter, 6)
    thirty = run_and_measure(chapter, 30, THIRTY_LEAVES)
    assert len(thirty["rows"]) == 30
    assert all(inside(row, thirty["table"]) for row in thirty["rows"])
    assert height(thirty["table"]) - height(six["table"]) >= 24 * ROW_PX
    assert inside(thirty["table"], thirty["element"])
    assert thirty["scrolling"] == []


def test_in_prose_a_forty_node_picture_grows_the_playground_at_a_size_that_reads(chapter):
    six = run_and_measure(chapter, 6)
    forty = run_and_measure(chapter, 40, FORTY_NODES)
    assert height(forty["frame"]) > height(six["frame"])
    # As tall as its frame, which is as tall as it; wider than the column, it pans across.
    frame, picture = forty["frame"], forty["picture"]
    assert inside({**picture, "left": frame["left"], "right": frame["right"]}, frame)
    assert inside(forty["frame"], forty["element"])
    sizes = chapter.element.evaluate(
        f"el => [...el.shadowRoot.querySelectorAll('svg.graph text')].map({FONT_PX})")
    assert min(sizes) >= 11
    assert forty["scrolling"] == ["scroller"]  # only the table: 40 rows is past its 30


@pytest.fixture(scope="module")
def fixed_height_page(site) -> Iterator[str]:
    """A page with a playground whose author gave it a height of 300 px."""
    server = CoursePages()
    page = course_page(site, playground(SIX_NODES, id="fixed", height="300"))
    yield server.add("fixed.html", page)
    server.close()


def test_a_height_given_by_the_author_is_kept(new_context, fixed_height_page):
    box = open_at(new_context, fixed_height_page, PROSE, "#fixed")
    assert box.element.bounding_box()["height"] == 300
    m = run_and_measure(box, 6)
    assert height(m["element"]) == 300
    assert m["scrolling"] == ["playground"]  # one box, the whole playground, scrolls


def test_on_a_wide_page_the_results_stay_beside_the_editor(new_context, site):
    box = open_at(new_context, site + "index.html", WIDE, "autograd-playground")
    m = run_and_measure(box, 6)
    assert m["results"]["left"] >= m["editor"]["right"] - 0.5
    assert m["results"]["top"] < m["editor"]["bottom"]
    assert inside(m["picture"], m["frame"])


def test_in_prose_an_exercises_whole_feedback_and_its_buttons_show_with_nothing_to_scroll(
    new_context, site
):
    box = open_at(new_context, site + "course.html", PROSE, "#write-backward")
    assert box.run() == "done"  # the starting code runs, and its check fails
    box.page.wait_for_function(
        "() => document.querySelector('#write-backward').dataset.check === 'failed'")
    painted(box.page)
    m = box.element.evaluate(MEASURE)
    panel = box.element.evaluate(
        "el => [...el.shadowRoot.querySelectorAll('.exercise, .messages pre, .exercise button')]"
        ".filter((e) => !e.closest('[hidden]'))"
        ".map((e) => { const r = e.getBoundingClientRect();"
        " return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; })")
    exercise, code, *buttons = panel
    assert len(buttons) == 2  # a hint, the solution
    assert all(inside(part, exercise) for part in (code, *buttons))
    assert inside(exercise, m["element"])
    assert m["scrolling"] == []


TWO_LINES = "from engine import Add\nprint(Add(0, 1))\n"
TWENTY_LINES = "".join(f"print({i})\n" for i in range(20))
# How far a playground's own box reaches below what it shows: its toolbar, its code's
# last line and its results' last part.
BLANK_BELOW = """el => {
  const root = el.shadowRoot;
  const shown = [root.querySelector(".toolbar"), ...root.querySelectorAll(".cm-line"),
    ...root.querySelectorAll(".results > *")].filter((part) => part.offsetParent !== null);
  return el.getBoundingClientRect().bottom
    - Math.max(...shown.map((part) => part.getBoundingClientRect().bottom));
}"""


@pytest.fixture(scope="module")
def short_and_long_page(site) -> Iterator[str]:
    """Hide-table and readonly playgrounds of 2 lines and of 20."""
    server = CoursePages()
    page = course_page(
        site,
        playground(TWO_LINES, id="short-hidden", hide_table=True),
        playground(TWENTY_LINES, id="long-hidden", hide_table=True),
        playground(TWO_LINES, id="short-readonly", readonly=True),
        playground(TWENTY_LINES, id="long-readonly", readonly=True),
    )
    yield server.add("short-and-long.html", page)
    server.close()


@pytest.mark.parametrize("kind", ["hidden", "readonly"])
@pytest.mark.parametrize("viewport", [PROSE, WIDE], ids=["prose", "wide"])
def test_a_hide_table_or_readonly_playground_is_as_tall_as_its_code(
        new_context, short_and_long_page, kind, viewport):
    page = new_context(viewport=viewport).new_page()
    page.goto(short_and_long_page)
    measured = {}
    for length in ("short", "long"):
        box = PlaygroundAt(page, f"#{length}-{kind}")
        box.element.scroll_into_view_if_needed()
        box.wait_for("ready")
        box.element.locator(".cm-editor").wait_for()
        painted(page)
        measured[length] = {"height": box.element.bounding_box()["height"],
                            "blank": box.element.evaluate(BLANK_BELOW),
                            "line": box.element.evaluate(
                                "el => el.shadowRoot.querySelector('.cm-line')"
                                    ".getBoundingClientRect().height")}
    short, long = measured["short"], measured["long"]
    # Below what it shows, no more than its own margins: less than a line.
    assert short["blank"] < short["line"] and long["blank"] < long["line"], measured
    # 18 lines more make it 18 lines taller, no more and no less.
    assert long["height"] - short["height"] == pytest.approx(18 * short["line"], abs=2)
