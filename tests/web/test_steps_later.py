"""A long Backward's steps are not sent with its run: the table says how many there are
(stepsLater), the worker makes them when the learner starts the replay, and the replay
shows the same steps and grads as a Backward sent whole."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import expect

from engine import Backward, BackwardSteps, Graph, MakeValue, VMul, VTanh
from playground_runner.tables import SENT_STEPS
from tests.web.conftest import RUN_MS
from tests.web.runs import RUNNER, run

from .test_graph import step_button, stepper
from .test_live import put_cursor_after

EXAMPLE = (Path(__file__).parents[2] / "web" / "shared" / "example.py").read_text(encoding="utf-8")
NODES = 1_000
CHAIN = f"""from engine import Graph, MakeValue, VMul, VTanh, Backward

g = Graph()
y = MakeValue(g, 0.5, label="x")
w = MakeValue(g, 0.9, label="w")
for _ in range({(NODES - 2) // 2}):
    y = VTanh(g, VMul(g, y, w))
Backward(g, y)
"""


def chain(w: float = 0.9) -> tuple[Graph, list[dict]]:
    """CHAIN's graph, built here, and its Backward's steps as the engine makes them."""
    g = Graph()
    y = MakeValue(g, 0.5, label="x")
    weight = MakeValue(g, w, label="w")
    for _ in range((NODES - 2) // 2):
        y = VTanh(g, VMul(g, y, weight))
    Backward(g, y)
    return g, BackwardSteps(g, y)


def grads_after(g: Graph, steps: list[dict], p: int) -> list[float]:
    """The grads a replay shows after `p` steps: Backward's start, then each term's."""
    grads = [g.nodes[i].grad for i in range(len(g.nodes))]
    for step in steps:
        grads[step["node"]] = 0.0
    grads[steps[0]["node"]] = 1.0
    for step in steps[:p]:
        for term in step["terms"]:
            grads[term["operand"]] = term["grad"]
    return grads


def test_a_long_backward_comes_without_its_steps_which_the_runner_makes_when_asked():
    result, _ = run(CHAIN)
    table = result["tables"][0]
    assert NODES > SENT_STEPS
    assert table["steps"] is None and table["noSteps"] is None
    assert table["stepsLater"] == NODES
    assert len(json.dumps(result)) < 100_000  # the steps alone are 0.4 MB
    _, steps = chain()
    assert json.loads(RUNNER.steps(0)) == {"steps": json.loads(json.dumps(steps)),
                                           "noSteps": None}


def test_steps_are_of_the_graph_as_shown_and_of_the_last_run_alone():
    code = CHAIN + "show(g, 'before')\ng._data[1] = 0.5\n"
    result, _ = run(code)
    assert [t["title"] for t in result["tables"]] == ["before", "g"]
    _, shown = chain()
    assert json.loads(RUNNER.steps(0))["steps"] == json.loads(json.dumps(shown))
    RUNNER.run(EXAMPLE, lambda batch: None, unseen=True)  # the worker's warm-up
    assert json.loads(RUNNER.steps(0))["steps"] == json.loads(json.dumps(shown))
    run("print(1)")
    assert json.loads(RUNNER.steps(0)) == {
        "steps": None, "noSteps": "its run is over: run the code again to replay it"}


def test_a_replay_of_a_long_backward_shows_each_step_and_its_grads(playground):
    assert playground.run(CHAIN) == "done"
    g, steps = chain()
    step_button(playground, "Next").click()
    step_button(playground, "Next").click()
    expect(stepper(playground)).to_have_attribute("data-step", "2", timeout=RUN_MS)
    assert stepper(playground).get_attribute("data-node") == str(steps[1]["node"])
    expect(stepper(playground)).to_contain_text(f"Step 2 of {NODES}: node")
    expect(stepper(playground).locator(".step-terms")).to_contain_text(
        steps[1]["terms"][0]["rule"])
    shown = playground.element.evaluate("el => el.tables.grads")
    assert shown == grads_after(g, steps, 2)
    # A live edit keeps the replay at its step, with the edited code's steps.
    put_cursor_after(playground, "0.9")
    playground.page.keyboard.press("Alt+ArrowUp")
    expect(playground.element.locator(".replay-band.backward")).to_contain_text(
        f"Replaying Backward of your edited code: step 2 of {NODES}", timeout=RUN_MS)
    edited, edited_steps = chain(1.0)
    playground.page.wait_for_function(
        "grad => document.querySelector('autograd-playground').tables.grads[1] === grad",
        arg=grads_after(edited, edited_steps, 2)[1], timeout=RUN_MS)
    assert playground.element.evaluate("el => el.tables.grads") == grads_after(
        edited, edited_steps, 2)
