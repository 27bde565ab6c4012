"""How long a run's flood of output, or of graphs, holds the page's main thread.

    python bench/flood.py [--runs N] [--only TEXT] [--no-isolation]
                                        (after `python build.py`; uses .venv's Playwright)

For each program below, run N times in a fresh page each, after a first run that prints
one line (so that starting the page and its editor is over): the page's longest task from
Run to the run's end (Chromium's PerformanceObserver 'longtask', which reports tasks of
50 ms and more: "none" means every task was shorter), and the time from Run to the run's
end, output drawn. Medians over the runs, and the worst. Target: no task of 50 ms or more.
The first program is that one line again: what the page costs a run, flood or not.
With --no-isolation the site is served without the cross-origin isolation headers: the
worker's messages then come over its port, each a task of the page's, where an isolated
page takes them from shared memory.
The tests check what bounds it (tests/web/test_limits.py: output drawn a bounded piece a
frame, a bounded number of elements, tables capped; tests/web/test_plots_pace.py: a
chart's series thinned past their cap, and a bounded number of points drawn); a machine's
speed sets the rest.
"""

from __future__ import annotations

import argparse
import statistics

from browser import TIMEOUT_MS, served_browser, wait_for_state

FIRST = "print('ready')\n"
PROGRAMS = {
    "one line printed": FIRST,
    "20,000 lines printed (10,000 shown)": "for i in range(20_000):\n    print(i)\n",
    "one line of 250 kB": "print('x' * 250_000)\n",
    "stdout and stderr in turn, 50,000 times each": (
        "import sys\nfor _ in range(50_000):\n"
        "    sys.stdout.write('a')\n    sys.stderr.write('b')\n"),
    "a million empty batches sent by the code": (
        "import sys\nsend = sys.stdout.output.send\nfor _ in range(1_000_000):\n    send('[]')\n"),
    "a million empty batches posted past the runner": (
        "import sys\npost = sys.stdout.output._post\nfor _ in range(1_000_000):\n"
        "    post('[]')\n"),
    "100,000 one-character batches posted past it": (
        "import sys\npost = sys.stdout.output._post\nfor _ in range(100_000):\n"
        "    post('[[\"stdout\", \"x\"]]')\n"),
    "250,000 lines sent by the code (refused)": (
        "import sys, json\nsys.stdout.output.send(json.dumps([['stdout', '\\n' * 250_000]]))\n"),
    "12 series of 20,000 points, no x shared, one chart": (
        "for i in range(20_000):\n    for k in range(12):\n"
        "        plot(f's{k}', (i * k) % 7, x=i + k / 12, chart='all')\n"),
    "a million graphs in the globals (100 shown)": (
        "class G:\n    nodes = []\nglobals().update({f'g{i}': G() for i in range(1_000_000)})\n"),
}

# Before the page's scripts: note every long task.
OBSERVE_LONG_TASKS = """
window.longTasks = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.longTasks.push([entry.startTime, entry.duration]);
}).observe({ type: "longtask", buffered: true });
"""

# Run `code`: the longest task from Run to the run's end, output drawn (0: none of 50 ms
# or more), and the ms that took.
RUN = """async (code) => {
  const el = document.querySelector("autograd-playground");
  el.code = code;
  const start = performance.now();
  await el.run();
  await new Promise((done) => requestAnimationFrame(() => setTimeout(done)));
  const end = performance.now();
  const during = window.longTasks.filter(([at]) => at >= start && at <= end);
  return [Math.max(0, ...during.map(([, ms]) => ms)), end - start];
}"""


def ms_or_none(ms: float) -> str:
    return f"{ms:.0f} ms" if ms else "none"


def measure(browser, site: str, code: str) -> tuple[float, float]:
    context = browser.new_context()
    try:
        context.set_default_timeout(TIMEOUT_MS)
        context.add_init_script(OBSERVE_LONG_TASKS)
        page = context.new_page()
        page.goto(site)
        wait_for_state(page, "ready")
        page.evaluate(RUN, FIRST)
        longest, ms = page.evaluate(RUN, code)
        return longest, ms
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="fresh pages per program")
    parser.add_argument("--only", default="", help="only the programs whose name has this")
    parser.add_argument("--no-isolation", action="store_true",
                        help="serve without the cross-origin isolation headers")
    args = parser.parse_args()
    with served_browser(isolation=not args.no_isolation) as (browser, site):
        print(f"{'program':<48} {'longest task (median, worst)':>30} {'run (median)':>14}")
        for name, code in PROGRAMS.items():
            if args.only not in name:
                continue
            results = [measure(browser, site, code) for _ in range(args.runs)]
            longest = [task for task, _ in results]
            tasks = ", ".join(map(ms_or_none, [statistics.median(longest), max(longest)]))
            run = statistics.median(ms for _, ms in results)
            print(f"{name:<48} {tasks:>30} {run:>11.0f} ms", flush=True)


if __name__ == "__main__":
    main()
