"""While recording, each node notes the line of the learner's code that made it."""

import random

from engine import Graph, MakeValue, rows
from engine.graph import record_lines
from engine.nn import MLP

LEARNER_CODE = """\
from engine import Graph, MakeValue, VMul, VTanh
g = Graph()
a = MakeValue(g, 2.0)

def square(x):
    return VMul(g, x, x)

b = square(a)
c = VTanh(g, b)
h = g.value(1.0) * 3
"""


def run_learner_code():
    namespace = {"__file__": "<playground>"}
    exec(compile(LEARNER_CODE, "<playground>", "exec"), namespace)
    return namespace["g"]


def test_each_node_notes_the_learners_line_that_made_it():
    with record_lines("<playground>"):
        g = run_learner_code()
    assert g.lines == {0: 3, 1: 6, 2: 9, 3: 10, 4: 10, 5: 10}
    assert [r["line"] for r in rows(g)] == [3, 6, 9, 10, 10, 10]


def test_nodes_made_deep_inside_the_engine_note_the_learners_call():
    code = "import random\nfrom engine.nn import MLP\n\nMLP(g, 2, [2], rng=random.Random(0))\n"
    g = Graph()
    with record_lines("<playground>"):
        exec(compile(code, "<playground>", "exec"), {"__file__": "<playground>", "g": g})
    assert set(g.lines.values()) == {4}
    assert len(g.lines) == len(g.nodes)


def test_a_neuron_notes_its_whole_sum_with_the_line_that_called_it():
    code = ("import random\nfrom engine import MakeValue\nfrom engine.nn import Neuron\n"
            "x = [MakeValue(g, 0.5), MakeValue(g, -1.0), MakeValue(g, 2.0)]\n"
            "neuron = Neuron(g, 3, rng=random.Random(0))\n"
            "out = neuron(x)\n")
    g = Graph()
    namespace = {"__file__": "<playground>", "g": g}
    with record_lines("<playground>"):
        exec(compile(code, "<playground>", "exec"), namespace)
    first = namespace["out"] - 6  # three products, three running sums, then the relu
    assert g.lines == {0: 4, 1: 4, 2: 4, **dict.fromkeys(range(3, first), 5),
                       **dict.fromkeys(range(first, first + 7), 6)}


def test_deleted_nodes_take_their_lines_with_them():
    with record_lines("<playground>"):
        g = run_learner_code()
    del g.nodes[2:]
    assert g.lines == {0: 3, 1: 6}
    MakeValue(g, 7.0)  # made outside the learner's code: no line, not node 2's old one
    assert [r["line"] for r in rows(g)] == [3, 6, None]


def test_nothing_is_noted_outside_the_learners_code_or_when_not_recording():
    g = run_learner_code()
    assert g.lines == {}
    other = Graph()
    with record_lines("<playground>"):
        MLP(other, 2, [2], rng=random.Random(0))
        MakeValue(other, 1.0)
    assert other.lines == {}


def test_a_copy_keeps_the_lines():
    with record_lines("<playground>"):
        g = run_learner_code()
    assert g.copy().lines == g.lines


def test_recording_makes_no_audited_call_per_node():
    """An audit hook (the playground's) is called on every audited call: one a node
    would make every node as slow as the hook."""
    import sys

    events = []
    sys.addaudithook(lambda event, args: events.append(event) if recording else None)
    recording = False
    with record_lines("<playground>"):
        recording = True
        g = run_learner_code()
        recording = False
    assert len(g.lines) == 6
    assert [e for e in events if e not in ("compile", "exec")] == []
