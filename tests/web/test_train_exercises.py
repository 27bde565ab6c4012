"""The training page's exercises: each fails as given and passes with its solution, and
a wrong step (up the gradient, or keeping its grads) is told what is wrong. In CPython
through the runner, then in the page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.web.test_course_exercises import page_exercises, verdict
from tests.web.test_exercises import Exercise as ExerciseAt

EXERCISES = page_exercises("train.html")
STEP = EXERCISES["write-step"]
MOVE = "g.nodes[p].data -= lr * g.nodes[p].grad\n"
UP_THE_GRADIENT = STEP.solution.replace(MOVE, MOVE.replace("-=", "+="))
GRADS_KEPT = STEP.solution.replace("        g.nodes[p].grad = 0.0\n", "")
WRONG_STEPS = {
    "the parameters moved up the gradient: the update must subtract lr * grad": UP_THE_GRADIENT,
    "the grads were not zeroed between steps: the second step moved the parameters by the "
    "sum of both steps' grads": GRADS_KEPT,
}


def test_the_page_has_its_three_exercises_each_with_two_hints():
    assert list(EXERCISES) == ["write-step", "write-loss", "reach-95"]
    assert all(len(exercise.hints) == 2 for exercise in EXERCISES.values())


@pytest.mark.parametrize("id_", EXERCISES)
def test_each_exercise_fails_as_given_and_passes_with_its_solution(id_):
    exercise = EXERCISES[id_]
    assert verdict(exercise.code, exercise.checks)["passed"] is False
    assert verdict(exercise.solution, exercise.checks) == {"passed": True, "messages": []}


def test_the_exercises_as_given_say_what_to_do():
    said = {id_: verdict(e.code, e.checks)["messages"] for id_, e in EXERCISES.items()}
    assert said["write-step"][0].startswith(
        "on the first step, your step left the parameters as they were")
    assert said["write-loss"][0].startswith(
        "your loss is 0, expected 0.75, the mean of relu(1 - label * score) over the points.")
    assert said["reach-95"][0].startswith("your model classifies ")
    assert said["reach-95"][0].endswith(
        "it needs 95%. Train longer, with more neurons, or with another learning rate, "
        "then Run again.")


@pytest.mark.parametrize("told", WRONG_STEPS)
def test_a_wrong_step_is_told_what_is_wrong(told):
    code = WRONG_STEPS[told]
    assert code != STEP.solution
    [message] = verdict(code, STEP.checks)["messages"]
    assert message.startswith(told)


def test_a_learner_s_own_check_step_does_not_pass_for_the_check():
    cheat = UP_THE_GRADIENT + (
        "import engine.training_checks\n"
        "engine.training_checks.check_step = lambda step: None\n"
        "def check_step(step):\n    pass\n")
    [message] = verdict(cheat, STEP.checks)["messages"]
    assert message.startswith(next(iter(WRONG_STEPS)))


# In the page


@pytest.fixture
def train(site, new_context) -> Page:
    page = new_context().new_page()
    page.goto(site + "train.html")
    return page


def test_a_wrong_step_in_the_page_is_told_what_is_wrong_then_the_solution_passes(train):
    step = ExerciseAt(train, "#write-step")
    for told, wrong in WRONG_STEPS.items():
        detail = step.attempt(wrong)
        assert detail["passed"] is False
        [message] = detail["messages"]
        assert message.startswith(told)
        assert step.check == "failed"
        expect(step.panel.locator(".messages li")).to_have_text([message])
    step.button("Show solution").click()
    assert step.code == STEP.solution
    assert step.attempt() == {"passed": True, "messages": []}
    assert step.check == "passed"


def counts_masked(message: str) -> str:
    """`message` with the counts of check_accuracy's random points left out."""
    return re.sub(r"classifies \d+ of (\d+) new moons points right \([\d.]+%\)",
                  r"classifies N of \1 new moons points right", message)


def test_the_page_shows_each_exercises_code_fails_it_and_passes_its_solution(train):
    for id_, exercise in EXERCISES.items():
        playground = ExerciseAt(train, f"#{id_}")
        playground.element.scroll_into_view_if_needed()
        playground.wait_for("ready")
        assert playground.code == exercise.code
        # As CPython says it, but for how many of its random points a model gets right.
        page = playground.attempt()
        cpython = verdict(exercise.code, exercise.checks)
        assert page["passed"] is cpython["passed"] is False
        assert [counts_masked(m) for m in page["messages"]] == [
            counts_masked(m) for m in cpython["messages"]]
        assert playground.attempt(exercise.solution) == {"passed": True, "messages": []}
    expect(train.locator("autograd-progress p")).to_have_text("3 of 3 exercises passed")
