"""Stop ends any run fast, in both tiers, and never loses the learner's code."""

import pytest

LOOP = "print('looping')\nwhile True:\n    pass\n"
FLOOD = "i = 0\nwhile True:\n    print('line', i)\n    i += 1\n"


@pytest.mark.parametrize("isolated", [True, False], ids=["interrupt", "restart"])
def test_stop_ends_an_endless_loop_within_2_s_and_the_next_run_works(
    open_playground, request, isolated
):
    playground = open_playground(request.getfixturevalue("site" if isolated else "plain_site"))
    assert playground.page.evaluate("crossOriginIsolated") is isolated
    playground.start(LOOP)
    playground.wait_for_output("looping")
    playground.button("Stop").click()
    assert playground.wait_for("stopped", timeout=2_000) == "stopped"
    assert playground.code == LOOP
    assert playground.run("print('next run')") == "done"
    assert playground.output.strip() == "next run"


def test_an_output_flood_is_capped_and_the_page_stays_responsive(playground):
    playground.start(FLOOD)
    playground.wait_for_output("output truncated")
    assert playground.state == "running"
    assert playground.responsive_ms() < 250
    playground.code = FLOOD + "# typing still works\n"
    playground.button("Stop").click()
    assert playground.wait_for("stopped", timeout=2_000) == "stopped"
    lines = playground.output.splitlines()
    assert lines[:2] == ["line 0", "line 1"]
    assert 10_000 <= len(lines) <= 10_002
    assert "output truncated" in lines[-1]


def test_stop_restarts_python_when_the_code_swallows_the_interrupt(playground):
    swallow = "while True:\n    try:\n        while True:\n            pass\n"
    swallow += "    except KeyboardInterrupt:\n        print('ignored')\n"
    playground.start(swallow)
    playground.button("Stop").click()
    playground.wait_for_output("ignored")
    assert playground.wait_for("stopped", timeout=4_000) == "stopped"
    assert playground.run("print('next run')") == "done"
    assert playground.output.strip() == "next run"
