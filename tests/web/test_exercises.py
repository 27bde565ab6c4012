"""Exercises in course pages: the author's checks, hints and solution inside a playground,
the verdict after each run, and the progress a learner keeps in the browser."""

from __future__ import annotations

import html
import textwrap

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import FINAL_STATES, RUN_MS, within
from tests.web.pages import PlaygroundAt, course_page

from .test_accessibility import axe_violations, readable

START = "from engine import Graph, MakeValue\ng = Graph()\n"
TWO_LEAVES = START + "a = MakeValue(g, 2.0, label='a')\nb = MakeValue(g, 3.0, label='b')\n"
THREE_LEAVES = TWO_LEAVES + "c = MakeValue(g, 4.0, label='c')\n"
THREE_NODES = "assert len(g.nodes) == 3, 'Make three nodes: a, b and c.'\n"
LABELS = "assert [v.label for v in g.nodes] == ['a', 'b', 'c']\n"
# The host page follows the system's colour scheme, its background said outright for axe.
FOLLOW_THE_SYSTEM = ('<meta name="color-scheme" content="light dark">\n'
                     "<style>body { background: Canvas; color: CanvasText; }</style>\n")
HINTS = ["Call <code>MakeValue</code> once more.", "Its label is <code>'c'</code>."]


def exercise(code: str, checks=(THREE_NODES, LABELS), hints=HINTS, solution=THREE_LEAVES,
             **attributes: str) -> str:
    """An <autograd-playground> with an exercise inside, as an author writes it: checks
    and the solution in Python scripts, hints in templates (their markup is the author's)."""
    attrs = "".join(f' {name.replace("_", "-")}="{html.escape(value)}"'
                    for name, value in attributes.items())
    script = '<script type="text/x-python" data-role="{}">\n{}</script>\n'
    parts = [html.escape(code, quote=False)]
    parts += [script.format("check", check) for check in checks]
    parts += [f'<template data-role="hint">{hint}</template>\n' for hint in hints]
    if solution is not None:
        parts.append(script.format("solution", solution))
    body = textwrap.indent("".join(parts), "    ")
    return f"<autograd-playground{attrs}>\n{body}</autograd-playground>\n"


@pytest.fixture
def open_page(pages, site, new_context):
    """Opens a course page of `body` in a fresh context; returns the page."""

    def open_(name: str, *body: str, context=None) -> Page:
        page = (context or new_context()).new_page()
        page.goto(pages.add(name, course_page(site, *body, head=FOLLOW_THE_SYSTEM)))
        return page

    return open_


class Exercise(PlaygroundAt):
    """A playground with checks, driven and read as a learner does."""

    def attempt(self, code: str | None = None) -> dict:
        """Run (after putting `code` in the editor); returns the check-end event's detail."""
        self.element.scroll_into_view_if_needed()
        self.wait_for("ready", *FINAL_STATES)
        if code is not None:
            self.code = code
        detail = self.element.evaluate(within(
            "el => new Promise(done => {"
            " el.addEventListener('check-end', e => done(e.detail), {once: true});"
            " el.shadowRoot.querySelector('button').click(); })"))
        self.wait_for(*FINAL_STATES, timeout=RUN_MS)
        return detail

    @property
    def check(self) -> str | None:
        return self.element.get_attribute("data-check")

    @property
    def panel(self):
        return self.element.locator(".exercise")

    def messages(self) -> list[str]:
        return self.panel.locator(".messages li").all_inner_texts()

    def hints(self) -> list[str]:
        return self.panel.locator(".hints li").all_inner_texts()

    def press_in_editor(self, keys: str) -> None:
        self.element.locator(".cm-content").focus()
        self.page.keyboard.press(keys)


def one_exercise(open_page, code: str = TWO_LEAVES, **parts) -> Exercise:
    page = open_page("exercise.html", exercise(code, id="add-c", **parts))
    return Exercise(page, "#add-c")


def test_a_passing_attempt_says_so_and_marks_the_element(open_page):
    ex = one_exercise(open_page)
    expect(ex.panel.locator(".verdict")).to_have_text("Press Run to check your code.")
    assert ex.attempt(THREE_LEAVES) == {"passed": True, "messages": []}
    assert ex.check == "passed"
    expect(ex.panel.locator(".verdict")).to_have_text("Passed: your code passes every check.")
    assert ex.messages() == []
    assert ex.state == "done"


def test_a_failing_attempt_lists_each_failed_check_in_the_authors_words(open_page):
    ex = one_exercise(open_page)
    wrong_label = TWO_LEAVES + "MakeValue(g, 4.0, label='d')\n"
    assert ex.attempt(TWO_LEAVES) == {"passed": False, "messages": [
        "Make three nodes: a, b and c.",
        "Not yet: line 1 of the check does not hold: "
        "assert [v.label for v in g.nodes] == ['a', 'b', 'c']"]}
    assert ex.check == "failed"
    expect(ex.panel.locator(".verdict")).to_have_text("Not yet:")
    assert ex.messages() == ["Make three nodes: a, b and c.", "Not yet: line 1 of the check "
                             "does not hold: assert [v.label for v in g.nodes] == ['a', 'b', 'c']"]
    assert ex.attempt(wrong_label)["messages"] == [ex.messages()[-1]]
    assert "check" not in ex.element.locator(".output").inner_text()


def test_an_erroring_attempt_shows_the_error_as_any_run_does_and_is_not_checked(open_page):
    ex = one_exercise(open_page, checks=["print('checking')\n" + THREE_NODES])
    message = "Your code ended with an error (see the output), so it was not checked."
    assert ex.attempt(START + "MakeValue(g)\n") == {"passed": False, "messages": [message]}
    assert ex.state == "error"
    assert ex.check == "failed"
    output = ex.element.locator(".output").inner_text()
    assert "TypeError" in output and "checking" not in output
    assert ex.element.locator(".cm-error-line").inner_text() == "MakeValue(g)"


def test_hints_are_shown_one_at_a_time_on_request(open_page):
    ex = one_exercise(open_page)
    ex.element.scroll_into_view_if_needed()
    assert ex.hints() == []
    ex.button("Show a hint (1 of 2)").click()
    assert ex.hints() == ["Call MakeValue once more."]
    expect(ex.panel.locator(".hints li code")).to_have_text("MakeValue")  # the author's markup
    ex.button("Show a hint (2 of 2)").click()
    assert ex.hints() == ["Call MakeValue once more.", "Its label is 'c'."]
    expect(ex.panel.get_by_role("button", name="Show a hint", exact=False)).to_be_hidden()


def test_the_page_shows_neither_checks_nor_solution(open_page):
    ex = one_exercise(open_page)
    ex.wait_for("ready")
    assert ex.code == TWO_LEAVES
    page_text = ex.page.locator("body").inner_text()
    shown = page_text + ex.element.evaluate("el => el.shadowRoot.textContent")
    assert "assert" not in shown and "label='c'" not in shown


def test_the_solution_asks_first_until_an_attempt_failed_and_one_undo_brings_the_code_back(
    open_page
):
    ex = one_exercise(open_page)
    ex.wait_for("ready")
    mine = TWO_LEAVES + "# my try\n"
    ex.code = mine
    ex.button("Show solution").click()
    confirm = ex.panel.get_by_role("group", name="Show the solution?")
    expect(confirm).to_be_visible()
    ex.button("Keep trying").click()
    expect(confirm).to_be_hidden()
    assert ex.code == mine
    ex.button("Show solution").click()
    ex.button("Replace my code with the solution").click()
    assert ex.code == THREE_LEAVES
    ex.press_in_editor("Control+z")
    assert ex.code == mine
    failed = ex.attempt()["messages"]
    ex.button("Show solution").click()  # after a failed attempt: no question
    expect(confirm).to_be_hidden()
    assert ex.code == THREE_LEAVES
    assert ex.messages() == failed  # what failed stays in view beside the solution
    expect(ex.panel.locator(".note")).to_contain_text("Ctrl+Z to have your code back")
    assert ex.attempt()["passed"] is True
    ex.press_in_editor("Control+z")
    assert ex.code == mine


def test_the_attempt_the_solution_replaced_is_kept_and_a_reload_still_brings_it_back(
    open_page
):
    ex = one_exercise(open_page)
    switch = ex.element.locator("select.source")
    ex.wait_for("ready")
    ex.button("Show solution").click()
    ex.button("Replace my code with the solution").click()
    expect(switch).to_be_hidden()  # the author's code, untouched, is not kept as the learner's
    mine = TWO_LEAVES + "# my try\n"
    assert ex.attempt(mine)["passed"] is False
    ex.button("Show solution").click()
    ex.press_in_editor("Control+z")
    assert ex.code == mine
    ex.button("Show solution").click()  # again: the same attempt is kept once, not twice
    assert ex.code == THREE_LEAVES
    ex.page.wait_for_function(  # the solution is saved as the learner's code
        "code => JSON.parse(localStorage.getItem('autograd-playground:add-c')).code === code",
        arg=THREE_LEAVES)
    ex.page.reload()
    ex.wait_for("ready")
    assert ex.code == THREE_LEAVES
    options = switch.locator("option").all_inner_texts()
    assert len(options) == 2 and options[1].startswith("Your code before the solution (saved")
    switch.select_option("before")
    assert ex.code == mine


FAKES = {
    "redefines AssertionError": "AssertionError = ZeroDivisionError\n",
    "shadows len": "len = lambda nodes: 3\n",
    "patches builtins": "import builtins\nbuiltins.len = lambda nodes: 3\n"
                        "builtins.AssertionError = ZeroDivisionError\n",
    "patches builtins.__import__": "import builtins\n"
                                   "builtins.__import__ = lambda *a, **k: None\n",
    "watches the checks' lines": "import sys\nm = sys.monitoring\nm.use_tool_id(3, 'fake')\n"
                                 "def line(code, number):\n"
                                 "    if code.co_filename.startswith('<check'):\n"
                                 "        sys._getframe(1).f_globals['len'] = lambda nodes: 3\n"
                                 "m.register_callback(3, m.events.LINE, line)\n"
                                 "m.set_events(3, m.events.LINE)\n",
    "patches the runner": "import playground_runner.checks as checks\n"
                          "checks.run_checks = lambda c, ns: {'passed': True, 'messages': []}\n",
}


def test_a_learners_code_cannot_fake_a_pass(open_page):
    """Each fake fails the check, or reaches into the playground and is not checked."""
    ex = one_exercise(open_page, checks=[THREE_NODES])
    for name, fake in FAKES.items():
        verdict = ex.attempt(TWO_LEAVES + fake)
        assert verdict["passed"] is False, name
        assert ex.element.get_attribute("data-check") in ("failed", "unchecked"), name
    assert ex.attempt(THREE_LEAVES)["passed"] is True  # and the checks still work


BACKWARD_FAKES = {
    "redefines check_grads": "def check_grads(backward):\n    pass\n",
    "patches engine.checks": "import engine, engine.checks\n"
                             "engine.checks.check_grads = lambda backward: None\n"
                             "engine.checks._grad_problem = lambda *args: ''\n",
}
NO_BACKWARD = "def Backward(g, root):\n    pass\n"


def test_check_grads_tells_a_wrong_backward_and_cannot_be_faked(open_page):
    page = open_page("backward.html", exercise(
        NO_BACKWARD, id="backward",
        checks=['assert "Backward" in globals(), "Define Backward(g, root)."\n',
                "check_grads(Backward)\n"]))
    ex = Exercise(page, "#backward")
    [message] = ex.attempt()["messages"]
    assert message.startswith("your Backward left every grad at 0")
    assert ex.messages() == [message]
    for name, fake in BACKWARD_FAKES.items():
        assert ex.attempt(NO_BACKWARD + fake)["messages"] == [message], name
    [mine] = ex.attempt("from engine import Backward\n")["messages"]
    assert mine.startswith("the check wants your own Backward")


def test_a_check_that_loops_is_stopped_by_the_runs_timeout(open_page):
    page = open_page("loop.html", exercise(TWO_LEAVES, checks=["while True:\n    pass\n"],
                                           id="loops", timeout="1"))
    ex = Exercise(page, "#loops")
    assert ex.attempt() == {"passed": False,
                            "messages": ["The run was stopped, so your code was not checked."]}
    assert ex.state == "stopped"
    assert "Stopped: runs here may take at most 1 s." in ex.element.locator(".output").inner_text()


TWO_EXERCISES = (
    "<autograd-progress></autograd-progress>\n",
    exercise(TWO_LEAVES, id="add-c", aria_label="Add a node c"),
    exercise("from engine import Graph\ng = Graph()\n", checks=["assert g.nodes, 'Add a node.'\n"],
             hints=(), solution=None, id="any-node"),
)


def progress(page: Page) -> list[str]:
    return page.locator("autograd-progress li").all_inner_texts()


def test_two_exercises_each_have_their_own_checks_and_progress_keeps_passes_across_reloads(
    open_page, new_context
):
    context = new_context()
    page = open_page("two.html", *TWO_EXERCISES, context=context)
    summary = page.locator("autograd-progress [role=status]")
    expect(summary).to_have_text("0 of 2 exercises passed")
    assert progress(page) == ["Add a node c not yet passed", "any-node not yet passed"]
    first, second = Exercise(page, "#add-c"), Exercise(page, "#any-node")
    assert first.attempt(THREE_LEAVES)["passed"] is True
    assert second.attempt()["messages"] == ["Add a node."]
    expect(summary).to_have_text("1 of 2 exercises passed")
    assert progress(page) == ["Add a node c ✓ passed", "any-node not yet passed"]
    assert page.locator("autograd-progress a").evaluate_all("links => links.map(a => a.hash)") \
        == ["#add-c", "#any-node"]

    page.reload()
    expect(summary).to_have_text("1 of 2 exercises passed")
    assert progress(page) == ["Add a node c ✓ passed", "any-node not yet passed"]
    assert (first.check, second.check) == ("passed", None)
    expect(first.panel.locator(".verdict")).to_have_text("Passed before, in this browser.")
    stored = page.evaluate("localStorage.getItem('autograd-exercise:add-c')")
    assert '"passed":true' in stored and '"code":' in stored and "label='c'" in stored

    assert second.attempt("from engine import Graph, MakeValue\ng = Graph()\nMakeValue(g, 1)\n") \
        == {"passed": True, "messages": []}
    expect(summary).to_have_text("2 of 2 exercises passed")


def test_a_pass_shows_when_storage_fails(open_page, new_context):
    context = new_context()
    context.add_init_script("Storage.prototype.setItem = () => { throw new DOMException("
                            "'full', 'QuotaExceededError'); };")
    page = open_page("two.html", *TWO_EXERCISES, context=context)
    first = Exercise(page, "#add-c")
    assert first.attempt(THREE_LEAVES)["passed"] is True
    assert first.check == "passed"
    expect(page.locator("autograd-progress [role=status]")).to_have_text("1 of 2 exercises passed")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violations_on_an_exercise_with_its_hints_verdict_and_question(
    open_page, new_context, scheme
):
    page = open_page("two.html", *TWO_EXERCISES, context=new_context(color_scheme=scheme))
    ex = Exercise(page, "#add-c")
    ex.element.scroll_into_view_if_needed()
    ex.button("Show solution").click()
    ex.button("Show a hint (1 of 2)").click()
    assert ex.attempt()["passed"] is False
    expect(ex.panel.get_by_role("group", name="Show the solution?")).to_be_visible()
    violations = axe_violations(page)
    assert [v["id"] for v in violations] == [], readable(violations)


# A check whose message shows code with a line longer than a phone's width.
LONG_LINE_CHECK = (
    "assert False, 'The sum is wrong on a graph that this code builds:\\n' + "
    "'    total = VAdd(g, ' + ', '.join('node_%d' % i for i in range(30)) + ')'\n")


@pytest.mark.parametrize("width", [390, 1280])
def test_no_line_of_an_exercises_feedback_is_cut_at_the_panels_edge(open_page, new_context, width):
    context = new_context(viewport={"width": width, "height": 844})
    page = open_page("long-line.html", exercise(TWO_LEAVES, checks=[LONG_LINE_CHECK],
                                                id="long"), context=context)
    ex = Exercise(page, "#long")
    assert ex.attempt()["passed"] is False
    assert "node_29)" in ex.messages()[0]
    cut = ex.panel.locator(".messages, .messages li, .messages pre").evaluate_all(
        "parts => parts.filter(p => p.scrollWidth > p.clientWidth).map(p => p.localName)")
    assert cut == []
    panel = ex.panel.bounding_box()
    assert panel["x"] >= 0 and panel["x"] + panel["width"] <= width
