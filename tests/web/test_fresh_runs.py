"""In the page, a run starts as fresh as a new page whatever the code before it did,
in any playground of the page; and a verdict is "passed" only when the checks ran on
the learner's own code in a Python that nothing reached into."""

from __future__ import annotations

import math

import pytest
from playwright.sync_api import Page

from tests.web.pages import PlaygroundAt
from tests.web.test_exercises import Exercise
from tests.web.test_run_timers import CALLS_BACK, CHECK, WAIT_MS, python_worker

TANH = "from engine import Graph, MakeValue, VTanh\ng = Graph()\n" \
       "print(g.nodes[VTanh(g, MakeValue(g, 0.0))].data)\n"
LEAKS = {
    "math.tanh": "import math\nmath.tanh = lambda x: 42.0\n",
    "an audit hook": "import sys\nsys.addaudithook(lambda e, a: print('hooked', e))\n",
    "a prototype of the worker's JavaScript": (
        "import js\njs.eval('''const post = MessagePort.prototype.postMessage;\n"
        "MessagePort.prototype.postMessage = function (m, ...rest) {\n"
        "  if (m && m.type === 'output') m = {...m, batch: '[[\"stdout\", \"FORGED\"]]'};\n"
        "  return post.call(this, m, ...rest); };''')\n"),
    "a frame": "import sys\nframe = sys._getframe()\n",
}


@pytest.fixture
def course(site, new_context) -> Page:
    page = new_context().new_page()
    page.goto(site + "course.html")
    return page


def ready(page: Page, selector: str) -> PlaygroundAt:
    playground = PlaygroundAt(page, selector)
    playground.element.scroll_into_view_if_needed()
    playground.wait_for("ready")
    return playground


@pytest.mark.parametrize("leak", LEAKS.values(), ids=LEAKS.keys())
def test_what_one_playground_did_is_gone_in_another(course, leak):
    first, other = ready(course, "#data-model"), ready(course, "#engine-graph")
    assert first.run(leak) == "done"
    assert other.run(TANH) == "done"
    assert other.output.strip() == "0.0"
    assert first.run("print('next')") == "done"
    assert first.output.strip() == "next"


def test_a_run_that_reached_in_says_so_and_the_next_runs_in_a_fresh_python(playground):
    starts = playground.python_starts
    playground.record_statuses()
    assert playground.run(LEAKS["a frame"]) == "done"
    assert any("starting a fresh Python (the last run reached into the playground itself: "
               "sys._getframe, line 2)" in status for status in playground.statuses_shown)
    assert playground.run("print('next')") == "done"
    assert playground.python_starts == starts + 1


def test_what_a_run_did_to_the_standard_library_is_gone_though_the_page_never_painted(playground):
    # The page asks the worker to put the standard library back once it has painted a
    # result; a run that comes first has it put back all the same. Here it never asks.
    playground.element.evaluate("el => { el.runtime.tidyAfterPaint = () => {}; }")
    assert playground.run(LEAKS["math.tanh"]) == "done"
    assert playground.run(TANH) == "done"
    assert playground.output.strip() == "0.0"


PRINTS_A_TRACEBACK = ("import traceback\ntry:\n    1 / 0\nexcept ZeroDivisionError:\n"
                      "    traceback.print_exc()\n")


@pytest.mark.parametrize("code", [TANH, PRINTS_A_TRACEBACK], ids=["the chapter's op",
                                                              "a traceback printed"])
def test_a_run_that_reached_in_nothing_does_not_restart_python(playground, code):
    assert playground.run(code) == "done"
    starts = playground.python_starts
    for _ in range(3):
        assert playground.run(code) == "done"
    assert playground.python_starts == starts
    assert playground.element.locator(".status").inner_text().startswith("ran in")
    assert ("ZeroDivisionError: division by zero" in playground.output) == (code != TANH)


BACKWARD_FAKES = {
    "math.isclose above the code": "import math\nmath.isclose = lambda *a, **k: True\n",
    "json.dumps wrapped": (
        "import json\nreal = json.dumps\n"
        "def forged(value, **kwargs):\n"
        "    if isinstance(value, dict) and 'check' in value:\n"
        "        value = {**value, 'check': {'passed': True, 'messages': []}}\n"
        "    return real(value, **kwargs)\n"
        "json.dumps = forged\n"),
    "the runner's checks emptied from its frame": (
        "import sys\nframe = sys._getframe()\nwhile frame.f_back is not None:\n"
        "    frame = frame.f_back\n"
        "    if 'checks' in frame.f_locals:\n        frame.f_locals['checks'] = []\n"),
    "a Backward that patches the runner's messages": (
        "_given = Backward\ndef Backward(g, root):\n"
        "    import playground_runner.checks\n"
        "    playground_runner.checks._message = lambda *a: None\n"
        "    return _given(g, root)\n"),
    "an audit hook": "import sys\nsys.addaudithook(lambda e, a: None)\n",
    "the engine's Backward wrapped": "import engine\n"
                                     "def Backward(g, root):\n    engine.Backward(g, root)\n",
    "the engine's Backward renamed": "import engine\nengine.Backward.__module__ = '__main__'\n"
                                     "Backward = engine.Backward\n",
}


def test_no_fake_passes_write_backward_and_the_unchanged_code_never_passes_after(course):
    backward = Exercise(course, "#write-backward")
    backward.element.scroll_into_view_if_needed()
    backward.wait_for("ready")
    given = backward.code
    for name, fake in BACKWARD_FAKES.items():
        assert backward.attempt(given + "\n" + fake)["passed"] is False, name
        assert backward.check in ("failed", "unchecked"), name
        assert backward.attempt(given)["passed"] is False, name


def test_code_that_reached_in_is_not_checked_and_says_where(course):
    backward = Exercise(course, "#write-backward")
    backward.element.scroll_into_view_if_needed()
    backward.wait_for("ready")
    fake = BACKWARD_FAKES["the runner's checks emptied from its frame"]
    detail = backward.attempt(backward.code + "\n" + fake)
    line = (backward.code + "\n" + fake).splitlines().index("frame = sys._getframe()") + 1
    assert detail == {"passed": False, "messages": [
        f"The code reached into the playground itself (sys._getframe, line {line}), "
        f"so no check can be trusted."]}
    assert backward.check == "unchecked"


def test_topo_sort_as_given_does_not_pass_after_a_fake_in_another_exercise(course):
    backward, topo = Exercise(course, "#write-backward"), Exercise(course, "#topo-sort")
    backward.element.scroll_into_view_if_needed()
    backward.wait_for("ready")
    for name in ("json.dumps wrapped", "an audit hook"):
        backward.attempt(backward.code + "\n" + BACKWARD_FAKES[name])
        topo.element.scroll_into_view_if_needed()
        assert topo.attempt()["passed"] is False, name


# The worker's objects that the standard library reads: chosen bytes for os.urandom, a
# stopped clock for time, a navigator that lies.
WORKERS_OBJECTS = (
    "import js\njs.eval('''crypto.getRandomValues = (a) => a.fill(7);\n"
    "performance.now = () => 0;\n"
    "Object.defineProperty(navigator, \"userAgent\", { value: \"forged\" });''')\n"
)


def test_a_run_that_changes_the_workers_crypto_clock_or_navigator_leaves_a_fresh_python(
    playground,
):
    starts = playground.python_starts
    playground.record_statuses()
    assert playground.run(WORKERS_OBJECTS) == "done"
    told = "the worker's JavaScript: crypto (a property added or deleted) was changed"
    assert any(told in status for status in playground.statuses_shown)
    code = ("import os, js\nprint(os.urandom(4) != bytes([7] * 4), js.performance.now() > 0, "
            "js.navigator.userAgent != 'forged')\n")
    assert playground.run(code) == "done"
    assert playground.output.split() == ["True"] * 3
    assert playground.python_starts == starts + 1


def test_pyodides_modules_and_main_are_as_they_were_in_another_playground(course):
    first, other = ready(course, "#data-model"), ready(course, "#engine-graph")
    assert first.run("import __main__, pyodide.ffi, pyodide.code\n__main__.planted = 1\n"
                     "pyodide.ffi.create_proxy = print\npyodide.code.planted = 1\n") == "done"
    assert other.run("import __main__, pyodide.ffi, pyodide.code\n"
                     "print(hasattr(__main__, 'planted'), pyodide.ffi.create_proxy is print,\n"
                     "      hasattr(pyodide.code, 'planted'))\n") == "done"
    assert other.output.split() == ["False"] * 3


PLANTS_FILES = (
    "import os\nos.makedirs('/tmp/planted/deeper')\n"
    "with open('/tmp/planted/deeper/data.txt', 'w') as f:\n    f.write('kept')\n"
    "with open('/home/pyodide/planted.py', 'w') as f:\n    f.write('WHERE = \"planted\"')\n"
    "print(os.path.exists('/home/pyodide/planted.py'))\n"
)


def test_files_a_run_writes_are_gone_in_another_playground_without_a_fresh_python(course):
    first, other = ready(course, "#data-model"), ready(course, "#engine-graph")
    starts = first.python_starts
    assert first.run(PLANTS_FILES) == "done"
    assert first.output.strip() == "True"
    assert other.run("import os\nprint(os.path.exists('/tmp/planted'), "
                     "os.path.exists('/home/pyodide/planted.py'))\ntry:\n    import planted\n"
                     "except ImportError:\n    print('not planted')\n") == "done"
    assert other.output.split() == ["False", "False", "not", "planted"]
    assert first.python_starts == starts


def test_a_run_that_changes_a_file_of_pythons_leaves_a_fresh_python(playground):
    starts = playground.python_starts
    playground.record_statuses()
    changes = ("import engine.ops\nwith open(engine.ops.__file__, 'a') as f:\n"
               "    f.write('\\nPLANTED = 1\\n')\nprint(engine.ops.__file__)\n")
    assert playground.run(changes) == "done"
    path = playground.output.strip()
    told = f"the file system: {path} was changed"
    assert any(told in status for status in playground.statuses_shown)
    assert playground.run("import engine.ops\n"
                          "print('PLANTED' in open(engine.ops.__file__).read())\n") == "done"
    assert playground.output.strip() == "False"
    assert playground.python_starts == starts + 1


def refused(part: str) -> str:
    return (f"ImportError: {part} is Pyodide's own object (Python's memory, its files, "
            f"the runtime): a run cannot reach it")


# Every way Python holds Pyodide's own object (`pyodide_js`: Python's memory, its files,
# the runtime's switches), and the error of a run that takes it.
PYODIDES_OBJECT = {
    "its import": ("import pyodide_js as api\n", refused("pyodide_js._module")),
    "sys.modules": ("import sys\napi = sys.modules['pyodide_js']\n",
                    refused("pyodide_js._module")),
    "the finder of JavaScript modules": (
        "from _pyodide._importhook import jsfinder\napi = jsfinder.jsproxies['pyodide_js']\n",
        "KeyError: 'pyodide_js'"),
    "micropip's module": ("import micropip._compat._compat_in_pyodide as compat\n"
                          "api = compat.pyodide_js\n", refused("pyodide_js._module")),
    "Pyodide's internals": ("import pyodide_js._api\napi = pyodide_js._api.public_api\n",
                            refused("pyodide_js._api.public_api")),
    "an import anew": ("import sys\ndel sys.modules['pyodide_js']\nimport pyodide_js as api\n",
                       refused("pyodide_js")),
}
UNTRACED = "api._module.disable_pyproxy_allocation_tracing()\n"


@pytest.mark.parametrize(("route", "error"), PYODIDES_OBJECT.values(), ids=PYODIDES_OBJECT.keys())
def test_pyodides_own_object_is_refused_and_the_runs_callbacks_end_with_it(course, route, error):
    first, other = ready(course, "#data-model"), ready(course, "#engine-graph")
    assert first.run(route + UNTRACED + CALLS_BACK) == "error"
    assert first.output.endswith(error + "\n")
    course.wait_for_timeout(WAIT_MS)  # as long as test_run_timers.py waits for a callback
    assert python_worker(course).evaluate("self.tampered ?? null") is None
    for playground in (other, first):
        assert playground.run(CHECK) == "done"
        assert float(playground.full_values("data")[1]) == math.tanh(0.5)


def test_pyodides_own_uses_of_its_object_work_inside_a_run(playground):
    # asyncio.run reads the object's config as it runs; it then runs the coroutine, or
    # says, in a browser without WebAssembly's stack switching, that it cannot.
    code = ("import asyncio, micropip\n\nasync def main():\n    return 'awaited'\n\n"
            "try:\n    outcome = asyncio.run(main())\nexcept RuntimeError as e:\n"
            "    outcome = str(e)\nprint(f'{micropip.__version__}|{outcome}')\n")
    assert playground.run(code) == "done"
    (line,) = [line for line in playground.output.splitlines() if "|" in line]
    version, outcome = line.split("|")
    assert version.startswith("0.")
    assert outcome in ("awaited", "WebAssembly stack switching not supported in this "
                                  "JavaScript runtime")


def test_a_javascript_module_a_run_registers_is_gone_in_another_playground(course):
    first, other = ready(course, "#data-model"), ready(course, "#engine-graph")
    assert first.run("import js\nfrom pyodide.ffi import register_js_module\n"
                     "register_js_module('planted', js.Object.new())\nimport planted\n") == "done"
    assert other.run("try:\n    import planted\nexcept ImportError:\n"
                     "    print('not planted')\n") == "done"
    assert other.output.strip() == "not planted"


LEFT_BEHIND = ("import asyncio, js\n\nclass Late:\n    def __del__(self):\n"
               "        print('freed in the run')\n\nlate = Late()\nlate.cycle = late\n\n"
               "async def waits():\n    try:\n        await js.Promise.new(lambda *_: None)\n"
               "    finally:\n        print('finally in the run')\n\n"
               "waiting = waits()\nwaiting.send(None)\n\n"
               "async def starts():\n    js.self.started = True\n\n"
               "task = asyncio.ensure_future(starts())\n")


def test_what_a_run_leaves_ends_inside_it(playground):
    assert playground.run(LEFT_BEHIND) == "done"
    assert sorted(playground.output.splitlines()) == ["finally in the run", "freed in the run"]
    playground.page.wait_for_timeout(WAIT_MS)
    assert python_worker(playground.page).evaluate("self.started ?? null") is None
