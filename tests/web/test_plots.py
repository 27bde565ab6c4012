"""plot() and boundary() in the page: charts drawn while the code runs, kept after Stop,
cleared by the next run, readable by tests (data- attributes, the run-end event), by
keyboard and by screen readers, in both themes; and their code downloaded only by a
page whose code plots."""

from __future__ import annotations

import json

import pytest

from playground_runner.plots import PAGE_SUMS

from .conftest import NEVER_MS, Playground, set_deadlines
from .test_accessibility import axe_violations, readable
from .test_service_worker import ACTIVE_AND_KEPT, CACHE

CHARTS_CHUNK = "/chunks/charts-"
THOUSAND = "for i in range(1000):\n    plot('loss', 1 / (i + 1))\n"
# A small MLP learning which quadrants a point is in, without end: a plot of its loss
# every step, its decision regions every fifth.
TRAINING = """
import itertools, random
from engine import Backward, Graph, Handle, MakeValue
from engine.nn import MLP
rng = random.Random(0)
points = [(rng.uniform(-1, 1), rng.uniform(-1, 1)) for _ in range(20)]
labels = [1 if x * y > 0 else -1 for x, y in points]
g = Graph()
model = MLP(g, 2, [8, 1], rng=rng)
params = model.parameters()
n_params = len(g.nodes)
for step in itertools.count():
    del g.nodes[n_params:]
    scores = [Handle(g, model([MakeValue(g, x), MakeValue(g, y)])[0]) for x, y in points]
    loss = sum((1 - l * s).relu() for l, s in zip(labels, scores)) * (1 / len(points))
    Backward(g, loss.index)
    for p in params:
        g.nodes[p].data -= 0.1 * g.nodes[p].grad
    plot("loss", loss.data)
    if step % 5 == 0:
        boundary(lambda x, y: model.forward([x, y])[0], points, labels, resolution=10)
"""
# A model of fixed weights and its decision regions, on a grid of 12 x 12 cells.
MODEL = """
import random
from engine import Graph
from engine.nn import MLP
rng = random.Random(4)
points = [(rng.uniform(-2, 2), rng.uniform(-1, 1)) for _ in range(30)]
labels = [1 if x > y else -1 for x, y in points]
model = MLP(Graph(), 2, [6, 6, 1], rng=rng)
"""
BOUNDARY = MODEL + (
    "boundary(lambda x, y: model.forward([x, y])[0], points, labels, resolution=12)\n")
PLOTS_AND_BOUNDARY = THOUSAND + "plot('accuracy', 0.5, chart='loss')\n" + BOUNDARY


def chart(playground: Playground, name: str):
    return playground.element.locator(f".chart[data-chart='{name}']")


def run_with_detail(playground: Playground, code: str) -> dict:
    """Run `code` to its end; the run-end event's detail."""
    playground.code = code
    return playground.run_detail()


def test_a_run_that_plots_1000_times_ends_with_1000_points_drawn_and_in_run_end(playground):
    detail = run_with_detail(playground, THOUSAND)
    assert detail["status"] == "done"
    loss = chart(playground, "loss")
    assert loss.get_attribute("data-points") == "1000"
    assert loss.get_attribute("data-dropped") == "0"
    assert playground.element.locator(".plots").get_attribute("data-steps") == "1000"
    assert playground.element.locator(".plot-clock").inner_text().startswith("step 1,000 · ")
    (series,) = detail["plots"]["charts"][0]["series"]
    assert series == {"name": "loss", "points": 1000, "dropped": 0, "last": [999, 1 / 1000]}


def test_the_chart_shows_while_the_code_runs_and_stop_keeps_all_it_plotted(playground):
    set_deadlines(playground.page, stopGraceMs=NEVER_MS)
    playground.start(THOUSAND + "print('plotted')\nwhile True:\n    pass\n")
    chart(playground, "loss").wait_for()
    # Stop once all 1,000 are plotted, however fast the machine got there: it keeps them.
    playground.wait_for_output("plotted")
    assert playground.state == "running"
    playground.button("Stop").click()
    assert playground.wait_for("stopped") == "stopped"
    assert chart(playground, "loss").get_attribute("data-points") == "1000"


@pytest.mark.parametrize("isolated", [True, False], ids=["interrupt", "restart"])
def test_stop_mid_training_keeps_the_charts_drawn_by_then(open_playground, request, isolated):
    playground = open_playground(request.getfixturevalue("site" if isolated else "plain_site"))
    set_deadlines(playground.page, stopGraceMs=NEVER_MS)
    playground.start(TRAINING)
    regions = playground.element.locator(".boundary[data-title='boundary']")
    playground.page.wait_for_function(
        "el => Number(el.dataset.draws) >= 2", arg=regions.element_handle())
    assert playground.state == "running"
    seen = int(chart(playground, "loss").get_attribute("data-points"))
    assert seen >= 6
    playground.button("Stop").click()
    assert playground.wait_for("stopped") == "stopped"
    assert int(chart(playground, "loss").get_attribute("data-points")) >= seen
    assert int(regions.get_attribute("data-draws")) >= 2
    assert playground.element.locator(".plots").is_visible()


def test_run_again_clears_the_charts(playground):
    assert playground.run(PLOTS_AND_BOUNDARY) == "done"
    assert playground.element.locator(".plots figure").count() == 2
    assert playground.run("print('no plots')") == "done"
    assert playground.element.locator(".plots figure").count() == 0
    assert playground.element.locator(".plots").is_hidden()


# The colour of sampled pixels of the regions' canvas, by the cell they fall in: the
# point of each cell a third of the way across and up, so the test samples every cell.
SAMPLED_CELLS = """figure => {
  const canvas = figure.querySelector('canvas.regions');
  const size = Number(figure.dataset.size);
  const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
  const samples = [];
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      const px = Math.floor(((col + 1 / 3) / size) * canvas.width);
      const py = Math.floor((1 - (row + 1 / 3) / size) * canvas.height);
      const at = (py * canvas.width + px) * 4;
      samples.push({col, row, rgba: [...pixels.data.slice(at, at + 4)]});
    }
  }
  return samples;
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_boundary_draws_regions_that_match_the_model_s_predictions_at_sampled_pixels(
    open_playground, site, scheme
):
    playground = open_playground(site, color_scheme=scheme)
    assert playground.run(BOUNDARY) == "done"
    figure = playground.element.locator(".boundary[data-title='boundary']")
    attrs = figure.evaluate("f => ({...f.dataset})")
    samples = figure.evaluate(SAMPLED_CELLS)
    # The model's own predictions at the cells' centres, from a run of the same model.
    size = int(attrs["size"])
    x0, x1, y0, y1 = (float(attrs[k]) for k in ("x0", "x1", "y0", "y1"))
    centres = [(x0 + (s["col"] + 0.5) * (x1 - x0) / size,
                y0 + (s["row"] + 0.5) * (y1 - y0) / size) for s in samples]
    predict = f"print([model.forward([x, y])[0] for x, y in {centres!r}])\n"
    assert playground.run(MODEL + predict) == "done"
    predictions = json.loads(playground.output)
    # Above the threshold (0) is drawn blue, the rest orange, whatever the theme.
    drawn_above = [s["rgba"][2] > s["rgba"][0] for s in samples]
    assert drawn_above == [p > 0 for p in predictions]
    assert all(s["rgba"][3] > 0 for s in samples)
    assert 0 < sum(drawn_above) < len(samples)  # both regions are there


def test_a_model_s_regions_computed_by_the_page_are_python_s_floats_exactly(playground):
    weights = ("g = model.layers[0].neurons[0].g\n"
               "for p in model.parameters():\n    g.nodes[p].data = rng.uniform(-3, 3)\n")
    detail = run_with_detail(playground, MODEL + weights + "boundary(model, points, labels)\n")
    assert detail["status"] == "done"
    (picture,) = detail["plots"]["boundaries"]
    # Python's own forward pass at the same centres (as the runner makes them).
    cells = picture["size"]
    predict = ("def centres(low, high):\n"
               f"    return [low * (1 - t) + high * t for t in ((k + 0.5) / {cells} "
                   f"for k in range({cells}))]\n"
               f"xs, ys = centres(*{picture['x']!r}), centres(*{picture['y']!r})\n"
               "print(json.dumps([model.forward([x, y])[0] for y in ys for x in xs]))\n")
    assert playground.run("import json\n" + MODEL + weights + predict) == "done"
    expected = json.loads(playground.output)
    assert picture["values"] == expected
    assert min(expected) < 0 < max(expected)


def test_the_largest_model_the_runner_leaves_to_the_page_is_one_the_page_takes(playground):
    # 277 relu neurons and one output: 1,109 weights and biases, times 60 x 60 cells,
    # under the runner's cap for the page's sums, which one neuron more (4 numbers) is past.
    assert 1_109 * 60 * 60 <= PAGE_SUMS < (1_109 + 4) * 60 * 60
    code = MODEL.replace("[6, 6, 1]", "[277, 1]") + (
        "boundary(model, points, labels, resolution=60)\n")
    detail = run_with_detail(playground, code)
    assert detail["status"] == "done", detail["error"]
    (picture,) = detail["plots"]["boundaries"]
    assert len(picture["values"]) == 60 * 60


def test_hover_and_the_arrow_keys_say_the_values_under_them(playground):
    assert playground.run(PLOTS_AND_BOUNDARY) == "done"
    loss = chart(playground, "loss")
    loss.focus()
    playground.page.keyboard.press("End")
    assert loss.locator(".readout").inner_text() == "x 999.0: loss 0.001, accuracy no point"
    playground.page.keyboard.press("Home")
    assert loss.locator(".readout").inner_text() == "x 0.0: loss 1.0, accuracy 0.5"
    regions = playground.element.locator(".boundary")
    regions.locator("canvas.dots").hover(position={"x": 1, "y": 1})
    assert regions.locator(".readout").inner_text().startswith("x ")
    regions.focus()
    playground.page.keyboard.press("ArrowLeft")
    assert "predict " in regions.locator(".readout").inner_text()
    assert "Arrow keys" in regions.get_attribute("aria-label")


def test_points_at_the_ends_of_the_floats_are_drawn_and_read_out_finite(playground):
    assert playground.run("boundary(lambda x, y: x / 2 - y / 2, [(-1.7e308, 1.7e308), "
                          "(1.7e308, -1.7e308)], [0, 1], resolution=2)\n") == "done"
    regions = playground.element.locator(".boundary")
    drawn = regions.locator("canvas.dots").evaluate(
        "c => { const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
        " let n = 0; for (let i = 3; i < d.length; i += 4) n += d[i] > 0; return n; }")
    assert drawn > 0  # the two points, near opposite corners
    regions.focus()
    playground.page.keyboard.press("ArrowLeft")
    readout = regions.locator(".readout").inner_text()
    assert "predict " in readout and "Infinity" not in readout and "NaN" not in readout


def test_switching_the_theme_recolours_the_charts(playground):
    assert playground.run(BOUNDARY) == "done"
    figure = playground.element.locator(".boundary")
    before = figure.evaluate(SAMPLED_CELLS)
    playground.page.select_option("#page-theme", "dark")
    playground.page.wait_for_function(
        f"f => JSON.stringify(({SAMPLED_CELLS})(f)) !== {json.dumps(json.dumps(before))}",
        arg=figure.element_handle())


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violations_with_charts_showing(open_playground, site, scheme):
    playground = open_playground(site, color_scheme=scheme)
    assert playground.run(PLOTS_AND_BOUNDARY) == "done"
    chart(playground, "loss").focus()
    playground.page.keyboard.press("End")
    violations = axe_violations(playground.page)
    assert [v["id"] for v in violations] == [], f"axe, {scheme}:\n{readable(violations)}"


def test_a_page_whose_code_never_plots_downloads_no_charting_code(new_context, site):
    context = new_context()
    requests: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    playground = Playground(context.new_page()).open(site)
    assert playground.run("print('no plots')") == "done"
    kept = playground.page.evaluate(ACTIVE_AND_KEPT, CACHE)  # nor does its service worker
    assert any("/chunks/" in url for url in kept)
    assert [url for url in requests + kept if CHARTS_CHUNK in url] == []
    assert playground.run("plot('loss', 1)") == "done"  # the first plot downloads them
    assert [url for url in requests if CHARTS_CHUNK in url] != []


def test_a_run_whose_charts_cannot_be_loaded_ends_and_says_so(open_playground, site):
    def no_charts(context):
        context.route(f"**{CHARTS_CHUNK}*", lambda route: route.fulfill(status=404))

    playground = open_playground(site, setup=no_charts)
    assert playground.run(THOUSAND) == "done"
    assert playground.element.locator(".plot-clock").inner_text().startswith(
        "The charts could not be loaded: ")
    assert playground.run("print('next')") == "done"


def test_charts_draw_in_a_browser_whose_language_intl_refuses(open_playground, site):
    # WebKitGTK under the C locale says its language is "C".
    def language_c(context):
        context.add_init_script(
            "Object.defineProperty(Navigator.prototype, 'language', {get: () => 'C'})")

    playground = open_playground(site, setup=language_c)
    assert playground.run(THOUSAND) == "done"
    assert chart(playground, "loss").get_attribute("data-points") == "1000"
    assert playground.page.evaluate("navigator.language") == "C"


# Batches a run's code sends itself, past plot(): not JSON, not of the runner's shape,
# points of a series never defined, a series' points past its cap.
FORGED = [
    "'not json'",
    "json.dumps({'points': []})",
    "json.dumps({'ms': 0, 'steps': 1, 'series': [], 'points': [[3, 0, 1]], 'dropped': [],"
    " 'boundaries': []})",
    "json.dumps({'ms': 0, 'steps': 1, 'series': [[0, 'a', 'a']],"
    " 'points': [[0, i, 1] for i in range(5_001)], 'dropped': [], 'boundaries': []})",
]


@pytest.mark.parametrize("batch", FORGED)
def test_plots_a_run_forges_end_it_as_malformed_and_the_next_run_works(playground, batch):
    code = f"import json\nplot.__self__._post({batch})\nwhile True:\n    pass\n"
    assert playground.run(code) == "error"
    assert "the run's output was malformed" in playground.output
    assert playground.run("plot('loss', 1)") == "done"
    assert chart(playground, "loss").get_attribute("data-points") == "1"
