"""What it costs a run to start from a fresh Python: the runner's putting back of the
builtins, the engine's, its own and the standard library's modules (Pristine.restore),
of sys and the process (RunState), hiding its own modules while the code runs, and the
worker's look for changes to its JavaScript built-ins (realm.js); in CPython and in
Pyodide in Chromium.

    python bench/fresh.py      (after `python build.py`; uses .venv's Playwright)

Each run pays for Pristine.restore twice (before and after the code), one RunState
(saved, then put back), one hiding of the runner's modules, and one realm check. The
timing code runs as a learner's code would, through the runner itself (it finds the
Runner through its run's frame, so the page's next run starts in a fresh Python); in the page,
in the playground's own worker. The realm check runs in a module worker of its own,
which has the same built-ins as the Python worker but Pyodide's.
"""

from __future__ import annotations

import json
import sys

from browser import ROOT, TIMEOUT_MS, served_browser, wait_for_state

TIMING = """
import builtins, engine, sys, time

frame = sys._getframe()
while "pristine" not in frame.f_locals:  # Runner.run's frame, above the code's
    frame = frame.f_back
runner = frame.f_globals
pristine, standard = frame.f_locals["pristine"], frame.f_locals["self"].standard
guard, RunState, repeats = runner["guard"], runner["RunState"], 200


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


def hidden_and_shown():
    guard.unhide_runner()
    guard.hide_runner()


timings = {
    "Pristine.restore, nothing changed": per_run(pristine.restore),
    "Pristine.restore, builtins and engine patched": per_run(patched_then_restored),
    "StandardLibrary.restore, nothing changed (after the result)": per_run(standard.restore),
    "RunState saved and put back": per_run(saved_and_put_back),
    "the runner's modules hidden and shown": per_run(hidden_and_shown),
}
print(json.dumps(timings))
"""
CODE = "import json\n" + TIMING


def in_cpython() -> dict[str, float]:
    sys.path[:0] = [str(ROOT), str(ROOT / "web")]  # the engine package, not bench/engine.py
    import playground_runner

    batches: list[str] = []
    runner = playground_runner.take()
    result = json.loads(runner.run(CODE, batches.append))
    runner.tidy()
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
        realm = realm_check(page)
        return {**json.loads(output), "realm.js: the worker's built-ins checked": realm}


REALM_CHECK = """async (url) => {
  const source = `import { realmChange, watchRealm } from "${url}";
    watchRealm();
    const started = performance.now();
    for (let i = 0; i < 200; i++) realmChange();
    postMessage((performance.now() - started) / 200 * 1000);`;
  const worker = new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })),
                            { type: "module" });
  return new Promise((resolve) => (worker.onmessage = ({ data }) => resolve(data)));
}"""


def realm_check(page) -> float:
    """Microseconds a realm check takes in a module worker (realm.js, served from web/worker/)."""
    realm = (ROOT / "web" / "worker" / "realm.js").read_text(encoding="utf-8")
    url = page.url.split("#")[0].rsplit("/", 1)[0] + "/bench-realm.js"
    script = {"body": realm, "content_type": "text/javascript"}
    page.context.route(url, lambda route: route.fulfill(**script))
    return page.evaluate(REALM_CHECK, url)


def main() -> None:
    for where, timings in (("CPython", in_cpython()), ("Pyodide in Chromium", in_pyodide())):
        print(f"{where}:")
        for step, microseconds in timings.items():
            print(f"  {step}: {microseconds:,.0f} µs")


if __name__ == "__main__":
    main()
