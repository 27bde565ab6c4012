"""What a run prints reaches the page in timed batches, however it is printed: code that
reaches the runner's output and sends batches itself is batched too, so that a flood of
them costs the page a message at most every FLUSH_SECONDS; and what waits goes on the
worker's tick, though the code prints nothing more."""

from __future__ import annotations

import json
import signal
import sys
from types import SimpleNamespace

from playground_runner import output as output_module
from playground_runner.output import BATCH_PAIRS, FLUSH_SECONDS, TICK, Output

from .runs import RUNNER, run


def test_a_million_empty_batches_sent_by_the_code_send_the_page_nothing():
    batches: list[str] = []
    code = ("import sys\nsend = sys.stdout.output.send\n"
            "for _ in range(1_000_000):\n    send('[]')\nprint('end')\n")
    result = json.loads(RUNNER.run(code, batches.append))
    assert result["status"] == "done"
    assert [json.loads(batch) for batch in batches] == [[["stdout", "end"]], [["stdout", "\n"]]]


def test_batches_the_code_sends_go_out_with_its_prints_in_order_when_a_batch_is_due(monkeypatch):
    clock = SimpleNamespace(monotonic=lambda: now)
    monkeypatch.setattr(output_module, "time", clock)
    now = 100.0
    posted: list[str] = []
    output = Output(posted.append)
    output.write("stdout", "a")  # the first output goes at once
    output.send('[["stderr", "b"]]')
    output.write("stdout", "c")
    output.send(' [["stdout", "d"], ["stdout", "e"]] ')
    assert len(posted) == 1
    now += FLUSH_SECONDS * 2
    output.write("stdout", "f")
    assert [json.loads(batch) for batch in posted] == [
        [["stdout", "a"]],
        [["stderr", "b"], ["stdout", "c"], ["stdout", "d"], ["stdout", "e"], ["stdout", "f"]],
    ]


def test_a_batch_that_is_not_output_goes_at_once_after_what_came_before_for_the_page_to_refuse():
    posted: list[str] = []
    output = Output(posted.append)
    output.write("stdout", "a")
    output.write("stdout", "b")
    for batch in ['[["stdin", "x"]]', "not json", '{"stdout": "x"}', 3]:
        output.send(batch)
    assert posted == ['[["stdout", "a"]]', '[["stdout", "b"]]',
                      '[["stdin", "x"]]', "not json", '{"stdout": "x"}', 3]


def test_output_that_switches_streams_at_every_character_goes_in_batches_of_bounded_size():
    batches: list[str] = []
    code = ("import sys\nfor _ in range(5_000):\n"
            "    sys.stdout.write('a')\n    sys.stderr.write('b')\n")
    json.loads(RUNNER.run(code, batches.append))
    pairs = [json.loads(batch) for batch in batches]
    assert all(len(batch) <= BATCH_PAIRS for batch in pairs)
    assert "".join(text for batch in pairs for _, text in batch) == "ab" * 5_000


def test_the_workers_tick_sends_what_waits_the_start_of_a_line_too(monkeypatch):
    monkeypatch.setattr(output_module, "time", SimpleNamespace(monotonic=lambda: 100.0))
    batches: list[str] = []
    code = ("import signal, sys\nprint('a')\nprint('e =', end='')\n"
            "signal.raise_signal(signal.SIGUSR1)\nsys.stderr.write('after')\n")
    result = json.loads(RUNNER.run(code, batches.append))
    assert result["status"] == "done"
    assert [json.loads(batch) for batch in batches] == [
        [["stdout", "a"]],  # the first output goes at once; the rest waits, time standing still
        [["stdout", "\ne ="]],  # on the tick
        [["stderr", "after"]],  # as the run ends
    ]


def test_a_tick_inside_a_write_leaves_what_waits_to_that_write():
    posted: list[str] = []
    output = Output(posted.append)
    output.write("stdout", "a")
    output.write("stdout", "b")
    in_a_write = SimpleNamespace(f_globals=vars(output_module), f_back=None)
    called_by_a_write = SimpleNamespace(f_globals={}, f_back=in_a_write)
    output.tick(TICK, called_by_a_write)
    assert posted == ['[["stdout", "a"]]']
    output.tick(TICK, sys._getframe())
    assert posted == ['[["stdout", "a"]]', '[["stdout", "b"]]']


def test_a_run_leaves_the_ticks_handler_as_it_found_it():
    before = signal.getsignal(TICK)
    result, output = run("import signal\nprint(signal.getsignal(signal.SIGUSR1).__name__)\n")
    assert output == "tick\n"
    assert signal.getsignal(TICK) is before
