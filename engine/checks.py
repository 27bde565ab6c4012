"""Checks for exercises: each tries a learner's work and, when it is wrong, raises an
AssertionError whose message says what is wrong in the learner's own terms (the first
node that disagrees, the graph it happened on) and never shows the checking code.

    check_graph(g, expect_nodes=6, ops=["Mul", "Add", "Tanh"])
    check_topo_sort(TopoSort)
    check_grads(Backward)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from .autograd import Backward, EnginesOwnError, TopoSort, chain_rule
from .check_words import exception_text, function_name, learner_line, short
from .exercise_graphs import FORWARD, ExerciseGraph, exercise_graphs
from .explain import BackwardSteps
from .graph import Graph, MakeValue
from .inspect import is_graph_like
from .ops import Add, Mul, Tanh

CHAPTER_OPS = (Mul, Add, Tanh)
# What a learner's Backward or TopoSort may not call: the engine's own, and the
# machinery behind it, which would hand the check the answer it compares with.
BACKWARD_MACHINERY = (Backward, chain_rule, BackwardSteps)
TOPO_SORT_MACHINERY = (TopoSort, chain_rule, BackwardSteps)


def check_grads(
    backward: Callable[[Graph, int], Any],
    *,
    ops: Iterable[type] = CHAPTER_OPS,
    graphs: int = 8,
    seed: int = 0,
) -> None:
    """Run `backward(g, root)` on `graphs` small graphs over `ops` (the chapter's Mul, Add
    and Tanh by default) and compare every node's grad with the engine's Backward.

    Each graph gets two calls, as a learner's Backward must give the same grads every
    time. The first disagreement is named from the root down (in reverse topological order),
    which is where a backward pass first went wrong: "node 4, Mul(2, 3): your #2.grad is
    0.5, expected -1.5", with the code that builds the graph.
    """
    name = function_name(backward, "check_grads", "backward")
    tries = exercise_graphs(ops, graphs, seed)
    for number, graph in enumerate(tries, 1):
        g = graph.build()
        theirs, ours = g.copy(), g.copy()
        Backward(ours, graph.root)  # first: the learner's code cannot change what it expects
        with _refusing(BACKWARD_MACHINERY):
            returned = _call(backward, name, theirs, graph, number, len(tries))
        problem = _grad_problem(theirs, ours, graph.root, returned, name)
        if not problem:  # a pass that does not zero first adds up over calls
            with _refusing(BACKWARD_MACHINERY):
                again = _call(backward, name, theirs, graph, number, len(tries))
            second = _grad_problem(theirs, ours, graph.root, again, name)
            problem = second and (
                f"the first call of your {name} was right, the second on the same graph "
                f"was not: set the grads it fills to 0 first, so that every call gives "
                f"the same grads. On the second call, {second}")
        if problem:
            raise AssertionError(f"{problem}\n{_on(graph, number, len(tries), name)}")


def check_topo_sort(
    topo_sort: Callable[[Graph, int], Any],
    *,
    ops: Iterable[type] = CHAPTER_OPS,
    graphs: int = 8,
    seed: int = 0,
) -> None:
    """Run `topo_sort(g, root)` on `graphs` small graphs and check that it returns a list
    of exactly the nodes the root depends on (itself included), each after its operands.
    Any such order passes, not only the engine's."""
    name = function_name(topo_sort, "check_topo_sort", "topo_sort")
    tries = exercise_graphs(ops, graphs, seed)
    for number, graph in enumerate(tries, 1):
        g = graph.build()
        with _refusing(TOPO_SORT_MACHINERY):
            returned = _call(topo_sort, name, g.copy(), graph, number, len(tries))
        problem = _order_problem(returned, g, graph.root, name)
        if problem:
            raise AssertionError(f"{problem}\n{_on(graph, number, len(tries), name)}")


def check_graph(
    g: Any, expect_nodes: int | None = None, ops: Sequence[str | type] | None = None
) -> None:
    """Check that `g` is a graph (the engine's Graph, or any object with a `nodes` list
    whose items have data, grad and op, like the course's own), that it has
    `expect_nodes` nodes, and that its ops (the kinds of its non-leaf nodes, by name) are
    `ops` in any order, as a multiset: a graph may be built in any topological order."""
    if not is_graph_like(g):
        raise AssertionError(
            f"expected a Graph (with a list of nodes that have data, grad and op), "
            f"got {short(g)} (type {type(g).__name__})"
        )
    nodes = g.nodes
    if expect_nodes is not None and len(nodes) != expect_nodes:
        listing = ", ".join(f"{i}: {_op_text(v.op)}" for i, v in enumerate(nodes))
        raise AssertionError(
            f"your graph has {len(nodes)} nodes, expected {expect_nodes}"
            + (f"; its nodes are {listing}" if nodes else "")
        )
    if ops is not None:
        want = [op if isinstance(op, str) else op.__name__ for op in ops]
        have = [type(v.op).__name__ for v in nodes if v.op is not None]
        missing, extra = Counter(want) - Counter(have), Counter(have) - Counter(want)
        if missing or extra:
            differences = [f"no {k}" if k not in have else f"{n} {k} too few"
                           for k, n in missing.items()]
            differences += [f"{n} {k} too many" for k, n in extra.items()]
            raise AssertionError(
                f"your graph's ops are {_names(have)}, expected {_names(want)} "
                f"(in any order): {', '.join(differences)}"
            )


def _grad_problem(theirs: Graph, ours: Graph, root: int, returned: Any, name: str) -> str:
    """What is wrong with the learner's grads, the node nearest the root first; '' if
    nothing."""
    n = len(ours.nodes)
    if len(theirs.nodes) != n:
        return (f"your {name} changed the number of nodes (from {n} to "
                f"{len(theirs.nodes)}): a backward pass only sets grads")
    mine = [v.grad for v in theirs.nodes]
    expected = [v.grad for v in ours.nodes]
    if all(_close(m, e) for m, e in zip(mine, expected, strict=True)):
        return ""
    if all(type(m) in (int, float) and m == 0 for m in mine):
        note = "" if returned is None else (
            f" (it returned {short(returned)}, but grads belong on the nodes: "
            f"g.nodes[i].grad)")
        return (f"your {name} left every grad at 0{note}: it should set the root's grad "
                f"to 1, then pass grads back from each node to its operands")
    reached = set(TopoSort(ours, root))
    uses: dict[int, list[tuple[int, str]]] = {}
    for i in sorted(reached):
        op = ours.nodes[i].op
        if op is not None:
            for role, j in zip(op._fields, op, strict=True):
                uses.setdefault(j, []).append((i, role))
    for j in reversed(range(n)):
        if _close(mine[j], expected[j]):
            continue
        got, want = _numbers(mine[j], expected[j])
        if j == root:
            return f"node {j} is the root: your grad for it is {got}, expected 1 (d root/d root)"
        if j not in reached:
            return (f"node {j} is not on the root's path (node {root} does not depend on "
                    f"it): its grad should stay {want}, yours is {got}")
        return _use_problem(ours, j, uses[j], mine[j], got, want, name)
    return ""


def _use_problem(
    ours: Graph, j: int, uses: list[tuple[int, str]], mine: Any, got: str, want: str, name: str
) -> str:
    """The message for node j, whose users all have the right grads: so one of their
    rules, or adding up their shares, went wrong."""
    if len(uses) == 1:
        (i, role), = uses
        message = f"{_node(ours, i)}: your #{j}.grad is {got}, expected {want}"
        if type(mine) in (int, float) and mine == 0:
            kind = type(ours.nodes[i].op).__name__
            message += (f". Node {j} got nothing from node {i}: does your {name} handle "
                        f"{kind}, and visit node {i} before node {j} (users before their "
                        f"operands: the reverse of a topological order)?")
        return message
    shares = [ours.nodes[i].grad * _local_derivative(ours, i, role) for i, role in uses]
    times = "twice" if len(uses) == 2 else f"{len(uses)} times"
    users: dict[int, list[str]] = {}
    for i, role in uses:
        users.setdefault(i, []).append(role)
    by = " and ".join(f"{_node(ours, i)} (as {' and '.join(roles)})"
                      for i, roles in sorted(users.items(), reverse=True))
    message = (f"node {j} is used {times}, by {by}: your grad for it is {got}, expected "
               f"{want}, the sum of its uses' shares ({' + '.join(map(_number, shares))})")
    if any(_close(mine, share) for share in shares):
        every = "both" if len(uses) == 2 else f"all {len(uses)}"
        message += f". Yours is one use's share only: did you add (+=) {every} uses?"
    return message


def _local_derivative(g: Graph, i: int, role: str) -> float:
    """d(node i)/d(its operand `role`), by the engine's own rule: its op on fresh leaves."""
    op = g.nodes[i].op
    tiny = Graph()
    leaves = [MakeValue(tiny, g.nodes[k].data) for k in op]
    Backward(tiny, FORWARD[type(op)](tiny, *leaves))
    return tiny.nodes[leaves[op._fields.index(role)]].grad


def _order_problem(returned: Any, g: Graph, root: int, name: str) -> str:
    """What is wrong with the learner's topological order; '' if nothing."""
    if not isinstance(returned, (list, tuple)):
        hint = " (did you forget to return it?)" if returned is None else ""
        return (f"your {name} returned {short(returned)}, not a list of node indices"
                f"{hint}")
    said = f"your {name} returned {short(returned)}"
    needed = TopoSort(g, root)
    seen: set[int] = set()
    for item in returned:
        if type(item) is not int:
            return f"{said}: {short(item)} is not a node index (an int)"
        if item in seen:
            return f"{said}: node {item} is in it twice"
        if not 0 <= item < len(g.nodes):
            return f"{said}: {item} is not a node of the graph (it has {len(g.nodes)})"
        if item not in needed:
            return (f"{said}: node {item} is not on the root's path "
                    f"(node {root} does not depend on it)")
        seen.add(item)
    for j in reversed(needed):
        if j not in seen:
            if j == root:
                return f"{said}: the root, node {j}, is missing"
            user = next(i for i in reversed(needed) if j in (g.nodes[i].op or ()))
            return f"{said}: node {j} is missing, and {_node(g, user)} uses it"
    placed: set[int] = set()
    for item in returned:
        later = [k for k in g.nodes[item].op or () if k not in placed]
        if later:
            return (f"{said}: {_node(g, item)} comes before node {later[0]}, which it "
                    f"uses: every node must come after its operands")
        placed.add(item)
    return ""


def _refusal(engines: Callable) -> Any:
    """The code an engine function runs while refusing: it runs in that function's
    module, so the EnginesOwnError it raises, naming the function, is found there."""
    name = f"{engines.__module__}.{engines.__name__}"
    namespace: dict[str, Any] = {}
    exec(f"def refused(*args, **kwargs):\n    raise EnginesOwnError({name!r})\n", namespace)
    return namespace["refused"].__code__


@contextmanager
def _refusing(engines: Sequence[Callable]) -> Iterator[None]:
    """While the learner's function runs, the engine's own functions (`engines`) refuse
    to run, however they are reached (renamed, wrapped, imported under another name): a
    check that compares the learner's Backward with the engine's must not be given the
    engine's, nor what it is made of."""
    codes = [fn.__code__ for fn in engines]
    for fn in engines:
        fn.__code__ = _REFUSALS[fn]
    try:
        yield
    finally:
        for fn, code in zip(engines, codes, strict=True):
            fn.__code__ = code


def _call(
    fn: Callable[[Graph, int], Any], name: str, g: Graph, graph: ExerciseGraph,
    number: int, count: int,
) -> Any:
    """fn(g, root); the learner's exception becomes a message naming it and their line."""
    try:
        return fn(g, graph.root)
    except EnginesOwnError as called:
        raise AssertionError(
            f"the check wants your own {name}, but it calls {called}, the engine's own, "
            f"which is what it is compared with: write the rule yourself") from None
    except Exception as exc:
        raise AssertionError(
            f"your {name} raised {exception_text(exc)}{learner_line(exc)}\n"
            f"{_on(graph, number, count, name)}"
        ) from exc




def _on(graph: ExerciseGraph, number: int, count: int, name: str) -> str:
    code = graph.code(name).replace("\n", "\n    ")
    return f"That was on graph {number} of {count}, which this code builds:\n    {code}"




def _node(g: Graph, i: int) -> str:
    return f"node {i}, {_op_text(g.nodes[i].op)}"


def _op_text(op: Any) -> str:
    """As the course writes ops: Mul(2, 3), without the field names of a NamedTuple."""
    if op is None:
        return "leaf"
    if isinstance(op, tuple) and hasattr(op, "_fields"):
        return f"{type(op).__name__}({', '.join(short(x) for x in op)})"
    return short(op)


def _names(kinds: list[str]) -> str:
    return "[" + ", ".join(kinds) + "]"


def _close(mine: Any, expected: float) -> bool:
    return (type(mine) in (int, float)
            and math.isclose(mine, expected, rel_tol=1e-6, abs_tol=1e-12))


def _number(x: float) -> str:
    return f"{x:.6g}"


def _numbers(mine: Any, expected: float) -> tuple[str, str]:
    """Both numbers short, unless that would make them look alike."""
    if type(mine) not in (int, float):
        return f"{short(mine)} (not a number)", _number(expected)
    if _number(mine) == _number(expected):
        return repr(mine), repr(expected)
    return _number(mine), _number(expected)


_REFUSALS = {fn: _refusal(fn) for fn in {*BACKWARD_MACHINERY, *TOPO_SORT_MACHINERY}}
