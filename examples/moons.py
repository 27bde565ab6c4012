"""Train a small MLP on two interleaved half moons, generated here (no scikit-learn).

    python examples/moons.py

Each step rebuilds the forward pass on the same graph: the model's parameters are its
first nodes, and `del g.nodes[n_params:]` drops the previous step's nodes.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Backward, Graph, Handle, MakeValue  # noqa: E402
from engine.datasets import make_moons  # noqa: E402
from engine.nn import MLP  # noqa: E402


def train(steps: int = 60, n: int = 100, seed: int = 1) -> tuple[float, float]:
    """Max-margin loss with L2 regularisation, plain SGD; prints and returns the last
    (loss, accuracy)."""
    rng = random.Random(seed)
    points, labels = make_moons(n, 0.1, rng)
    g = Graph()
    model = MLP(g, 2, [16, 16, 1], rng=rng)
    params = model.parameters()
    n_params = len(g.nodes)
    for step in range(steps):
        del g.nodes[n_params:]
        scores = [Handle(g, model([MakeValue(g, x), MakeValue(g, y)])[0]) for x, y in points]
        losses = [(1 - label * score).relu() for label, score in zip(labels, scores, strict=True)]
        reg = sum(Handle(g, p) * Handle(g, p) for p in params)
        loss = sum(losses) * (1 / n) + 1e-4 * reg
        Backward(g, loss.index)
        hits = sum((s.data > 0) == (label > 0) for s, label in zip(scores, labels, strict=True))
        accuracy = hits / n
        lr = 1.0 - 0.9 * step / steps
        for p in params:
            g.nodes[p].data -= lr * g.nodes[p].grad
        if step % 10 == 0 or step == steps - 1:
            print(f"step {step:3d}  loss {loss.data:.4f}  accuracy {accuracy:.0%}")
    return loss.data, accuracy


if __name__ == "__main__":
    train()
