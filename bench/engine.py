"""The engine against micrograd 0.1.0, side by side in one run: prints ratios.

1. one training step of micrograd's moons demo network, MLP(2, [16, 16, 1]) on 100 points
   (forward, max-margin loss with L2, backward), written two ways: with engine.nn's MLP, and
   op by op as the course writes code (a MakeValue, VAdd, VMul or VRelu call per node);
   and op by op again with the ops' checks and line noting taken out (no target: what
   the step would cost if an op trusted its operands, which the engine's do not).
   Median CPU time of interleaved repeats: with Python's cyclic garbage collector off for
   both (the cost per node), then on (as users run it: micrograd's closures make reference
   cycles the collector keeps chasing). Measured in this Python, in the newest other
   CPython found (see other_pythons), and inside the built site's Pyodide under Node (this
   script, run with `--steps-only` by tests/pyodide/run.mjs, micrograd's pure wheel beside
   the engine's), then printed side by side;
2. bytes per node of the engine.nn step's graph (tracemalloc);
3. a 1,000,000-node chain: build and backward, in CPU seconds.

Run with micrograd installed and dist/ built (`python build.py bench` sets that up).
`--parts` prints instead where the op-by-op step's time goes, part by part, in the Python
that runs it (docs/performance.md names the command that runs it in Pyodide).
"""

from __future__ import annotations

import argparse
import ast
import gc
import inspect
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
import tracemalloc
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from micrograd import engine as mg  # noqa: E402
from micrograd import nn as mgnn  # noqa: E402

from engine import Backward, Graph, Handle, MakeValue, VAdd, VMul, VRelu  # noqa: E402
from engine.datasets import make_moons  # noqa: E402
from engine.lines import record_lines  # noqa: E402
from engine.nn import MLP  # noqa: E402

POINTS = 100
ROUNDS = 3
STEPS_PER_ROUND = 3
CHAIN = 1_000_000
PARTS_REPEATS = 15
TARGETS = {"CPython": {False: 3, True: 20}, "Pyodide": {False: 3, True: 8}}
"""How many times faster than micrograd a step is meant to be, collector off and on."""
TARGETS_FOR = ("nn", "course")
"""The workloads TARGETS are for (noting lines is the playground's extra, on top)."""
ROOT = Path(__file__).resolve().parent.parent


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


class CourseStep:
    """The same step as the course writes code: a MakeValue, VAdd, VMul or VRelu call per
    node, on the indices they return (OurStep's and micrograd's network and loss)."""

    def __init__(self, points: list[tuple[float, float]], labels: list[int]) -> None:
        self.points, self.labels = points, labels
        g = self.g = Graph()
        rng = random.Random(0)
        sizes = [2, 16, 16, 1]
        self.layers = [
            [([MakeValue(g, rng.uniform(-1, 1)) for _ in range(nin)], MakeValue(g, 0.0))
             for _ in range(nout)]
            for nin, nout in zip(sizes, sizes[1:], strict=False)
        ]
        self.params = [p for layer in self.layers for w, b in layer for p in (*w, b)]
        self.n_params = len(g.nodes)

    def __call__(self) -> int:
        g = self.g
        del g.nodes[self.n_params :]
        total = self.forward()
        Backward(g, total)
        return total

    def forward(self) -> int:
        """The loss's graph, built onto the parameters; its root."""
        g = self.g
        losses = []
        for (x0, x1), yi in zip(self.points, self.labels, strict=True):
            x = [MakeValue(g, x0), MakeValue(g, x1)]
            for depth, layer in enumerate(self.layers, 1):
                outputs = []
                for w, b in layer:
                    act = b
                    for wi, xi in zip(w, x, strict=True):
                        act = VAdd(g, act, VMul(g, wi, xi))
                    outputs.append(act if depth == len(self.layers) else VRelu(g, act))
                x = outputs
            margin = VAdd(g, MakeValue(g, 1.0), VMul(g, MakeValue(g, -yi), x[0]))
            losses.append(VRelu(g, margin))
        data_loss = MakeValue(g, 0.0)
        for loss in losses:
            data_loss = VAdd(g, data_loss, loss)
        data_loss = VMul(g, data_loss, MakeValue(g, 1.0 / len(losses)))
        reg = MakeValue(g, 0.0)
        for p in self.params:
            reg = VAdd(g, reg, VMul(g, p, p))
        return VAdd(g, data_loss, VMul(g, MakeValue(g, 1e-4), reg))

    def nodes(self) -> int:
        return len(self.g.nodes) - self.n_params


COURSE_OPS = {"MakeValue": MakeValue, "VAdd": VAdd, "VMul": VMul, "VRelu": VRelu}
"""The ops the op-by-op step calls, by the names it calls them."""


def with_ops(function: Callable[..., Any], ops: dict[str, Callable[..., Any]]
             ) -> Callable[..., Any]:
    """`function` with the names in `ops` bound to other ops: the same code, so the same
    loops and calls."""
    return types.FunctionType(function.__code__, {**function.__globals__, **ops},
                              function.__name__, function.__defaults__, function.__closure__)


def unchecked(op: Callable[..., Any]) -> Callable[..., Any]:
    """The engine's `op` with its checks and its line noting taken out: each statement of
    its body that is an `if` whose body raises, or that reads `line` or `lines`. What is
    left makes the same node in the same columns: what the data model costs alone."""
    (tree,) = ast.parse(inspect.getsource(op)).body
    tree.body = [s for s in tree.body if not (
        isinstance(s, ast.If) and isinstance(s.body[0], ast.Raise)
        or any(isinstance(n, ast.Name) and n.id in ("line", "lines") for n in ast.walk(s)))]
    namespace = dict(vars(inspect.getmodule(op)))
    exec(compile(ast.Module([tree], []), inspect.getsourcefile(op), "exec"), namespace)
    return namespace[op.__name__]


class UncheckedCourseStep(CourseStep):
    """The op-by-op step with the ops unchecked (see unchecked): how fast the step could
    be if an op trusted its operands, which the engine does not."""

    forward = with_ops(CourseStep.forward,
                       {name: unchecked(op) for name, op in COURSE_OPS.items()})


class Noted:
    """A step whose nodes each note the line of this file that made them, as the
    playground's nodes note the learner's (engine.lines.record_lines)."""

    def __call__(self) -> Any:
        with record_lines(super().__call__.__code__):
            return super().__call__()


class NotedOurStep(Noted, OurStep):
    pass


class NotedCourseStep(Noted, CourseStep):
    pass


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


if sys.platform == "emscripten":  # there time.process_time is the wall clock: ask Node
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


def step_times(ours: OurStep | CourseStep, theirs: MicrogradStep,
               collector: bool) -> tuple[float, float]:
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


def fastest_ms(fn: Callable[[], Any], before: Callable[[], Any] = lambda: None) -> float:
    """fn's fastest time of PARTS_REPEATS, in ms of CPU time, with `before` run untimed
    before each."""
    times = []
    for _ in range(PARTS_REPEATS):
        before()
        times.append(timed(fn))
    return min(times) * 1e3


def doing_nothing(g: Graph, *operands: Any) -> int:
    """An op that makes no node: what is left is the step's own loops and calls."""
    return 0


def course_parts() -> dict[str, float]:
    """Where the op-by-op step's time goes in this Python, collector off: each part
    timed alone, ms."""
    step = CourseStep(*make_moons(POINTS, 0.1, random.Random(1)))
    g, params = step.g, step.n_params

    def cut() -> None:
        del g.nodes[params:]

    def built() -> None:
        cut()
        step.forward()

    gc.collect()
    gc.disable()
    try:
        parts = {"the step": fastest_ms(step),
                 "building the graph (the ops and the loops)": fastest_ms(step.forward, cut),
                 "building it with the ops unchecked": fastest_ms(
                     lambda: UncheckedCourseStep.forward(step), cut),
                 "Backward": fastest_ms(lambda: Backward(g, len(g.nodes) - 1), built),
                 "del g.nodes[n:] of the last step's nodes": fastest_ms(cut, built)}
        idle = with_ops(CourseStep.forward, dict.fromkeys(COURSE_OPS, doing_nothing))
        parts["the loops and calls alone (ops that do nothing)"] = fastest_ms(lambda: idle(step))
    finally:
        gc.enable()
    return parts


STEPS = {"nn": OurStep, "nn noted": NotedOurStep, "course": CourseStep,
         "course noted": NotedCourseStep, "course unchecked": UncheckedCourseStep}
WORKLOADS = {"nn": "engine.nn.MLP", "nn noted": "engine.nn.MLP, lines noted",
             "course": "op by op", "course noted": "op by op, lines noted",
             "course unchecked": "op by op, ops unchecked"}
"""Each step's name in the table."""


def measure_steps() -> dict[str, Any]:
    """This Python's step times for each workload, collector off and on, and node counts."""
    data = make_moons(POINTS, 0.1, random.Random(1))
    theirs = MicrogradStep(*data)
    results: dict[str, Any] = {
        "python": f"{'Pyodide' if sys.platform == 'emscripten' else 'CPython'} "
                  f"{sys.version.split()[0]}",
    }
    for name, make in STEPS.items():
        step = make(*data)
        times = {"on" if collector else "off": step_times(step, theirs, collector)
                 for collector in (False, True)}
        results[name] = {"nodes": step.nodes(), "times": times}
    results["micrograd nodes"] = theirs.nodes()
    return results


def steps_elsewhere(command: list[str | Path], env: dict[str, str] | None = None
                    ) -> dict[str, Any]:
    """measure_steps() in another Python: this script run there with --steps-only."""
    out = subprocess.run([str(c) for c in command], cwd=ROOT, env=env, check=True,
                         stdout=subprocess.PIPE, encoding="utf-8").stdout
    return json.loads(out.strip().splitlines()[-1])


def other_pythons() -> list[Path]:
    """The newest CPython found besides this one (python3.N on the PATH, pyenv's
    versions), where it is newer than this one."""
    found = [Path(p) for minor in range(11, 20) if (p := shutil.which(f"python3.{minor}"))]
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    found += sorted(pyenv.glob("3.*/bin/python3"))
    versions = {}
    for python in found:
        try:  # a pyenv shim whose version is not selected fails here
            version = subprocess.run([python, "-c", "import sys; print(*sys.version_info[:2])"],
                                     capture_output=True, encoding="utf-8", check=True).stdout
        except (OSError, subprocess.CalledProcessError):
            continue
        if "t" not in python.parent.parent.name:  # not a free-threaded build
            versions[tuple(map(int, version.split()))] = python
    newest = max(versions, default=None)
    return [versions[newest]] if newest and newest > sys.version_info[:2] else []


def print_steps(runs: list[dict[str, Any]]) -> None:
    """Each Python's ratios, micrograd's time over the engine's, in one table."""
    print(f"1. training step, MLP(2, [16, 16, 1]) on {POINTS} points ({runs[0]['nn']['nodes']:,} "
          f"nodes; {runs[0]['micrograd nodes']:,} in micrograd), median of "
          f"{ROUNDS * STEPS_PER_ROUND} steps: micrograd's CPU time / the engine's "
          f"(engine / micrograd ms)")
    print(f"   {'':<44}" + "".join(f"{run['python']:<24}" for run in runs) + "target")
    for name, label in WORKLOADS.items():
        for collector in ("off", "on"):
            cells = []
            for run in runs:
                ours, theirs = run[name]["times"][collector]
                ratio = f"{theirs / ours:.1f}x ({ours * 1e3:.0f} / {theirs * 1e3:.0f})"
                cells.append(f"{ratio:<24}")
            targets = {TARGETS[kind][collector == "on"]: kind for kind in TARGETS}
            target = ", ".join(f">= {t}x" + (f" {kind}" if len(targets) > 1 else "")
                               for t, kind in targets.items()) if name in TARGETS_FOR else ""
            print(f"   {f'{label}, collector {collector}':<44}" + "".join(cells) + target,
                  flush=True)
    print("   (op by op: a MakeValue, VAdd, VMul or VRelu call per node, as the course "
          "writes code;\n   lines noted: each node also notes the line that made it, as in "
          "the playground, where no target applies)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps-only", action="store_true",
                        help="measure the training steps only, print them as JSON (what "
                             "runs in the other Pythons)")
    parser.add_argument("--parts", action="store_true",
                        help="print where the op-by-op step's time goes, in this Python")
    args = parser.parse_args()
    if args.steps_only:
        print(json.dumps(measure_steps()))
        return
    if args.parts:
        print(f"where the op-by-op step's time goes ({sys.platform}, Python "
              f"{sys.version.split()[0]}; collector off, fastest of {PARTS_REPEATS}):")
        for name, ms in course_parts().items():
            print(f"   {name:<50} {ms:6.1f} ms")
        return
    import build  # the project's build script: it runs here in CPython only

    pyodide = build.in_pyodide(Path(sys.executable), ["bench/engine.py", "examples"],
                               "bench/engine.py", "--steps-only")
    (micrograd_wheel,) = build.BUILD.glob("pyodide-wheels/micrograd-*.whl")
    runs = [measure_steps()]
    for python in other_pythons():  # micrograd from its pure wheel, zipped
        env = {**os.environ, "PYTHONPATH": str(micrograd_wheel)}
        runs.append(steps_elsewhere([python, "bench/engine.py", "--steps-only"], env))
    runs.append(steps_elsewhere(pyodide))
    print_steps(runs)
    data = make_moons(POINTS, 0.1, random.Random(1))
    ours, theirs = OurStep(*data), MicrogradStep(*data)
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


if __name__ == "__main__":
    main()
