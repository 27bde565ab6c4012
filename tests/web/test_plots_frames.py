"""Charts while batches stream in: drawn at most once a frame, however fast batches come,
with every point kept; and a frame's drawing of the charts makes the browser lay the
page out no sooner than it would anyway (reads before writes), so that streaming charts
keep the page responsive."""

from __future__ import annotations

import json

from .conftest import NEVER_MS, set_deadlines
from .test_plots import chart, run_with_detail

# Frames twice a second: the runner sends a batch every 100 ms or so (FLUSH_SECONDS),
# so that several batches come between two frames. Frame callbacks run in the order they were
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
  }), 500);
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

# At least 5 ms a step, on any machine: 3 s in all, over which batches come faster than
# frames however fast the machine (a step of fixed work took under a second, busy).
STREAM = """
import time
for i in range(600):
    plot('loss', 1 / (i + 1))
    plot('accuracy', i / 600, chart='loss')
    start = time.perf_counter()
    while time.perf_counter() - start < 0.005:
        pass
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
# Once the charts of FOREVER were drawn a few times over.
DRAWN_ON = """() => {
  const root = document.querySelector('autograd-playground').shadowRoot;
  const loss = root.querySelector(".chart[data-chart='loss']");
  const regions = root.querySelector(".boundary[data-title='boundary']");
  return Number(loss?.dataset.points) >= 200 && Number(regions?.dataset.draws) >= 3;
}"""
EDITOR = "/chunks/editor-"
TRACED = ["devtools.timeline", "disabled-by-default-devtools.timeline.stack"]


def forced_layouts(trace: bytes) -> list[list[dict]]:
    """The stacks of the style recalculations and layouts that script forced, but for
    the editor's (it takes in the code that Run was pressed on)."""
    events = json.loads(trace)["traceEvents"]
    stacks = [(e.get("args", {}).get("beginData") or {}).get("stackTrace") for e in events
              if e.get("name") in ("Layout", "UpdateLayoutTree")]
    return [stack for stack in stacks
            if stack and not any(EDITOR in frame["url"] for frame in stack)]


def test_frames_that_make_and_draw_streaming_charts_force_no_layout(playground, browser):
    assert playground.run("plot('loss', 1)\n") == "done"  # the charts' code loaded
    # Drawn in frames only, however late: a draw on outputFrameMs's timer, between two
    # frames, is a task whose writes the next frame's first read would lay out.
    set_deadlines(playground.page, outputFrameMs=NEVER_MS)
    playground.code = FOREVER
    browser.start_tracing(page=playground.page, categories=TRACED)
    try:
        playground.element.evaluate("el => { el.run(); }")  # no click: it reads layout
        playground.page.wait_for_function(DRAWN_ON)
    finally:
        trace = browser.stop_tracing()
    playground.button("Stop").click()
    assert playground.wait_for("stopped") == "stopped"
    assert forced_layouts(trace) == []
