"""The exercise checks: a right answer passes, and each usual mistake gets a message that
names the first node that is wrong and the graph it happened on."""

import functools
import linecache
import textwrap
import types
from dataclasses import dataclass, field
from typing import NamedTuple

import pytest

import engine
from engine import (
    Add,
    Backward,
    Graph,
    MakeValue,
    Mul,
    Neg,
    Sigmoid,
    Sub,
    Tanh,
    TopoSort,
    VAdd,
    VMul,
    VTanh,
    check_grads,
    check_graph,
    check_topo_sort,
)
from engine.autograd import chain_rule
from engine.exercise_graphs import exercise_graphs

COURSE_BACKWARD = """\
from engine import Add, Mul, Tanh, TopoSort

def Backward(g, root):
    order = TopoSort(g, root)
    for i in order:
        g.nodes[i].grad = 0.0
    g.nodes[root].grad = 1.0
    for i in reversed(order):
        out = g.nodes[i]
        match out.op:
            case Add(a, b):
                g.nodes[a].grad += out.grad
                g.nodes[b].grad += out.grad
            case Mul(a, b):
                g.nodes[a].grad += out.grad * g.nodes[b].data
                g.nodes[b].grad += out.grad * g.nodes[a].data
            case Tanh(a):
                g.nodes[a].grad += out.grad * (1 - out.data**2)
"""

ONLY_MUL = (Mul, Tanh)
"""One op of each arity, so that each shape's ops are known: Mul, and Tanh."""


def learner(code: str, name: str):
    """The function `name` from code compiled as the page compiles a learner's."""
    linecache.cache["<playground>"] = (len(code), None, code.splitlines(True), "<playground>")
    namespace = {}
    exec(compile(code, "<playground>", "exec"), namespace)
    return namespace[name]


def course_backward(*edits: tuple[str, str]):
    code = COURSE_BACKWARD
    for old, new in edits:
        assert old in code
        code = code.replace(old, new)
    return learner(code, "Backward")


def graph_and_grads(number: int, ops=ONLY_MUL):
    """The check's graph `number` (from 1) and the engine's grads on it."""
    graph = exercise_graphs(ops, 8, 0)[number - 1]
    g = graph.build()
    Backward(g, graph.root)
    return graph, [v.grad for v in g.nodes]


def rules_like(engines):
    """A learner's function that is right everywhere: the engine's code, in a function
    of its own, with a chain rule of its own (the engine's is refused to it)."""
    rule = types.FunctionType(chain_rule.__code__, chain_rule.__globals__, "my_chain_rule")
    return types.FunctionType(engines.__code__, {**engines.__globals__, "chain_rule": rule},
                              "mine")


right_grads, right_order = rules_like(Backward), rules_like(TopoSort)


def failure(check, *args, **kwargs) -> str:
    with pytest.raises(AssertionError) as caught:
        check(*args, **kwargs)
    return str(caught.value)


def first_line(message: str) -> str:
    return message.split("\n", 1)[0]


# check_grads


def test_a_right_backward_and_the_courses_pass():
    check_grads(right_grads)
    check_grads(course_backward())
    check_grads(right_grads, ops=(Add, Sub, Mul, Neg, Tanh, Sigmoid), graphs=20, seed=3)


@pytest.mark.parametrize("given", [
    Backward, engine.autograd.Backward, lambda g, root: engine.Backward(g, root),
    functools.partial(Backward),
], ids=["the engine's", "by another name", "wrapped", "partial"])
def test_the_engines_own_backward_is_not_the_learners(given):
    message = failure(check_grads, given)
    assert first_line(message).startswith("the check wants your own ")
    assert Backward.__code__.co_name == "Backward"  # the engine's is itself again after


@pytest.mark.parametrize("check, called", [
    (check_grads, "engine.autograd.chain_rule"), (check_grads, "engine.explain.BackwardSteps"),
    (check_topo_sort, "engine.autograd.chain_rule"),
    (check_topo_sort, "engine.explain.BackwardSteps"),
])
def test_a_function_that_calls_the_engines_machinery_is_not_the_learners(check, called):
    module, name = called.rsplit(".", 1)
    machinery = getattr(__import__(module, fromlist=[name]), name)

    def mine(g, root):
        machinery(g, root) if name == "BackwardSteps" else machinery([], [], [], [], root, 1.0)

    assert first_line(failure(check, mine)).startswith(
        f"the check wants your own mine, but it calls {called}, the engine's own")
    assert machinery.__code__.co_name == name  # the engine's is itself again after


def test_the_engines_own_topo_sort_is_not_the_learners():
    message = failure(check_topo_sort, lambda g, root: TopoSort(g, root))
    assert first_line(message).startswith("the check wants your own ")
    assert TopoSort.__code__.co_name == "TopoSort"


def test_a_missing_plus_equals_names_the_node_used_twice():
    message = failure(check_grads, course_backward(("].grad +=", "].grad =")), ops=ONLY_MUL)
    graph, grads = graph_and_grads(2)
    assert graph.steps[2] == (Mul, (0, 0))
    share = grads[0] / 2
    assert first_line(message) == (
        f"node 0 is used twice, by node 2, Mul(0, 0) (as a and b): your grad for it is "
        f"{share:.6g}, expected {grads[0]:.6g}, the sum of its uses' shares "
        f"({share:.6g} + {share:.6g}). Yours is one use's share only: "
        f"did you add (+=) both uses?"
    )


def test_the_wrong_order_names_the_node_that_passed_nothing_back():
    message = failure(check_grads, course_backward(("in reversed(order)", "in order")),
                      ops=ONLY_MUL)
    _, grads = graph_and_grads(1)
    assert first_line(message) == (
        f"node 4, Mul(3, 2): your #3.grad is 0, expected {grads[3]:.6g}. "
        f"Node 3 got nothing from node 4: does your Backward handle Mul, and visit node 4 "
        f"before node 3 (users before their operands: the reverse of a topological order)?"
    )


def test_a_wrong_rule_names_the_op_and_the_operand():
    backward = course_backward(("(1 - out.data**2)", "(1 - g.nodes[a].data**2)"))
    message = failure(check_grads, backward, ops=ONLY_MUL)
    graph, grads = graph_and_grads(1)
    g = graph.build()
    theirs = 1 - g.nodes[4].data ** 2
    assert first_line(message) == (
        f"node 5, Tanh(4): your #4.grad is {theirs:.6g}, expected {grads[4]:.6g}"
    )


def test_a_backward_that_does_not_zero_first_is_told_on_its_second_call():
    backward = course_backward(("        g.nodes[i].grad = 0.0\n", "        pass\n"))
    message = failure(check_grads, backward, ops=ONLY_MUL)
    _, grads = graph_and_grads(1)
    assert first_line(message) == (
        "the first call of your Backward was right, the second on the same graph was not: "
        "set the grads it fills to 0 first, so that every call gives the same grads. "
        f"On the second call, node 5, Tanh(4): your #4.grad is "
        f"{2 * grads[4]:.6g}, expected {grads[4]:.6g}"
    )


def test_the_message_shows_the_code_of_the_graph_and_the_code_builds_it():
    message = failure(check_grads, course_backward(("in reversed(order)", "in order")),
                      ops=ONLY_MUL)
    graph, _ = graph_and_grads(1)
    assert message.split("\n")[1] == "That was on graph 1 of 8, which this code builds:"
    code = textwrap.dedent("\n".join(message.split("\n")[2:]))
    assert code == graph.code("Backward")
    namespace = vars(engine).copy()
    built = []
    namespace["Backward"] = lambda g, root: built.append((g, root))
    exec(code, namespace)
    (g, root), = built
    assert root == graph.root
    assert [(v.data, v.op) for v in g.nodes] == [(v.data, v.op) for v in graph.build().nodes]


def test_the_last_node_taken_for_the_root_is_named_on_the_graph_where_it_is_not():
    backward = course_backward(("g.nodes[root].grad = 1.0", "g.nodes[-1].grad = 1.0"))
    message = failure(check_grads, backward, ops=ONLY_MUL)
    graph, _ = graph_and_grads(5)
    assert graph.root == 3 and len(graph.steps) == 5
    assert first_line(message) == (
        "node 4 is not on the root's path (node 3 does not depend on it): "
        "its grad should stay 0, yours is 1"
    )
    assert "graph 5 of 8" in message


def test_a_wrong_root_grad_is_named():
    def backward(g, root):
        right_grads(g, root)
        g.nodes[root].grad = 0.5

    assert first_line(failure(check_grads, backward)) == (
        "node 5 is the root: your grad for it is 0.5, expected 1 (d root/d root)"
    )


def test_a_grad_that_is_not_a_number_is_named():
    def backward(g, root):
        right_grads(g, root)
        g.nodes[root - 1].grad = None

    message = first_line(failure(check_grads, backward))
    assert message.startswith("node 5, Tanh(4): your #4.grad is None (not a number), ")


def test_no_grads_set():
    assert first_line(failure(check_grads, learner("def f(g, root):\n    pass\n", "f"))) == (
        "your f left every grad at 0: it should set the root's grad to 1, then pass grads "
        "back from each node to its operands"
    )


def test_grads_returned_instead_of_set():
    def backward(g, root):
        return [1.0] * len(g.nodes)

    assert first_line(failure(check_grads, backward)) == (
        "your backward left every grad at 0 (it returned [1.0, 1.0, 1.0, 1.0, 1.0, 1.0], "
        "but grads belong on the nodes: g.nodes[i].grad): it should set the root's grad "
        "to 1, then pass grads back from each node to its operands"
    )


def test_the_learners_exception_is_named_with_its_line():
    backward = learner("def Backward(g, root):\n    order = TopoSort(g, root)\n"
                       "    return 1 / 0\n", "Backward")
    assert first_line(failure(check_grads, backward)) == (
        "your Backward raised NameError: name 'TopoSort' is not defined, "
        "at line 2: order = TopoSort(g, root)"
    )


def test_an_error_inside_the_engine_names_the_learners_line_that_called_it():
    backward = learner("from engine import TopoSort\n\ndef Backward(g, root):\n"
                       "    TopoSort(g, root + 100)\n", "Backward")
    assert first_line(failure(check_grads, backward)) == (
        "your Backward raised IndexError: TopoSort: root=105 is not a node of this graph "
        "(it has 6 nodes), at line 4: TopoSort(g, root + 100)"
    )


def test_not_a_function():
    assert failure(check_grads, 5) == (
        "check_grads needs your function backward(g, root), got 5 (type int), "
        "not a function"
    )


def test_a_backward_that_adds_nodes():
    def backward(g, root):
        right_grads(g, root)
        VAdd(g, root, root)

    assert first_line(failure(check_grads, backward)) == (
        "your backward changed the number of nodes (from 6 to 7): "
        "a backward pass only sets grads"
    )


def test_the_expected_grads_are_had_before_the_learners_backward_runs():
    def backward(g, root):
        engine.checks.Backward = lambda g, root: None  # would expect every grad to stay 0
        engine.autograd.ZeroGrad(g)

    original = engine.checks.Backward
    try:
        assert first_line(failure(check_grads, backward)).startswith("your backward left every")
    finally:
        engine.checks.Backward = original


# the graphs


def test_the_graphs_are_seeded_and_cover_the_usual_mistakes():
    graphs = exercise_graphs((Add, Mul, Tanh), 8, 0)
    assert graphs == exercise_graphs((Add, Mul, Tanh), 8, 0)
    assert graphs != exercise_graphs((Add, Mul, Tanh), 8, 1)
    uses_twice = as_both_operands = unused = root_not_last = False
    ops = set()
    for graph in graphs:
        g = graph.build()
        needed = set(TopoSort(g, graph.root))
        operands = [k for i in needed if g.nodes[i].op for k in g.nodes[i].op]
        ops |= {type(v.op) for v in g.nodes if v.op}
        uses_twice |= len(operands) > len(set(operands))
        as_both_operands |= any(v.op and len(set(v.op)) < len(v.op) for v in g.nodes)
        unused |= len(needed) < graph.root + 1
        root_not_last |= graph.root < len(g.nodes) - 1
    assert uses_twice and as_both_operands and unused and root_not_last
    assert ops == {Add, Mul, Tanh}


def test_graphs_the_checks_cannot_make():
    with pytest.raises(ValueError, match=r"and no others \(not Relu\)"):
        check_grads(Backward, ops=(Add, Tanh, engine.Relu))
    with pytest.raises(ValueError, match="one or more of Neg, Tanh, Sigmoid"):
        check_grads(Backward, ops=(Add, Mul))
    with pytest.raises(ValueError, match="graphs must be an int of 1 or more, got 0"):
        check_topo_sort(TopoSort, graphs=0)


# check_topo_sort


def test_any_topological_order_passes():
    def depth_first(g, root):
        order, seen = [], set()

        def visit(i):
            if i not in seen:
                seen.add(i)
                for k in g.nodes[i].op or ():
                    visit(k)
                order.append(i)

        visit(root)
        return order

    check_topo_sort(right_order)
    check_topo_sort(depth_first)


@pytest.mark.parametrize(("topo_sort", "message"), [
    (lambda g, root: right_order(g, root)[::-1],
     "your topo_sort returned [5, 4, 3, 2, 1, 0]: node 5, Tanh(4) comes before node 4, "
     "which it uses: every node must come after its operands"),
    (lambda g, root: list(range(root + 1)),
     "your topo_sort returned [0, 1, 2, 3, 4, 5, 6]: node 2 is not on the root's path "
     "(node 6 does not depend on it)"),
    (lambda g, root: right_order(g, root)[1:],
     "your topo_sort returned [1, 2, 3, 4, 5]: node 0 is missing, and node 3, Mul(0, 1) "
     "uses it"),
    (lambda g, root: right_order(g, root)[:-1],
     "your topo_sort returned [0, 1, 2, 3, 4]: the root, node 5, is missing"),
    (lambda g, root: [0, *right_order(g, root)],
     "your topo_sort returned [0, 0, 1, 2, 3, 4, 5]: node 0 is in it twice"),
    (lambda g, root: [*right_order(g, root), 99],
     "your topo_sort returned [0, 1, 2, 3, 4, 5, 99]: 99 is not a node of the graph "
     "(it has 6)"),
    (lambda g, root: [g.nodes[i] for i in right_order(g, root)][:1],
     "your topo_sort returned [Value(data=1.0, grad=0.0, op=None)]: "
     "Value(data=1.0, grad=0.0, op=None) is not a node index (an int)"),
    (lambda g, root: None,
     "your topo_sort returned None, not a list of node indices "
     "(did you forget to return it?)"),
])
def test_a_wrong_order_is_named(topo_sort, message):
    graph = exercise_graphs(ONLY_MUL, 8, 0)[0]
    data = graph.steps[0].args[0]
    assert first_line(failure(check_topo_sort, topo_sort, ops=ONLY_MUL)) == message.replace(
        "data=1.0", f"data={data!r}")


# check_graph


def chapter_graph():
    g = Graph()
    a, b, c = (MakeValue(g, x) for x in (2.0, -3.0, 10.0))
    VTanh(g, VAdd(g, VMul(g, a, b), c))
    return g


def test_the_chapters_graph_passes_in_any_order_of_its_ops():
    check_graph(chapter_graph(), expect_nodes=6, ops=["Mul", "Add", "Tanh"])
    check_graph(chapter_graph(), expect_nodes=6, ops=[Tanh, Add, Mul])


def test_the_courses_own_data_model_is_a_graph():
    class Mul(NamedTuple):
        a: int
        b: int

    @dataclass
    class Value:
        data: float
        grad: float = 0.0
        op: object = None

    @dataclass
    class OwnGraph:
        nodes: list = field(default_factory=list)

    g = OwnGraph([Value(2.0), Value(3.0), Value(6.0, op=Mul(0, 1))])
    check_graph(g, expect_nodes=3, ops=["Mul"])
    assert failure(check_graph, g, expect_nodes=4) == (
        "your graph has 3 nodes, expected 4; its nodes are 0: leaf, 1: leaf, 2: Mul(0, 1)"
    )


def test_not_a_graph():
    assert failure(check_graph, [1, 2]) == (
        "expected a Graph (with a list of nodes that have data, grad and op), "
        "got [1, 2] (type list)"
    )


def test_the_wrong_number_of_nodes():
    g = chapter_graph()
    MakeValue(g, 1.0)
    assert failure(check_graph, g, expect_nodes=6) == (
        "your graph has 7 nodes, expected 6; its nodes are 0: leaf, 1: leaf, 2: leaf, "
        "3: Mul(0, 1), 4: Add(3, 2), 5: Tanh(4), 6: leaf"
    )


def test_the_wrong_ops():
    g = chapter_graph()
    VAdd(g, 5, 5)
    assert failure(check_graph, g, ops=["Mul", "Add", "Tanh", "Mul"]) == (
        "your graph's ops are [Mul, Add, Tanh, Add], expected [Mul, Add, Tanh, Mul] "
        "(in any order): 1 Mul too few, 1 Add too many"
    )
    assert failure(check_graph, g, ops=["Mul", "Add", "Add", "Tanh", "Neg"]) == (
        "your graph's ops are [Mul, Add, Tanh, Add], expected [Mul, Add, Add, Tanh, Neg] "
        "(in any order): no Neg"
    )

