"""The engine against micrograd 0.1.0, side by side in one run: prints ratios.

1. one training step of micrograd's moons demo network, MLP(2, [16, 16, 1]) on 100 points
   (forward, max-margin loss with L2, backward), median CPU time of interleaved repeats: with
   Python's cyclic garbage collector off for both (the cost per node), then on (as users
   run it: micrograd's closures make reference cycles the collector keeps chasing);
2. bytes per node of that step's graph (tracemalloc);
3. a 1,000,000-node chain: build and backward, in CPU seconds;
4. the training step again inside Pyodide under Node (this script, run there with
   `--step-only` by tests/pyodide/run.mjs, micrograd's pure wheel beside the engine's).

Run with micrograd installed and dist/ built (`python build.py bench` sets that up).
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from micrograd import engine as mg  # noqa: E402
from micrograd import nn as mgnn  # noqa: E402

from engine import Backward, Graph, Handle, MakeValue, VAdd, VMul  # noqa: E402
from engine.nn import MLP  # noqa: E402
from examples.moons import make_moons  # noqa: E402

POINTS = 100
ROUNDS = 3
STEPS_PER_ROUND = 3
CHAIN = 1_000_000
IN_PYODIDE = sys.platform == "emscripten"
TARGETS = {False: 3, True: 8 if IN_PYODIDE else 20}
"""How many times faster than micrograd the step is meant to be, collector off and on."""


class OurStep:
    """One step on a graph that keeps the model's parameters as its first nodes."""

    def __init__(self, points: list[tuple[float, float]], labels: list[int]) -> None:
        self.points, self.labels = points, labels
        self.g = Graph()
        self.model = MLP(self.g, 2, [16, 16, 1], rng=random.Random(0))
        self.params = self.model.parameters()
        self.n_params = len(self.g.nodes)

    def __call__(self) -> Handle:
        g = self.g
        del g.nodes[self.n_params :]
        scores = [self.model([MakeValue(g, a), MakeValue(g, b)])[0] for a, b in self.points]
        pairs = zip(self.labels, scores, strict=True)
        losses = [(1 + -yi * Handle(g, s)).relu() for yi, s in pairs]
        data_loss = sum(losses) * (1.0 / len(losses))
        reg = 0
        for p in self.params:
            reg = reg + Handle(g, VMul(g, p, p))
        total = data_loss + 1e-4 * reg
        Backward(g, total.index)
        return total

    def nodes(self) -> int:
        return len(self.g.nodes) - self.n_params


class MicrogradStep:
    """micrograd's own demo step, as its notebook writes it."""

    def __init__(self, points: list[tuple[float, float]], labels: list[int]) -> None:
        random.seed(0)
        self.points, self.labels = points, labels
        self.model = mgnn.MLP(2, [16, 16, 1])

    def __call__(self) -> Any:
        inputs = [list(map(mg.Value, row)) for row in self.points]
        scores = list(map(self.model, inputs))
        losses = [(1 + -yi * si).relu() for yi, si in zip(self.labels, scores, strict=True)]
        data_loss = sum(losses) * (1.0 / len(losses))
        reg_loss = 1e-4 * sum(p * p for p in self.model.parameters())
        total = data_loss + reg_loss
        self.model.zero_grad()
        total.backward()
        return total

    def nodes(self) -> int:
        seen, stack = set(), [self()]
        while stack:
            v = stack.pop()
            if id(v) not in seen:
                seen.add(id(v))
                stack.extend(v._prev)
        return len(seen) - len(self.model.parameters())


if IN_PYODIDE:  # there time.process_time is the wall clock: ask Node for its CPU time
    from js import process

    def cpu_time() -> float:
        usage = process.cpuUsage()
        return (usage.user + usage.system) / 1e6
else:
    cpu_time = time.process_time


def timed(fn: Callable[[], Any]) -> float:
    """Seconds of this process's CPU time that fn takes, so that other work on a shared
    machine weighs less."""
    start = cpu_time()
    fn()
    return cpu_time() - start


def step_times(ours: OurStep, theirs: MicrogradStep, collector: bool) -> tuple[float, float]:
    """Median seconds per step, with the cyclic garbage collector on or off while timing.
    Each engine runs a few steps in a row, as in training (so it pays for its own garbage,
    not the other's); the blocks alternate so drift hits both."""
    times: dict[Any, list[float]] = {ours: [], theirs: []}
    for _ in range(ROUNDS):
        for step in (ours, theirs):
            gc.collect()
            step()
            if not collector:
                gc.disable()
            try:
                times[step] += [timed(step) for _ in range(STEPS_PER_ROUND)]
            finally:
                gc.enable()
    return statistics.median(times[ours]), statistics.median(times[theirs])


def bytes_per_node(step: OurStep | MicrogradStep) -> float:
    """Memory the step's graph holds once it is built and differentiated, per node."""
    step()  # drop the previous graph's memory out of the measurement
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    root = step()
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    del root
    return held / step.nodes()


def our_chain() -> float:
    g = Graph()
    x = MakeValue(g, 0.5)
    c = MakeValue(g, 1e-6)
    for _ in range(CHAIN - 2):
        x = VAdd(g, x, c)
    Backward(g, x)
    assert g.nodes[c].grad == CHAIN - 2
    return len(g.nodes)


def micrograd_chain() -> str:
    x = mg.Value(0.5)
    c = mg.Value(1e-6)
    for _ in range(CHAIN - 2):
        x = x + c
    try:
        x.backward()
    except RecursionError:
        return "fails: RecursionError in backward"
    return "ok"


def print_steps(ours: OurStep, theirs: MicrogradStep) -> None:
    times = {collector: step_times(ours, theirs, collector) for collector in (False, True)}
    steps = ROUNDS * STEPS_PER_ROUND
    print(f"python {sys.version.split()[0]} on {sys.platform}, micrograd 0.1.0, "
          f"median of {steps} steps")
    print(
        f"1. training step, MLP(2, [16, 16, 1]) on {POINTS} points "
        f"({ours.nodes()} nodes here, {theirs.nodes()} in micrograd):"
    )
    for collector, (t_ours, t_theirs) in times.items():
        print(f"   collector {'on ' if collector else 'off'}: engine {t_ours * 1e3:.1f} ms, "
              f"micrograd {t_theirs * 1e3:.1f} ms, "
              f"speed-up {t_theirs / t_ours:.1f}x (target >= {TARGETS[collector]}x)", flush=True)


def in_pyodide() -> None:
    """Run this script's training step inside the built site's Pyodide, under Node."""
    import build  # the project's build script: it runs here in CPython only

    print("4. inside Pyodide, under Node:", flush=True)
    command = build.in_pyodide(Path(sys.executable), ["bench/engine.py", "examples"],
                               "bench/engine.py", "--step-only")
    build.run(*command)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--step-only", action="store_true",
                        help="measure the training step only (what runs in Pyodide)")
    step_only = parser.parse_args().step_only
    data = make_moons(POINTS, 0.1, random.Random(1))
    ours, theirs = OurStep(*data), MicrogradStep(*data)
    print_steps(ours, theirs)
    if step_only:
        return
    b_ours, b_theirs = bytes_per_node(ours), bytes_per_node(theirs)
    print(f"2. memory: engine {b_ours:.0f} B/node, micrograd {b_theirs:.0f} B/node, "
          f"ratio {b_ours / b_theirs:.2f} (target <= 0.25)")
    start = cpu_time()
    n = our_chain()
    print(f"3. chain of {n:,} nodes, build + Backward: engine {cpu_time() - start:.2f} s")
    start = cpu_time()
    verdict = micrograd_chain()
    print(f"   micrograd, {CHAIN:,}-node chain: {verdict} "
          f"after {cpu_time() - start:.2f} s")
    in_pyodide()


if __name__ == "__main__":
    main()
