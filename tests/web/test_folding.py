"""Pictures that stay readable: a layer's picture at a laptop's size, and a bigger graph's
groups (an MLP's neurons) folded into one box each, opened by click or Enter."""

from __future__ import annotations

import pytest

from .test_graph import ROOT, boxes, run_and_draw, wait_for_picture
from .test_run import PROGRAMS

LAPTOP = {"width": 1280, "height": 800}
LAYER = (PROGRAMS / "layer_of_three.py").read_text(encoding="utf-8")
MLP = (PROGRAMS / "mlp_of_two_layers.py").read_text(encoding="utf-8")

# The rendered size of box text, in CSS pixels: its font size times the svg's scale.
FONT_PX = "t => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a"
# How many value boxes are wholly inside the picture's frame and the window.
IN_VIEW_OF = """(frame, box) => { const f = frame.getBoundingClientRect();
  const r = box.getBoundingClientRect();
  return r.left >= Math.max(f.left, 0) && r.right <= Math.min(f.right, innerWidth)
    && r.top >= Math.max(f.top, 0) && r.bottom <= Math.min(f.bottom, innerHeight); }"""
IN_VIEW = f"""frame => [...frame.querySelectorAll('g.value')]
  .filter(box => ({IN_VIEW_OF})(frame, box))"""

def folds(playground):
    return playground.element.locator("svg.graph g.value.fold")


def names_in(boxes_) -> list[str]:
    """The names the boxes write, in node order."""
    return boxes_.evaluate_all("bs => bs.sort((a, b) => a.dataset.node - b.dataset.node)"
                               ".map(b => b.querySelector('text.name-line').textContent)")


def redrawn(playground, action) -> None:
    """Do `action`, then wait for the picture it draws anew."""
    playground.element.locator(".picture").evaluate("p => { p.dataset.state = 'stale'; }")
    action()
    wait_for_picture(playground)


def test_at_1280x800_most_of_a_layer_of_neurons_is_in_view_at_12px_once_scrolled_to(
    open_playground, site
):
    playground = open_playground(site + "?live=off", viewport=LAPTOP)
    run_and_draw(playground, LAYER)
    frame = playground.element.locator(".picture-frame")
    frame.evaluate("f => f.scrollIntoView({block: 'nearest'})")  # as a learner scrolls to it
    shown = frame.evaluate_handle(IN_VIEW)
    assert shown.evaluate("bs => bs.length") >= 20  # of 28
    sizes = shown.evaluate(
        f"bs => bs.flatMap(b => [...b.querySelectorAll('text')].map({FONT_PX}))")
    assert min(sizes) >= 11.99
    assert folds(playground).count() == 0  # 28 nodes: drawn as they are


def test_the_chapters_picture_keeps_its_ops_apart_and_its_frame_its_share(open_playground, site):
    playground = open_playground(site, viewport=LAPTOP)
    run_and_draw(playground)
    assert playground.element.locator("svg.graph g.op").count() == 3
    assert playground.element.locator(".picture.grown").count() == 0
    frame = playground.element.locator(".picture-frame")
    assert frame.evaluate(f"f => ({IN_VIEW})(f).length") == 6


@pytest.mark.parametrize("viewport", [LAPTOP], ids=["1280x800"])
def test_an_mlps_neurons_are_folded_and_a_click_opens_one_and_fold_all_folds_it(
    open_playground, site, viewport
):
    playground = open_playground(site + "?live=off", viewport=viewport)
    run_and_draw(playground, MLP)
    assert playground.output.strip() == "106 nodes"
    assert folds(playground).count() == 9
    names = names_in(folds(playground))
    assert names[:2] == ["L1.n1 · 8 nodes", "L1.n2 · 8 nodes"]
    assert names[-1] == "L3.n1 · 13 nodes"
    assert boxes(playground).count() == 9 + 5  # and x1, x2, target, the error and the loss
    assert playground.element.locator(".picture-note").inner_text().startswith(
        "9 of its 9 groups of nodes are folded")
    fold_all = playground.element.get_by_role("button", name="Fold every group again")
    assert fold_all.is_hidden()

    first = folds(playground).first
    out = first.get_attribute("data-node")
    redrawn(playground, first.click)
    assert folds(playground).count() == 8
    opened = names_in(playground.element.locator("svg.graph g.value:not(.fold)"))
    assert {"L1.n1.w1", "L1.n1.w2", "L1.n1.b", "L1.n1.out"} <= set(opened)
    opened_out = playground.element.locator(f"svg.graph g.value[data-node='{out}']")
    assert opened_out.get_attribute("class") == "value"
    frame = playground.element.locator(".picture-frame")
    assert frame.evaluate(f"f => ({IN_VIEW_OF})(f, f.querySelector(\"[data-node='{out}']\"))")

    redrawn(playground, fold_all.click)
    assert folds(playground).count() == 9
    assert fold_all.is_hidden()


def test_enter_opens_a_folded_group_and_selecting_a_folded_row_opens_its_group(
    open_playground, site
):
    playground = open_playground(site + "?live=off", viewport=LAPTOP)
    run_and_draw(playground, MLP)
    group = folds(playground).filter(has_text="L2.n3 ·")
    label = group.get_attribute("aria-label")
    assert label.startswith("L2.n3 · 14 nodes, folded: press Enter to open.")
    group.focus()
    redrawn(playground, lambda: playground.page.keyboard.press("Enter"))
    assert folds(playground).count() == 8
    in_picture = f"() => {ROOT}.activeElement?.closest('.picture-frame') !== null"
    assert playground.page.evaluate(in_picture)  # the focus stays in the picture

    # Node 0 is L1.n1.w1, in a folded group: selecting its row opens the group, and marks it.
    redrawn(playground, lambda: playground.element.locator("tbody tr[data-node='0']").click())
    assert folds(playground).count() == 7
    selected = playground.element.locator("svg.graph g.value.selected")
    assert selected.get_attribute("data-node") == "0"


def test_past_200_nodes_an_mlp_shows_a_neighbourhood_of_its_nodes_unfolded(playground):
    code = MLP.replace("[4, 4, 1]", "[16, 16, 1]")
    run_and_draw(playground, code)
    count = playground.output.strip()
    assert count == "982 nodes"
    note = playground.element.locator(".picture-note").inner_text()
    assert note.startswith("Showing 40 of 982 nodes: the neighbourhood of node 981.")
    assert boxes(playground).count() == 40
    assert folds(playground).count() == 0
