"""What it costs the runner to make a run's result of a 1,000-node graph (bench/live.py's
chain), once the code has ended: the engine Graph's columns, its table whole, made
afresh and with its shape taken from the last run's (tables.Shapes), and the table's
JSON, its numbers packed as the worker sends them (playground_runner/packed.py) and
written as JSON floats; in CPython and in Pyodide in Chromium, each the mean of REPEATS
calls, after one call unmeasured.

    python bench/result.py      (after `python build.py`; uses .venv's Playwright)

The timing code runs as a learner's code would, through the runner itself (as
bench/fresh.py's does), in the playground's own worker in the page.
"""

from __future__ import annotations

from browser import served_browser
from fresh import in_cpython, in_page, ready_page, report
from live import CHAIN

REPEATS = 100
TIMING = f"""
import json, sys, time
from engine.inspect import columns

frame = sys._getframe()
while type(frame.f_locals.get("self")).__name__ != "Runner":  # Runner.run, above the code
    frame = frame.f_back
hidden = frame.f_globals["guard"].hidden
tables, packed = hidden["playground_runner.tables"], hidden["playground_runner.packed"]
table, _ = tables.table("g", g)
shapes = tables.Shapes()  # the last run's shapes, as a live step finds them
tables.table("g", g, shapes)
shapes.next_run()


def per_call(call):
    call()
    started = time.perf_counter()
    for _ in range({REPEATS}):
        call()
    return (time.perf_counter() - started) / {REPEATS} * 1e6


as_sent = json.dumps(packed.packed_table(table), allow_nan=False)
as_floats = json.dumps(table, allow_nan=False)
print(json.dumps({{
    "engine.inspect.columns of the graph": per_call(lambda: columns(g)),
    "its table whole (tables.table)": per_call(lambda: tables.table("g", g)),
    "its table, its shape the last run's (a live step's)":
        per_call(lambda: tables.table("g", g, shapes)),
    f"the table's JSON, numbers packed ({{len(as_sent):,}} characters)":
        per_call(lambda: json.dumps(packed.packed_table(table), allow_nan=False)),
    f"the table's JSON, numbers as JSON floats ({{len(as_floats):,}} characters)":
        per_call(lambda: json.dumps(table, allow_nan=False)),
}}))
"""
CODE = CHAIN + TIMING


def in_pyodide() -> dict[str, float]:
    with served_browser() as (browser, url):
        return in_page(ready_page(browser, url), CODE)


def main() -> None:
    report(in_cpython(CODE), in_pyodide())


if __name__ == "__main__":
    main()
