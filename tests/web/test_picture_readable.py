"""A big picture on a phone and in a course page's column: drawn at a size that reads, a
finger pans it across and scrolls the page up and down; the wheel scrolls the page, and
zooms the picture only with Ctrl (as a touchpad's pinch comes)."""

from __future__ import annotations

import pytest

from .conftest import RUN_MS
from .pages import PlaygroundAt
from .test_folding import FONT_PX, LAPTOP, LAYER
from .test_graph import wait_for_picture

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
MIN_TEXT_PX = 11  # the smallest text a picture is fitted at (its own size is 12 px)
PAGES = [("", "autograd-playground"), ("course.html", "#data-model")]

# The drawing's left and right edges, and the frame's, on the screen.
EDGES = """frame => { const f = frame.getBoundingClientRect();
  const d = frame.querySelector('svg.graph > g.nodes').getBoundingClientRect();
  return { drawingLeft: d.left, drawingRight: d.right, left: f.left, right: f.right }; }"""
# The value boxes wholly inside the frame and the window.
IN_VIEW = """frame => { const f = frame.getBoundingClientRect();
  return [...frame.querySelectorAll('g.value')].filter(box => {
    const r = box.getBoundingClientRect();
    return r.left >= Math.max(f.left, 0) && r.right <= Math.min(f.right, innerWidth)
      && r.top >= Math.max(f.top, 0) && r.bottom <= Math.min(f.bottom, innerHeight);
  }).map(box => box.dataset.node); }"""
VIEW_BOX = """frame => { const v = frame.querySelector('svg.graph').viewBox.baseVal;
  return { x: v.x, y: v.y, width: v.width, height: v.height }; }"""


def layer_drawn(new_context, site: str, path: str, selector: str, **context) -> PlaygroundAt:
    """The layer of three neurons (28 nodes), run and drawn in `selector`'s playground."""
    page = new_context(**context).new_page()
    page.goto(site + path + ("" if path else "?live=off"))
    playground = PlaygroundAt(page, selector)
    playground.element.scroll_into_view_if_needed()
    playground.wait_for("ready")
    assert playground.run(LAYER) == "done"
    wait_for_picture(playground)
    return playground


class Finger:
    """One finger on a touch screen (Chromium's, through the DevTools protocol)."""

    def __init__(self, page) -> None:
        self.cdp = page.context.new_cdp_session(page)

    def swipe(self, x0: float, y0: float, dx: float, dy: float, steps: int = 10) -> None:
        touch = self.cdp.send
        start = {"x": x0, "y": y0}
        touch("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [start]})
        for k in range(1, steps + 1):
            point = {"x": x0 + dx * k / steps, "y": y0 + dy * k / steps}
            touch("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
        touch("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


@pytest.mark.parametrize(("path", "selector"), PAGES, ids=["index", "course"])
def test_on_a_phone_a_layers_picture_reads_and_a_finger_reaches_every_box(
    new_context, site, path, selector
):
    playground = layer_drawn(new_context, site, path, selector, **PHONE)
    frame = playground.element.locator(".picture-frame")
    sizes = frame.evaluate(f"f => [...f.querySelectorAll('svg.graph text')].map({FONT_PX})")
    assert len(sizes) >= 28 * 3 and min(sizes) >= MIN_TEXT_PX
    frame.evaluate("f => f.scrollIntoView({block: 'start'})")
    box = frame.bounding_box()
    assert box["height"] <= PHONE["viewport"]["height"]  # the frame is as tall as its drawing
    finger = Finger(playground.page)
    middle = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    seen = set(frame.evaluate(IN_VIEW))
    # Across to the drawing's left edge, then back, half a frame a swipe, to its right edge.
    for _ in range(12):
        edges = frame.evaluate(EDGES)
        if edges["drawingLeft"] >= edges["left"]:
            break
        finger.swipe(*middle, box["width"] / 2, 0)
        seen |= set(frame.evaluate(IN_VIEW))
    for _ in range(12):
        edges = frame.evaluate(EDGES)
        if edges["drawingRight"] <= edges["right"]:
            break
        finger.swipe(*middle, -box["width"] / 2, 0)
        seen |= set(frame.evaluate(IN_VIEW))
    assert seen == {str(i) for i in range(28)}

    # Up and down, the finger scrolls the page, and the drawing stays where it is in its frame.
    view = frame.evaluate(VIEW_BOX)
    scrolled = playground.page.evaluate("scrollY")
    finger.swipe(middle[0], middle[1] + 150, 0, -300)
    playground.page.wait_for_function("y => scrollY > y", arg=scrolled, timeout=RUN_MS)
    assert frame.evaluate(VIEW_BOX) == view


@pytest.mark.parametrize(("path", "selector"), PAGES, ids=["index", "course"])
def test_the_wheel_over_a_big_picture_scrolls_the_page_and_zooms_it_only_with_ctrl(
    new_context, site, path, selector
):
    playground = layer_drawn(new_context, site, path, selector, viewport=LAPTOP)
    page = playground.page
    frame = playground.element.locator(".picture-frame")
    frame.evaluate("f => f.scrollIntoView({block: 'start'})")
    # Whether the page's own scrolling was let be, for each wheel event that reached it.
    page.evaluate("() => { window.wheels = []; addEventListener('wheel', "
                  "e => wheels.push({ctrl: e.ctrlKey, prevented: e.defaultPrevented})); }")
    view = frame.evaluate(VIEW_BOX)
    box = frame.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 100)
    page.mouse.wheel(0, -200)  # back up the page, towards the code
    page.wait_for_function("() => wheels.length === 1")
    assert page.evaluate("wheels") == [{"ctrl": False, "prevented": False}]
    page.wait_for_function(  # the page, or the results, scrolled
        "([frame, top]) => frame.getBoundingClientRect().top > top",
        arg=[frame.element_handle(), box["y"]], timeout=RUN_MS)
    assert frame.evaluate(VIEW_BOX) == view

    box = frame.bounding_box()  # where the scroll took it
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 100)
    page.keyboard.down("Control")
    page.mouse.wheel(0, -100)  # one notch, towards the screen
    page.keyboard.up("Control")
    page.wait_for_function("() => wheels.length === 2")
    assert page.evaluate("wheels[1]") == {"ctrl": True, "prevented": True}
    zoomed = frame.evaluate(VIEW_BOX)
    assert zoomed["width"] == pytest.approx(view["width"] / 1.25)
    legend = playground.element.locator(".legend .by-mouse").inner_text()
    assert "Ctrl+wheel" in legend
