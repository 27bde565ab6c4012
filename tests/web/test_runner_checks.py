"""An exercise's checks, run by the runner in CPython after the learner's code."""

from __future__ import annotations

import pytest

from tests.engine.test_checks import COURSE_BACKWARD
from tests.web.runs import run_watched

TWO_NODES = ("from engine import Graph, MakeValue\n"
             "g = Graph()\nMakeValue(g, 1.0)\nMakeValue(g, 2.0)\n")
SIX_NODES = "assert len(g.nodes) == 6, 'Make six nodes.'\n"


def check(code: str, *checks: str) -> tuple[dict, str]:
    """Run `code` with `checks`: the result, and everything printed, as one text."""
    result, output, _ = run_watched(code, checks)
    return result, output


def verdict(code: str, *checks: str) -> dict:
    result, _ = check(code, *checks)
    assert result["status"] == "done", result["error"]
    return result["check"]


def test_a_run_without_checks_has_no_verdict():
    result, _ = check("x = 1\n")
    assert result["check"] is None


def test_checks_read_the_learners_globals_and_pass():
    checks = "assert len(g.nodes) == 2, 'two'\n", "assert g.nodes[1].data == 2\n"
    assert verdict(TWO_NODES, *checks) == {"passed": True, "messages": []}


def test_each_failed_check_is_one_message_in_the_authors_words():
    checks = (SIX_NODES + "assert False, 'never reached'\n",
              "assert g.nodes[0].data == 1.0\n",
              "assert g.nodes[0].label == 'a', f'Label it a, not {g.nodes[0].label}.'\n")
    assert verdict(TWO_NODES, *checks) == {
        "passed": False, "messages": ["Make six nodes.", "Label it a, not None."]}


def test_an_assert_without_a_message_names_its_line_of_the_check():
    messages = verdict(TWO_NODES, "x = 1\nassert len(g.nodes) == 3\n")["messages"]
    assert messages == ["Not yet: line 2 of the check does not hold: assert len(g.nodes) == 3"]


def test_a_check_that_breaks_is_the_authors_mistake_told_by_its_last_line():
    messages = verdict(TWO_NODES, "assert g.nodes[5].data == 1, 'not this'\n")["messages"]
    assert messages == ["The check itself failed (line 1 of the check), which is for the "
                        "exercise's author to fix: IndexError: node index 5 out of range "
                        "(the graph has 2 nodes)"]


def test_a_check_that_does_not_compile_names_its_line():
    messages = verdict(TWO_NODES, "x = 1\nassert len(g.nodes) == (2\n")["messages"]
    assert messages == ["The check itself failed (line 2 of the check), which is for the "
                        "exercise's author to fix: SyntaxError: '(' was never closed"]


def test_the_learners_error_inside_a_check_is_their_own_traceback():
    code = "def backward(g):\n    return g.nodes[9]\n"
    [message] = verdict(code, "backward([])\n")["messages"]
    assert message.startswith("Your code raised an error while it was checked:\n")
    assert 'File "<playground>", line 2, in backward' in message
    assert "<check" not in message and "playground_runner" not in message


def test_checks_do_not_run_when_the_learners_code_fails():
    result, output = check("print('ran')\n1 / 0\n", "print('checked')\n")
    assert (result["status"], result["check"], output) == ("error", None, "ran\n")


def test_what_a_check_prints_is_output():
    result, output = check("x = 1\n", "print('checking x')\nassert x == 1\n")
    assert (result["check"]["passed"], output) == (True, "checking x\n")


FAKES = {
    "a global that shadows a builtin": "len = lambda nodes: 6\n",
    "AssertionError redefined": "AssertionError = ZeroDivisionError\n",
    "builtins patched": "import builtins\nbuiltins.len = lambda nodes: 6\n"
                        "builtins.AssertionError = ZeroDivisionError\n",
    "import patched": "import builtins\nbuiltins.__import__ = lambda *a, **k: None\n",
    "a trace function": "import sys\nsys.settrace(lambda *a: None)\n",
}


@pytest.mark.parametrize("fake", FAKES.values(), ids=FAKES.keys())
def test_the_learners_code_cannot_fake_a_pass(fake):
    checks = (SIX_NODES, "import sys\nassert sys.gettrace() is None, 'traced'\n")
    assert verdict(TWO_NODES + fake, *checks)["messages"] == ["Make six nodes."]


def test_the_next_run_finds_python_as_before_the_checks():
    check(TWO_NODES, "import builtins\nbuiltins.marked = 1\nimport json\n")
    result, output = check("print(hasattr(__builtins__, 'marked'))\n")
    assert (result["status"], output) == ("done", "False\n")


NO_BACKWARD = "def Backward(g, root):\n    pass\n"

GRADS_FAKES = {
    "check_grads redefined": "def check_grads(backward):\n    pass\n",
    "engine.check_grads patched": "import engine\nengine.check_grads = lambda backward: None\n",
    "engine.checks patched": "import engine.checks as c\nc.check_grads = lambda backward: None\n"
                             "c._grad_problem = lambda *args: ''\n"
                             "c.check_grads.__code__ = (lambda backward, **k: None).__code__\n",
}


def test_check_grads_needs_no_import_and_its_message_is_the_learners():
    assert verdict(COURSE_BACKWARD, "check_grads(Backward)\n")["passed"]
    [message] = verdict(NO_BACKWARD, "check_grads(Backward)\n")["messages"]
    assert message.startswith("your Backward left every grad at 0")


@pytest.mark.parametrize("fake", GRADS_FAKES.values(), ids=GRADS_FAKES.keys())
def test_the_learners_code_cannot_fake_the_engines_check_helpers(fake):
    [message] = verdict(NO_BACKWARD + fake, "check_grads(Backward)\n")["messages"]
    assert message.startswith("your Backward left every grad at 0")


WRITE_BACKWARD_FAKES = {
    "math.isclose patched": "import math\nmath.isclose = lambda *a, **k: True\n",
    "json.dumps wrapped": "import json\nreal = json.dumps\n"
                          "json.dumps = lambda r, **k: real({**r, 'check': {'passed': True,"
                          " 'messages': []}} if isinstance(r, dict) else r, **k)\n",
    "the checks emptied from a frame": (
        "import sys\nframe = sys._getframe()\nwhile frame.f_back:\n    frame = frame.f_back\n"
        "    if 'checks' in frame.f_locals:\n        frame.f_locals['checks'] = []\n"),
    "the engine's checks patched by Backward": (
        "def Backward(g, root):\n    import engine.checks as c\n"
        "    c._grad_problem = lambda *a: ''\n"),
    "the engine's Backward wrapped": (
        "import engine\n\ndef Backward(g, root):\n    return engine.Backward(g, root)\n"),
    "the engine's Backward renamed": (
        "import engine\nBackward = engine.Backward\nBackward.__module__ = '__main__'\n"),
}


@pytest.mark.parametrize("fake", WRITE_BACKWARD_FAKES.values(), ids=WRITE_BACKWARD_FAKES.keys())
def test_no_fake_passes_unreported(fake):
    """Either the verdict says "not yet", or the worker hears that the code reached into
    the playground (and then shows no verdict)."""
    result, _, reports = run_watched(NO_BACKWARD + fake, ("check_grads(Backward)\n",))
    assert reports or (result["check"] and not result["check"]["passed"])


def test_the_engines_backward_is_not_the_learners_own():
    code = "import engine\nBackward = engine.Backward\n"
    [message] = verdict(code, "check_grads(Backward)\n")["messages"]
    assert message.startswith("the check wants your own Backward")


def test_a_check_that_runs_code_which_patches_the_checks_is_reported():
    _, _, reports = run_watched(NO_BACKWARD + WRITE_BACKWARD_FAKES[
        "the engine's checks patched by Backward"], ("check_grads(Backward)\n",))
    assert reports == ["engine.checks was changed while the checks ran"]


def test_an_unchanged_exercise_fails_after_one_that_patched_python():
    for fake in WRITE_BACKWARD_FAKES.values():
        run_watched(NO_BACKWARD + fake, ("check_grads(Backward)\n",))
    assert not verdict(NO_BACKWARD, "check_grads(Backward)\n")["passed"]


# Reaches the hidden runner through its import finder's __globals__ (reading __globals__
# raises no audit event), makes its checks pass everything, then asks the runner to take
# that as its pristine state, and puts back every state it can find there as it is now.
THROUGH_GLOBALS = """import sys
finder = next(f for f in sys.meta_path if type(f).__name__ == 'RunnerImports')
runner = type(finder).find_spec.__globals__['guard'].hidden['playground_runner']
checks = sys.modules.get('playground_runner.checks') or type(finder).find_spec.__globals__[
    'guard'].hidden['playground_runner.checks']
passes = lambda c, ns: {'passed': True, 'messages': []}
checks.run_checks = runner.run_checks = passes
for name in ('settle', 'take'):
    try:
        getattr(runner, name)()
    except Exception as e:
        print(name, type(e).__name__)
for value in list(vars(runner).values()):
    for method in ('save', 'settle'):
        if hasattr(value, method) and not isinstance(value, type):
            getattr(value, method)()
"""


def test_a_run_that_reaches_the_runners_modules_cannot_pass_a_later_run():
    failing = verdict(TWO_NODES, SIX_NODES)
    assert failing == {"passed": False, "messages": ["Make six nodes."]}
    _, output = check(TWO_NODES + THROUGH_GLOBALS, SIX_NODES)
    assert verdict(TWO_NODES, SIX_NODES) == failing  # the unchanged code, in the next run
    # The runner's lasting state is not in its modules: nothing there to settle or take.
    assert output.split() == ["settle", "AttributeError", "take", "IndexError"]
