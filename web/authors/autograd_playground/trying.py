"""`python -m autograd_playground try PAGE...`: each exercise of a page's source (.md,
.rst or .html, as sources.py reads them) run in this Python, no browser: its checks
against its solution, which must pass them, and against its starter code, which must
not (it is the learner's to finish). The runs are the page's own: the runner package
and the engine wheel that the site carries, as the page's Python worker runs them.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path
from typing import Any

from .element import OptionError
from .parts import PartError
from .site import site
from .sources import READERS, Authored, SourceError, exercises

EXIT_WRONG = 1
EXIT_NOTHING_TO_TRY = 2


# The site's playground_runner.Runner: imported from the site at run time, not here.
Runner = Any


def runner() -> Runner:
    """The site's runner, importing the site's engine: the one Runner it holds (take())."""
    folder = site()
    manifest = json.loads((folder / "site.json").read_text(encoding="utf-8"))
    for path in (folder, folder / manifest["engine"]):  # the engine's wheel is importable
        if str(path) not in sys.path:
            sys.path.insert(0, str(path))
    return importlib.import_module(manifest["runner"]["module"]).take()


def verdict(run: Runner, code: str, checks: list[str]) -> tuple[bool, str]:
    """Whether `code` passes `checks`, and why not, as the page would say it."""
    result = json.loads(run.run(code, lambda output: None, checks))
    run.tidy()  # as the worker has it done after each run
    if result["status"] == "error":
        lines = [line for line in (result["error"] or "").splitlines() if line.strip()]
        where = f" (line {result['line']})" if result["line"] else ""
        return False, f"it ends with an error{where}: {lines[-1].strip() if lines else ''}"
    if result["check"] is None:
        return False, f"it was {result['status']}, so not checked"
    if result["check"]["passed"]:
        return True, "it passes every check"
    # A message's lines after its first (a graph's code) go under it.
    return False, "; ".join(result["check"]["messages"]).replace("\n", "\n    ")


def try_exercise(run: Runner, exercise: Authored) -> tuple[bool, list[str]]:
    """Whether the exercise is right, and what each of its runs said."""
    said, right = [], True
    if exercise.solution is None:
        said.append("  solution: none to run")
    else:
        passed, why = verdict(run, exercise.solution, exercise.checks)
        right &= passed
        said.append(f"  solution: {'passes' if passed else 'FAILS'}: {why}")
    passed, why = verdict(run, exercise.code, exercise.checks)
    right &= not passed
    said.append("  starter code: PASSES every check, so it leaves the learner nothing to do"
                if passed else f"  starter code: does not pass, as it should not: {why}")
    return right, said


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m autograd_playground try",
        description="Run each exercise of pages' sources in this Python: its checks against "
                    "its solution (which must pass) and its starter code (which must not).")
    parser.add_argument("pages", nargs="+", type=Path, metavar="PAGE",
                        help="a page's source: " + ", ".join(READERS))
    args = parser.parse_args(argv)
    found = []
    for page in args.pages:
        reader = READERS.get(page.suffix.lower())
        if reader is None:
            return stop(f"{page}: not a page's source (one of {', '.join(READERS)})")
        try:
            text = page.read_text(encoding="utf-8")
            found += [(page, number, one) for number, one in exercises(reader(text))]
        except OSError as error:
            return stop(f"{page}: {error.strerror}")
        except SourceError as error:
            return stop(f"{page}:{error.line}: {error}")
        except (PartError, OptionError) as error:
            return stop(f"{page}: playground: {error}")
    if not found:
        return stop("no exercise (a playground with checks) in " +
                    ", ".join(map(str, args.pages)))
    run, wrong = runner(), 0
    for page, number, exercise in found:
        name = f" ({exercise.attributes['id']})" if exercise.attributes.get("id") else ""
        right, said = try_exercise(run, exercise)
        wrong += not right
        print(f"{'ok  ' if right else 'FAIL'} {page}:{exercise.line}: exercise {number}{name}")
        print("\n".join(said), flush=True)
    print(f"{len(found)} exercise{'' if len(found) == 1 else 's'}, "
          + (f"{wrong} wrong" if wrong else "all right"))
    return EXIT_WRONG if wrong else 0


def stop(why: str) -> int:
    print(f"autograd_playground try: {why}", file=sys.stderr)
    return EXIT_NOTHING_TO_TRY
