"""Results that say when they are stale: a live edit that does not parse yet keeps the
last results on screen, marked as the last run that worked, with the error beside them;
a run that stopped, or a link opened over results, says what the nodes are."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import NEVER_MS, set_deadlines
from .test_keeping import paste_into_address_bar
from .test_live import EDITING_MS, link_to, put_cursor_after
from .test_run import CHAPTER_ROWS


def stale(playground):
    return playground.element.locator(".stale-note")


def test_an_unfinished_line_keeps_the_last_results_marked_as_the_last_that_worked(playground):
    assert playground.run() == "done"
    # Each edit runs once its keys are typed, however slowly a busy machine runs it.
    set_deadlines(playground.page, liveDebounceMs=EDITING_MS, liveRunMs=NEVER_MS)
    put_cursor_after(playground, 'print("e =", g.nodes[e].data)')
    playground.page.keyboard.type("\nx = 1 +")
    playground.wait_for("error")
    expect(stale(playground)).to_have_text(
        "These are the results of the last run that worked: this code has a SyntaxError "
        "on line 10: nothing ran.")
    assert playground.rows() == CHAPTER_ROWS
    assert "SyntaxError" in playground.output
    playground.page.keyboard.type(" 1")  # x = 1 + 1: it parses again, and runs
    playground.page.wait_for_function(
        "() => document.querySelector('autograd-playground').shadowRoot"
        ".querySelector('.stale-note').hidden")  # with the tables, ahead of the run's end
    assert playground.wait_for("done", "error") == "done" and playground.rows() == CHAPTER_ROWS


def test_a_run_that_stops_at_an_error_says_the_nodes_are_as_it_left_them(playground):
    example = playground.code
    code = "from engine import Graph, MakeValue\ng = Graph()\nMakeValue(g, 1.0)\nprint(nope)\n"
    assert playground.run(code) == "error"
    expect(stale(playground)).to_have_text(
        "The run stopped at an error on line 4: the nodes are as the code had left them then.")
    assert playground.run(example) == "done"
    expect(stale(playground)).to_be_hidden()


def test_a_link_opened_over_results_says_they_are_the_earlier_codes(playground, site):
    assert playground.run() == "done"
    playground.page.goto(link_to(site, "print('from a link')\n"))
    expect(stale(playground)).to_have_text(
        "These are the results of the code before the link's: press Run to run the link's "
        "code.")
    assert playground.run() == "done"
    expect(stale(playground)).to_be_hidden()


def test_a_link_opened_while_a_run_goes_on_gets_no_mark_of_that_runs_error(playground, site):
    # The run's error is on its line 3: the link's line 3 is fine.
    linked = "print('from a link')\nx = 1\ny = 2\n"
    playground.start("import time\ntime.sleep(5)\n1 / 0\n")
    paste_into_address_bar(playground, link_to(site, linked))
    assert playground.state == "running"  # the link came while the run went on
    assert playground.wait_for("done", "error", "stopped") == "error"
    assert playground.code == linked
    assert playground.marked_line() is None
