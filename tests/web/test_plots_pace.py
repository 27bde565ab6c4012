"""Pause, Step and a pace for a run that plots (pacer.js, shared/pace-gate.js): Python
itself waits as a step begins, with what it plotted and printed by then shown; Stop works
while paused; the pace chosen is kept. After the run, a slider goes back through the
boundary's pictures and marks the line charts at each one's step. A chart of many long
series keeps and draws a bounded number of points."""

from __future__ import annotations

from .conftest import NEVER_MS, Playground, set_deadlines
from .test_plots import chart, run_with_detail

ENDLESS = """
import itertools
for i in itertools.count():
    plot('loss', 1 / (i + 1))
    print('step', i + 1)
"""


def panel_number(playground: Playground, name: str, at_least: int = 0) -> int:
    """The charts panel's data-`name`, once there and at least `at_least`."""
    playground.page.wait_for_function(
        "([el, name, least]) =>"
        " Number(el.shadowRoot.querySelector('.plots').dataset[name]) >= least",
        arg=[playground.element.element_handle(), name, at_least])
    return int(playground.element.locator(".plots").get_attribute(f"data-{name}"))


def wait_for_last_line(playground: Playground, line: str) -> None:
    """Wait until the output's last line is `line` (each step prints one)."""
    playground.page.wait_for_function(
        "([el, line]) =>"
        " el.shadowRoot.querySelector('.output').textContent.endsWith(`\\n${line}\\n`)",
        arg=[playground.element.element_handle(), line])


def wait_for_waiting_at(playground: Playground, step: int) -> None:
    playground.page.wait_for_function(
        "([el, step]) => el.shadowRoot.querySelector('.plots').dataset.waiting === String(step)",
        arg=[playground.element.element_handle(), step])


def at_pace(steps_a_second: int):
    """A context's setup: the pace kept in its localStorage."""
    return lambda context: context.add_init_script(
        f"localStorage.setItem('autograd-playground-pace', '{steps_a_second}')")


def test_pause_holds_python_before_a_step_step_lets_one_more_begin_and_stop_still_works(
        open_playground, site):
    # 30 steps a second, whatever the machine: a few lines printed before Pause.
    playground = open_playground(site, setup=at_pace(30))
    set_deadlines(playground.page, stopGraceMs=NEVER_MS)  # Stop interrupts: no restart
    playground.start(ENDLESS)
    panel_number(playground, "steps", 3)
    playground.button("Pause").click()
    waiting = panel_number(playground, "waiting")
    pacer = playground.element.locator(".pacer")
    assert pacer.get_attribute("data-state") == "paused"
    # Python waits to begin step `waiting`: what it plotted and printed before is shown.
    steps = panel_number(playground, "steps")
    assert steps == waiting - 1
    wait_for_last_line(playground, f"step {steps}")
    for more in (1, 2):
        playground.button("Step").click()
        wait_for_waiting_at(playground, waiting + more)
        assert panel_number(playground, "steps") == waiting + more - 1
        wait_for_last_line(playground, f"step {waiting + more - 1}")
    assert playground.output.splitlines()[-1] == f"step {waiting + 1}"
    assert playground.state == "running"
    playground.button("Stop").click()
    assert playground.wait_for("stopped") == "stopped"
    assert int(chart(playground, "loss").get_attribute("data-points")) > 0
    assert playground.element.locator(".plots").is_visible()
    assert pacer.get_attribute("data-state") == "idle"
    assert playground.run("plot('loss', 1)") == "done"  # the same Python: not restarted
    assert playground.python_starts == 1


def test_resume_lets_a_paused_run_go_on(playground):
    playground.start(ENDLESS)
    panel_number(playground, "steps", 1)
    playground.button("Pause").click()
    waiting = panel_number(playground, "waiting")
    playground.button("Resume").click()
    assert playground.element.locator(".pacer").get_attribute("data-state") == "going"
    panel_number(playground, "steps", waiting + 100)
    playground.button("Stop").click()
    assert playground.wait_for("stopped") == "stopped"


FOUR_STEPS = "for i in range(4):\n    plot('loss', i)\n"
# Each batch the charts take in: its steps, and whether Python waits after it.
RECORD_BATCHES = """el => {
  const add = el.plots.add.bind(el.plots);
  el.batches = [];
  el.plots.add = (batch) => (el.batches.push([batch.steps, batch.waits]), add(batch));
}"""


def test_at_a_pace_each_step_waits_for_the_page_and_the_pace_is_kept(open_playground, site):
    playground = open_playground(site)
    assert playground.run("plot('loss', 1)") == "done"  # the panel, and its pace, show
    pace = playground.page.get_by_role("combobox", name="Pace")
    assert pace.input_value() == "0"  # full speed, at first
    pace.select_option(label="3 steps/s")
    playground.element.evaluate(RECORD_BATCHES)
    assert playground.run(FOUR_STEPS) == "done"
    # The first step at once (and its point, as ever); each next one waited for the page's
    # tick (a third of a second, where a step takes microseconds), once what was before
    # it was sent.
    assert playground.element.evaluate("el => el.batches") == [
        [1, False], [1, True], [2, True], [3, True], [4, False]]
    playground.page.reload()
    playground.wait_for("ready")
    assert playground.run("plot('loss', 1)") == "done"
    assert playground.page.get_by_role("combobox", name="Pace").input_value() == "3"


def test_a_live_re_run_goes_at_full_speed_whatever_the_pace(open_playground, site):
    playground = open_playground(site)
    assert playground.run("plot('loss', 1)") == "done"
    playground.page.get_by_role("combobox", name="Pace").select_option(label="1 steps/s")
    playground.element.evaluate(RECORD_BATCHES)
    result = playground.element.evaluate("(el, code) => el.run({live: true, code})", FOUR_STEPS)
    assert result["status"] == "done"
    batches = playground.element.evaluate("el => el.batches")
    assert batches[-1] == [4, False]
    assert not any(waits for _, waits in batches)  # no step waited


def test_without_isolation_the_controls_say_runs_go_at_full_speed(open_playground, plain_site):
    playground = open_playground(plain_site)
    assert playground.run(FOUR_STEPS) == "done"
    pacer = playground.element.locator(".pacer")
    assert pacer.get_attribute("data-state") == "unpaceable"
    assert "cross-origin isolated" in pacer.inner_text()
    assert playground.page.get_by_role("combobox", name="Pace").is_disabled()


# Twenty steps; the regions drawn every fifth, each time further right.
HISTORY = """
points = [(0, 0), (1, 0), (0, 1), (1, 1)]
for step in range(20):
    plot('loss', 1 / (step + 1))
    if step % 5 == 0:
        boundary(lambda x, y: x - step / 20, points, [-1, 1, -1, 1], resolution=10)
"""


def test_after_the_run_a_slider_goes_back_through_the_regions_and_marks_the_loss(playground):
    detail = run_with_detail(playground, HISTORY)
    assert detail["status"] == "done"
    assert [b["kept"] for b in detail["plots"]["boundaries"]] == [4]
    slider = playground.page.get_by_role("slider", name="Step shown")
    regions = playground.element.locator(".boundary")
    loss = chart(playground, "loss")
    assert slider.input_value() == "3"
    last = regions.get_attribute("aria-label")
    assert regions.get_attribute("data-step") == "16"
    assert loss.get_attribute("data-mark") is None  # the run's end: no mark
    slider.focus()
    playground.page.keyboard.press("Home")
    assert regions.get_attribute("data-step") == "1"
    assert loss.get_attribute("data-mark") == "0"  # x of step 1's point
    assert regions.get_attribute("aria-label") != last
    assert "step 1 of 16" in playground.element.locator(".history").inner_text()
    playground.page.keyboard.press("ArrowRight")
    assert (regions.get_attribute("data-step"), loss.get_attribute("data-mark")) == ("6", "5")
    playground.page.keyboard.press("End")
    assert regions.get_attribute("aria-label") == last
    assert playground.run("plot('loss', 1)") == "done"  # one picture less than two: no slider
    assert slider.is_hidden()


# Twelve series on one chart, none sharing an x, each of 6,000 points: past the cap of
# 5,000 a series keeps, and 72,000 x values in all.
TWELVE = """
for i in range(6_000):
    for k in range(12):
        plot(f's{k}', (i * k) % 7, x=i + k / 12, chart='all')
"""


def test_twelve_long_series_keep_a_bounded_number_of_points_and_draw_fewer(playground):
    detail = run_with_detail(playground, TWELVE)
    assert detail["status"] == "done"
    (all_series,) = detail["plots"]["charts"]
    for k, series in enumerate(all_series["series"]):
        # Thinned to every other point past the cap, not cut: they span the whole run.
        assert series["points"] == 3_000
        assert series["dropped"] == 6_000 - 3_000
        assert series["last"][0] == 5_998 + k / 12
    figure = chart(playground, "all")
    assert figure.get_attribute("data-points") == str(12 * 3_000)
    # Every k-th point of each series (a point more, rounded up) and its last.
    assert int(figure.get_attribute("data-drawn")) <= 1_000 + 2 * 12
    assert "drawn as every 2nd" in playground.output
