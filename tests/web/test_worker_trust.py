"""The page trusts nothing the Python worker says: learner code runs there.

Learner code can reach the worker's global postMessage and message events
(`import js`), and the output callback the runner is given; none of them can
forge a result, a state, or another run's output. A message that breaks the
protocol ends its run as an error, and the next run works.
"""

import base64
import json
import struct

from engine import Graph, MakeValue, VMul
from playground_runner.tables import table
from tests.web.conftest import set_deadlines
from tests.web.pages import PlaygroundAt
from tests.web.runs import STRAY_OPERAND

POST = (
    "import js\n"
    "from pyodide.ffi import to_js\n"
    "def post(**message):\n"
    "    js.postMessage(to_js(message, dict_converter=js.Object.fromEntries))\n"
)
LOOP = "print('looping')\nwhile True:\n    pass\n"
PWNED = json.dumps({"status": "pwned", "error": None, "line": None, "tables": []})


def forged_messages() -> str:
    """Code that posts the worker protocol's every message, for every run id it might guess."""
    return POST + (
        "for i in range(1, 20):\n"
        "    post(type='result', id=i, result='{\"status\": \"done\", \"tables\": 1}')\n"
        f"    post(type='result', id=i, result={PWNED!r})\n"
        "    post(type='output', id=i, batch='[[\"stdout\", \"forged\"]]')\n"
        "post(type='status', status='pwned')\n"
        "post(type='phase', phase='failed: forged')\n"
        "post(type='progress', received=1, total=2)\n"
        "post(type='failed', message='forged')\n"
        "print('honest')\n"
    )


def test_messages_posted_by_learner_code_reach_nothing(browser, site):
    with browser.new_context() as context:
        page = context.new_page()
        page.goto(site + "course.html")
        first, other = PlaygroundAt(page, "#data-model"), PlaygroundAt(page, "#engine-graph")
        first.element.scroll_into_view_if_needed()
        first.wait_for("ready")
        assert first.run(forged_messages()) == "done"
        assert first.output.strip() == "honest"
        assert other.state in ("loading", "ready") and "failed" not in other.status
        assert first.run("print('next run')") == "done"
        assert first.output.strip() == "next run"
        assert other.run() == "done"


def test_a_listener_added_by_learner_code_hears_no_later_run(playground):
    listen = POST + (
        "from pyodide.ffi import create_proxy\n"
        "def inject(event):\n"
        "    post(type='output', id=event.data.id, batch='[[\"stdout\", \"injected\"]]')\n"
        "js.addEventListener('message', create_proxy(inject))\n"
    )
    assert playground.run(listen) == "done"
    # Importing micropip makes the worker wait for its download before running the code.
    assert playground.run("import micropip\nprint('mine')") == "done"
    assert playground.output.strip() == "mine"


def test_malformed_output_ends_the_run_as_an_error_and_the_next_run_works(playground):
    send = "import sys\nprint('before')\nsys.stdout.output.send({!r})\nwhile True:\n    pass\n"
    for batch in ["not json", '[["stdin", "x"]]', '{"stdout": "x"}']:
        assert playground.run(send.format(batch)) == "error"
        assert "the run's output was malformed" in playground.output
        assert playground.run("print('next run')") == "done"
        assert playground.output.strip() == "next run"


def test_output_beyond_the_cap_ends_the_run_even_past_runner_py(playground):
    flood = json.dumps([["stdout", "x" * 100_000]])
    code = f"import sys\nfor _ in range(5):\n    sys.stdout.output.send({flood!r})\n"
    assert playground.run(code) == "error"
    assert "the run's output was malformed" in playground.output
    assert len(playground.output) < 260_000


def runner_table() -> dict:
    """A table as the runner makes it, of a graph of 2 nodes, b = a * a."""
    graph = Graph()
    VMul(graph, MakeValue(graph, 2.0), 0)
    return table("g", graph)[0]


def with_tables(*tables: dict) -> str:
    return json.dumps({"status": "done", "error": None, "line": None, "tables": tables})


def ends_malformed(playground, messages: list[dict]) -> str:
    """Hand the page `messages`, each as the worker's for the run in flight: they end it as
    an error that says so. Returns the run's output."""
    playground.start(LOOP)
    playground.wait_for_output("looping")
    playground.element.evaluate(
        "(el, messages) => messages.forEach((message) => "
        "el.runtime.receive({...message, id: el.runtime.current.id}))", messages)
    assert playground.wait_for("done", "error", "stopped") == "error"
    assert "the run's output was malformed" in playground.output
    return playground.output


def test_a_result_that_is_not_runner_pys_ends_the_run_as_an_error(playground):
    valid = runner_table()
    bad_results = [
        PWNED,
        json.dumps({"status": "done", "error": None, "line": None, "tables": {}}),
        with_tables({"title": "g", "count": 2, "label": ["a"]}),
        "not json",
        # What the runner never sends, whatever the learner's graph holds: a value that is
        # not a number without its text, an operand that is not a node, over 100 tables.
        with_tables({**valid, "data": ["one", 4.0]}),
        with_tables({**valid, "grad": [None, 0.0]}),
        with_tables({**valid, "args": [[], [0, 2]]}),
        with_tables(*[valid] * 101),
        # Packed numbers (packed.py) that are not base64, cut in a number, or too many.
        with_tables({**valid, "data": "not base64!"}),
        with_tables({**valid, "grad": base64.b64encode(struct.pack("<dd", 1, 2)[:-1]).decode()}),
        with_tables({**valid, "data": base64.b64encode(struct.pack("<3d", 1, 2, 3)).decode()}),
    ]
    for result in bad_results:
        output = ends_malformed(playground, [{"type": "result", "result": result, "reached": []}])
        assert 'a "result" message with a bad' not in output  # the result itself is refused
    for message in [{"type": "result", "id": 999, "result": "{}"}, {"type": "status"}, "pwned"]:
        playground.start(LOOP)
        playground.wait_for_output("looping")
        playground.element.evaluate("(el, message) => el.runtime.receive(message)", message)
        assert playground.wait_for("done", "error", "stopped") == "error"
    assert playground.run("print('next run')") == "done"


def test_tables_ahead_of_a_result_that_are_not_the_runners_or_come_twice_end_the_run(playground):
    valid = json.dumps([runner_table()])
    ahead = {"type": "tables", "tables": valid}
    bad_messages = [
        [{"type": "tables", "tables": "not json"}],
        [{"type": "tables", "tables": json.dumps({"title": "g"})}],
        [{"type": "tables", "tables": json.dumps([{**runner_table(), "args": [[], [0, 2]]}])}],
        [ahead, ahead],
        [ahead, {"type": "result", "result": with_tables(runner_table()), "reached": []}],
    ]
    for messages in bad_messages:
        ends_malformed(playground, messages)
    assert playground.run("print('next run')") == "done"


def test_code_that_closes_its_worker_ends_in_an_error_and_python_is_restarted(playground):
    set_deadlines(playground.page, pingMs=500)  # a closed worker never answers, however long
    assert playground.run("import js\njs.close()\nprint('closed')\n") == "error"
    assert "Python stopped answering and was restarted" in playground.output
    assert playground.run("print('next run')") == "done"
    assert playground.output.strip() == "next run"


def test_an_odd_but_honest_graph_is_shown_with_its_long_label_cut(playground):
    code = (
        "from engine import Graph, MakeValue\n"
        "g = Graph()\n"
        "MakeValue(g, 1.0, label='y' * 20_000)\n"
    ) + STRAY_OPERAND
    assert playground.run(code) == "done"
    assert playground.graphs() == ["g (1 node)", "mine (2 nodes)"]
    label = playground.rows()[0][1]
    assert label == "y" * 200 + "… 19,800 more characters"
    hover = playground.element.locator("tbody td.label").first.get_attribute("title")
    assert hover == "y" * 2_000 + "… 18,000 more characters"
