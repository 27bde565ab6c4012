"""While recording, each node notes the line of the learner's code that made it."""

import random
import sys

import pytest

from engine import Graph, MakeValue, rows
from engine.lines import record_lines
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


LEARNER_PROGRAM = compile(LEARNER_CODE, "<playground>", "exec")


def run_learner_code():
    namespace = {"__file__": "<playground>"}
    exec(LEARNER_PROGRAM, namespace)
    return namespace["g"]


def lines_of(code: str, **names) -> Graph:
    """Run `code` as the playground does, recording; its graph `g`."""
    program = compile(code, "<playground>", "exec")
    namespace = {"__file__": "<playground>", "g": Graph(), **names}
    with record_lines(program):
        exec(program, namespace)
    return namespace["g"]


def test_each_node_notes_the_learners_line_that_made_it():
    with record_lines(LEARNER_PROGRAM):
        g = run_learner_code()
    assert g.lines == {0: 3, 1: 6, 2: 9, 3: 10, 4: 10, 5: 10}
    assert [r["line"] for r in rows(g)] == [3, 6, 9, 10, 10, 10]


def test_nodes_made_deep_inside_the_engine_note_the_learners_call():
    g = lines_of("import random\nfrom engine.nn import MLP\n\n"
                 "MLP(g, 2, [2], rng=random.Random(0))\n")
    assert set(g.lines.values()) == {4}
    assert len(g.lines) == len(g.nodes)


def test_a_neuron_notes_its_whole_sum_with_the_line_that_called_it():
    code = ("import random\nfrom engine import MakeValue\nfrom engine.nn import Neuron\n"
            "x = [MakeValue(g, 0.5), MakeValue(g, -1.0), MakeValue(g, 2.0)]\n"
            "neuron = Neuron(g, 3, rng=random.Random(0))\n"
            "out = neuron(x)\n")
    g = lines_of(code)
    first = len(g.nodes) - 7  # three products, three running sums, then the relu
    assert g.lines == {0: 4, 1: 4, 2: 4, **dict.fromkeys(range(3, first), 5),
                       **dict.fromkeys(range(first, first + 7), 6)}


def test_a_neuron_called_on_what_a_learners_function_returned_notes_the_callers_line():
    """The function's return leaves the line unknown as the neuron starts its sum."""
    code = ("import random\nfrom engine import MakeValue\nfrom engine.nn import Neuron\n"
            "neuron = Neuron(g, 2, rng=random.Random(0))\n"
            "def inputs():\n"
            "    return [MakeValue(g, 0.5), MakeValue(g, -1.0)]\n"
            "out = neuron(inputs())\n")
    g = lines_of(code)
    assert g.lines == {0: 4, 1: 4, 2: 4, 3: 6, 4: 6, **dict.fromkeys(range(5, 10), 7)}


def test_deleted_nodes_take_their_lines_with_them():
    with record_lines(LEARNER_PROGRAM):
        g = run_learner_code()
    del g.nodes[2:]
    assert g.lines == {0: 3, 1: 6}
    MakeValue(g, 7.0)  # made outside the learner's code: no line, not node 2's old one
    assert [r["line"] for r in rows(g)] == [3, 6, None]


@pytest.mark.parametrize("lines, kept", [
    ({0: 1, 1: 1, 5: 2}, {0: 1, 1: 1}),  # in order, some nodes not noted
    ({0: 1, 4: 2, 1: 3}, {0: 1, 1: 3}),  # a line set out of order
    ({3: 1, 0: 1, "x": 2, True: 3, 9.5: 4, 2: 5, 7: 6}, {0: 1, "x": 2, True: 3, 9.5: 4}),
])
def test_deleting_nodes_drops_the_lines_of_those_nodes_only(lines, kept):
    """Whatever the learner put in `lines`: only the int keys from the first deleted node
    on go, and the dict stays the same object."""
    g = Graph()
    for _ in range(6):
        MakeValue(g, 1.0)
    g.lines = noted = dict(lines)
    del g.nodes[2:]
    assert g.lines is noted and noted == kept


def test_nothing_is_noted_outside_the_learners_code_or_when_not_recording():
    g = run_learner_code()
    assert g.lines == {}
    other = Graph()
    with record_lines(LEARNER_PROGRAM):
        MLP(other, 2, [2], rng=random.Random(0))
        MakeValue(other, 1.0)
    assert other.lines == {}


def test_a_copy_keeps_the_lines():
    with record_lines(LEARNER_PROGRAM):
        g = run_learner_code()
    assert g.copy().lines == g.lines


def test_recording_makes_no_audited_call_per_node():
    """An audit hook (the playground's) is called on every audited call: one a node
    would make every node as slow as the hook."""
    import sys

    events = []
    sys.addaudithook(lambda event, args: events.append(event) if recording else None)
    recording = False
    with record_lines(LEARNER_PROGRAM):
        recording = True
        g = run_learner_code()
        recording = False
    assert len(g.lines) == 6
    assert [e for e in events if e not in ("compile", "exec")] == []


def test_nodes_made_after_a_call_returns_mid_line_note_the_callers_line():
    g = lines_of("from engine import MakeValue, VAdd, VMul\n"
                 "def square(x):\n"
                 "    return VMul(g, x, x)\n"
                 "a = MakeValue(g, 3.0)\n"
                 "b = VAdd(g, square(a), MakeValue(g, 1.0))\n"
                 "c = VMul(g, square(b), square(a))\n")
    assert g.lines == {0: 4, 1: 3, 2: 5, 3: 5, 4: 3, 5: 3, 6: 6}


def test_a_learners_generator_notes_its_own_lines_and_its_consumers():
    g = lines_of("from engine import MakeValue, VAdd\n"
                 "def leaves(n):\n"
                 "    for i in range(n):\n"
                 "        yield MakeValue(g, float(i))\n"
                 "first, second = leaves(2)\n"
                 "total = VAdd(g, first, second)\n"
                 "pairs = [VAdd(g, x, MakeValue(g, 1.0)) for x in leaves(2)]\n")
    assert g.lines == {0: 4, 1: 4, 2: 6, 3: 4, 4: 7, 5: 7, 6: 4, 7: 7, 8: 7}


def test_a_line_after_an_exception_caught_outside_the_learners_code_is_the_callers():
    """The learner's callback fails inside a library function that catches it: the
    nodes after it belong to the line that called the library."""
    def library(callback, x):
        try:
            callback(x)
        except ValueError:
            pass
        return MakeValue(x.graph, 2.0)

    g = lines_of("from engine import MakeValue\n"
                 "class Box:\n"
                 "    graph = g\n"
                 "def fails(x):\n"
                 "    MakeValue(g, 1.0)\n"
                 "    raise ValueError\n"
                 "library(fails, Box())\n", library=library)
    assert g.lines == {0: 5, 1: 7}


def test_a_recording_inside_another_notes_its_own_lines_and_gives_the_outers_back():
    inner = compile("MakeValue(g, 1.0)\n\nMakeValue(g, 2.0)\n", "<inner>", "exec")

    def record_inner(g):
        with record_lines(inner):
            exec(inner, {"__file__": "<inner>", "g": g, "MakeValue": MakeValue})

    g = lines_of("from engine import MakeValue\n"
                 "MakeValue(g, 0.0)\n"
                 "record_inner(g)\n"
                 "MakeValue(g, 3.0)\n", record_inner=record_inner)
    assert g.lines == {0: 2, 1: 1, 2: 3, 3: 4}


def test_recording_gives_back_what_it_took_of_sys_monitoring():
    monitoring = getattr(sys, "monitoring", None)
    tools = [monitoring.get_tool(i) for i in range(6)] if monitoring else []
    lines_of("from engine import MakeValue\nMakeValue(g, 0.0)\n")
    assert ([monitoring.get_tool(i) for i in range(6)] if monitoring else []) == tools


def test_lines_are_noted_when_every_monitoring_tool_is_taken():
    monitoring = getattr(sys, "monitoring", None)
    taken = [i for i in range(6) if monitoring and monitoring.get_tool(i) is None]
    for i in taken:
        monitoring.use_tool_id(i, "someone else")
    try:
        g = lines_of("from engine import MakeValue\nMakeValue(g, 0.0)\n\nMakeValue(g, 1.0)\n")
    finally:
        for i in taken:
            monitoring.free_tool_id(i)
    assert g.lines == {0: 2, 1: 4}


EVERY_OP = """\
from engine import MakeValue, VAdd, VDiv, VExp, VLog, VMul
from engine import VNeg, VPow, VRelu, VSigmoid, VSub, VTanh
a = MakeValue(g, 2.0)
b = VAdd(g, a, a)
c = VSub(g, b, a)
d = VMul(g, c, b)
e = VDiv(g, d, b)
f = VNeg(g, e)
h = VPow(g, b, 2)
i = VExp(g, a)
j = VLog(g, b)
k = VTanh(g, f)
m = VRelu(g, k)
n = VSigmoid(g, m)
"""


def test_every_op_notes_its_own_line():
    g = lines_of(EVERY_OP)
    assert g.lines == {node: node + 3 for node in range(12)}


def test_a_line_sys_monitoring_told_is_noted_by_the_op_itself(monkeypatch):
    """Where sys.monitoring tells each line, no node calls note_line: a call costs as much
    as storing the line."""
    import engine.graph
    import engine.ops
    from engine import lines

    calls = []

    def counted(g, index, count=1):
        calls.append(index)
        lines.note_line(g, index, count)

    monkeypatch.setattr(engine.ops, "note_line", counted)
    monkeypatch.setattr(engine.graph, "note_line", counted)
    g = lines_of(EVERY_OP)
    assert g.lines == {node: node + 3 for node in range(12)}
    assert calls == ([] if lines.MONITORING is not None else list(range(12)))


def test_lines_the_learner_replaced_are_noted_only_in_a_dict():
    """A list in their place is left as it is; a dict of their own class is noted in, through
    its own methods."""
    g = lines_of("from engine import MakeValue, VAdd\n"
                 "g.lines = [0, 0, 0]\n"
                 "a = MakeValue(g, 1.0)\n"
                 "b = VAdd(g, a, a)\n")
    assert g.lines == [0, 0, 0]

    class Lines(dict):
        def __setitem__(self, index, line):
            super().__setitem__(index, line * 10)

    g = lines_of("from engine import MakeValue, VAdd\n"
                 "g.lines = Lines()\n"
                 "a = MakeValue(g, 1.0)\n"
                 "b = VAdd(g, a, a)\n", Lines=Lines)
    assert type(g.lines) is Lines and g.lines == {0: 30, 1: 40}
