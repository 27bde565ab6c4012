"""`plot` and `boundary`, in every run's namespace: charts the page draws while the code runs.

    plot(name, y, x=None, chart=None)
        appends the point (x, y) to the series `name` (x: by default the series' count of
        points so far, 0, 1, 2, ...); series with the same `chart` (by default their own
        name) share one chart.
    boundary(predict, points, labels, title="boundary", resolution=30, threshold=0.0)
        draws a 2-D classifier's decision regions: predict(x, y) on a grid of
        resolution x resolution cells around the points, a cell's class being whether the
        prediction is above `threshold`; the points over it, coloured by whether their
        label is. Each call with the same title redraws that picture. `predict` may be an
        engine.nn model of two inputs and one output instead of a function: its weights
        go to the page, which computes the grid with the same floats as its forward().

The code does not wait for the page: points and pictures gather here, and go out as one
message at most every FLUSH_SECONDS (and as the run ends), when `plot` or `boundary` is
called. A series past MAX_POINTS is thinned, not cut: every other point it kept goes (the
page thins its copy by the same rule, as the point past the cap comes in), and from then
on only every other point is sent, so a series always spans the whole run. Every
boundary() picture is sent, with the step it was drawn at: the page keeps a history of
them to scrub through.

The run's step is the most points of any series, or draws of any picture. Where the page
paces the run (`pace`, a function of the worker's: pace.js), a call that begins a new
step first asks it for the step: when the page says the step must wait (paused, or a
pace of a few steps a second), what gathered goes out, and the call waits until the page
lets the step begin, or the run is stopped; that message says so (`waits`).

A module of its own, as show.py is: code can read what `plot` leads to (its class's
functions' globals), so little of the runner's is in reach from here.
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Callable
from numbers import Real

from engine.nn import MLP, Layer, Neuron, Weights, float_weights

from .caps import TITLE_CHARS, text_of
from .contract import CONTRACT

FLUSH_SECONDS = 0.1
"""How often at most the points gathered go to the page: ten times a second. Each message
is a redraw of the charts, the page's main thread's time (uPlot's canvas, its text),
which a machine whose cores are all busy takes from Python; a chart redrawn more often
looks no more alive (bench/train.py prints what the redraws cost)."""
BATCH_POINTS = CONTRACT["plots"]["batchPoints"]
"""A message holds at most this many points: the page takes in a message in one task."""
MAX_SERIES = CONTRACT["plots"]["series"]
MAX_POINTS = CONTRACT["plots"]["points"]
"""Points a series keeps at most (even: halving keeps every other); past it, the series
is thinned. The page draws a chart's points in a frame."""
BATCH_PICTURES = CONTRACT["plots"]["batchPictures"]
"""A message holds at most this many pictures."""
MAX_PICTURES = CONTRACT["plots"]["pictures"]
MAX_RESOLUTION = CONTRACT["plots"]["resolution"]
MAX_BOUNDARY_POINTS = CONTRACT["plots"]["pictureRows"]
PAGE_SUMS = CONTRACT["plots"]["pageSums"]
"""A model's grid is computed by the page (with the same floats, from its weights) when
its weights and biases times its cells are at most this: a few milliseconds of the
page's, where Python would take seconds. Beyond, and for a function, Python computes it."""
MARGIN = 0.1
"""Around the points, a boundary's picture shows this much of their spread on each side."""


class Plots:
    """A run's charts: the series so far, and what waits to be sent to the page."""

    def __init__(self, post: Callable[[str], None] | None,
                 pace: Callable[[bool], bool] | None = None) -> None:
        self._post = post
        self._pace = pace
        self._started = time.perf_counter()
        self._last_flush = float("-inf")  # so the first point goes out at once
        self._index: dict[tuple[str, str], int] = {}  # (chart, name) -> series number
        self._counts: list[int] = []  # points appended to each series, thinned ones too
        self._kept: list[int] = []  # points each series keeps (the page's copy)
        self._strides: list[int] = []  # each series sends every stride-th point
        self._dropped: dict[int, int] = {}
        self._new_series: list[list] = []  # [number, chart, name]
        self._points: list[list] = []
        self._pictures: list[dict] = []  # every boundary() picture since the last message
        self._titles: list[str] = []
        self._draws: dict[str, int] = {}  # boundary() calls of each title
        self._left_out = 0  # points of series past MAX_SERIES
        self._left_out_pictures = 0
        self._steps = 0
        self._waits = False  # the next message is the last before a step waits
        self._dropped_changed = False

    def plot(self, name: object, y: object, x: object = None, chart: object = None) -> None:
        """Append the point (x, y) to the series `name`, on the chart `chart` (by default
        the series' own name); x is by default the series' count of points so far. A y
        that is nan or infinite leaves a gap."""
        name = text_of(name, TITLE_CHARS)
        chart = name if chart is None else text_of(chart, TITLE_CHARS)
        y = _number(y, f"plot({name!r}): y")
        index = self._index.get((chart, name))
        if index is None:
            if len(self._counts) == MAX_SERIES:
                self._left_out += 1
                return
            # Each step one call, so that a Stop between them leaves nothing half made.
            index = len(self._counts)
            self._counts.append(0)
            self._kept.append(0)
            self._strides.append(1)
            self._new_series.append([index, chart, name])
            self._index[(chart, name)] = index
        count = self._counts[index]
        x = float(count) if x is None else _number(x, f"plot({name!r}): x")
        if not math.isfinite(x):
            raise ValueError(f"plot({name!r}): x is {x}, not a finite number")
        self._begin_step(count + 1)
        self._counts[index] = count + 1
        if count % self._strides[index] == 0:
            if self._kept[index] == MAX_POINTS:  # the page keeps every other point
                self._strides[index] *= 2
                self._kept[index] //= 2
            self._kept[index] += 1
            self._points.append([index, x, y if math.isfinite(y) else None])
        if count >= MAX_POINTS:
            self._dropped[index] = count + 1 - self._kept[index]
            self._dropped_changed = True
        self._maybe_flush()

    def _begin_step(self, step: int) -> None:
        """A call of this run's step `step`: when it is a new step, the page's pace may
        have it wait, with what gathered sent first (so the page shows the step before)."""
        if step <= self._steps:
            return
        if self._pace is not None and not self._pace(False):
            self._waits = True
            self.flush()
            self._pace(True)
            self._last_flush = time.perf_counter()  # the step's points go with the next wait
        self._steps = step

    def boundary(self, predict: object, points: object, labels: object,
                 title: object = "boundary", resolution: int = 30,
                 threshold: float = 0.0) -> None:
        """Draw predict(x, y)'s decision regions around `points` (x, y pairs), with the
        points over them coloured by their `labels`; redraws the picture of this title."""
        title = text_of(title, TITLE_CHARS)
        where = f"boundary({title!r})"
        weights = _model_weights(predict, where)
        if weights is None and not callable(predict):
            raise TypeError(f"{where}: predict must be a function of (x, y) or an engine.nn "
                            f"model, got {type(predict).__name__}")
        if type(resolution) is not int or not 2 <= resolution <= MAX_RESOLUTION:
            raise ValueError(f"{where}: resolution must be an int from 2 to {MAX_RESOLUTION}, "
                             f"got {resolution!r}")
        threshold = _number(threshold, f"{where}: threshold")
        if not math.isfinite(threshold):
            raise ValueError(f"{where}: threshold must be a finite number, got {threshold}")
        pairs, classes = _labelled_points(where, points, labels, threshold)
        if title not in self._titles:
            if len(self._titles) == MAX_PICTURES:
                self._left_out_pictures += 1
                return
            self._titles.append(title)
        draws = self._draws.get(title, 0) + 1
        self._begin_step(draws)
        self._draws[title] = draws
        (x0, x1), (y0, y1) = _span([p[0] for p in pairs]), _span([p[1] for p in pairs])
        xs, ys = _centres(x0, x1, resolution), _centres(y0, y1, resolution)
        picture = {
            "title": title, "x": [x0, x1], "y": [y0, y1], "size": resolution,
            "threshold": threshold,
            "points": pairs[:MAX_BOUNDARY_POINTS], "classes": classes[:MAX_BOUNDARY_POINTS],
            "pointsLeftOut": max(0, len(pairs) - MAX_BOUNDARY_POINTS), "step": self._steps,
        }
        if weights is not None and _for_the_page(weights, resolution):
            picture.update(model=weights, xs=xs, ys=ys)  # the page computes the grid
        else:
            run = predict if weights is None else _of_x_and_y(predict)
            picture["values"] = _grid(run, xs, ys, where)
        self._pictures.append(picture)
        self._maybe_flush()

    def _maybe_flush(self) -> None:
        if len(self._points) >= BATCH_POINTS or len(self._pictures) >= BATCH_PICTURES or \
                time.perf_counter() - self._last_flush > FLUSH_SECONDS:
            self.flush()

    def flush(self) -> None:
        """Send what gathered since the last message, if anything did."""
        self._last_flush = time.perf_counter()
        if not (self._points or self._pictures or self._new_series or self._dropped_changed
                or self._waits):
            return
        batch = {
            "ms": (self._last_flush - self._started) * 1000, "steps": self._steps,
            "series": self._new_series, "points": self._points,
            "dropped": [[i, n] for i, n in self._dropped.items()],
            "boundaries": self._pictures, "waits": self._waits,
        }
        self._new_series, self._points, self._pictures = [], [], []
        self._dropped_changed = self._waits = False
        if self._post is not None:
            self._post(json.dumps(batch, allow_nan=False))

    def say_left_out(self, note: Callable[[str], None]) -> None:
        """Say in the output what the caps kept from the page."""
        names = {index: name for (_, name), index in self._index.items()}
        for index in self._dropped:
            note(f"plot({names[index]!r}): {self._counts[index]:,} points, drawn as every "
                 f"{_ordinal(self._strides[index])} (a series keeps {MAX_POINTS:,} at most)")
        if self._left_out:
            note(f"plot(): {self._left_out:,} points of series past the first {MAX_SERIES} "
                 f"not drawn (a run draws {MAX_SERIES} series at most)")
        if self._left_out_pictures:
            note(f"boundary(): {self._left_out_pictures:,} pictures of titles past the first "
                 f"{MAX_PICTURES} not drawn")


def _ordinal(n: int) -> str:
    """2nd, 4th, 8th, ...: a stride, said."""
    return f"{n}{'nd' if n % 10 == 2 and n % 100 != 12 else 'th'}"


def _model_weights(predict: object, where: str) -> Weights | None:
    """An engine.nn model's weights as floats, once checked that it takes (x, y) and
    gives one output; None when `predict` is not such a model."""
    if not isinstance(predict, (MLP, Layer, Neuron)):
        return None
    weights = float_weights(predict)
    inputs, outputs = len(weights[0][0][0]), len(weights[-1])
    if (inputs, outputs) != (2, 1):
        raise ValueError(f"{where}: the model has {inputs} inputs and {outputs} outputs; "
                         "a boundary needs 2 (x and y) and 1")
    return weights


def _for_the_page(weights: Weights, resolution: int) -> bool:
    """Whether the page computes this model's grid: its weights are finite (JSON has no
    other numbers) and the grid's sums take the page a few milliseconds at most."""
    numbers = [number for layer in weights for ws, b, _ in layer for number in (*ws, b)]
    return len(numbers) * resolution**2 <= PAGE_SUMS and all(map(math.isfinite, numbers))


def _of_x_and_y(model: MLP | Layer | Neuron) -> Callable[[float, float], object]:
    """The model's predictor() as a function of (x, y)."""
    run = model.predictor()
    if isinstance(model, Neuron):
        return lambda x, y: run([x, y])
    return lambda x, y: run([x, y])[0]


def _grid(predict: Callable[[float, float], object], xs: list[float], ys: list[float],
          where: str) -> list[float | None]:
    """predict(x, y) at every centre, row by row from the lowest y; None where it is
    not finite."""
    values = []
    for y in ys:
        for x in xs:
            value = predict(x, y)
            # A float, as a model's forward gives, costs one check: the grid is a
            # run's most numerous calls of all that plotting makes.
            if type(value) is not float:
                value = _number(value, f"{where}: predict({x!r}, {y!r})")
            values.append(value if math.isfinite(value) else None)
    return values


def _number(value: object, what: str) -> float:
    """`value` as a float, or an error saying that `what` must be a number."""
    if isinstance(value, Real) and not isinstance(value, bool):
        return float(value)
    raise TypeError(f"{what} must be a number, got {text_of(value, 40)} "
                    f"({type(value).__name__})")


def _labelled_points(where: str, points: object, labels: object,
                     threshold: float) -> tuple[list[list[float]], list[bool]]:
    """The points as [x, y] lists and, for each, whether its label is above `threshold`."""
    points, labels = list(points), list(labels)
    if not points:
        raise ValueError(f"{where}: no points")
    if len(points) != len(labels):
        raise ValueError(f"{where}: {len(points)} points but {len(labels)} labels")
    pairs = []
    for i, point in enumerate(points):
        try:
            x, y = point
        except (TypeError, ValueError):
            raise TypeError(f"{where}: points[{i}] is {text_of(point, 40)}, "
                            "not an (x, y) pair") from None
        pair = [_number(x, f"{where}: points[{i}]'s x"), _number(y, f"{where}: points[{i}]'s y")]
        if not all(map(math.isfinite, pair)):
            raise ValueError(f"{where}: points[{i}] is {pair}, not finite")
        pairs.append(pair)
    classes = [_number(label, f"{where}: labels[{i}]") > threshold
               for i, label in enumerate(labels)]
    return pairs, classes


def _centres(low: float, high: float, cells: int) -> list[float]:
    """The centres of `cells` equal cells from `low` to `high` (finite however far
    apart they are)."""
    return [low * (1 - t) + high * t for t in ((k + 0.5) / cells for k in range(cells))]


def _span(values: list[float]) -> tuple[float, float]:
    """From the least to the greatest of `values`, with a margin on each side, within
    the floats (points at ±1.7e308 have no room for a margin past them)."""
    low, high = min(values), max(values)
    margin = high * MARGIN - low * MARGIN or 1.0
    return max(low - margin, -sys.float_info.max), min(high + margin, sys.float_info.max)
