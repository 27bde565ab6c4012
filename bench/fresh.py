"""What it costs a run to start from a fresh Python: the runner's putting back of the
builtins, the engine's, its own and the standard library's modules (Pristine.restore),
of sys and the process (RunState), hiding its own modules while the code runs, and the
worker's look for changes to its JavaScript built-ins (realm.js) and to the file tree
(run-files.js); in CPython and in Pyodide in Chromium.

    python bench/fresh.py      (after `python build.py`; uses .venv's Playwright)

Each run pays for Pristine.restore twice (before and after the code), one RunState
(saved, then put back), one reseeding of random, one hiding of the runner's modules and
of Pyodide's object, one letting go of what the code left (a collection among it), one
realm check and one look at the file tree. The timing code runs as a learner's
code would, through the runner itself (it finds the runner through a frame, so the
page's next run starts in a fresh Python); in the page, in the playground's own worker.
The realm check runs in a module worker of its own, which has the same built-ins as the
Python worker but Pyodide's; so does the file tree's, on a tree of the shape of
Pyodide's.
"""

from __future__ import annotations

import json
import sys

from browser import ROOT, TIMEOUT_MS, served_browser, wait_for_state

TIMING = """
import builtins, engine, sys, time

frame = sys._getframe()
while type(frame.f_locals.get("self")).__name__ != "Runner":  # Runner.run, above the code
    frame = frame.f_back
runner = frame.f_locals["self"]
pristine, standard, guard = runner.pristine, runner.standard, frame.f_globals["guard"]
RunState, repeats = frame.f_globals["RunState"], 200
let_go = frame.f_globals["_let_go"]
reseed = guard.hidden["playground_runner.library"].reseed


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


def registered_then_restored():
    from collections.abc import Sequence
    Sequence.register(type("Mine", (), {}))
    standard.registrations.restore()


def hidden_and_shown():
    guard.unhide_runner()
    guard.hide_runner()


def api_put_back_and_hidden():
    runner.api.put_back()
    runner.api.hide()


timings = {
    "Pristine.restore, nothing changed": per_run(pristine.restore),
    "Pristine.restore, builtins and engine patched": per_run(patched_then_restored),
    "StandardLibrary.restore, nothing changed (after the result)": per_run(standard.restore),
    "RunState saved and put back": per_run(saved_and_put_back),
    "random's generator seeded afresh": per_run(reseed),
    "the ABCs' registrations put back, after a registration": per_run(registered_then_restored),
    "the runner's modules hidden and shown": per_run(hidden_and_shown),
    "Pyodide's object put back and hidden": per_run(api_put_back_and_hidden),
    "what a run left let go of (its tasks, its namespace, a collection)":
        per_run(lambda: let_go({}, set(), None)),
}
print(json.dumps(timings))
"""
CODE = "import json\n" + TIMING


def in_cpython(code: str) -> dict[str, float]:
    """What `code` prints as JSON, run by the runner in CPython."""
    sys.path[:0] = [str(ROOT), str(ROOT / "web")]  # the engine package, not bench/engine.py
    import playground_runner

    batches: list[str] = []
    runner = playground_runner.take()
    result = json.loads(runner.run(code, batches.append))
    runner.tidy()
    assert result["status"] == "done", result["error"]
    return json.loads("".join(text for batch in batches for _, text in json.loads(batch)))


def in_page(page, code: str) -> dict[str, float]:
    """What `code` prints as JSON, run by the playground of `page`, ready."""
    result, output = page.evaluate(
        """async (code) => {
          const el = document.querySelector("autograd-playground");
          el.code = code;
          const result = await el.run();
          return [result, el.shadowRoot.querySelector(".output").textContent];
        }""",
        code,
    )
    assert result["status"] == "done", result["error"]
    return json.loads(output)


def ready_page(browser, url: str):
    page = browser.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(url)
    wait_for_state(page, "ready")
    return page


def in_pyodide() -> dict[str, float]:
    with served_browser() as (browser, url):
        page = ready_page(browser, url)
        return {**in_page(page, CODE),
                "realm.js: the worker's built-ins checked": worker_check(page, "realm.js",
                                                                          REALM_CHECK),
                "run-files.js: the file tree noted, then checked": worker_check(
                    page, "run-files.js", FILES_CHECK)}


REALM_CHECK = """
  import { realmChange, watchRealm } from "MODULE_URL";
  watchRealm();
  const started = performance.now();
  for (let i = 0; i < 200; i++) realmChange();
  postMessage((performance.now() - started) / 200 * 1000);"""
FILES_CHECK = """
  import { filesNow, restoreFiles, watchFiles } from "MODULE_URL";
  // A tree of 61 nodes, as Pyodide's has about 60: six folders of nine files.
  const folder = () => ({ mode: 0o40755, ctime: 1, contents: {} });
  const root = folder();
  for (let d = 0; d < 6; d++) {
    const sub = (root.contents[`d${d}`] = folder());
    for (let f = 0; f < 9; f++) sub.contents[`f${f}`] = { mode: 0o100644, ctime: 1 };
  }
  watchFiles({ root, unlink() {}, rmdir() {} });
  const started = performance.now();
  for (let i = 0; i < 200; i++) restoreFiles(filesNow());
  postMessage((performance.now() - started) / 200 * 1000);"""
IN_A_WORKER = """async (source) => {
  const worker = new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })),
                            { type: "module" });
  return new Promise((resolve) => (worker.onmessage = ({ data }) => resolve(data)));
}"""


def worker_check(page, module: str, source: str) -> float:
    """Microseconds that `source` measures in a module worker, importing `module`
    (served from web/worker/)."""
    text = (ROOT / "web" / "worker" / module).read_text(encoding="utf-8")
    url = page.url.split("#")[0].rsplit("/", 1)[0] + f"/bench-{module}"
    script = {"body": text, "content_type": "text/javascript"}
    page.context.route(url, lambda route: route.fulfill(**script))
    return page.evaluate(IN_A_WORKER, source.replace("MODULE_URL", url))


def report(cpython: dict[str, float], pyodide: dict[str, float]) -> None:
    """Print each step's microseconds, in CPython and in Pyodide in Chromium."""
    for where, timings in (("CPython", cpython), ("Pyodide in Chromium", pyodide)):
        print(f"{where}:")
        for step, microseconds in timings.items():
            print(f"  {step}: {microseconds:,.0f} µs")


def main() -> None:
    report(in_cpython(CODE), in_pyodide())


if __name__ == "__main__":
    main()
