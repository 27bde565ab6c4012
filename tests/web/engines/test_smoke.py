"""The playground works in Firefox and WebKit as in Chromium: boot offline, the chapter's
example and its grads, Stop in both tiers, a course page of three playgrounds, charts."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.web.conftest import FINAL_STATES
from tests.web.engines.conftest import RefusingProxy
from tests.web.engines.drivers import Browser
from tests.web.engines.playground import Playground
from tests.web.pages import CoursePages, course_page, playground
from tests.web.test_run import CHAPTER_ROWS, chapter_grads

EXAMPLE = Path(__file__).parents[3] / "web" / "shared" / "example.py"
# With the suite spread over processes, these run in one of them, one at a time:
# Firefox's Marionette listens on one fixed port.
pytestmark = pytest.mark.xdist_group("other-engines")

# Catches the interrupt that Stop raises, so the two tiers end differently: an
# interrupted run ends "done" and says so; a restarted Python never gets to say it.
CATCHING_LOOP = (
    "try:\n    print('looping')\n    while True:\n        pass\n"
    "except KeyboardInterrupt:\n    print('interrupted')\n"
)

# Whether Stop can interrupt Python on a cross-origin isolated page. WebKitGTK
# reports `crossOriginIsolated` but has no SharedArrayBuffer constructor (nor can
# it post one to a worker), so there Stop restarts Python, as without isolation.
INTERRUPTS_WHEN_ISOLATED = {"firefox": True, "webkit": False}


def open_playground(browser: Browser, url: str) -> Playground:
    browser.open(url)
    opened = Playground(browser)
    assert opened.wait_for("ready", "error") == "ready"
    return opened


def test_the_page_boots_offline(engine: Browser, proxy: RefusingProxy, site: str):
    before = len(proxy.requests)
    open_playground(engine, site)
    assert proxy.requests[before:] == []


def test_the_chapters_example_shows_its_6_nodes_with_its_grads_and_replays_backward(
    engine, site
):
    example = open_playground(engine, site)
    assert example.run() == "done"
    assert example.rows() == CHAPTER_ROWS  # the grads Backward filled, with no click
    assert example.full_values("grad") == pytest.approx(chapter_grads(), rel=1e-12)
    assert "e = 0.999329" in example.output
    example.button("First").click()  # a replay, before its first step: the root's 1 alone
    assert example.full_values("grad") == [0.0] * 5 + [1.0]
    example.press("Show the program's values")
    assert example.rows() == CHAPTER_ROWS
    example.button("Last node").click()  # the tape being built, at its last node
    assert example.rows() == [row[:4] + ["0.0"] for row in CHAPTER_ROWS]


@pytest.mark.parametrize("isolated", [True, False], ids=["isolated", "plain"])
def test_stop_interrupts_or_restarts_python_and_the_next_run_works(engine, request, isolated):
    url = request.getfixturevalue("site" if isolated else "plain_site")
    looping = open_playground(engine, url)
    assert engine.script("return crossOriginIsolated;") is isolated
    looping.start(CATCHING_LOOP)
    looping.wait_for_output("looping")
    looping.button("Stop").click()
    if isolated and INTERRUPTS_WHEN_ISOLATED[engine.name]:
        assert looping.wait_for(*FINAL_STATES) == "done"
        assert looping.output.split() == ["looping", "interrupted"]
    else:
        assert looping.wait_for(*FINAL_STATES) == "stopped"
        assert looping.output.split() == ["looping"]
    assert looping.code == CATCHING_LOOP
    assert looping.run("print('next run')") == "done"
    assert looping.output.strip() == "next run"


def test_a_course_page_of_three_playgrounds_runs_each(engine, site, pages: CoursePages):
    codes = {
        "hello": "print('hello from a course page')\n",
        "chapter": EXAMPLE.read_text(encoding="utf-8"),
        "leaf": "from engine import Graph, MakeValue\nh = Graph()\nMakeValue(h, 7.0, label='x')\n",
    }
    body = [playground(code, id=name) for name, code in codes.items()]
    engine.open(pages.add("three.html", course_page(site, *body)))
    playgrounds = [Playground(engine, f"#{name}") for name in codes]
    for each in playgrounds:
        each.start()  # queued behind the one before it
    assert [each.wait_for(*FINAL_STATES) for each in playgrounds] == ["done"] * 3
    hello, chapter, leaf = playgrounds
    assert hello.output.strip() == "hello from a course page"
    assert chapter.rows() == CHAPTER_ROWS
    assert leaf.rows() == [["0", "x", "None", "7.0", "0.0"]]


# Resolves once the element's editor is up (it loads after Python may be ready).
WAIT_FOR_EDITOR = """
const [selector, done] = arguments;
const el = document.querySelector(selector);
const check = () => (el.view ? done(true) : requestAnimationFrame(check));
check();
"""


def test_an_edit_re_runs_the_chapters_example_live(engine, site):
    example = open_playground(engine, site)
    example.wait(WAIT_FOR_EDITOR)
    example.call(  # the learner types c = 11.0 over 10.0
        "const at = el.code.indexOf('10.0');"
        "el.view.dispatch({ changes: { from: at, to: at + 4, insert: '11.0' },"
        " userEvent: 'input.type' });"
    )
    example.wait_for_output("e = 0.9999092")
    assert example.wait_for(*FINAL_STATES) == "done"
    assert example.rows()[2][3] == "11.0"


PLOTTING = (
    "for i in range(100):\n    plot('loss', 1 / (i + 1))\n"
    "boundary(lambda x, y: x - y, [(0, 0), (1, 0), (0, 1)], [1, 1, -1])\n"
)


def test_a_run_draws_its_chart_and_decision_regions(engine, site):
    charting = open_playground(engine, site)
    assert charting.run(PLOTTING) == "done"
    drawn = charting.call(
        "const chart = root.querySelector(\".chart[data-chart='loss']\");"
        "const canvas = root.querySelector('.boundary canvas.regions');"
        "const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);"
        "return [chart.dataset.points, chart.querySelector('canvas') !== null,"
        " data.some((v, i) => i % 4 === 3 && v > 0)];"
    )
    assert drawn == ["100", True, True]


# Whether a run that plots can be paused: Python waits on memory shared with the page,
# which WebKitGTK cannot share (as for Stop's interrupt, above).
PAUSES = INTERRUPTS_WHEN_ISOLATED
ENDLESS_TRAINING = (
    "import itertools\nfor i in itertools.count():\n    plot('loss', 1 / (i + 1))\n")
# Resolves with the charts panel's data-`name` once it is at least `least`.
WAIT_FOR_PANEL = """
const [selector, name, least, done] = arguments;
const plots = document.querySelector(selector).shadowRoot.querySelector(".plots");
const check = () => {
  if (!(Number(plots.dataset[name]) >= least)) return;
  observer.disconnect();
  done(Number(plots.dataset[name]));
};
const observer = new MutationObserver(check);
observer.observe(plots, { attributes: true });
check();
"""


def test_a_training_run_pauses_steps_and_stops_where_memory_is_shared(engine, site):
    training = open_playground(engine, site)
    training.start(ENDLESS_TRAINING)
    training.wait(WAIT_FOR_PANEL, "steps", 3)
    pacer = "return root.querySelector('.pacer').dataset.state;"
    if not PAUSES[engine.name]:
        assert training.call(pacer) == "unpaceable"
        training.press("Stop")
        assert training.wait_for(*FINAL_STATES) == "stopped"
        return
    training.press("Pause")
    waiting = training.wait(WAIT_FOR_PANEL, "waiting", 1)
    assert training.call("return root.querySelector('.plots').dataset.steps;") == str(waiting - 1)
    training.press("Step")
    assert training.wait(WAIT_FOR_PANEL, "waiting", waiting + 1) == waiting + 1
    assert training.call(pacer) == "paused"
    training.press("Stop")
    assert training.wait_for(*FINAL_STATES) == "stopped"
