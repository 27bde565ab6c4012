"""`plot` and `boundary` in the runner, driven in CPython as the worker drives it: what
goes to the page, when, and what the caps and bad input make of it."""

from __future__ import annotations

import sys
from types import SimpleNamespace

import pytest

from playground_runner import plots

from .contract import CONTRACT
from .runs import RUNNER, strict_json


def run_plotting(code: str) -> tuple[dict, str, list[dict]]:
    """Run `code`: the result, everything printed, and each plot message sent, parsed."""
    batches: list[str] = []
    messages: list[str] = []
    result = strict_json(RUNNER.run(code, batches.append, (), None, messages.append))
    RUNNER.tidy()
    output = "".join(text for batch in batches for _, text in strict_json(batch))
    return result, output, [strict_json(m) for m in messages]


def points_of(messages: list[dict]) -> list[list]:
    return [p for m in messages for p in m["points"]]


def plotted(monkeypatch, **caps) -> tuple[plots.Plots, list[dict]]:
    """A run's Plots with `caps` (MAX_POINTS=100, ...) and a clock that stands still at 0
    unless the test moves it (`clock[0]`); and the messages it sends, parsed."""
    for name, value in caps.items():
        monkeypatch.setattr(plots, name, value)
    clock = [0.0]
    monkeypatch.setattr(plots, "time", SimpleNamespace(perf_counter=lambda: clock[0]))
    messages: list[dict] = []
    chart = plots.Plots(lambda batch: messages.append(strict_json(batch)))
    chart.clock = clock
    return chart, messages


def test_points_go_out_with_the_first_call_then_in_batches_of_bounded_size(monkeypatch):
    chart, messages = plotted(monkeypatch, BATCH_POINTS=400)
    for i in range(1000):
        chart.plot("loss", i)
    chart.flush()  # as the run ends
    # The clock stood still: the first point at once, then a message per BATCH_POINTS.
    assert [len(m["points"]) for m in messages] == [1, 400, 400, 199]


def test_a_plot_call_past_the_flush_interval_sends_what_gathered(monkeypatch):
    chart, messages = plotted(monkeypatch)
    for i in range(10):
        chart.clock[0] = i * plots.FLUSH_SECONDS * 0.6
        chart.plot("loss", i)
    # Each call is 0.6 intervals after the last: every second call sends.
    assert [len(m["points"]) for m in messages] == [1, 2, 2, 2, 2]
    assert [m["ms"] for m in messages] == pytest.approx(
        [i * plots.FLUSH_SECONDS * 600 for i in (0, 2, 4, 6, 8)])


def kept_by_the_page(messages: list[dict], cap: int) -> list[float]:
    """The xs the page keeps of series 0, taking the points as it does: a point that comes
    to a series of `cap` points first drops every other one (protocol.js's keptAfter)."""
    kept: list[float] = []
    for _, x, _ in (p for p in points_of(messages) if p[0] == 0):
        if len(kept) == cap:
            kept = kept[::2]
        kept.append(x)
    return kept


def test_a_series_past_max_points_is_thinned_to_span_the_whole_run(monkeypatch):
    chart, messages = plotted(monkeypatch, MAX_POINTS=100)
    for i in range(250):
        chart.plot("loss", i)
    chart.flush()
    notes: list[str] = []
    chart.say_left_out(notes.append)
    # 0..99, then every 2nd of 0..199, then every 4th to the end: 0, 4, ..., 248.
    assert kept_by_the_page(messages, 100) == list(range(0, 250, 4))
    assert messages[-1]["dropped"] == [[0, 250 - len(range(0, 250, 4))]]
    assert messages[-1]["steps"] == 250
    assert notes == ["plot('loss'): 250 points, drawn as every 4th (a series keeps 100 at most)"]


def test_a_long_series_keeps_at_most_max_points_and_its_sends_thin_out(monkeypatch):
    chart, messages = plotted(monkeypatch, MAX_POINTS=100)
    for i in range(100_000):
        chart.plot("loss", i)
    chart.flush()
    kept = kept_by_the_page(messages, 100)
    assert 50 < len(kept) <= 100
    assert kept[0] == 0 and kept[-1] > 100_000 - 2 * 100_000 / len(kept)
    # The first 100, then 50 more at each of 10 halvings (every 1,024th, at the end).
    assert len(points_of(messages)) <= 100 + 50 * 10


def test_series_past_max_series_are_counted_not_sent(monkeypatch):
    chart, messages = plotted(monkeypatch, MAX_SERIES=2)
    for name in "abcd":
        chart.plot(name, 1)
        chart.plot(name, 2)
    chart.flush()
    notes: list[str] = []
    chart.say_left_out(notes.append)
    assert [s[2] for m in messages for s in m["series"]] == ["a", "b"]
    assert notes == ["plot(): 4 points of series past the first 2 not drawn "
                     "(a run draws 2 series at most)"]


def test_the_caps_notes_reach_the_run_s_output():
    cap = CONTRACT["plots"]["points"]
    code = f"for i in range({cap + 10}):\n    plot('loss', i)\n"
    _, output, messages = run_plotting(code)
    # Past the cap, every other point goes: half the cap, then the 10 points after it.
    assert len(kept_by_the_page(messages, cap)) == cap // 2 + 5
    assert (f"plot('loss'): {cap + 10:,} points, drawn as every 2nd (a series keeps "
            f"{cap:,} at most)" in output)


def test_a_y_that_is_nan_or_infinite_is_a_gap():
    _, _, messages = run_plotting("plot('loss', float('nan'))\nplot('loss', float('inf'))\n")
    assert points_of(messages) == [[0, 0.0, None], [0, 1.0, None]]


@pytest.mark.parametrize(("line", "error"), [
    ("plot('loss', 'high')", "TypeError: plot('loss'): y must be a number, got high (str)"),
    ("plot('loss', 1, x=float('inf'))", "ValueError: plot('loss'): x is inf, not a finite number"),
    ("plot('loss', None)", "TypeError: plot('loss'): y must be a number, got None (NoneType)"),
])
def test_bad_points_are_errors_that_name_the_series_at_the_learner_s_line(line, error):
    result, _, _ = run_plotting(f"plot('loss', 0.5)\n{line}\n")
    assert result["status"] == "error"
    assert result["line"] == 2
    assert result["error"].rstrip().endswith(error)


def test_the_points_before_an_error_are_sent():
    _, _, messages = run_plotting("plot('loss', 1)\nplot('loss', 2)\n1 / 0\n")
    assert len(points_of(messages)) == 2


BOUNDARY = """
points = [(0, 0), (1, 0), (0, 1), (1, 1)]
labels = [-1, 1, -1, 1]
boundary(lambda x, y: x - 0.5, points, labels, resolution=4)
"""


def test_boundary_sends_predict_on_a_grid_around_the_points_and_their_classes():
    result, _, messages = run_plotting(BOUNDARY)
    assert result["status"] == "done"
    (picture,) = [b for m in messages for b in m["boundaries"]]
    assert picture["title"] == "boundary"
    assert picture["x"] == picture["y"] == [-0.1, 1.1]
    assert picture["size"] == 4
    cell_xs = [-0.1 + (col + 0.5) * 0.3 for col in range(4)]
    assert picture["values"] == pytest.approx([x - 0.5 for _ in range(4) for x in cell_xs])
    assert picture["points"] == [[0, 0], [1, 0], [0, 1], [1, 1]]
    assert picture["classes"] == [False, True, False, True]


def test_points_at_the_ends_of_the_floats_get_a_finite_picture():
    result, _, messages = run_plotting(
        "boundary(lambda x, y: x / 2 - y / 2, [(-1.7e308, 1.7e308), (1.7e308, -1.7e308)], "
        "[0, 1])\n")
    assert result["status"] == "done", result["error"]
    (picture,) = [b for m in messages for b in m["boundaries"]]
    assert picture["x"] == picture["y"] == [-sys.float_info.max, sys.float_info.max]
    assert picture["classes"] == [False, True]
    assert all(value is not None for value in picture["values"])


def test_every_boundary_call_is_sent_with_its_step(monkeypatch):
    chart, messages = plotted(monkeypatch)
    points, labels = [(0, 0), (1, 0), (0, 1), (1, 1)], [-1, 1, -1, 1]
    for shift in (0.1, 0.2, 0.3):
        chart.plot("loss", shift)
        chart.boundary(lambda x, y, shift=shift: x - shift, points, labels, resolution=4)
    chart.flush()
    pictures = [b for m in messages for b in m["boundaries"]]
    assert [p["step"] for p in pictures] == [1, 2, 3]
    assert pictures[-1]["values"][0] == pytest.approx(-0.1 + 0.15 - 0.3)


def test_a_message_holds_at_most_batch_pictures(monkeypatch):
    chart, messages = plotted(monkeypatch)
    for _ in range(40):
        chart.boundary(lambda x, y: x, [(0, 0), (1, 1)], [1, -1], resolution=2)
    chart.flush()
    assert [len(m["boundaries"]) for m in messages] == [1, 16, 16, 7]
    assert messages[-1]["steps"] == 40  # a boundary's draws are steps too


class Pace:
    """The page's gate as plots.py sees it: `free` steps may begin without waiting; a
    wait lets one more begin. Notes each call, and what was sent before each wait."""

    def __init__(self, free: int, messages: list[dict]) -> None:
        self.free, self.messages, self.calls, self.waits = free, messages, [], []

    def __call__(self, block: bool) -> bool:
        self.calls.append(block)
        if self.free > 0:
            self.free -= 1
            return True
        if block:
            self.waits.append(len(points_of(self.messages)))
        return block


def test_a_paced_run_asks_as_each_step_begins_and_sends_what_gathered_before_it_waits(
        monkeypatch):
    chart, messages = plotted(monkeypatch)
    pace = chart._pace = Pace(2, messages)
    for i in range(4):
        chart.plot("loss", i)
        chart.plot("accuracy", i)  # the same step: no more asking
    # Steps 1 and 2 began at once; 3 and 4 each waited, with all before them sent.
    assert pace.calls == [False, False, False, True, False, True]
    assert pace.waits == [4, 6]


MODEL_RUN = ("import random\nfrom engine import Graph\nfrom engine.nn import MLP, Layer, Neuron\n"
             "rng = random.Random(3)\ng = Graph()\nmodel = {model}\n"
             "for p in model.parameters():\n    g.nodes[p].data = {weight}\n"
             "boundary({predict}, [(0, 0), (2, 1)], [1, -1], resolution={cells})\n")


def centres(cells: int) -> tuple[list[float], list[float]]:
    """MODEL_RUN's grid's centres: its points span x from 0 to 2, y from 0 to 1."""
    return ([-0.2 + 2.4 * (k + 0.5) / cells for k in range(cells)],
            [-0.1 + 1.2 * (k + 0.5) / cells for k in range(cells)])


@pytest.mark.parametrize("model", ["MLP(g, 2, [4, 1], rng=rng)", "MLP(g, 2, [1], rng=rng)",
                                   "Layer(g, 2, 1, rng=rng)", "Neuron(g, 2, rng=rng)"])
def test_boundary_of_an_engine_model_sends_its_weights_for_the_page_to_compute_the_grid(model):
    code = MODEL_RUN.format(model=model, weight="rng.uniform(-2, 2)", predict="model", cells=5) + (
        "import json\nfrom engine.nn import float_weights\n"
        "print(json.dumps(float_weights(model)))\n")
    result, output, messages = run_plotting(code)
    assert result["status"] == "done", result["error"]
    (picture,) = [b for m in messages for b in m["boundaries"]]
    assert "values" not in picture
    assert picture["model"] == strict_json(output)
    assert picture["xs"] == pytest.approx(centres(5)[0])
    assert picture["ys"] == pytest.approx(centres(5)[1])


@pytest.mark.parametrize(("model", "weight", "predict", "cells"), [
    ("MLP(g, 2, [4, 1], rng=rng)", "rng.uniform(-2, 2)", "lambda x, y: model.forward([x, y])[0]",
     5),
    ("MLP(g, 2, [4, 1], rng=rng)", "float('inf')", "model", 5),  # JSON has no inf
    ("MLP(g, 2, [40, 40, 1], rng=rng)", "rng.uniform(-2, 2)", "model", 60),  # too many sums
])
def test_boundary_computes_the_grid_in_python_for_a_function_or_a_model_the_page_does_not_take(
        model, weight, predict, cells):
    code = MODEL_RUN.format(model=model, weight=weight, predict=predict, cells=cells) + (
        "expected = [model.forward([x, y])[0] for y in ys for x in xs]\n"
        "print(json.dumps([v if abs(v) < float('inf') else None for v in expected]))\n")
    xs, ys = centres(cells)
    result, output, messages = run_plotting(f"import json\nxs, ys = {xs!r}, {ys!r}\n" + code)
    assert result["status"] == "done", result["error"]
    (picture,) = [b for m in messages for b in m["boundaries"]]
    assert "model" not in picture
    assert picture["values"] == pytest.approx(strict_json(output), nan_ok=True)


@pytest.mark.parametrize(("call", "error"), [
    ("boundary(MLP(Graph(), 2, [3, 2]), [(0, 0)], [1])",
     "ValueError: boundary('boundary'): the model has 2 inputs and 2 outputs; "
     "a boundary needs 2 (x and y) and 1"),
    ("boundary(MLP(Graph(), 3, [1]), [(0, 0)], [1])",
     "ValueError: boundary('boundary'): the model has 3 inputs and 1 outputs; "
     "a boundary needs 2 (x and y) and 1"),
    ("boundary(f, [(0, 0), (1, 1)], [1])",
     "ValueError: boundary('boundary'): 2 points but 1 labels"),
    ("boundary(f, [(0, 0), (1, 2, 3)], [1, -1])",
     "TypeError: boundary('boundary'): points[1] is (1, 2, 3), not an (x, y) pair"),
    ("boundary(f, [(0, 0)], ['a'])",
     "TypeError: boundary('boundary'): labels[0] must be a number, got a (str)"),
    ("boundary(lambda x, y: 'yes', [(0, 0)], [1], resolution=2)",
     "TypeError: boundary('boundary'): predict(-0.5, -0.5) must be a number, got yes (str)"),
    ("boundary(f, [(0, 0)], [1], resolution=500)",
     "ValueError: boundary('boundary'): resolution must be an int from 2 to 60, got 500"),
    ("boundary(f, [(0, 0)], [1], threshold=float('nan'))",
     "ValueError: boundary('boundary'): threshold must be a finite number, got nan"),
    ("boundary(3, [(0, 0)], [1])",
     "TypeError: boundary('boundary'): predict must be a function of (x, y) or an engine.nn "
     "model, got int"),
])
def test_boundary_refuses_bad_input_naming_what_is_wrong(call, error):
    result, _, _ = run_plotting("from engine import Graph\nfrom engine.nn import MLP\n"
                                f"def f(x, y): return x\n{call}\n")
    assert result["status"] == "error"
    assert result["line"] == 4
    assert result["error"].rstrip().endswith(error)


def test_an_error_inside_predict_points_at_the_learner_s_line():
    result, _, _ = run_plotting("def f(x, y):\n    return x / 0\nboundary(f, [(0, 0)], [1])\n")
    assert result["status"] == "error"
    assert result["line"] == 2
    assert "ZeroDivisionError" in result["error"]


def test_each_run_starts_with_no_series():
    run_plotting("plot('a', 1)\nplot('b', 2)\nplot = None\n")
    _, _, messages = run_plotting("plot('c', 3)\n")
    assert messages[0]["series"] == [[0, "c", "c"]]
