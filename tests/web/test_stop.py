"""Stop ends any run, in both tiers, and never loses the learner's code.

Stop first interrupts Python (when the page is cross-origin isolated) and
replaces its worker only if the run has not ended within Stop's grace. Each
test sets that deadline, so that which tier ends the run is the test's choice,
not the machine's speed.
"""

import pytest

from .conftest import NEVER_MS, set_deadlines

LOOP = "print('looping')\nwhile True:\n    pass\n"
FLOOD = "i = 0\nwhile True:\n    print('line', i)\n    i += 1\n"
# Code that ignores the interrupt wherever it lands (a `try` around the loop leaves
# moments, in its handler, where one would end the run after all).
SWALLOW = (
    "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nprint('ignoring')\n"
    "while True:\n    pass\n"
)


@pytest.mark.parametrize("isolated", [True, False], ids=["interrupt", "restart"])
def test_stop_ends_an_endless_loop_and_the_next_run_works(open_playground, request, isolated):
    playground = open_playground(request.getfixturevalue("site" if isolated else "plain_site"))
    assert playground.page.evaluate("crossOriginIsolated") is isolated
    set_deadlines(playground.page, stopGraceMs=NEVER_MS)
    playground.start(LOOP)
    playground.wait_for_output("looping")
    playground.button("Stop").click()
    assert playground.wait_for("stopped") == "stopped"
    assert playground.code == LOOP
    assert playground.run("print('next run')") == "done"
    assert playground.output.strip() == "next run"
    # Interrupted, Python goes on in the same worker; without isolation it is replaced.
    assert playground.python_starts == (1 if isolated else 2)


def test_an_output_flood_is_capped_and_the_page_stays_usable(playground):
    playground.start(FLOOD)
    playground.wait_for_output("output truncated")
    assert playground.state == "running"
    playground.code = FLOOD + "# typing still works\n"
    assert playground.code.endswith("# typing still works\n")
    playground.button("Stop").click()
    assert playground.wait_for("stopped") == "stopped"
    lines = playground.output.splitlines()
    assert lines[:2] == ["line 0", "line 1"]
    assert 10_000 <= len(lines) <= 10_002
    assert "output truncated" in lines[-1]


def test_stop_replaces_python_when_the_code_swallows_the_interrupt(playground):
    set_deadlines(playground.page, stopGraceMs=500)
    playground.start(SWALLOW)
    # Stop only once the interrupt is ignored: pressed earlier, it ends the run in time.
    playground.wait_for_output("ignoring")
    playground.button("Stop").click()
    assert playground.wait_for("stopped") == "stopped"
    assert playground.run("print('next run')") == "done"
    assert playground.output.strip() == "next run"
    assert playground.python_starts == 2  # the run after it ran in a new worker
