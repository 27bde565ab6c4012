"""The training exercises' checks: a right SGD step, max-margin loss and trained model
pass, and each usual mistake gets its own message."""

import linecache
import random

import pytest

import engine.training_checks
from engine import Graph
from engine.datasets import make_moons
from engine.nn import MLP
from engine.training_checks import check_accuracy, check_hinge_loss, check_step

STEP = """\
def step(g, params, lr):
    for p in params:
        g.nodes[p].data -= lr * g.nodes[p].grad
        g.nodes[p].grad = 0.0
"""

HINGE = """\
from engine import Handle

def hinge_loss(g, scores, labels):
    losses = [(1 - label * Handle(g, s)).relu() for s, label in zip(scores, labels)]
    return sum(losses) * (1 / len(losses))
"""

TRAINING = """\
import random
from engine import Backward, Graph, Handle, MakeValue
from engine.nn import MLP
from engine.datasets import make_moons

rng = random.Random(1)
points, labels = make_moons(100, 0.1, rng)
g = Graph()
model = MLP(g, 2, [8, 8, 1], rng=rng)
params = model.parameters()
n_params = len(g.nodes)
for step in range(STEPS):
    del g.nodes[n_params:]
    scores = [Handle(g, model([MakeValue(g, x), MakeValue(g, y)])[0]) for x, y in points]
    losses = [(1 - label * score).relu() for label, score in zip(labels, scores)]
    reg = sum(Handle(g, p) * Handle(g, p) for p in params)
    loss = sum(losses) * (1 / len(points)) + 1e-4 * reg
    Backward(g, loss.index)
    for p in params:
        g.nodes[p].data -= (1.0 - 0.9 * step / STEPS) * g.nodes[p].grad
"""


def learner(code: str, name: str, **names):
    """The name `name` from code compiled as the page compiles a learner's."""
    linecache.cache["<playground>"] = (len(code), None, code.splitlines(True), "<playground>")
    namespace = dict(names)
    exec(compile(code, "<playground>", "exec"), namespace)
    return namespace[name]


def edited(code: str, *edits: tuple[str, str]) -> str:
    for old, new in edits:
        assert old in code
        code = code.replace(old, new)
    return code


def failure(check, *args) -> str:
    with pytest.raises(AssertionError) as caught:
        check(*args)
    return str(caught.value)


def test_a_step_against_the_grad_that_zeroes_it_passes():
    check_step(learner(STEP, "step"))


def test_a_step_up_the_gradient_is_told_to_subtract():
    flipped = learner(edited(STEP, ("-= lr", "+= lr")), "step")
    assert failure(check_step, flipped).startswith(
        "the parameters moved up the gradient: the update must subtract lr * grad")


def test_a_step_that_leaves_the_grads_is_told_they_were_not_zeroed():
    keeps = learner(edited(STEP, ("        g.nodes[p].grad = 0.0\n", "")), "step")
    message = failure(check_step, keeps)
    assert message.startswith("the grads were not zeroed between steps")
    assert "set its grad to 0" in message


def test_a_step_that_zeroes_before_moving_is_told_it_moved_nothing():
    early = learner("def step(g, params, lr):\n"
                    "    for p in params:\n"
                    "        g.nodes[p].grad = 0.0\n"
                    "        g.nodes[p].data -= lr * g.nodes[p].grad\n", "step")
    assert "left the parameters as they were" in failure(check_step, early)


def test_a_step_that_raises_is_named_with_its_line():
    broken = learner(edited(STEP, ("lr * g.nodes[p].grad", "lr * g.nodes[p].gradient")), "step")
    message = failure(check_step, broken)
    assert message.startswith("your step raised AttributeError")
    assert "at line 3: g.nodes[p].data -= lr * g.nodes[p].gradient" in message


def test_the_checks_do_not_use_what_the_learner_redefines():
    """The learner's own Backward, MakeValue or make_moons, beside their step and loss, do not
    change what the checks expect."""
    redefined = ("def Backward(g, root):\n    pass\n"
                 "def MakeValue(g, x):\n    return 0\n"
                 "def make_moons(n, noise, rng):\n    return [], []\n")
    flipped = learner(redefined + edited(STEP, ("-= lr", "+= lr")), "step")
    assert "moved up the gradient" in failure(check_step, flipped)
    check_step(learner(redefined + STEP, "step"))
    check_hinge_loss(learner(HINGE + redefined, "hinge_loss"))


def test_the_mean_hinge_loss_passes_as_a_handle_or_an_index():
    check_hinge_loss(learner(HINGE, "hinge_loss"))
    check_hinge_loss(learner(edited(HINGE, ("* (1 / len(losses))", "* (1 / len(losses))).index"),
                                    ("return sum", "return (sum")), "hinge_loss"))


def test_a_hinge_loss_with_the_wrong_sign_is_told_so():
    flipped = learner(edited(HINGE, ("1 - label", "1 + label")), "hinge_loss")
    assert "the sign is wrong" in failure(check_hinge_loss, flipped)


def test_a_hinge_loss_without_relu_is_told_it_is_missing():
    linear = learner(edited(HINGE, (").relu()", ")")), "hinge_loss")
    assert "the relu is missing" in failure(check_hinge_loss, linear)


def test_a_summed_hinge_loss_is_told_to_take_the_mean():
    summed = learner(edited(HINGE, (" * (1 / len(losses))", "")), "hinge_loss")
    assert "the loss is their mean" in failure(check_hinge_loss, summed)


def test_a_hinge_loss_made_of_floats_is_told_its_grads_do_not_reach_the_scores():
    mean = "MakeValue(g, sum(loss.data for loss in losses) / len(losses))"
    floats = learner(edited(HINGE, ("return sum(losses) * (1 / len(losses))", f"return {mean}"),
                            ("import Handle", "import Handle, MakeValue")), "hinge_loss")
    message = failure(check_hinge_loss, floats)
    assert message.startswith("your loss has the right value, 0.75, but not the right grads")


def test_a_hinge_loss_that_returns_nothing_is_asked_to_return_it():
    silent = learner(edited(HINGE, ("return sum", "sum")), "hinge_loss")
    assert "did you forget to return it?" in failure(check_hinge_loss, silent)


def test_a_trained_model_reaches_the_accuracy_and_an_untrained_one_does_not():
    check_accuracy(learner(TRAINING, "model", STEPS=150))
    message = failure(check_accuracy, learner(TRAINING, "model", STEPS=0))
    assert message.startswith("your model classifies ")
    assert "it needs 95%" in message


def test_the_accuracy_is_measured_on_points_drawn_anew_each_time(monkeypatch):
    """No model can have seen them, or be made of their labels: not even the points of
    a seed the check once used."""
    drawn = []

    def recorded(n, noise, rng):
        points, labels = make_moons(n, noise, rng)
        drawn.append(points)
        return points, labels

    monkeypatch.setattr(engine.training_checks, "make_moons", recorded)
    model = learner(TRAINING, "model", STEPS=150)
    check_accuracy(model)
    check_accuracy(model)
    first, second = drawn
    assert len(first) == 400 and first != second
    assert first[:200] != make_moons(200, 0.1, random.Random(2024))[0]


def test_only_an_engine_mlp_of_two_inputs_and_one_output_is_measured():
    class Cheat:
        def forward(self, x):
            return [1.0]

    assert "needs your model, an MLP from engine.nn" in failure(check_accuracy, Cheat())
    wide = MLP(Graph(), 2, [4, 2], rng=random.Random(0))
    assert "1 output" in failure(check_accuracy, wide)


def test_the_checks_moons_are_the_pages():
    points, labels = make_moons(4, 0.0, random.Random(0))
    assert labels == [1, -1, 1, -1]
    assert all(abs((x - 1) ** 2 + (y - 0.5) ** 2 - 1) < 1e-9
               for (x, y), label in zip(points, labels, strict=True) if label == 1)
