"""Results computed when a page is built: a playground's code run in this machine's
CPython with the runner the page runs it with in Pyodide (the site's playground_runner/
and engine wheel, as its site.json names them), so that the page can show them before
Python has downloaded, and with scripts off.

Each run has a process of its own (bake_run.py): fresh globals and a fresh Python, as
in the page, and a time limit that holds whatever the code does, a loop included. Only
the standard library and the site's own files are needed: no Node.js, no browser.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

# How long a playground's code may run at build time when it has no `timeout` of its own.
TIMEOUT_S = 60.0
CHILD = Path(__file__).with_name("bake_run.py")


class BakeError(Exception):
    """The code failed at build time: an error (on the learner's `line`, from 1, when it
    has one), or it ran past its time limit."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


@dataclass
class Baked:
    """What a run showed: its output (stdout and stderr, in order, as the page's output
    box shows them) and the runner's tables."""

    output: str
    tables: list[dict]


def timeout_of(attributes: dict[str, str | None]) -> float:
    """The playground's own `timeout` attribute, else TIMEOUT_S."""
    try:
        return float(attributes.get("timeout") or TIMEOUT_S)
    except ValueError:
        return TIMEOUT_S


def bake(code: str, site: Path, timeout_s: float = TIMEOUT_S) -> Baked:
    """Run `code` as the page at `site` (a built site's folder) would; raise BakeError
    when it ends in an error or runs past `timeout_s`."""
    with tempfile.TemporaryDirectory() as folder:
        answer = Path(folder) / "result.json"
        try:
            done = subprocess.run(
                [sys.executable, "-I", "-B", CHILD, site, answer], input=code, encoding="utf-8",
                capture_output=True, timeout=timeout_s)
        except subprocess.TimeoutExpired:
            raise BakeError(f"it ran past its time limit of {timeout_s:g} s") from None
        if done.returncode != 0 or not answer.exists():
            raise BakeError(f"Python ended with status {done.returncode} before the code's "
                            f"result: {last_line(done.stderr) or 'no message'}")
        ran = json.loads(answer.read_text(encoding="utf-8"))
    result = ran["result"]
    if result["status"] != "done":
        raise BakeError(last_line(result["error"]) or result["status"], result["line"])
    return Baked(ran["output"], result["tables"])


def last_line(text: str | None) -> str:
    lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
    return lines[-1] if lines else ""
