"""The course page's exercises: each fails as given and passes with its solution, and a
learner's wrong Backward is told the first node it gets wrong. In CPython through the
runner (every exercise), then in the page."""

from __future__ import annotations

import textwrap
from html.parser import HTMLParser
from typing import NamedTuple

import pytest
from playwright.sync_api import Page, expect

import build
import engine
from tests.web.runs import run_watched
from tests.web.test_exercises import Exercise as ExerciseAt


class Exercise(NamedTuple):
    code: str
    checks: list[str]
    hints: list[str]
    solution: str


class CourseExercises(HTMLParser):
    """Each <autograd-playground> of a page, by id: its code (its text outside the author's
    children), checks, hints and solution, dedented as the page dedents them."""

    def __init__(self) -> None:
        super().__init__()
        self.found: dict[str, dict] = {}
        self.playground: dict | None = None
        self.role: str | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        attributes = dict(attrs)
        if tag == "autograd-playground":
            self.playground = {"code": "", "check": [], "hint": [], "solution": []}
            self.found[attributes["id"]] = self.playground
        elif self.playground is not None and attributes.get("data-role"):
            self.role = attributes["data-role"]
            self.playground[self.role].append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "autograd-playground":
            self.playground = None
        elif tag in ("script", "template"):
            self.role = None

    def handle_data(self, data: str) -> None:
        if self.playground is None:
            return
        if self.role is None:
            self.playground["code"] += data
        else:
            self.playground[self.role][-1] += data


def dedented(text: str) -> str:
    return textwrap.dedent(text).strip("\n") + "\n"


def page_exercises(page: str) -> dict[str, Exercise]:
    """The exercises of one of the site's pages (course.html, train.html), by id."""
    parser = CourseExercises()
    parser.feed((build.SITE / page).read_text(encoding="utf-8"))
    return {
        id_: Exercise(dedented(found["code"]), [dedented(c) for c in found["check"]],
                      [h.strip() for h in found["hint"]], dedented(found["solution"][0]))
        for id_, found in parser.found.items() if found["check"]
    }


EXERCISES = page_exercises("course.html")
BACKWARD = EXERCISES["write-backward"].solution
MISSING_PLUS_EQUALS = BACKWARD.replace("].grad +=", "].grad =")
WRONG_ORDER = BACKWARD.replace("in reversed(order)", "in order")


def verdict(code: str, checks: list[str]) -> dict:
    result, _, _ = run_watched(code, tuple(checks))
    assert result["status"] == "done", result["error"]
    return result["check"]


def check_grads_says(code: str) -> str:
    """What engine.check_grads says, run directly in CPython, of the code's Backward."""
    namespace = {"__name__": "__main__"}
    exec(code, namespace)
    with pytest.raises(AssertionError) as caught:
        engine.check_grads(namespace["Backward"])
    return str(caught.value)


def test_the_course_has_its_four_exercises_each_with_hints():
    assert list(EXERCISES) == ["data-model", "engine-graph", "topo-sort", "write-backward"]
    assert all(exercise.hints for exercise in EXERCISES.values())


@pytest.mark.parametrize("id_", EXERCISES)
def test_each_exercise_fails_as_given_and_passes_with_its_solution(id_):
    exercise = EXERCISES[id_]
    assert verdict(exercise.code, exercise.checks)["passed"] is False
    assert verdict(exercise.solution, exercise.checks) == {"passed": True, "messages": []}


def test_the_exercises_as_given_say_what_to_do():
    said = {id_: verdict(e.code, e.checks)["messages"] for id_, e in EXERCISES.items()}
    assert said["data-model"] == [
        "e is 0.9993: change a, b or c so that e comes out negative."]
    assert said["engine-graph"] == [
        "your graph has 6 nodes, expected 8; its nodes are 0: leaf, 1: leaf, 2: leaf, "
        "3: Mul(0, 1), 4: Add(3, 2), 5: Tanh(4)"]
    assert said["topo-sort"][0].startswith(
        "your TopoSort returned [5]: node 4 is missing, and node 5, Tanh(4) uses it\n")
    assert said["write-backward"][0].startswith(
        "node 5, Tanh(4): your #4.grad is 0, ")


@pytest.mark.parametrize("code", [MISSING_PLUS_EQUALS, WRONG_ORDER],
                         ids=["missing +=", "wrong order"])
def test_a_wrong_backward_is_told_the_first_wrong_node(code):
    assert code != BACKWARD
    [message] = verdict(code, EXERCISES["write-backward"].checks)["messages"]
    assert message == check_grads_says(code)


def test_what_the_exercise_prints_agrees_with_its_verdict():
    for code, passed in [(BACKWARD, True), (MISSING_PLUS_EQUALS, False)]:
        result, output, _ = run_watched(code, tuple(EXERCISES["write-backward"].checks))
        assert result["check"]["passed"] is passed
        checks = [line for line in output.splitlines() if "grad check" in line]
        assert len(checks) == 3
        assert all("grad check passed" in line for line in checks) is passed
    assert "a*a + b: grad check failed" in output  # a node used twice gets one share


def test_the_first_wrong_nodes_of_the_usual_mistakes():
    assert check_grads_says(MISSING_PLUS_EQUALS).startswith(
        "node 0 is used twice, by node 2, Mul(0, 0) (as a and b): ")
    assert check_grads_says(MISSING_PLUS_EQUALS).split("\n")[0].endswith(
        "did you add (+=) both uses?")
    assert check_grads_says(WRONG_ORDER).startswith(
        "node 4, Add(3, 2): your #3.grad is 0, ")


# The engine's machinery, called from a learner's own function of the exercise's name.
MACHINERY = {
    "chain_rule": "def {name}(g, root):\n"
                  "    from engine.autograd import chain_rule\n"
                  "    from engine.graph import columns\n"
                  "    grads = chain_rule(*columns(g, '{name}'), root, 1.0)\n"
                  "    for v, grad in zip(g.nodes, grads):\n"
                  "        v.grad = grad\n"
                  "    return [i for i, grad in enumerate(grads) if grad or i == root]\n",
    "BackwardSteps": "def {name}(g, root):\n"
                     "    from engine.explain import BackwardSteps\n"
                     "    steps = BackwardSteps(g, root)\n"
                     "    for v in g.nodes:\n"
                     "        v.grad = 0.0\n"
                     "    g.nodes[root].grad = 1.0\n"
                     "    for step in steps:\n"
                     "        for term in step['terms']:\n"
                     "            g.nodes[term['operand']].grad = term['grad']\n"
                     "    return [step['node'] for step in reversed(steps)]\n",
}


@pytest.mark.parametrize("id_, name", [("topo-sort", "TopoSort"), ("write-backward", "Backward")])
def test_the_engines_own_functions_do_not_pass_for_the_learners(id_, name):
    refusal = (f"the check wants your own {name}, but it calls {{}}, the engine's own, "
               f"which is what it is compared with: write the rule yourself")
    code = f"from engine import {name}\n"
    assert verdict(code, EXERCISES[id_].checks) == {"passed": False, "messages": [
        refusal.format(f"engine.autograd.{name}")]}
    for called, template in MACHINERY.items():
        module = "engine.explain" if called == "BackwardSteps" else "engine.autograd"
        assert verdict(template.format(name=name), EXERCISES[id_].checks) == {
            "passed": False, "messages": [refusal.format(f"{module}.{called}")]}, called


# In the page


@pytest.fixture
def course(site, new_context) -> Page:
    page = new_context().new_page()
    page.goto(site + "course.html")
    return page


def test_a_wrong_backward_in_the_page_is_told_its_first_wrong_node_then_the_solution_passes(
    course,
):
    backward = ExerciseAt(course, "#write-backward")
    for wrong in (MISSING_PLUS_EQUALS, WRONG_ORDER):
        told = check_grads_says(wrong)
        assert backward.attempt(wrong) == {"passed": False, "messages": [told]}
        assert backward.check == "failed"
        prose, code = told.split("\n", 1)  # the graph's code is shown as code
        item = backward.panel.locator(".messages li")
        expect(item).to_have_text([prose + code])
        expect(item.locator("pre")).to_have_text([code])
    backward.button("Show solution").click()
    assert backward.code == BACKWARD
    assert backward.attempt() == {"passed": True, "messages": []}
    assert backward.check == "passed"
    expect(course.locator("autograd-progress li")).to_have_text([
        "Exercise: Make e negative not yet passed", "Exercise: Count the nodes not yet passed",
        "Exercise: Write TopoSort not yet passed", "Exercise: Write Backward ✓ passed"])


def test_the_page_shows_each_exercises_code_fails_it_and_passes_its_solution(course):
    for id_, exercise in EXERCISES.items():
        playground = ExerciseAt(course, f"#{id_}")
        playground.element.scroll_into_view_if_needed()
        playground.wait_for("ready")
        assert playground.code == exercise.code
        detail = playground.attempt()
        assert detail == {"passed": False, "messages": verdict(exercise.code,
                                                               exercise.checks)["messages"]}
        assert playground.attempt(exercise.solution) == {"passed": True, "messages": []}
    expect(course.locator("autograd-progress p")).to_have_text("4 of 4 exercises passed")
