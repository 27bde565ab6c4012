"""Charts while batches stream in: drawn at most once a frame, however fast batches come,
with every point kept; and a frame's drawing of the charts makes the browser lay the
page out no sooner than it would anyway (reads before writes), so that streaming charts
keep the page responsive."""

from __future__ import annotations

import json

from .conftest import NEVER_MS, set_deadlines
from .test_plots import chart, run_with_detail

# Frames five times a second: the runner sends a batch every 30 ms or so, so that
# several batches come between two frames. Frame callbacks run in the order they were
# asked for, as the browser's do, a frame counter's first (asked for before the run).
SLOW_FRAMES = """() => {
  const frame = requestAnimationFrame.bind(window);
  let callbacks = new Map();
  let last = 0;
  window.requestAnimationFrame = (callback) => (callbacks.set(++last, callback), last);
  window.cancelAnimationFrame = (id) => callbacks.delete(id);
  setInterval(() => frame((now) => {
    const due = callbacks;
    callbacks = new Map();
    for (const callback of due.values()) callback(now);
  }), 200);
}"""

# Around the charts' draw: in which frame each draws, and how many batches came.
RECORD_DRAWS = """el => {
  const plots = el.plots;
  const [draw, add] = [plots.draw.bind(plots), plots.add.bind(plots)];
  let frame = 0;
  const tick = () => { frame++; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  el.draws = [];
  el.batches = 0;
  plots.draw = () => (el.draws.push(frame), draw());
  plots.add = (batch) => (el.batches++, add(batch));
}"""

STREAM = """
for i in range(600):
    plot('loss', 1 / (i + 1))
    plot('accuracy', i / 600, chart='loss')
    sum(range(20_000))  # a few ms a step
"""


def test_batches_that_come_faster_than_frames_are_drawn_once_a_frame_with_every_point(
    playground,
):
    set_deadlines(playground.page, outputFrameMs=NEVER_MS)  # frames only, however late
    playground.page.evaluate(SLOW_FRAMES)
    playground.element.evaluate(RECORD_DRAWS)
    detail = run_with_detail(playground, STREAM)
    assert detail["status"] == "done"
    frames = playground.element.evaluate("el => el.draws")
    batches = playground.element.evaluate("el => el.batches")
    assert batches > 2 * len(frames)  # batches came faster than frames
    assert frames == sorted(set(frames))  # never two draws in one frame
    assert chart(playground, "loss").get_attribute("data-points") == "1200"
    series = detail["plots"]["charts"][0]["series"]
    assert [(s["points"], s["last"]) for s in series] == [(600, [599, 1 / 600]),
                                                          (600, [599, 599 / 600])]


FOREVER = """
import itertools
points = [(0, 0), (1, 1), (0, 1), (1, 0)]
for i in itertools.count():
    plot('loss', 1 / (i + 1))
    plot('accuracy', i % 7, chart='loss')
    if i % 10 == 0:
        boundary(lambda x, y: x - y + i % 3, points, [1, -1, 1, -1], resolution=12)
    sum(range(20_000))
"""
TRACED = ["devtools.timeline", "disabled-by-default-devtools.timeline.stack"]


def forced_layouts(trace: bytes) -> list[dict]:
    """The style recalculations and layouts that script forced (those with its stack)."""
    events = json.loads(trace)["traceEvents"]
    return [e for e in events if e.get("name") in ("Layout", "UpdateLayoutTree")
            and (e.get("args", {}).get("beginData") or {}).get("stackTrace")]


def test_a_frame_that_draws_streaming_charts_forces_no_layout(playground, browser):
    playground.start(FOREVER)
    loss = chart(playground, "loss")
    regions = playground.element.locator(".boundary[data-title='boundary']")
    # Once the charts are made, watch the frames that draw what streams on.
    playground.page.wait_for_function(
        "el => Number(el.dataset.draws) >= 2", arg=regions.element_handle())
    points = int(loss.get_attribute("data-points"))
    draws = int(regions.get_attribute("data-draws"))
    browser.start_tracing(page=playground.page, categories=TRACED)
    try:
        playground.page.wait_for_function(
            "([chart, regions, points, draws]) => Number(chart.dataset.points) >= points + 200"
            " && Number(regions.dataset.draws) >= draws + 3",
            arg=[loss.element_handle(), regions.element_handle(), points, draws])
    finally:
        trace = browser.stop_tracing()
    playground.button("Stop").click()
    assert playground.wait_for("stopped") == "stopped"
    assert [e["args"]["beginData"]["stackTrace"][:3] for e in forced_layouts(trace)] == []
