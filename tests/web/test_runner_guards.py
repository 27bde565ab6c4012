"""Whatever the learner's values do when the runner reads them, the run ends with its
own status, and a graph that cannot be read is named in a note."""

from __future__ import annotations

import signal
import sys

import pytest

from playground_runner import fresh
from playground_runner.errors import FILENAME
from tests.web.runs import CONFIG_OBJECT, run

GRAPH = (
    "from engine import Graph, MakeValue, VMul\n"
    "g = Graph()\n"
    "a = MakeValue(g, 2.0, label='a')\n"
    "b = VMul(g, a, a)\n"
)
NODE = "class V:\n    data, grad, op = 1.0, 0.0, None\n"


def test_an_object_whose_getattr_raises_keyerror_is_just_not_a_graph():
    code = CONFIG_OBJECT
    result, output = run(code)
    assert result["status"] == "done" and result["tables"] == []
    assert output == "0.1\n"


def test_a_nodes_property_that_raises_is_not_a_graph():
    code = "class G:\n    @property\n    def nodes(self): raise ValueError('no')\ng = G()\n"
    result, output = run(code)
    assert (result["status"], result["tables"], output) == ("done", [], "")


@pytest.mark.parametrize(
    ("hostile", "why"),
    [
        ("class N:\n    def __getattr__(self, k): raise KeyError(k)\n"
         "class G:\n    nodes = [N()]\n", "KeyError('data')"),
        (NODE + "class L(list):\n    def __iter__(self): raise RuntimeError('iter')\n"
         "class G:\n    nodes = L([V()])\n", "RuntimeError('iter')"),
        (NODE + "class Exit(BaseException): pass\n"
         "class N(V):\n    @property\n    def grad(self): raise Exit('grad')\n"
         "class G:\n    nodes = [N()]\n", "Exit('grad')"),
    ],
    ids=["node-getattr-raises", "list-iter-raises", "base-exception"],
)
def test_a_graph_whose_nodes_cannot_be_read_is_named_in_a_note(hostile, why):
    result, output = run(hostile + "g = G()\nprint('ran')\n")
    assert result["status"] == "done" and result["tables"] == []
    assert output.startswith("ran\n")
    assert "cannot tell whether g is a graph" in output and why in output


def test_a_name_that_is_not_a_string_in_the_globals_is_skipped():
    result, _ = run(GRAPH + "globals()[1] = 2\n")
    assert result["status"] == "done" and [t["title"] for t in result["tables"]] == ["g"]


@pytest.mark.parametrize("lines", ["{0: object()}", "{0: float('nan'), 1: 2}", "[1, 2]"])
def test_a_graph_with_odd_lines_shows_without_them(lines):
    result, _ = run(GRAPH + f"g.lines = {lines}\n")
    assert result["status"] == "done"
    (table,) = result["tables"]
    assert table["label"] == ["a", None]
    assert table["line"] == ([None, 2] if lines.startswith("{0: float") else [None, None])


def test_show_with_a_title_that_is_not_text_uses_its_str():
    result, _ = run(GRAPH + "class T:\n    def __str__(self): return 'mine'\nshow(g, T())\n")
    assert result["status"] == "done"
    assert [t["title"] for t in result["tables"]] == ["mine", "g"]


def test_a_backward_root_that_is_not_an_index_says_so():
    result, _ = run(GRAPH + "g.backward_root = object()\n")
    assert result["status"] == "done"
    (table,) = result["tables"]
    assert table["root"] is None and table["steps"] is None
    assert table["noSteps"] == "its backward_root is not a node index but a object"


def test_a_syntax_error_with_a_line_that_is_not_a_number_is_still_an_error():
    result, _ = run("raise SyntaxError('b', ('<playground>', object(), 1, 'z'))\n")
    assert result["status"] == "error" and result["line"] is None
    assert "SyntaxError: b" in result["error"]


def test_an_exception_that_fails_to_print_is_named_by_its_type():
    code = (
        "class Odd(Exception):\n"
        "    def __str__(self): raise SystemExit('no')\n"
        "    __repr__ = __str__\n"
        "raise Odd()\n"
    )
    result, _ = run(code)
    assert result["status"] == "error" and result["line"] == 4
    assert "Odd" in result["error"]


def test_code_that_raises_keyboardinterrupt_is_an_error_not_a_stop():
    result, _ = run("x = 1\nraise KeyboardInterrupt\n")
    assert result["status"] == "error" and result["line"] == 2
    assert result["error"].endswith("KeyboardInterrupt\n")


def test_sigint_is_a_stop():
    """The page's Stop arrives as SIGINT (Pyodide's interrupt buffer): it stops the run."""
    result, _ = run("import signal\nsignal.raise_signal(signal.SIGINT)\nprint('not reached')\n")
    assert (result["status"], result["error"]) == ("stopped", None)


def test_code_that_catches_a_stop_is_stopped_by_the_next():
    result, output = run("import signal\ntry:\n    signal.raise_signal(signal.SIGINT)\n"
                         "except KeyboardInterrupt:\n    print('caught')\n"
                         "signal.raise_signal(signal.SIGINT)\nprint('not reached')\n")
    assert (result["status"], output) == ("stopped", "caught\n")


def test_a_stop_repeated_once_the_code_has_ended_leaves_the_runner_s_work_alone():
    """The page repeats a Stop until the result comes: one that lands after the first
    ended the code, as the runner takes in its end, must not cut short what it sends."""
    fresh.RunState()  # as a run begins
    with pytest.raises(fresh.Stopped):
        fresh.stop(signal.SIGINT, sys._getframe())
    fresh.stop(signal.SIGINT, sys._getframe())  # no learner's code on the stack: let be
    code_still_running = compile("stop(signal.SIGINT, sys._getframe())\n", FILENAME, "exec")
    with pytest.raises(fresh.Stopped):
        exec(code_still_running, {"stop": fresh.stop, "signal": signal, "sys": sys})
    fresh.RunState()  # the next run: its first Stop stops it wherever it lands
    with pytest.raises(fresh.Stopped):
        fresh.stop(signal.SIGINT, sys._getframe())


def test_a_stop_while_the_runner_formats_the_error_is_a_stop():
    stopped_meanwhile = (
        "import signal\n\n"
        "class Odd(Exception):\n"
        "    @property\n"
        "    def __notes__(self):  # read as the runner formats the error\n"
        "        signal.raise_signal(signal.SIGINT)\n\n"
        "raise Odd\n"
    )
    result, _ = run(stopped_meanwhile)
    assert (result["status"], result["error"]) == ("stopped", None)
    result, output = run("print('next')\n")
    assert (result["status"], output) == ("done", "next\n")


def test_an_error_whose_parts_fail_to_be_read_is_still_the_runs_error():
    code = (
        "class Odd(Exception):\n"
        "    @property\n"
        "    def exceptions(self): raise SystemExit('no')\n"
        "raise Odd('x')\n"
    )
    result, _ = run(code)
    assert result["status"] == "error" and result["line"] == 4
    assert "Odd" in result["error"]
