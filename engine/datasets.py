"""Data to train the engine's models on, made in code (no scikit-learn, no download)."""

from __future__ import annotations

import math
import random


def make_moons(n: int, noise: float, rng: random.Random) -> tuple[list[tuple[float, float]],
                                                                  list[int]]:
    """Two interleaved half circles of n points in all, with Gaussian noise of standard
    deviation `noise`; labels -1 and 1, alternating."""
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
