"""What a run prints reaches the page while the run goes on, with and without
cross-origin isolation: the worker's tick sends what waits, the start of a line too,
though the code prints nothing more; and however the code sends batches itself, the
page gets no empty one and a bounded number of messages."""

import json

import pytest

from .conftest import NEVER_MS, set_deadlines, within
from .test_limits import COUNT_OUTPUT_MESSAGES

# Prints a line and the start of another, then computes until stopped.
BUSY_AFTER_PRINTING = "print('e =', 0.5)\nprint('partial', end='')\nwhile True:\n    pass\n"

# The run's result (its ms), and how many output messages the page took in for it.
RUN_COUNTED = within("""async (el, code) => {
  el.code = code;
  const result = await el.run();
  return [result.ms, el.outputMessages];
}""")

BOTH_SERVERS = pytest.mark.parametrize("isolated", [True, False], ids=["isolated", "plain"])


def open_on(open_playground, request, isolated: bool):
    playground = open_playground(request.getfixturevalue("site" if isolated else "plain_site"))
    assert playground.page.evaluate("crossOriginIsolated") is isolated
    return playground


@BOTH_SERVERS
def test_what_a_busy_run_printed_shows_while_it_runs_a_lines_start_too(
    open_playground, request, isolated
):
    playground = open_on(open_playground, request, isolated)
    set_deadlines(playground.page, stopGraceMs=NEVER_MS)
    playground.start(BUSY_AFTER_PRINTING)
    playground.wait_for_output("partial")
    assert playground.state == "running"
    assert playground.output == "e = 0.5\npartial"
    playground.button("Stop").click()
    assert playground.wait_for("stopped") == "stopped"
    assert playground.output == "e = 0.5\npartial"


@BOTH_SERVERS
@pytest.mark.parametrize("batch", ["[]", " [ ] "])
def test_a_million_empty_batches_posted_by_the_code_send_the_page_nothing(
    open_playground, request, isolated, batch
):
    playground = open_on(open_playground, request, isolated)
    playground.element.evaluate(COUNT_OUTPUT_MESSAGES)
    code = (f"import sys\npost = sys.stdout.output._post\nfor _ in range(1_000_000):\n"
            f"    post({batch!r})\nprint('end')\n")
    _, messages = playground.element.evaluate(RUN_COUNTED, code)
    assert playground.state == "done"
    assert playground.output == "end\n"
    assert messages <= 2  # "end", then "\n" (or both in one)


@BOTH_SERVERS
def test_batches_posted_by_the_code_reach_the_page_joined_a_message_per_interval_or_size(
    open_playground, request, isolated
):
    playground = open_on(open_playground, request, isolated)
    playground.element.evaluate(COUNT_OUTPUT_MESSAGES)
    calls = 50_000
    batch = json.dumps([["stdout", "x"]])
    code = (f"import sys\npost = sys.stdout.output._post\nfor _ in range({calls}):\n"
            f"    post({batch!r})\n")
    ms, messages = playground.element.evaluate(RUN_COUNTED, code)
    assert playground.state == "done"
    assert playground.output == "x" * calls
    # The worker posts once 16,000 characters are in, or 50 ms after its last post, and
    # once as the run ends: whatever the machine's speed, far fewer than the calls.
    pairs_chars = calls * (len(batch) - 1)
    assert messages <= pairs_chars / 16_000 + ms / 50 + 2
