"""What watching training costs: the moons MLP (2-16-16-1, 100 points, 100 SGD steps) run
in the page, with its loss plotted every step and its decision regions every 10th, against
the same loop without plotting.

    python bench/train.py [--runs N] [--against DIR]    (after `python build.py`)

Both programs run in one browser, taking turns (plotting, not plotting, then the other
way round), each run in a fresh page, after a first run that plots one point (so that
starting the page, its editor and the charts' chunk is over). Before Run, the page is
let settle as a learner's has by the time they press it (a second, then until the page
is idle): CodeMirror parses the code just put in the editor in idle time, which would
otherwise land in the run's first frames. For each run: the run's time in Python (the
runner's `ms`), the time from Run to the run's end with its charts drawn, the time the
page's main thread spent on tasks meanwhile (Chromium's TaskDuration), and its longest
task (Chromium's 'longtask' entries, which are of 50 ms or more: "none" means every task
was shorter). Medians over the runs, and the worst longest task; then what plotting
costs Python: the median over the turns of the plotting run's time against the same
turn's run without plotting; and the main thread's extra time for the charts, against
Python's time (the CPU they take from Python where every core is busy). Targets:
plotting costs at most 10%; no task of 50 ms or more while the charts stream.
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from browser import TIMEOUT_MS, load_build, served_browser, wait_for_state
from flood import OBSERVE_LONG_TASKS, ms_or_none

FIRST = "plot('warm-up', 1)\n"
TRAINING = """
import math, random
from engine import Backward, Graph, Handle, MakeValue
from engine.nn import MLP

def make_moons(n, noise, rng):
    points, labels = [], []
    for i in range(n):
        t = math.pi * rng.random()
        if i % 2:
            x, y, label = math.cos(t), math.sin(t), -1
        else:
            x, y, label = 1 - math.cos(t), 0.5 - math.sin(t), 1
        points.append((x + rng.gauss(0, noise), y + rng.gauss(0, noise)))
        labels.append(label)
    return points, labels

rng = random.Random(1)
points, labels = make_moons(100, 0.1, rng)
g = Graph()
model = MLP(g, 2, [16, 16, 1], rng=rng)
params = model.parameters()
n_params = len(g.nodes)
steps = 100
for step in range(steps):
    del g.nodes[n_params:]
    scores = [Handle(g, model([MakeValue(g, x), MakeValue(g, y)])[0]) for x, y in points]
    losses = [(1 - label * score).relu() for label, score in zip(labels, scores)]
    reg = sum(Handle(g, p) * Handle(g, p) for p in params)
    loss = sum(losses) * (1 / len(points)) + 1e-4 * reg
    Backward(g, loss.index)
    lr = 1.0 - 0.9 * step / steps
    for p in params:
        g.nodes[p].data -= lr * g.nodes[p].grad
    PLOT_LOSS
    if step % 10 == 0 or step == steps - 1:
        PLOT_BOUNDARY
"""
PROGRAMS = {
    "plotting (loss every step, boundary every 10)": TRAINING
        .replace("PLOT_LOSS", "plot('loss', loss.data)")
        .replace("PLOT_BOUNDARY",
                 "boundary(model, points, labels)"),
    "not plotting": TRAINING.replace("PLOT_LOSS", "pass").replace("PLOT_BOUNDARY", "pass"),
}

# Let the page settle: a second, as a learner takes at least before pressing Run, then
# until two idle periods in a row are (nearly) whole, which they are not while the editor
# parses in idle time; at most SETTLE_MS in all.
SETTLE = """() => new Promise((done) => {
  const until = performance.now() + %d;
  let quiet = 0;
  const idle = (deadline) => {
    quiet = deadline.timeRemaining() >= 40 ? quiet + 1 : 0;
    if (quiet === 2 || performance.now() > until) done();
    else requestIdleCallback(idle);
  };
  setTimeout(() => requestIdleCallback(idle), 1000);
})"""
SETTLE_MS = 5_000

# Put `code` in the editor and let the page settle.
PREPARE = """async (code) => {
  document.querySelector("autograd-playground").code = code;
  await (SETTLE)();
}""".replace("SETTLE", SETTLE % SETTLE_MS)

# Run the code in the editor: the runner's ms, the ms from Run to the run's end with its
# charts drawn, the longest task while the charts streamed (from Run to the last batch but
# one: the last comes with the run's end, whose result the page then shows, tables and
# all), and the longest task from Run to the end (0: none of 50 ms or more).
RUN = """async () => {
  const el = document.querySelector("autograd-playground");
  const batches = [];
  const add = el.plots.add;
  el.plots.add = (batch) => (batches.push(performance.now()), add.call(el.plots, batch));
  const start = performance.now();
  const result = await el.run();
  await new Promise((done) => requestAnimationFrame(() => setTimeout(done)));
  const end = performance.now();
  el.plots.add = add;
  const longest = (to) => Math.max(0, ...window.longTasks
    .filter(([at]) => at >= start && at <= to).map(([, ms]) => ms));
  return [result.ms, end - start, longest(batches.at(-2) ?? start), longest(end)];
}"""


def main_thread_ms(cdp) -> float:
    """How long the page's main thread has run tasks so far (Chromium's TaskDuration)."""
    metrics = cdp.send("Performance.getMetrics")["metrics"]
    return next(m["value"] for m in metrics if m["name"] == "TaskDuration") * 1000


def measure(browser, site: str, code: str) -> tuple[float, ...]:
    """RUN's figures for `code` in a fresh page, and the main thread's time in the run."""
    context = browser.new_context()
    try:
        context.set_default_timeout(TIMEOUT_MS)
        context.add_init_script(OBSERVE_LONG_TASKS)
        page = context.new_page()
        page.goto(site)
        wait_for_state(page, "ready")
        page.evaluate(PREPARE, FIRST)
        page.evaluate(RUN)
        page.evaluate(PREPARE, code)
        cdp = context.new_cdp_session(page)
        cdp.send("Performance.enable")
        before = main_thread_ms(cdp)
        figures = page.evaluate(RUN)
        return (*figures, main_thread_ms(cdp) - before)
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=4, help="fresh pages per program")
    parser.add_argument("--against", type=Path, help="another build's dist/, measured in turns")
    args = parser.parse_args()
    plotting, quiet = PROGRAMS
    with served_browser() as (browser, site):
        builds = {"this build": site}
        if args.against:
            server, builds[str(args.against)] = load_build().start_in_background(args.against)
        results = {build: {plotting: [], quiet: []} for build in builds}
        for turn in range(args.runs):
            order = 1 if turn % 2 == 0 else -1
            for build in list(builds)[::order]:
                for name in (plotting, quiet)[::order]:
                    results[build][name].append(measure(browser, builds[build], PROGRAMS[name]))
        if args.against:
            server.shutdown()
    for build, programs in results.items():
        if args.against:
            print(f"{build}:")
        report(programs[plotting], programs[quiet])


def report(plotting: list[tuple[float, ...]], quiet: list[tuple[float, ...]]) -> None:
    """Each program's medians, then what plotting costs, turn by turn."""
    print(f"{'program':<48} {'Python':>9} {'Run to drawn':>13} {'main thread':>12} "
          f"{'longest task streaming':>24} {'to the end':>12}   (medians; worst)")
    for name, runs in zip(PROGRAMS, (plotting, quiet), strict=True):
        columns = list(zip(*runs, strict=True))
        python, wall, streaming, whole, main_thread = (statistics.median(c) for c in columns)
        tasks = [f"{ms_or_none(median)} ({ms_or_none(max(c))})"
                 for median, c in [(streaming, columns[2]), (whole, columns[3])]]
        print(f"{name:<48} {python:>6.0f} ms {wall:>10.0f} ms {main_thread:>9.0f} ms "
              f"{tasks[0]:>24} {tasks[1]:>12}")
    # Each plotting run against the run without plotting of its turn, just before or after.
    costs = [plot[0] / alone[0] - 1 for plot, alone in zip(plotting, quiet, strict=True)]
    print(f"plotting costs Python {statistics.median(costs):+.0%} "
          f"(per turn: {', '.join(f'{c:+.0%}' for c in costs)})", flush=True)
    # The page's own work for the charts, which on a machine whose cores are all busy
    # takes CPU time from Python: the main thread's extra time, against Python's.
    extra = [(plot[4] - alone[4]) / plot[0] for plot, alone in zip(plotting, quiet, strict=True)]
    print(f"drawing the charts takes the page's main thread {statistics.median(extra):.1%} "
          f"of Python's time (per turn: {', '.join(f'{e:.1%}' for e in extra)})", flush=True)


if __name__ == "__main__":
    main()
