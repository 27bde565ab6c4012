"""Timers, tasks and callbacks end with their run: what one run schedules (a JS timer,
an interval, an asyncio task that sleeps or awaits a promise, a function handed to
JavaScript: a promise's `then`, a MessagePort's `onmessage`) never calls back after it,
so it cannot change a later run, another playground's, or print into it."""

from __future__ import annotations

import math

import pytest

# The callback's delay, and how long the test waits past the run's end: by then a timer
# of an ended run would have fired, had it not been cleared.
DELAY_MS = 200
WAIT_MS = 1500
TAMPER = """import asyncio, math
import js
from pyodide.ffi import create_proxy

def tamper(*_):
    math.tanh = lambda x: 42.0
    js.self.tampered = (js.self.tampered or 0) + 1
    print('a callback of an ended run')
"""
SCHEDULE = TAMPER + f"""
js.setTimeout(create_proxy(tamper), {DELAY_MS})
js.setTimeout("self.tampered = (self.tampered || 0) + 1", {DELAY_MS})
js.setInterval(create_proxy(tamper), {DELAY_MS})

async def later():
    await asyncio.sleep({DELAY_MS / 1000})
    tamper()

task = asyncio.ensure_future(later())
print('scheduled')
"""
CALLS_BACK = TAMPER + """
channel = js.MessageChannel.new()
channel.port1.onmessage = tamper
channel.port2.postMessage(1)
js.queueMicrotask(create_proxy(tamper))
js.Promise.resolve(1).then(tamper)
js.fetch(js.location.href).then(tamper)

async def after_an_await():
    await js.Promise.resolve(1)
    await js.fetch(js.location.href)
    tamper()

task = asyncio.ensure_future(after_an_await())
print('scheduled')
"""
CHECK = "from engine import Graph, MakeValue, VTanh\ng = Graph()\nVTanh(g, MakeValue(g, 0.5))\n"


def python_worker(page):
    return next(w for w in page.workers if w.evaluate("self.name") == "python")


@pytest.mark.parametrize("code", [SCHEDULE, CALLS_BACK], ids=["timers and tasks", "callbacks"])
def test_what_a_run_schedules_never_calls_back_after_it(playground, code):
    errors = []
    playground.page.on("pageerror", lambda error: errors.append(error))
    assert playground.run(code) == "done"
    assert playground.output.strip() == "scheduled"
    playground.page.wait_for_timeout(WAIT_MS)
    assert python_worker(playground.page).evaluate("self.tampered ?? null") is None
    assert playground.run(CHECK) == "done"
    assert float(playground.full_values("data")[1]) == math.tanh(0.5)
    assert "ended run" not in playground.output
    assert errors == []
