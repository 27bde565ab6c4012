"""The runner's guards, fresh runs, caps and recursion limit in Pyodide, in Chromium."""

from __future__ import annotations

import pytest

from tests.web.runs import CONFIG_OBJECT

COUNTER = "x = 0\nprint('ran', x)\n"


def test_a_config_object_whose_getattr_raises_runs_as_plain_python(playground):
    code = CONFIG_OBJECT
    assert playground.run(code) == "done"
    assert playground.output == "0.1\n"


def test_a_run_that_patches_builtins_and_the_engine_leaves_the_next_run_as_new(playground):
    attack = (
        "import builtins, engine, sys\n"
        "engine.VMul = engine.VAdd\n"
        "sys.modules['engine.graph'] = None\n"
        "builtins.print = lambda *a, **k: None\n"
    )
    assert playground.run(attack) == "done"
    check = "from engine import Graph, MakeValue, VMul\ng = Graph()\n" \
            "print(g.nodes[VMul(g, MakeValue(g, 2), MakeValue(g, 3))].data)\n"
    assert playground.run(check) == "done"
    assert playground.output == "6.0\n"


def test_endless_recursion_with_a_raised_limit_is_a_short_recursion_error(playground):
    code = "import sys\nsys.setrecursionlimit(1_000_000)\ndef f(n):\n    return f(n + 1)\nf(0)\n"
    assert playground.run(code) == "error"
    output = playground.output
    assert output.startswith("sys.setrecursionlimit(1,000,000): the browser's stack holds")
    assert "frames hidden" in output and len(output) < 3_000
    assert output.endswith("RecursionError: maximum recursion depth exceeded\n")
    assert playground.marked_line() == "    return f(n + 1)"
    assert playground.run("import sys\nprint(sys.getrecursionlimit())\n") == "done"
    assert playground.output == "1000\n"


def test_code_that_raises_keyboardinterrupt_reads_as_an_error_not_a_stop(playground):
    assert playground.run("print('a')\nraise KeyboardInterrupt\n") == "error"
    assert playground.output.endswith("KeyboardInterrupt\n")
    assert playground.marked_line() == "raise KeyboardInterrupt"


def test_a_huge_error_message_is_clipped(playground):
    assert playground.run("raise ValueError('v' * 50_000_000)\n") == "error"
    output = playground.output
    assert output.startswith("Traceback (most recent call last):\n")
    assert len(output) < 21_000 and output.endswith(" more characters\n")


def test_negative_zero_keeps_its_sign(playground):
    code = "from engine import Graph, MakeValue\ng = Graph()\nMakeValue(g, -0.0)\n"
    assert playground.run(code) == "done"
    assert playground.rows()[0][3] == "-0.0"


def test_what_a_run_does_to_the_workers_globals_is_undone_before_the_next(playground):
    assert playground.run("import js\njs.mine = 1\njs.postMessage = None\n") == "done"
    check = "import js\nprint(hasattr(js, 'mine'), js.postMessage is None, callable(js.fetch))\n"
    assert playground.run(check) == "done"
    assert playground.output.strip() == "False False True"


DEEP_ERRORS = {
    "a group of groups": "e = ValueError('x')\nfor _ in range(3_000):\n"
                         "    e = ExceptionGroup('g', [e])\nprint('ok')\nraise e\n",
    "a chain of causes": "e = ValueError(0)\nfor i in range(3_000):\n    f = ValueError(i)\n"
                         "    f.__cause__ = e\n    e = f\nprint('ok')\nraise e\n",
}


@pytest.mark.parametrize("code", DEEP_ERRORS.values(), ids=DEEP_ERRORS.keys())
def test_an_error_3000_parts_deep_is_its_own_error_and_python_lives_on(playground, code):
    assert playground.run(code) == "error"
    output = playground.output
    assert output.startswith("ok\n") and "Python crashed" not in output
    assert output.endswith("more characters\n") or "max_group_depth is 10" in output
    assert playground.marked_line() == "raise e"
    assert playground.run("import gc\ngc.collect()\nprint('alive')\n") == "done"
    assert playground.output == "alive\n"
    assert playground.python_starts == 1


def test_running_out_of_memory_is_a_memoryerror_at_its_line_and_python_lives_on(playground):
    assert playground.run("kept = []\nwhile True:\n    kept.append(bytearray(10**7))\n") == "error"
    output = playground.output
    assert output.rstrip().endswith("MemoryError") and "Python crashed" not in output
    assert playground.marked_line() == "    kept.append(bytearray(10**7))"
    assert playground.run("print(sum(range(10)))\n") == "done"
    assert playground.output == "45\n"
    assert playground.python_starts == 1
