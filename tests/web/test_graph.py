"""The picture of the graph, its links to the table and the editor, and Backward step by step."""

from __future__ import annotations

import re

import pytest

from .conftest import NEVER_MS, RUN_MS, set_deadlines, within
from .test_big_graph import MLP
from .test_run import PROGRAMS, chapter_grads

CHAPTER_EDGES = {
    ("v0", "op3"), ("v1", "op3"), ("op3", "v3"),
    ("v3", "op4"), ("v2", "op4"), ("op4", "v4"),
    ("v4", "op5"), ("op5", "v5"),
}
USERS = {0: {3}, 1: {3}, 2: {4}, 3: {4}, 4: {5}, 5: set()}
ROOT = "document.querySelector('autograd-playground').shadowRoot"


def without_backward(code: str) -> str:
    """The example as the chapter leaves it: the graph built, every grad still zero."""
    return code.replace("Backward(g, e)\n", "")


def run_to_backwards_grads(playground) -> None:
    """Run the example, which calls Backward, and step to its end: Backward's grads."""
    run_and_draw(playground)
    step_button(playground, "Last").click()


def wait_for_picture(playground) -> None:
    playground.page.wait_for_function(
        f"() => {ROOT}.querySelector('.picture').dataset.state === 'drawn'", timeout=RUN_MS
    )


def run_and_draw(playground, code: str | None = None) -> None:
    assert playground.run(code) == "done"
    wait_for_picture(playground)


def boxes(playground):
    return playground.element.locator("svg.graph g.value")


def box(playground, i: int):
    return playground.element.locator(f"svg.graph g.value[data-node='{i}']")


def edges(playground) -> set[tuple[str, str]]:
    pairs = playground.element.locator("svg.graph path.edge").evaluate_all(
        "paths => paths.map(p => [p.dataset.tail, p.dataset.head])"
    )
    return {tuple(pair) for pair in pairs}


def stepper(playground):
    return playground.element.locator(".stepper")


def step_button(playground, name: str):
    return stepper(playground).get_by_role("button", name=name, exact=True)


def node_line(playground) -> str | None:
    marked = playground.element.locator(".cm-node-line")
    return marked.inner_text() if marked.count() else None


def line_of(playground, text: str) -> str:
    return next(line for line in playground.code.splitlines() if text in line)


def test_the_picture_of_the_chapters_graph_has_its_6_value_nodes_3_ops_and_their_edges(playground):
    run_and_draw(playground)
    assert boxes(playground).count() == 6
    assert playground.element.locator("svg.graph g.op").count() == 3
    assert edges(playground) == CHAPTER_EDGES
    texts = [box(playground, i).locator("text").all_text_contents() for i in (0, 5)]
    assert texts[0][:4] == ["a", "data 2.0", "grad ▼ -0.00402285", "None"]  # a leaf's op, None
    assert texts[1][:2] == ["#5", "data 0.999329"]
    assert box(playground, 0).locator(".op-tag").text_content() == "None"
    ops = playground.element.locator("svg.graph g.op .op-name").all_text_contents()
    assert ops == ["Mul", "Add", "Tanh"]


def layout_worker(playground):
    return next(w for w in playground.page.workers if w.url.endswith("/layout-worker.js"))


def layouts_answered(playground) -> int:
    """How many layouts the layout worker has sent back since counting_layouts()."""
    return layout_worker(playground).evaluate("() => self.layoutsAnswered")


def counting_layouts(playground) -> None:
    layout_worker(playground).evaluate("""() => {
      self.layoutsAnswered = 0;
      const post = self.postMessage.bind(self);
      self.postMessage = (...args) => { self.layoutsAnswered += 1; post(...args); };
    }""")


# A label that makes its box wider than any of the chapter's: the picture is laid out
# anew, whatever layout is on screen (the built results' may be, whose boxes are wider
# than a run's without Backward).
RENAMED = 'label="c, renamed wider"'


def test_a_number_edited_to_one_of_its_length_or_shorter_keeps_the_layout(playground):
    code = without_backward(playground.code)
    run_and_draw(playground, code)
    counting_layouts(playground)
    run_and_draw(playground, code.replace("10.0", "10.5"))  # every box as wide as before
    assert layouts_answered(playground) == 0
    assert box(playground, 2).locator(".data-line").text_content() == "data 10.5"
    renamed = code.replace('label="c"', RENAMED)
    run_and_draw(playground, renamed.replace("10.0", "123456.0"))  # laid out
    assert layouts_answered(playground) == 1
    assert box(playground, 2).locator(".data-line").text_content() == "data 123456.0"
    run_and_draw(playground, renamed.replace("10.0", "12345.0"))  # narrower: the boxes hold it
    assert layouts_answered(playground) == 1
    assert box(playground, 2).locator(".data-line").text_content() == "data 12345.0"



def test_a_layout_that_comes_while_a_run_is_in_flight_waits_for_its_result(playground):
    """A live step's next run comes first: the drawing of the step before, laid out
    meanwhile, does not take the page's main thread from that run's result."""
    code = without_backward(playground.code)
    run_and_draw(playground, code)
    layout_worker(playground).evaluate("""() => {
      self.held = [];
      self.post = self.postMessage;
      self.postMessage = (...args) => self.held.push(args);
    }""")
    playground.element.evaluate("""el => {
      el.askedIdle = 0;
      const whenIdle = el.runtime.whenIdle.bind(el.runtime);
      el.runtime.whenIdle = () => { el.askedIdle += 1; return whenIdle(); };
    }""")
    assert playground.run(code.replace('label="c"', RENAMED)) == "done"  # laid out
    layout_worker(playground).evaluate(within("""() => new Promise(function laidOut(done) {
      self.held.length ? done() : setTimeout(laidOut, 10, done);
    })"""))
    playground.start("while True:\n    pass\n")
    playground.wait_for("running")
    layout_worker(playground).evaluate(
        "() => { self.postMessage = self.post; self.held.forEach((args) => self.post(...args)); }")
    playground.page.wait_for_function(
        f"() => {ROOT}.host.askedIdle === 2"
        f" || {ROOT}.querySelector('.picture').dataset.state === 'drawn'",
        timeout=RUN_MS)
    assert picture_state(playground) == "laying-out"
    drawn = box(playground, 2).locator(".data-line").text_content()
    assert drawn == "data 10.0"  # the drawing before, still on screen
    playground.button("Stop").click()
    assert playground.wait_for("stopped", "error", "done", timeout=RUN_MS) == "stopped"


def test_a_rerun_that_keeps_the_layout_keeps_the_learners_zoom(playground):
    code = without_backward(playground.code)
    run_and_draw(playground, code)
    playground.element.get_by_role("button", name="Zoom in").click()
    svg = playground.element.locator("svg.graph")
    zoomed = svg.get_attribute("viewBox")
    run_and_draw(playground, code.replace("10.0", "10.5"))  # the same layout
    assert box(playground, 2).locator(".data-line").text_content() == "data 10.5"
    assert svg.get_attribute("viewBox") == zoomed
    run_and_draw(playground, code.replace('label="c"', RENAMED))  # laid out anew: fitted
    assert svg.get_attribute("viewBox") != zoomed

def test_a_graph_of_the_learners_own_classes_is_pictured_too(playground):
    run_and_draw(playground, (PROGRAMS / "class_graph.py").read_text(encoding="utf-8"))
    assert boxes(playground).count() == 4
    assert edges(playground) == {
        ("v0", "op2"), ("v1", "op2"), ("op2", "v2"),
        ("v2", "op3"), ("v1", "op3"), ("op3", "v3"),
    }


# A graph of 196 nodes, drawn whole, that Graphviz takes a while to lay out.
TANGLED = """
import random
from engine import Backward, Graph, MakeValue, VAdd, VMul, VTanh
random.seed(1)
g = Graph()
xs = [MakeValue(g, random.uniform(-1, 1), label=f"x{i}") for i in range(8)]
s = xs[0]
while len(g.nodes) < 196:
    s = VTanh(g, VAdd(g, s, VMul(g, random.choice(xs), MakeValue(g, 0.5))))
Backward(g, s)
"""

# Put before the layout worker's own code: Graphviz never finishes laying out a
# graph of more than 100 boxes and ellipses (it spins, as a slow layout would),
# and lays out smaller ones as usual.
STALL_BIG_LAYOUTS = """
addEventListener("message", (event) => {
  if (event.data.graph.nodes.length > 100) {
    event.stopImmediatePropagation();
    for (;;);
  }
});
"""


def stall_big_layouts(playground) -> None:
    """Make every layout of a big graph take forever, from the next layout worker on."""
    def stalled(route) -> None:
        served = route.fetch()  # its headers too: a worker of an isolated page needs them
        route.fulfill(response=served, body=STALL_BIG_LAYOUTS + served.text())

    playground.page.route("**/layout-worker.js", stalled)


def picture_state(playground) -> str:
    return playground.element.locator(".picture").get_attribute("data-state")


def test_a_big_picture_laid_out_within_its_deadline_is_drawn_whole(playground):
    set_deadlines(playground.page, wholePictureMs=NEVER_MS)
    run_and_draw(playground, TANGLED)
    assert boxes(playground).count() == 196  # every node, at a size whose text reads
    assert playground.element.locator(".picture-note").inner_text().startswith(
        "Drawn at its own size, around node 195")


def test_a_big_picture_past_its_deadline_shows_a_neighbourhood(playground):
    stall_big_layouts(playground)
    set_deadlines(playground.page, wholePictureMs=0)
    run_and_draw(playground, TANGLED)
    assert boxes(playground).count() == 40
    assert playground.element.locator(".picture-note").inner_text().startswith(
        "Showing 40 of 196 nodes: the neighbourhood of node 195."
    )


def test_the_page_keeps_working_while_a_picture_is_laid_out(playground):
    stall_big_layouts(playground)
    set_deadlines(playground.page, wholePictureMs=NEVER_MS)
    assert playground.run(TANGLED) == "done"
    assert playground.element.locator(".count").inner_text() == "196 nodes"
    assert playground.answers()
    # Graphviz is still at it, in its own worker: the page is not waiting for it.
    assert picture_state(playground) == "laying-out"
    assert playground.run("print('meanwhile')") == "done"
    assert playground.output.strip() == "meanwhile"


def test_the_picture_zooms_and_pans_and_fit_shows_it_all_again(playground):
    run_and_draw(playground)
    svg = playground.element.locator("svg.graph")
    fitted = [float(x) for x in svg.get_attribute("viewBox").split()]
    playground.element.get_by_role("button", name="Fit the picture").focus()
    playground.page.keyboard.press("Tab")  # onto a box of the picture
    playground.page.keyboard.press("+")
    zoomed = [float(x) for x in svg.get_attribute("viewBox").split()]
    assert zoomed[2] == pytest.approx(fitted[2] / 1.25)
    playground.page.keyboard.press("Shift+ArrowRight")
    panned = [float(x) for x in svg.get_attribute("viewBox").split()]
    assert panned[0] > zoomed[0] and panned[2:] == zoomed[2:]
    playground.element.locator(".picture-frame").hover()
    playground.page.keyboard.down("Control")
    playground.page.mouse.wheel(0, 100)  # zooms out
    playground.page.keyboard.up("Control")
    playground.page.wait_for_function(
        f"w => +{ROOT}.querySelector('svg.graph').getAttribute('viewBox').split(' ')[2] > w",
        arg=panned[2],
    )
    playground.element.get_by_role("button", name="Fit the picture").click()
    assert [float(x) for x in svg.get_attribute("viewBox").split()] == fitted


def test_the_stepper_shows_only_when_the_code_called_backward(playground):
    example = playground.code
    run_and_draw(playground, without_backward(example))
    assert stepper(playground).is_hidden()
    run_and_draw(playground, example)
    assert stepper(playground).is_visible()
    told = stepper(playground).inner_text()
    assert "The table shows the grads your code left. Replay its Backward from #5 over 6" in told
    step_button(playground, "First").click()
    assert "Before step 1 of 6: Backward zeroes" in stepper(playground).inner_text()


def test_stepping_visits_nodes_in_reverse_topological_order_to_backwards_grads(playground):
    run_to_backwards_grads(playground)
    backward = playground.full_values("grad")
    cells = [row[4] for row in playground.rows()]
    assert backward == pytest.approx(chapter_grads(), rel=1e-12)

    step_button(playground, "First").click()
    assert playground.full_values("grad") == [0.0] * 5 + [1.0]
    assert step_button(playground, "Previous").is_disabled()
    visited, texts = [], []
    while not step_button(playground, "Next").is_disabled():
        step_button(playground, "Next").click()
        visited.append(int(stepper(playground).get_attribute("data-node")))
        texts.append(stepper(playground).locator(".step-terms li").all_text_contents())
        grads = playground.full_values("grad")
        if visited[-1] == 4:  # Add(3, 2) has passed its grad to both operands, a and b not yet
            assert grads[3] == grads[2] == backward[4] and grads[0] == grads[1] == 0.0

    assert visited == [5, 4, 3, 2, 1, 0]
    for k, node in enumerate(visited):
        assert USERS[node] <= set(visited[:k]), f"node {node} visited before a node that uses it"
    assert texts[0][0].startswith("#4.grad += #5.grad * (1 - #5.data**2) = 1.0 * ")
    assert texts[2] == [  # numbers as the table writes them
        f"a.grad += #3.grad * b.data = {cells[3]} * -3.0 = {cells[0]}",
        f"b.grad += #3.grad * a.data = {cells[3]} * 2.0 = {cells[1]}",
    ]
    assert texts[-1] == []  # a leaf passes nothing back
    assert playground.full_values("grad") == backward  # exactly, not approximately
    last_cells = [row[4] for row in playground.rows()]
    assert [box(playground, i).locator(".grad-line").text_content() for i in range(6)] == [
        f"grad {'▼ ' if cell.startswith('-') else '▲ '}{cell}" for cell in last_cells
    ]


def test_the_current_step_is_marked_in_the_table_the_picture_and_the_editor(playground):
    run_and_draw(playground)
    step_button(playground, "Next").click()
    step_button(playground, "Next").click()  # node 4, the Add, adds to 3 and 2
    assert playground.element.locator("tbody tr.current th").all_text_contents() == ["4"]
    assert playground.element.locator("tbody tr.target th").all_text_contents() == ["2", "3"]
    assert "current" in box(playground, 4).get_attribute("class")
    assert {i for i in range(6) if "target" in box(playground, i).get_attribute("class")} == {2, 3}
    assert node_line(playground) == line_of(playground, "VTanh(")


def test_arrow_keys_home_and_end_step_when_the_stepper_has_focus(playground):
    run_and_draw(playground)
    stepper(playground).focus()
    keys = playground.page.keyboard
    keys.press("Home")
    assert stepper(playground).get_attribute("data-step") == "0"
    keys.press("ArrowRight")
    keys.press("ArrowRight")
    assert stepper(playground).get_attribute("data-node") == "4"
    keys.press("ArrowLeft")
    assert stepper(playground).get_attribute("data-node") == "5"
    keys.press("End")
    assert stepper(playground).get_attribute("data-step") == "6"
    assert playground.full_values("grad") == pytest.approx(chapter_grads(), rel=1e-12)


def test_selecting_a_row_or_a_node_selects_both_and_marks_the_line_that_made_it(playground):
    run_and_draw(playground)
    playground.element.locator("tbody tr[data-node='3']").click()
    assert box(playground, 3).get_attribute("aria-selected") == "true"
    assert node_line(playground) == line_of(playground, "VTanh(")

    box(playground, 0).click()
    selected = playground.element.locator("tbody tr[aria-selected='true'] th")
    assert selected.all_text_contents() == ["0"]
    assert box(playground, 3).get_attribute("aria-selected") == "false"
    assert node_line(playground) == line_of(playground, 'label="a"')

    playground.element.locator(".scroller").focus()
    playground.page.keyboard.press("ArrowDown")
    assert selected.all_text_contents() == ["1"]
    assert box(playground, 1).get_attribute("aria-selected") == "true"
    assert node_line(playground) == line_of(playground, 'label="b"')


def test_a_label_with_markup_shows_as_text_in_the_picture(playground):
    dialogs = []
    playground.page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    label = "<img src=x onerror=alert(1)>"
    code = f"from engine import *\ng = Graph()\nMakeValue(g, 1.0, label={label!r})\n"
    run_and_draw(playground, code)
    assert box(playground, 0).locator(".name-line").text_content() == label
    assert playground.element.locator("img").count() == 0
    assert dialogs == []


def test_values_that_changed_since_the_previous_run_are_marked(playground):
    code = without_backward(playground.code)
    run_and_draw(playground, code)
    assert playground.element.locator("tbody td.changed").count() == 0
    run_and_draw(playground, code.replace("2.0", "3.0"))
    changed = playground.element.locator("tbody td.changed").evaluate_all(
        "cells => cells.map(c => `${c.parentElement.dataset.node} ${c.className}`)")
    assert changed == ["0 data changed", "3 data changed", "4 data changed", "5 data changed"]
    marked = [i for i in range(6) if "changed" in box(playground, i).get_attribute("class")]
    assert marked == [0, 3, 4, 5]


def contrast(fg: str, bg: str) -> float:
    """WCAG contrast ratio of two computed CSS colours (rgb() or color(srgb ...))."""
    def luminance(css: str) -> float:
        numbers = [float(x) for x in re.findall(r"[\d.]+", css)[:3]]
        channels = [x if css.startswith("color(") else x / 255 for x in numbers]
        lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    high, low = sorted([luminance(fg), luminance(bg)], reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_grads_are_shaded_by_sign_with_a_glyph_and_stay_readable(open_playground, site, scheme):
    playground = open_playground(site, color_scheme=scheme)
    run_to_backwards_grads(playground)
    cells = playground.element.locator("tbody td.grad")
    signs = cells.evaluate_all("cells => cells.map(c => c.dataset.sign)")
    assert signs == ["neg", "pos", "pos", "pos", "pos", "pos"]
    glyphs = cells.evaluate_all("cells => cells.map(c => getComputedStyle(c, '::before').content)")
    assert glyphs == ['"▼ "'] + ['"▲ "'] * 5
    for i in (0, 5):  # the strongest shades of each sign
        fg, bg = cells.nth(i).evaluate(
            "c => [getComputedStyle(c).color, getComputedStyle(c).backgroundColor]"
        )
        assert contrast(fg, bg) >= 4.5, (scheme, i, fg, bg)
    assert box(playground, 0).get_attribute("data-sign") == "neg"


def test_a_100k_node_graph_draws_a_neighbourhood_and_keeps_the_page_responsive(playground):
    run_and_draw(playground, MLP)
    drawn = boxes(playground).count()
    assert 1 < drawn <= 100
    note = playground.element.locator(".picture-note").inner_text()
    assert note.startswith(f"Showing {drawn} of 101,881 nodes: the neighbourhood of node 101880")
    assert stepper(playground).locator(".step-where").inner_text() == (
        "Backward cannot be replayed: the graph is too big to step through "
        "(101,881 nodes; up to 5,000 can be)."
    )
    assert playground.element.locator(".count").inner_text() == "101,881 nodes"

    playground.element.locator("tbody tr[data-node='5']").click()
    playground.page.wait_for_function(
        f"() => {ROOT}.querySelector('svg.graph g.value.selected')?.dataset.node === '5'",
        timeout=RUN_MS,
    )
    assert "neighbourhood of node 5" in playground.element.locator(".picture-note").inner_text()
    assert boxes(playground).count() <= 100


def text_px(playground, i: int) -> float:
    """The size of box i's name on the screen, in CSS pixels: its font's, scaled."""
    return box(playground, i).locator("text.name-line").evaluate(
        "t => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a")


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800}], ids=["1280x800"])
def test_a_layer_of_neurons_is_drawn_with_text_that_reads_and_fit_shows_it_all(
    open_playground, site, viewport
):
    playground = open_playground(site + "?live=off", viewport=viewport)
    run_and_draw(playground, (PROGRAMS / "layer_of_three.py").read_text(encoding="utf-8"))
    assert playground.output.strip() == "28 nodes"
    note = playground.element.locator(".picture-note")
    assert note.inner_text().startswith("Drawn at its own size, around node 27, so that its "
                                        "text reads: drag to pan, or Fit")
    assert text_px(playground, 27) >= 11.99  # 12, but for the frame's rounding to whole pixels
    playground.element.get_by_role("button", name="Fit the picture").click()
    assert text_px(playground, 27) < 12  # all 28 nodes in view, smaller


def test_the_chapters_graph_is_drawn_whole_with_text_that_reads(open_playground, site):
    playground = open_playground(site, viewport={"width": 1280, "height": 800})
    run_and_draw(playground)
    assert playground.element.locator(".picture-note").inner_text() == ""
    assert min(text_px(playground, i) for i in range(6)) >= 11.99


def test_painted_says_when_the_picture_shows_the_run_that_ended(playground):
    """`done` comes as the table is painted; `data-painted` and the `painted` event come
    once the picture of that run is drawn too, which a screenshot waits for."""
    # The results computed when the page was built are painted first, their picture once
    # Python is ready: the events counted are the run's.
    playground.page.wait_for_function(
        "() => document.querySelector('autograd-playground').dataset.painted === 'true'",
        timeout=RUN_MS)
    playground.element.evaluate("""el => {
      el.paintedSaw = [];
      el.addEventListener("painted", () => el.paintedSaw.push(
        [el.dataset.state, el.shadowRoot.querySelector('.picture').dataset.state]));
    }""")
    assert playground.run() == "done"
    playground.page.wait_for_function(
        "() => document.querySelector('autograd-playground').dataset.painted === 'true'",
        timeout=RUN_MS)
    assert playground.element.evaluate("el => el.paintedSaw") == [["done", "drawn"]]
    # From Run on, until its picture is drawn, not painted.
    assert playground.element.evaluate("el => { el.run(); return el.dataset.painted; }") \
        == "false"
