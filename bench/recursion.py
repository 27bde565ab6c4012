"""How deep Python can recurse in Pyodide in a Chromium worker before the wasm stack runs out.

    python bench/recursion.py      (after `python build.py`; uses .venv's Playwright)

For each kind of recursion, a binary search over `sys.setrecursionlimit(n)`: the
largest n at which endless recursion still ends as a clean RecursionError rather
than a fatal error of Pyodide. Each probe boots a bare Pyodide of its own in a module
worker (as the playground's worker is), since a fatal error leaves Pyodide unusable.
The runner caps the limit a learner can set well below the smallest of these
(playground_runner.fresh.MAX_RECURSION_LIMIT).
"""

from __future__ import annotations

import json

from browser import TIMEOUT_MS, served_browser

KINDS = {
    "Python calling Python": "def f(n):\n    return f(n + 1)\nf(0)",
    "through a builtin": "def f(_):\n    return max([0], key=f)\nf(0)",
    "through a dunder": (
        "class A:\n    def __getattr__(self, name):\n        return getattr(self, name)\nA().x"
    ),
}
LOW, HIGH = 100, 1_000_000

PROBE_WORKER = """
import { loadPyodide } from PYODIDE;
const pyodide = await loadPyodide({ indexURL: INDEX });
onmessage = ({ data }) => {
  try { postMessage(String(pyodide.runPython(data))); }
  catch (error) { postMessage(`fatal: ${String(error).slice(0, 200)}`); }
};
postMessage("ready");
"""

PROBE = """
import sys
sys.setrecursionlimit({limit})
outcome = "no RecursionError"
try:
{body}
except RecursionError:
    outcome = "RecursionError"
outcome
"""


def probe(page, site: str, code: str) -> str:
    """Run `code` in a fresh bare Pyodide in a module worker; what it answered."""
    return page.evaluate(
        """([source, code]) => new Promise((resolve) => {
          const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
          const worker = new Worker(url, { type: "module" });
          worker.onerror = (e) => { worker.terminate(); resolve(`fatal: ${e.message}`); };
          worker.onmessage = ({ data }) => {
            if (data === "ready") return worker.postMessage(code);
            worker.terminate();
            resolve(data);
          };
        })""",
        [PROBE_WORKER.replace("PYODIDE", json.dumps(site + "pyodide/pyodide.mjs"))
         .replace("INDEX", json.dumps(site + "pyodide/")), code],
    )


def clean_at(page, site: str, body: str, limit: int) -> bool:
    indented = "\n".join("    " + line for line in body.splitlines())
    answer = probe(page, site, PROBE.format(limit=limit, body=indented))
    print(f"    {limit:>9,}: {answer}")
    return answer == "RecursionError"


def deepest_clean(page, site: str, body: str) -> int:
    """The largest limit in [LOW, HIGH] that still ends in RecursionError (to within 2%)."""
    if clean_at(page, site, body, HIGH):
        return HIGH
    low, high = LOW, HIGH
    while high - low > low // 50:
        middle = (low + high) // 2
        low, high = (middle, high) if clean_at(page, site, body, middle) else (low, middle)
    return low


def main() -> None:
    with served_browser() as (browser, url):
        page = browser.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(url + "bare.html")
        default = probe(page, url, "import sys\nsys.getrecursionlimit()")
        print(f"Pyodide's default limit: {int(default):,}")
        for kind, body in KINDS.items():
            print(f"{kind}:")
            print(f"  deepest clean limit: {deepest_clean(page, url, body):,}")


if __name__ == "__main__":
    main()
