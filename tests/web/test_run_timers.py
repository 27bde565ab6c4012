"""Timers and tasks end with their run: what one run schedules (a JS timer, an interval,
an asyncio task that sleeps) never calls back after it, so it cannot change a later run,
another playground's, or print into it."""

from __future__ import annotations

import math

# The callback's delay, and how long the test waits past the run's end: by then a timer
# of an ended run would have fired, had it not been cleared.
DELAY_MS = 200
WAIT_MS = 1500
SCHEDULE = f"""import asyncio, math
import js
from pyodide.ffi import create_proxy

def tamper(*_):
    math.tanh = lambda x: 42.0
    js.self.tampered = (js.self.tampered or 0) + 1
    print('a callback of an ended run')

js.setTimeout(create_proxy(tamper), {DELAY_MS})
js.setTimeout("self.tampered = (self.tampered || 0) + 1", {DELAY_MS})
js.setInterval(create_proxy(tamper), {DELAY_MS})

async def later():
    await asyncio.sleep({DELAY_MS / 1000})
    tamper()

task = asyncio.ensure_future(later())
print('scheduled')
"""
CHECK = "from engine import Graph, MakeValue, VTanh\ng = Graph()\nVTanh(g, MakeValue(g, 0.5))\n"


def python_worker(page):
    return next(w for w in page.workers if w.evaluate("self.name") == "python")


def test_what_a_run_schedules_never_calls_back_after_it(playground):
    assert playground.run(SCHEDULE) == "done"
    assert playground.output.strip() == "scheduled"
    playground.page.wait_for_timeout(WAIT_MS)
    assert python_worker(playground.page).evaluate("self.tampered ?? null") is None
    assert playground.run(CHECK) == "done"
    assert float(playground.full_values("data")[1]) == math.tanh(0.5)
    assert "ended run" not in playground.output

