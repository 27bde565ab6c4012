"""The runner driven in CPython, as the worker drives it in Pyodide."""

from __future__ import annotations

import json

import playground_runner

# A config object whose __getattr__ raises KeyError, not AttributeError: plain
# Python that once passed for a graph and crashed the run.
CONFIG_OBJECT = (
    "class Cfg:\n"
    "    def __init__(self): self.d = {'lr': 0.1}\n"
    "    def __getattr__(self, k): return self.d[k]\n"
    "cfg = Cfg()\n"
    "print(cfg.lr)\n"
)


def strict_json(text: str):
    """Parse JSON as the page's JSON.parse does: NaN and Infinity are not JSON."""

    def reject(constant: str):
        raise ValueError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=reject)


def run(code: str) -> tuple[dict, str]:
    """Run `code`: the result, and everything it printed (stdout and stderr) as one text."""
    batches: list[str] = []
    result = strict_json(playground_runner.run(code, batches.append))
    output = "".join(text for batch in batches for _, text in strict_json(batch))
    return result, output
