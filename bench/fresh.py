"""What it costs a run to start from a fresh Python: the runner's putting back of the
builtins, the engine's and its own modules (Pristine.restore) and of sys and the
process (RunState), in CPython and in Pyodide in Chromium.

    python bench/fresh.py      (after `python build.py`; uses .venv's Playwright)

Each run pays for Pristine.restore twice (before and after the code) and one RunState
(saved, then put back). The timing code runs as a learner's code would, through the
runner itself; in the page, in the playground's own worker.
"""

from __future__ import annotations

import json
import sys

from browser import ROOT, TIMEOUT_MS, served_browser, wait_for_state

TIMING = """
import builtins, engine, time
import playground_runner
from playground_runner.fresh import RunState

pristine, repeats = playground_runner.pristine, 200


def per_run(step):
    started = time.perf_counter()
    for _ in range(repeats):
        step()
    return (time.perf_counter() - started) / repeats * 1e6


def patched_then_restored():
    builtins.print, engine.VMul, engine.Graph.extra = None, engine.VAdd, 1
    pristine.restore()


def saved_and_put_back():
    RunState().restore()


timings = {
    "Pristine.restore, nothing changed": per_run(pristine.restore),
    "Pristine.restore, builtins and engine patched": per_run(patched_then_restored),
    "RunState saved and put back": per_run(saved_and_put_back),
}
print(json.dumps(timings))
"""
CODE = "import json\n" + TIMING


def in_cpython() -> dict[str, float]:
    sys.path[:0] = [str(ROOT), str(ROOT / "web")]  # the engine package, not bench/engine.py
    import playground_runner

    batches: list[str] = []
    result = json.loads(playground_runner.run(CODE, batches.append))
    assert result["status"] == "done", result["error"]
    return json.loads("".join(text for batch in batches for _, text in json.loads(batch)))


def in_pyodide() -> dict[str, float]:
    with served_browser() as (browser, url):
        page = browser.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(url)
        wait_for_state(page, "ready")
        result, output = page.evaluate(
            """async (code) => {
              const el = document.querySelector("autograd-playground");
              el.code = code;
              const result = await el.run();
              return [result, el.shadowRoot.querySelector(".output").textContent];
            }""",
            CODE,
        )
        assert result["status"] == "done", result["error"]
        return json.loads(output)


def main() -> None:
    for where, timings in (("CPython", in_cpython()), ("Pyodide in Chromium", in_pyodide())):
        print(f"{where}:")
        for step, microseconds in timings.items():
            print(f"  {step}: {microseconds:,.0f} µs")


if __name__ == "__main__":
    main()
