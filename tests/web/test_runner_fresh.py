"""A run cannot change what the next run sees: builtins, the engine, the runner, sys."""

from __future__ import annotations

import gc
import os
import subprocess
import sys

import pytest

import build
from playground_runner.fresh import MAX_RECURSION_LIMIT
from tests.web.runs import run

PRODUCT = "from engine import Graph, MakeValue, VMul\ng = Graph()\n" \
          "print(g.nodes[VMul(g, MakeValue(g, 2), MakeValue(g, 3))].data)\n"
CHAPTER = (
    "from engine import Graph, MakeValue, VMul, Backward\n"
    "g = Graph()\na = MakeValue(g, 2.0)\nb = VMul(g, a, a)\nBackward(g, b)\n"
    "print(g, g.nodes[a].grad)\n"
)

ATTACKS = {
    "builtins": ("import builtins\nbuiltins.print = lambda *a, **k: None\n"
                 "del builtins.len\n", "print(len('abc'))\n", "3\n"),
    "engine global": ("import engine\nengine.VMul = engine.VAdd\n", PRODUCT, "6.0\n"),
    "engine submodule": ("import engine.ops\nengine.ops.VMul = engine.ops.VAdd\n"
                         "import engine.graph\nengine.graph.VARIANTS.clear()\n", PRODUCT, "6.0\n"),
    "an engine class's name swapped for another": (
        "import engine\ndel engine.Graph.copy\nengine.Graph.copy_ = 1\n",
        "from engine import Graph\nprint(hasattr(Graph, 'copy'), hasattr(Graph, 'copy_'))\n",
        "True False\n"),
    "a name added to an engine module": (
        "import engine, engine.graph\nengine.extra = 1\nengine.graph.helper = print\n",
        "import engine, engine.graph\nprint(hasattr(engine, 'extra'), "
        "hasattr(engine.graph, 'helper'))\n", "False False\n"),
    "a container's member swapped, its length the same": (
        "import engine.graph\nvariants = engine.graph.VARIANTS\n"
        "variants.discard(next(iter(variants)))\nvariants.add(int)\n",
        "import engine.graph\nprint(int in engine.graph.VARIANTS)\n", "False\n"),
    "engine function": ("import engine\nengine.Backward = lambda g, r: None\n"
                        "engine.autograd.Backward = lambda g, r: None\n",
                        CHAPTER, "<Graph with 2 nodes> 4.0\n"),
    "engine class": ("import engine\nengine.Graph.__repr__ = lambda self: 'patched'\n"
                     "engine.Graph.extra = 1\n", CHAPTER + "print(hasattr(g, 'extra'))\n",
                     "<Graph with 2 nodes> 4.0\nFalse\n"),
    "sys.modules": ("import sys\nsys.modules['engine'] = None\nsys.modules['json'] = None\n"
                    "sys.modules['mine'] = sys\n",
                    "import json\nimport engine\ntry:\n    import mine\nexcept ImportError:\n"
                    "    print('no mine', json.dumps(engine.Graph.__name__))\n",
                    'no mine "Graph"\n'),
    "the standard library": (
        "import math, json, traceback\nmath.tanh = lambda x: 42.0\n"
        "math.isclose = lambda *a, **k: True\njson.dumps = lambda *a, **k: 'forged'\n"
        "traceback.TracebackException.format = lambda *a, **k: iter(['replaced'])\n",
        "import math, json, traceback\nfrom engine import Graph, MakeValue, VTanh\n"
        "g = Graph()\nprint(g.nodes[VTanh(g, MakeValue(g, 0.0))].data, math.isclose(1, 2),\n"
        "      json.dumps([1]), ''.join(traceback.TracebackException(ValueError, ValueError('v'),"
        " None).format()).strip())\n",
        "0.0 False [1] ValueError: v\n"),
    "an engine function's names": (
        "import engine\nengine.Backward.__module__ = '__main__'\n"
        "engine.Backward.__name__ = 'mine'\nengine.Backward.marked = True\n",
        "import engine\nprint(engine.Backward.__module__, engine.Backward.__name__,\n"
        "      hasattr(engine.Backward, 'marked'))\n",
        "engine.autograd Backward False\n"),
    "sys": ("import sys\nsys.stdout = None\nsys.excepthook = None\nsys.path.insert(0, '/x')\n"
            "sys.setrecursionlimit(500)\nsys.settrace(lambda *a: None)\n"
            "sys.set_int_max_str_digits(1000)\n",
            "import sys\nprint(sys.getrecursionlimit(), sys.gettrace(), sys.path[0] == '/x',\n"
            "      len(str(10 ** 2000)))\n", "1000 None False 2001\n"),
    "process": ("import gc, os, signal\ngc.disable()\nos.chdir('/')\n"
                "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
                "gc.callbacks.append(lambda phase, info: print(phase))\n",
                "import gc, os\nprint(gc.isenabled(), os.getcwd() == '/')\ngc.collect()\n",
                "True False\n"),
    "random's generator": ("import random\nrandom.seed(7)\nrandom._inst.planted = 1\n",
                           "import random\nfirst = random.random()\nrandom.seed(7)\n"
                           "print(first == random.random(), hasattr(random._inst, 'planted'))\n",
                           "False False\n"),
    "warnings' filters": (
        "import warnings\nwarnings.simplefilter('error')\n"
        "warnings.filters.insert(0, ('ignore', None, UserWarning, None, 0))\n"
        "warnings.onceregistry[('planted', UserWarning)] = True\n",
        "import warnings\nprint(('error', None, Warning, None, 0) in warnings.filters,\n"
        "      any(f[0] == 'ignore' and f[2] is UserWarning for f in warnings.filters),\n"
        "      warnings.onceregistry)\n",
        "False False {}\n"),
    "the import system's finder cache": (
        "import sys\nclass Finder:\n    def find_spec(self, *a):\n        return None\n"
        "for path in list(sys.path_importer_cache):\n"
        "    sys.path_importer_cache[path] = Finder()\n",
        "import sys\nprint(any(type(f).__name__ == 'Finder'\n"
        "          for f in sys.path_importer_cache.values()))\n", "False\n"),
    "re's cache": (
        "import re\nre.compile('x')\nfor key in list(re._cache):\n"
        "    re._cache[key] = re.compile('x')\n",
        "import re\nprint(all(key[1] == pattern.pattern for key, pattern in re._cache.items()))\n",
        "True\n"),
    "an ABC's registrations": (
        "from collections.abc import Sequence, Hashable\nSequence.register(dict)\n"
        "class Mine: pass\nHashable.register(Mine)\n",
        "from collections.abc import Sequence\nprint(isinstance({}, Sequence))\n", "False\n"),
    "__main__'s attributes": ("import __main__\n__main__.planted = print\n",
                              "import __main__\nprint(hasattr(__main__, 'planted'))\n",
                              "False\n"),
    "the collector's thresholds and the switch interval": (
        "import gc, sys\ngc.set_threshold(1, 1, 1)\ngc.set_debug(gc.DEBUG_STATS)\n"
        "sys.setswitchinterval(1.5)\n",
        "import gc, sys\nprint(gc.get_threshold()[0] > 1, gc.get_debug(), "
        "sys.getswitchinterval() < 1)\n", "True 0 True\n"),
    "the collector's frozen objects": ("import gc\ngc.unfreeze()\n",
                                       "import gc\nprint(gc.get_freeze_count() > 10_000)\n",
                                       "True\n"),
    "the environment": ("import os\nos.environ['PLAYGROUND_SEEN'] = 'yes'\n"
                        "os.environ['PATH'] = '/nowhere'\n",
                        "import os\nprint(os.environ.get('PLAYGROUND_SEEN'),"
                        " os.environ.get('PATH') == '/nowhere')\n",
                        "None False\n"),
}


def outcome(code: str) -> tuple[str, str | None, str]:
    result, output = run(code)
    return result["status"], result["error"], output


@pytest.mark.parametrize(("attack", "check", "expected"), ATTACKS.values(), ids=ATTACKS.keys())
def test_what_a_run_changes_is_put_back_for_the_next(attack, check, expected):
    assert outcome(check) == ("done", None, expected)
    assert outcome(attack)[:2] == ("done", None)
    assert outcome(check) == ("done", None, expected)


def test_the_runners_own_process_is_as_it_was():
    before = (sys.getrecursionlimit(), sys.stdout, sys.gettrace(), list(sys.path), os.getcwd())
    run(ATTACKS["sys"][0] + ATTACKS["process"][0])
    assert (sys.getrecursionlimit(), sys.stdout, sys.gettrace(), list(sys.path),
            os.getcwd()) == before


def test_the_environment_a_run_set_is_gone_from_the_process_too():
    run(ATTACKS["the environment"][0])
    child = subprocess.run([sys.executable, "-c", "import os; print(os.environ.get("
                            "'PLAYGROUND_SEEN'), os.environ.get('PATH') == '/nowhere')"],
                           capture_output=True, encoding="utf-8", check=True)
    assert child.stdout == "None False\n"


def test_a_module_the_code_imports_is_fresh_in_the_next_run():
    run("import colorsys\ncolorsys.ONE_THIRD = 0\n")
    _, output = run("import colorsys\nprint(colorsys.ONE_THIRD)\n")
    assert output == f"{1 / 3}\n"


def test_the_recursion_limit_can_be_raised_only_as_far_as_the_browser_holds():
    result, output = run("import sys\nsys.setrecursionlimit(30_000)\n"
                         "print(sys.getrecursionlimit())\nsys.setrecursionlimit(1500)\n"
                         "print(sys.getrecursionlimit())\n")
    assert result["status"] == "done"
    assert output == (f"sys.setrecursionlimit(30,000): the browser's stack holds "
                      f"{MAX_RECURSION_LIMIT:,} at most, so the limit is {MAX_RECURSION_LIMIT:,}\n"
                      f"{MAX_RECURSION_LIMIT}\n1500\n")


def test_the_tables_of_a_run_that_patched_the_builtins_are_read_with_the_real_ones():
    code = ("import builtins\nbuiltins.len = lambda x: 3\n"
            "from engine import Graph, MakeValue\ng = Graph()\nMakeValue(g, 1.0, label='a')\n")
    result, _ = run(code)
    (table,) = result["tables"]
    assert (table["count"], table["label"]) == (1, ["a"])


def test_what_the_run_left_is_freed_inside_it():
    code = ("class Late:\n    def __del__(self):\n        print('freed in the run')\n\n"
            "late = Late()\nlate.cycle = late\n")
    assert outcome(code) == ("done", None, "freed in the run\n")



def test_what_a_run_froze_is_freed_as_it_ends(tmp_path):
    freed = tmp_path / "freed"
    code = ("import gc\nclass Kept:\n    def __del__(self):\n"
            f"        open({str(freed)!r}, 'w').close()\n\n"
            "kept = Kept()\nkept.itself = kept\ngc.freeze()\n")
    assert outcome(code)[:2] == ("done", None)
    assert freed.exists()


def test_a_run_that_leaves_the_collector_alone_does_not_freeze_it_again():
    """(Freezing again is a collection of everything: milliseconds a run in Pyodide.) The
    chapter's example frees a few frozen objects, as most runs do."""
    run(CHAPTER)
    frozen = gc.get_freeze_count()
    made_since = [[] for _ in range(10_000)]
    run(CHAPTER)
    assert gc.get_freeze_count() <= frozen
    assert len(made_since) == 10_000

HOST_LOOP = """
import asyncio, json, playground_runner
loop = asyncio.new_event_loop()
asyncio.set_event_loop(loop)
host = loop.create_task(asyncio.sleep(0, result="the host's"))
runner = playground_runner.take()
code = "import asyncio\\nasync def waits():\\n    await asyncio.sleep(1)\\n" \\
       "task = asyncio.ensure_future(waits())\\n"
print(json.loads(runner.run(code, lambda batch: None))["status"])
print(loop.run_until_complete(host))
"""


def test_a_run_leaves_the_tasks_its_host_had_pending_alone():
    """As a test's browser driver has its tasks on the loop a run in CPython gets (a
    process of its own: the driver's loop here is running)."""
    child = subprocess.run([sys.executable, "-c", HOST_LOOP], capture_output=True,
                           encoding="utf-8", cwd=build.WEB, check=True)
    assert child.stdout == "done\nthe host's\n"
