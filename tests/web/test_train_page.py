"""train.html: a model on the course's graph, one training step, and the moons trained
while its loss and decision regions are drawn; accessible in both themes."""

from __future__ import annotations

import pytest

from .pages import PlaygroundAt
from .test_accessibility import axe_violations, readable


def run_at(page, site: str, name: str) -> tuple[PlaygroundAt, dict]:
    """Open train.html, run its playground `name` to the end; it, and the run-end detail."""
    page.goto(site + "train.html")
    playground = PlaygroundAt(page, f"#{name}")
    playground.element.scroll_into_view_if_needed()  # Python starts once a playground is seen
    playground.wait_for("ready")
    return playground, playground.run_detail()


def test_the_model_s_forward_on_floats_gives_its_recorded_score(new_context, site):
    playground, detail = run_at(new_context().new_page(), site, "neuron")
    assert detail["status"] == "done"
    lines = playground.output.splitlines()
    assert lines[1] == "9 parameters: [0, 1, 2, 3, 4, 5, 6, 7, 8]"
    score = lines[2].split()[1]
    assert lines[2] == f"score {score} from 16 nodes of one forward pass"
    assert lines[3] == f"the same without recording: {score}"
    assert float(score) != 0.0


def test_each_training_step_lowers_the_loss_on_a_graph_of_the_same_size(new_context, site):
    playground, detail = run_at(new_context().new_page(), site, "steps")
    assert detail["status"] == "done"
    assert playground.output.splitlines() == [
        "step 0: loss 1.0298, 1316 nodes",
        "step 1: loss 0.9418, 1316 nodes",
        "step 2: loss 0.8570, 1316 nodes",
        "step 3: loss 0.7625, 1316 nodes",
        "step 4: loss 0.6488, 1316 nodes",
    ]


# Each playground's own height beside its content's: a playground scrolls inside itself
# when its content is taller than it.
INSIDE_AND_OUT = """els => els.map(el => {
  const box = el.shadowRoot.querySelector('.playground');
  return [el.id, box.scrollHeight - box.clientHeight];
})"""


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_no_playground_scrolls_inside_itself_before_or_after_its_run(new_context, site,
                                                                     viewport):
    width, height = viewport
    page = new_context(viewport={"width": width, "height": height}).new_page()
    playground, detail = run_at(page, site, "steps")
    assert detail["status"] == "done"
    playgrounds = page.locator("autograd-playground")
    hidden = dict(playgrounds.evaluate_all(INSIDE_AND_OUT))
    assert list(hidden) == ["neuron", "steps", "moons", "write-step", "write-loss", "reach-95"]
    assert all(px <= 1 for px in hidden.values()), hidden


# Each heading's width, and each label cell in view: its text and whether it shows whole.
COLUMNS_AND_LABELS = """el => ({
  headings: [...el.shadowRoot.querySelectorAll('.scroller thead th')].map(
    th => [th.textContent, th.getBoundingClientRect().width]),
  labels: [...el.shadowRoot.querySelectorAll('.scroller tbody tr[data-node] > td.label')].map(
    c => [c.textContent, c.scrollWidth <= c.clientWidth + 1
          && c.firstElementChild.scrollHeight <= c.firstElementChild.clientHeight + 1]),
})"""


def test_on_a_phone_a_graph_too_wide_for_the_column_keeps_every_column_in_sight(
        new_context, site):
    page = new_context(viewport={"width": 390, "height": 844}).new_page()
    playground, detail = run_at(page, site, "steps")  # ops like Add(108, 109), 11-digit grads
    assert detail["status"] == "done"
    seen = playground.element.evaluate(COLUMNS_AND_LABELS)
    assert [name for name, _ in seen["headings"]] == ["index", "label", "op", "data", "grad"]
    assert all(width >= 30 for _, width in seen["headings"]), seen["headings"]
    assert len(seen["labels"]) >= 20
    assert all(whole for _, whole in seen["labels"]), seen["labels"]
    assert ["L1.n1.w1", True] in seen["labels"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_moons_learn_while_their_loss_and_regions_are_drawn(new_context, site, scheme):
    page = new_context(color_scheme=scheme).new_page()
    playground, detail = run_at(page, site, "moons")
    assert detail["status"] == "done"
    assert playground.output.strip() == "after 100 steps: loss 0.0787, accuracy 97%"
    loss, accuracy = (chart["series"][0] for chart in detail["plots"]["charts"])
    assert (loss["name"], loss["points"], accuracy["name"], accuracy["points"]) == (
        "loss", 100, "accuracy", 100)
    assert loss["last"][1] < 0.1
    (regions,) = detail["plots"]["boundaries"]
    assert len(regions["points"]) == 60
    assert regions["size"] == 25
    assert playground.element.locator(".boundary canvas.regions").is_visible()
    violations = axe_violations(page)
    assert [v["id"] for v in violations] == [], f"axe, {scheme}:\n{readable(violations)}"


# Where each figure of the charts is, in the viewport, and whether the page shows it
# there (its centre is not under another part, nor scrolled out of a box around it).
FIGURES_SEEN = """el => [...el.shadowRoot.querySelectorAll('.plots figure')].map((figure) => {
  const box = figure.getBoundingClientRect();
  const centre = el.shadowRoot.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
  return {top: box.top, bottom: box.bottom, shown: figure.contains(centre)};
})"""


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_the_moons_charts_are_in_view_while_they_train(new_context, site, viewport):
    width, height = viewport
    context = new_context(viewport={"width": width, "height": height})
    context.add_init_script("localStorage.setItem('autograd-playground-pace', '1')")
    page = context.new_page()
    page.goto(site + "train.html")
    moons = PlaygroundAt(page, "#moons")
    moons.element.scroll_into_view_if_needed()
    moons.wait_for("ready")
    moons.button("Run").click()
    # A step a second: the run goes on while the charts are looked at.
    page.wait_for_function(
        "el => el.shadowRoot.querySelector('.boundary')?.dataset.draws === '1'"
        " && Number(el.shadowRoot.querySelector('.plots').dataset.steps) >= 2",
        arg=moons.element.element_handle())
    assert moons.state == "running"
    figures = moons.element.evaluate(FIGURES_SEEN)
    assert len(figures) == 3  # loss, accuracy, the regions
    for figure in figures:
        assert 0 <= figure["top"] and figure["bottom"] <= height, figure
        assert figure["shown"], figure
    moons.button("Stop").click()
    assert moons.wait_for("stopped") == "stopped"


# Each chart's box and the plot it draws (a line chart's uPlot, the regions' canvases):
# how far below the plot the box goes, and its height.
BOXES_AND_PLOTS = """el => [...el.shadowRoot.querySelectorAll('.plots figure')].map(figure => {
  const box = figure.getBoundingClientRect();
  const plot = figure.querySelector('.plot, .canvases').getBoundingClientRect();
  return { chart: figure.dataset.chart ?? figure.dataset.title, below: box.bottom - plot.bottom,
           box: box.height, plot: plot.height };
})"""


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_each_charts_box_ends_with_its_plot(new_context, site, viewport):
    width, height = viewport
    page = new_context(viewport={"width": width, "height": height}).new_page()
    playground, detail = run_at(page, site, "moons")
    assert detail["status"] == "done"
    charts = playground.element.evaluate(BOXES_AND_PLOTS)
    assert [c["chart"] for c in charts] == ["loss", "accuracy", "boundary"]
    for chart in charts:
        # Its padding and border (5 px) and nothing more: no empty room under the plot.
        assert chart["below"] <= 6, chart
    # A pointer on a plot has its values said, over the chart's title, not below its plot.
    playground.element.locator(".plots figure.chart .plot").first.hover()
    readout = playground.element.locator(".plots figure.chart .readout").first
    assert readout.inner_text().startswith("x ")
    assert playground.element.evaluate(BOXES_AND_PLOTS)[0]["below"] <= 6
