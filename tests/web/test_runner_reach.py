"""Code that reaches into the playground itself is told to the worker as it does so,
which then runs the next code in a fresh Python and trusts no verdict of this run."""

from __future__ import annotations

import pytest

from tests.web.runs import run_watched

REACHES = {
    "a frame": ("import sys\nx = 1\nframe = sys._getframe()\n", "sys._getframe, line 3"),
    "a frame of a traceback": ("try:\n    1 / 0\nexcept ZeroDivisionError as e:\n"
                               "    e.__traceback__.tb_frame\n",
                               "object.__getattr__ of tb_frame, line 4"),
    "a frame of a generator": ("def gen():\n    yield 1\n\nframe = gen().gi_frame\n",
                               "object.__getattr__ of gi_frame, line 4"),
    "the collector's referrers": ("import gc\ngc.get_referrers(gc)\n", "gc.get_referrers, line 2"),
    "every object": ("import gc\ngc.get_objects()\n", "gc.get_objects, line 2"),
    "a trace function": ("import sys\nsys.settrace(lambda *a: None)\n", "sys.settrace, line 2"),
    "a function made from code": ("import types, engine\n"
                                  "types.FunctionType((lambda: 0).__code__, {})\n",
                                  "function.__new__, line 2"),
    "an audit hook": ("import sys\nsys.addaudithook(lambda event, args: print('seen', event))\n"
                      "print('after')\n", "sys.addaudithook, line 2"),
    "a runner function's code": ("import signal\nstop = signal.getsignal(signal.SIGINT)\n"
                                 "stop.__code__ = (lambda *a: None).__code__\n",
                                 "object.__setattr__ of __code__, line 3"),
    "a standard function's code": ("import json\n"
                                   "json.dumps.__code__ = (lambda *a, **k: '').__code__\n",
                                   "object.__setattr__ of __code__, line 2"),
    "a frame taken while a traceback prints": (
        "import traceback\nns = {}\n"
        "exec(compile('def text(self):\\n    import sys\\n    sys._getframe()\\n"
        "    return \"x\"\\n', 'elsewhere.py', 'exec'), ns)\n"
        "class Odd(Exception):\n    __str__ = ns['text']\n\n"
        "try:\n    raise Odd()\nexcept Odd:\n    traceback.print_exc()\n",
        "sys._getframe, line 10"),
    "a traceback printed by a changed traceback module": (
        "import traceback\ntraceback.seen = []\n"
        "try:\n    1 / 0\nexcept ZeroDivisionError:\n    traceback.print_exc()\n",
        "object.__getattr__ of tb_frame, line 6"),
}


@pytest.mark.parametrize(("code", "report"), REACHES.values(), ids=REACHES.keys())
def test_code_that_reaches_into_the_playground_is_reported_with_its_line(code, report):
    _, _, reports = run_watched(code)
    assert reports[0] == report


def test_a_function_that_is_not_the_learners_cannot_be_changed():
    result, _, _ = run_watched(REACHES["a standard function's code"][0])
    assert result["error"].endswith("RefusedError: json.dumps.__code__ is the playground's own: "
                                    "a run cannot change it\n")
    _, output, _ = run_watched("import json\nprint(json.dumps([1]))\n")
    assert output == "[1]\n"


def test_an_audit_hook_is_refused_and_never_hears_a_later_run():
    result, output, _ = run_watched(REACHES["an audit hook"][0])
    assert (result["status"], output) == ("done", "after\n")
    _, output, _ = run_watched("print('next')\n")
    assert output == "next\n"


ORDINARY = {
    "the chapter": "from engine import Graph, MakeValue, VAdd, VMul, VTanh, Backward\n"
                   "g = Graph()\na = MakeValue(g, 2.0)\nb = MakeValue(g, -3.0)\n"
                   "e = VTanh(g, VAdd(g, VMul(g, a, b), a))\nBackward(g, e)\nprint(g)\n",
    "an error": "def f():\n    raise ValueError('no')\n\nf()\n",
    "classes and imports": "import json, random, itertools, dataclasses\n\n"
                           "@dataclasses.dataclass\nclass P:\n    x: int\n\n"
                           "print(json.dumps([P(1).x, random.random() < 1]))\n",
    "its own class changed": "class Neuron:\n    pass\n\nNeuron.count = 1\n"
                             "def f(x=1):\n    return x\n\nf.__defaults__ = (2,)\n",
    "an engine class changed": "import engine\nengine.Graph.extra = 1\n",
    "a traceback printed": "import traceback\n\ndef f():\n    raise ValueError('no')\n\n"
                           "try:\n    f()\nexcept ValueError as e:\n    traceback.print_exc()\n"
                           "    text = traceback.format_exc()\n"
                           "    traceback.print_exception(e)\n"
                           "    frames = traceback.extract_tb(e.__traceback__)\n",
}


@pytest.mark.parametrize("code", ORDINARY.values(), ids=ORDINARY.keys())
def test_ordinary_code_reaches_into_nothing(code):
    _, _, reports = run_watched(code)
    assert reports == []


def test_the_runner_cannot_be_imported_while_code_runs():
    result, _, _ = run_watched("import playground_runner.checks\n")
    assert result["status"] == "error"
    assert result["error"].endswith("ImportError: playground_runner is the playground's "
                                    "own code: a run cannot import it\n")
    result, _, _ = run_watched("import sys\nprint(sys.modules['playground_runner'])\n")
    assert result["error"].endswith("KeyError: 'playground_runner'\n")


def test_show_leads_to_no_runner_internals():
    code = "print(sorted(n for n in type(show).__call__.__globals__ if n[0] != '_'))\n"
    _, output, _ = run_watched(code)
    assert "pristine" not in output and "run_checks" not in output and "guard" not in output
    assert "table" in output


def test_the_next_run_can_import_what_the_runner_needs():
    run_watched("import playground_runner\n")
    result, output, reports = run_watched("import json\nprint(json.dumps(1))\n")
    assert (result["status"], output, reports) == ("done", "1\n", [])


def test_functions_the_run_made_may_be_changed():
    code = ("from typing import NamedTuple\nimport collections, dataclasses\n\n"
            "class Add(NamedTuple):\n    a: int\n    b: int = 0\n\n"
            "P = collections.namedtuple('P', 'x y', defaults=(1,), module='m')\n\n"
            "@dataclasses.dataclass\nclass D:\n    x: int = 1\n\n"
            "print(Add(1), P(2), D())\n")
    result, output, reports = run_watched(code)
    assert (result["status"], reports) == ("done", [])
    assert output == "Add(a=1, b=0) P(x=2, y=1) D(x=1)\n"
