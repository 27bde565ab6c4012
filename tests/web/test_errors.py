"""Errors read as the learner's own: their frames, their line numbers, the line marked."""

from .conftest import BOTH_BOOT_PATHS

pytestmark = BOTH_BOOT_PATHS
INTERNALS = ("playground_runner", "/lib/python", "pyodide", "_base.py", "exec(")


def assert_learner_frames_only(output: str) -> None:
    assert not [word for word in INTERNALS if word in output], output


def test_a_syntax_error_names_its_line_and_marks_it(playground):
    code = "a = 1\nb = 2\nc = (a +\n\nprint(c)\n"
    assert playground.run(code) == "error"
    output = playground.output
    assert 'File "<playground>", line 3' in output
    assert "SyntaxError" in output and "was never closed" in output
    assert_learner_frames_only(output)
    assert playground.marked_line() == "c = (a +"


def test_a_runtime_error_shows_the_learners_frames_and_marks_the_failing_line(playground):
    code = "def f(x):\n    return 1 / x\n\nprint('before')\nf(0)\nprint('after')\n"
    assert playground.run(code) == "error"
    output = playground.output
    assert output.startswith("before\n")
    assert 'File "<playground>", line 5, in <module>' in output
    assert 'File "<playground>", line 2, in f' in output
    assert "ZeroDivisionError: division by zero" in output
    assert "after" not in output
    assert_learner_frames_only(output)
    assert playground.marked_line() == "    return 1 / x"


def test_an_engine_error_shows_its_message_as_is(playground):
    code = (
        "from engine import Graph, MakeValue, VAdd\n"
        "g = Graph()\n"
        "a = MakeValue(g, 1.0)\n"
        "b = VAdd(g, a, 7)\n"
    )
    assert playground.run(code) == "error"
    output = playground.output
    assert 'File "<playground>", line 4, in <module>' in output
    last = output.strip().splitlines()[-1]
    assert last.startswith("IndexError: VAdd") and "7" in last, last
    assert_learner_frames_only(output)
    assert playground.marked_line() == "b = VAdd(g, a, 7)"
    assert playground.graphs() == ["g (1 node)"]


def test_editing_clears_the_mark_and_the_next_run_works(playground):
    assert playground.run("1/0") == "error"
    assert playground.marked_line() == "1/0"
    playground.code = "print('fixed')"
    assert playground.marked_line() is None
    assert playground.run() == "done"
    assert playground.output.strip() == "fixed"


def test_input_says_plainly_that_there_is_no_keyboard(playground):
    assert playground.run("name = input('name? ')") == "error"
    assert "EOFError: input() has no keyboard here" in playground.output
    assert playground.marked_line() == "name = input('name? ')"
