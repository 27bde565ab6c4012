"""Checks for the training exercises: a learner's SGD step, their max-margin loss, and
the accuracy of their trained model. Like engine.checks, each raises an AssertionError
whose message says what is wrong in the learner's terms, and works with the engine's
functions as this module imported them, whatever the learner's code redefines.

    check_step(step)
    check_hinge_loss(hinge_loss)
    check_accuracy(model)
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Callable
from typing import Any

from .autograd import Backward
from .check_words import exception_text, function_name, learner_line, short
from .datasets import make_moons
from .graph import Graph, MakeValue
from .handle import Handle
from .nn import MLP, Layer, Neuron
from .ops import VAdd, VMul, VRelu

STEP_PARAMS = (0.5, -1.0, 0.25)
"""The weights and bias of the model check_step trains: score = w0 * x + w1 * y + b."""
STEP_POINTS = (((1.0, 2.0), 1), ((-1.5, 0.5), -1), ((0.5, -1.0), 1))
STEP_LR = 0.1
HINGE_SCORES = (2.0, 0.5, -0.25, 1.5, -3.0)
HINGE_LABELS = (1, 1, -1, -1, -1)
"""Scores on both sides of the margin, so that a wrong sign, a missing relu or a sum
instead of a mean each give their own value."""
MOONS_POINTS = 400
MOONS_NOISE = 0.1
MLP_FORWARD = MLP.forward


def check_step(step: Callable[[Graph, list[int], float], Any]) -> None:
    """Train a small linear model for two steps with `step(g, params, lr)`, which must move
    each parameter against its grad (data -= lr * grad) and leave the grad at 0.

    Before the second step the check adds that step's grads to what the parameters hold,
    as a backward that accumulates does (micrograd's) or as grads summed over batches do:
    a step that does not zero the grads moves the parameters by both steps' grads.
    """
    name = function_name(step, "check_step", "step")
    g = Graph()
    params = [MakeValue(g, w) for w in STEP_PARAMS]
    n_params = len(g.nodes)
    before = [g.nodes[p].data for p in params]
    grads = _loss_grads(g, params)
    for p, grad in zip(params, grads, strict=True):
        g.nodes[p].grad = grad
    _step(step, name, g, params, 1)
    expected = [w - STEP_LR * d for w, d in zip(before, grads, strict=True)]
    after = _parameters(g, params, name)
    if _all_close(after, [w + STEP_LR * d for w, d in zip(before, grads, strict=True)]):
        raise AssertionError(
            f"the parameters moved up the gradient: the update must subtract lr * grad "
            f"(data -= lr * grad), so that the loss goes down. From {_floats(before)} with "
            f"grads {_floats(grads)} and lr {STEP_LR}, your {name} gave {_floats(after)}, "
            f"expected {_floats(expected)}")
    _compare(after, expected, before, grads, name, "the first step")

    del g.nodes[n_params:]
    fresh = _loss_grads(g, params)
    for p, grad in zip(params, fresh, strict=True):
        g.nodes[p].grad = g.nodes[p].grad + grad
    _step(step, name, g, params, 2)
    second = [w - STEP_LR * d for w, d in zip(expected, fresh, strict=True)]
    after = _parameters(g, params, name)
    summed = [w - STEP_LR * (d1 + d2) for w, d1, d2 in zip(expected, grads, fresh, strict=True)]
    if _all_close(after, summed) and not _all_close(after, second):
        raise AssertionError(
            f"the grads were not zeroed between steps: the second step moved the "
            f"parameters by the sum of both steps' grads, so every step adds in all the "
            f"ones before it. After moving each parameter, set its grad to 0 "
            f"(g.nodes[p].grad = 0.0). Your {name} gave {_floats(after)}, expected "
            f"{_floats(second)}")
    _compare(after, second, expected, fresh, name, "the second step")


def check_hinge_loss(hinge_loss: Callable[[Graph, list[int], list[int]], Any]) -> None:
    """Call `hinge_loss(g, scores, labels)` on score nodes and labels of 1 and -1, and
    compare the loss node it returns (an index or a Handle), and the scores' grads that
    Backward finds from it, with the mean of relu(1 - label * score)."""
    name = function_name(hinge_loss, "check_hinge_loss", "hinge_loss")
    g = Graph()
    scores = [MakeValue(g, s) for s in HINGE_SCORES]
    labels = list(HINGE_LABELS)
    try:
        returned = hinge_loss(g, list(scores), list(labels))
    except Exception as exc:
        raise AssertionError(
            f"your {name} raised {exception_text(exc)}{learner_line(exc)}\n{_hinge_case(name)}"
        ) from exc
    loss = _node_index(returned, g, name)
    got = g.nodes[loss].data
    n = len(labels)
    margins = [y * s for s, y in zip(HINGE_SCORES, labels, strict=True)]
    expected = sum(max(0.0, 1 - m) for m in margins) / n
    if not _close(got, expected):
        said = f"your loss is {_number(got)}, expected {_number(expected)}"
        if _close(got, sum(max(0.0, 1 + m) for m in margins) / n):
            raise AssertionError(
                f"{said}: the sign is wrong. A point's loss is relu(1 - label * score), "
                f"which is 0 once label * score passes 1 (the score is on the label's "
                f"side, beyond the margin), and grows as the score goes the wrong way.\n"
                f"{_hinge_case(name)}")
        if _close(got, sum(1 - m for m in margins) / n):
            raise AssertionError(
                f"{said}: the relu is missing. Without it, a point beyond the margin "
                f"(label * score > 1) lowers the loss, and the model gains by pushing "
                f"scores it already has right further; relu(1 - label * score) is never "
                f"below 0.\n{_hinge_case(name)}")
        if _close(got, expected * n):
            raise AssertionError(
                f"{said}: that is the sum of the points' losses; the loss is their mean "
                f"(divide by the number of points, {n}).\n{_hinge_case(name)}")
        raise AssertionError(
            f"{said}, the mean of relu(1 - label * score) over the points.\n"
            f"{_hinge_case(name)}")
    Backward(g, loss)
    for k, (s, y, m) in enumerate(zip(scores, labels, margins, strict=True)):
        want = -y / n if 1 - m > 0 else 0.0
        have = g.nodes[s].grad
        if not _close(have, want):
            raise AssertionError(
                f"your loss has the right value, {_number(got)}, but not the right grads: "
                f"d loss / d score {k} (node {s}) is {_number(have)}, expected "
                f"{_number(want)}. Build the loss from the score nodes, with graph ops "
                f"(VMul, VAdd, VRelu, or Handle arithmetic), so that Backward reaches "
                f"them.\n{_hinge_case(name)}")


def check_accuracy(model: Any, at_least: float = 0.95) -> None:
    """Classify moons points the check draws itself (as the page draws them: two half
    moons, noise 0.1) with `model`, an engine MLP of 2 inputs and 1 output, by the sign
    of its score: at least `at_least` of them must be right. The points are drawn anew
    from the system's randomness each time, after the learner's code has run: a model
    cannot have seen them (nor be made of their labels)."""
    if not (type(model) is MLP and all(type(layer) is Layer for layer in model.layers)
            and all(type(n) is Neuron for layer in model.layers for n in layer.neurons)):
        raise AssertionError(
            f"check_accuracy needs your model, an MLP from engine.nn (MLP(g, 2, [..., 1])), "
            f"got {short(model)} (type {type(model).__name__})")
    inputs = len(model.layers[0].neurons[0].w)
    outputs = len(model.layers[-1].neurons)
    if (inputs, outputs) != (2, 1):
        raise AssertionError(
            f"your model has {inputs} inputs and {outputs} outputs: it needs 2 inputs (a "
            f"point's x and y) and 1 output (its score)")
    fresh = random.Random(int.from_bytes(os.urandom(16), "big"))
    points, labels = make_moons(MOONS_POINTS, MOONS_NOISE, fresh)
    right = sum((MLP_FORWARD(model, [x, y])[0] > 0) == (label > 0)
                for (x, y), label in zip(points, labels, strict=True))
    if right < at_least * len(points):
        raise AssertionError(
            f"your model classifies {right} of {len(points)} new moons points right "
            f"({right / len(points):.1%}); it needs {at_least:.0%}. Train longer, with "
            f"more neurons, or with another learning rate, then Run again.")


def _loss_grads(g: Graph, params: list[int]) -> list[float]:
    """The parameters' grads of check_step's loss, the mean hinge loss of the linear model
    on STEP_POINTS, recorded on g after the parameters and differentiated on a copy."""
    w0, w1, b = params
    terms = []
    for (x, y), label in STEP_POINTS:
        score = VAdd(g, VAdd(g, VMul(g, w0, MakeValue(g, x)), VMul(g, w1, MakeValue(g, y))), b)
        terms.append(VRelu(g, VAdd(g, MakeValue(g, 1.0),
                                   VMul(g, MakeValue(g, -label), score))))
    total = terms[0]
    for term in terms[1:]:
        total = VAdd(g, total, term)
    loss = VMul(g, total, MakeValue(g, 1 / len(terms)))
    copy = g.copy()
    Backward(copy, loss)
    return [copy.nodes[p].grad for p in params]


def _step(step: Callable, name: str, g: Graph, params: list[int], number: int) -> None:
    try:
        step(g, list(params), STEP_LR)
    except Exception as exc:
        raise AssertionError(
            f"your {name} raised {exception_text(exc)}{learner_line(exc)}, on step {number} "
            f"of 2 (params {params}, lr {STEP_LR})") from exc


def _parameters(g: Graph, params: list[int], name: str) -> list[float]:
    if len(g.nodes) <= max(params):
        raise AssertionError(
            f"your {name} removed nodes: the graph has {len(g.nodes)}, and the parameters "
            f"are nodes {params}; a step only changes the parameters' data and grads")
    return [g.nodes[p].data for p in params]


def _compare(after: list[float], expected: list[float], before: list[float],
             grads: list[float], name: str, which: str) -> None:
    if _all_close(after, before):
        raise AssertionError(
            f"on {which}, your {name} left the parameters as they were, {_floats(before)}: "
            f"move each against its grad, g.nodes[p].data -= lr * g.nodes[p].grad "
            f"(grads {_floats(grads)}, lr {STEP_LR})")
    if not _all_close(after, expected):
        raise AssertionError(
            f"on {which}, from {_floats(before)} with grads {_floats(grads)} and lr "
            f"{STEP_LR}, your {name} gave {_floats(after)}, expected {_floats(expected)} "
            f"(each parameter's data -= lr * grad)")


def _node_index(returned: Any, g: Graph, name: str) -> int:
    """The loss node's index, from the index or Handle the learner's function returned."""
    if isinstance(returned, Handle) and returned.graph is g:
        returned = returned.index
    if type(returned) is not int or not 0 <= returned < len(g.nodes):
        hint = " (did you forget to return it?)" if returned is None else ""
        raise AssertionError(
            f"your {name} returned {short(returned)}, not the loss node of g (its index, "
            f"or a Handle){hint}")
    return returned


def _hinge_case(name: str) -> str:
    return (f"That was {name}(g, scores, labels) with scores {list(HINGE_SCORES)} "
            f"and labels {list(HINGE_LABELS)}.")


def _all_close(xs: list[Any], ys: list[float]) -> bool:
    return all(_close(x, y) for x, y in zip(xs, ys, strict=True))


def _close(x: Any, y: float) -> bool:
    return type(x) in (int, float) and math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12)


def _number(x: Any) -> str:
    return f"{x:.6g}" if type(x) in (int, float) else short(x)


def _floats(xs: list[float]) -> str:
    return "[" + ", ".join(map(_number, xs)) + "]"
