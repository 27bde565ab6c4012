"""The runner driven in CPython, as the worker drives it in Pyodide."""

from __future__ import annotations

import json

import playground_runner

RUNNER = playground_runner.take()  # as the worker holds it

# A config object whose __getattr__ raises KeyError, not AttributeError: plain
# Python that once passed for a graph and crashed the run.
CONFIG_OBJECT = (
    "class Cfg:\n"
    "    def __init__(self): self.d = {'lr': 0.1}\n"
    "    def __getattr__(self, k): return self.d[k]\n"
    "cfg = Cfg()\n"
    "print(cfg.lr)\n"
)

# A learner's own graph class (not the engine's), whose op names an operand that is not
# a node of the graph.
STRAY_OPERAND = (
    "class Value:\n"
    "    def __init__(self, op):\n"
    "        self.data, self.grad, self.op = 1.0, 0.0, op\n"
    "class Mine:\n"
    "    nodes = [Value(None), Value(('Add', 0, 99))]\n"
    "mine = Mine()\n"
)

# A learner's own node and graph classes (not the engine's), which can hold anything:
# `Mine(Node('one'), Node(4.0, ('Mul', 0, 0)))`.
MINE = (
    "class Node:\n"
    "    def __init__(s, data, op=None): s.data, s.grad, s.op = data, 0.0, op\n"
    "class Mine:\n"
    "    def __init__(s, *nodes): s.nodes = list(nodes)\n"
)


def strict_json(text: str):
    """Parse JSON as the page's JSON.parse does: NaN and Infinity are not JSON."""

    def reject(constant: str):
        raise ValueError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=reject)


def run(code: str) -> tuple[dict, str]:
    """Run `code`: the result, and everything it printed (stdout and stderr) as one text."""
    result, output, _ = run_watched(code)
    return result, output


def run_watched(code: str, checks: tuple[str, ...] = ()) -> tuple[dict, str, list[str]]:
    """Run `code` and `checks`: the result, everything printed, and what the runner's
    guard reported the code reaching into, as the worker hears it."""
    batches: list[str] = []
    reports: list[str] = []
    result = strict_json(RUNNER.run(code, batches.append, checks, reports.append))
    RUNNER.tidy()  # as the worker has it done once the result is sent
    output = "".join(text for batch in batches for _, text in strict_json(batch))
    return result, output, reports
