"""How long the whole suite takes on a fresh clone, quiet and with the cores kept busy.

    python bench/suite.py [--busy N] [--runs R]

Each run clones the repository's committed HEAD into a temporary folder and
runs `bash .ci/run` there, as CI does (no .venv, node_modules or dist/ to
start from; pip's and npm's download caches are the machine's). With
`--busy N`, N processes spin (`while True: pass`) for the whole of each run,
as other work on a laptop would. Prints each run's verdict and minutes; the
exit code is non-zero if any run failed.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPIN = "while True: pass"


def run_suite(busy: int) -> tuple[bool, float]:
    """One run of .ci/run on a fresh clone, with `busy` spinning processes beside it."""
    spinners = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(busy)]
    try:
        with tempfile.TemporaryDirectory(prefix="suite-") as folder:
            clone = Path(folder) / "clone"
            subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
            log = Path(folder).with_suffix(".log")
            start = time.monotonic()
            with log.open("w", encoding="utf-8") as out:
                code = subprocess.call(["bash", ".ci/run"], cwd=clone, stdout=out, stderr=out)
            minutes = (time.monotonic() - start) / 60
            tail = log.read_text(encoding="utf-8").strip().splitlines()[-1:]
            print(f"  {'passed' if code == 0 else 'FAILED'} in {minutes:.1f} min: "
                  f"{tail[0] if tail else ''}  (log: {log})", flush=True)
            return code == 0, minutes
    finally:
        for spinner in spinners:
            spinner.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--busy", type=int, default=0, help="spinning processes beside it")
    parser.add_argument("--runs", type=int, default=1, help="runs in a row")
    args = parser.parse_args()
    print(f"{args.runs} run(s) of .ci/run on a fresh clone, {args.busy} busy process(es):")
    results = [run_suite(args.busy) for _ in range(args.runs)]
    minutes = [m for _, m in results]
    print(f"{sum(ok for ok, _ in results)}/{len(results)} passed; "
          f"{min(minutes):.1f}–{max(minutes):.1f} min")
    sys.exit(0 if all(ok for ok, _ in results) else 1)


if __name__ == "__main__":
    main()
