"""The runner against hostile graph-like objects made by hypothesis: whatever their
attributes hold or raise, the run ends with the code's own status, the result is JSON
the page can parse, every table one the page reads, and every string in it capped."""

from __future__ import annotations

import sys
from types import ModuleType

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Graph, Value
from playground_runner.caps import CELL_CHARS, FULL_LABEL_CHARS, TITLE_CHARS
from tests.web.runs import run
from tests.web.tables import assert_page_reads

# A clipped string is its first `limit` characters and "… n more characters".
SLACK = 40
ERRORS = st.sampled_from(
    [KeyError, ValueError, TypeError, RecursionError, ZeroDivisionError, AttributeError,
     SystemExit, GeneratorExit, OverflowError]
)


class Text(str):
    """A str subclass whose methods fail: only str's own code may touch it."""

    def __len__(self):
        raise RuntimeError("len")

    def __add__(self, other):
        raise RuntimeError("add")

    def count(self, *args):
        raise RuntimeError("count")


class Weird:
    """An object whose str and repr are huge, a str subclass, or an exception."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        if isinstance(self.text, type):
            raise self.text("repr")
        return self.text

    __str__ = __repr__


def raising(error: type[BaseException]) -> property:
    def get(self):
        raise error("read")

    return property(get)


texts = st.one_of(st.text(max_size=8), st.integers(1, 50_000).map(lambda n: "w" * n),
                  st.just(Text("sub")))
weird = st.one_of(texts.map(Weird), ERRORS.map(Weird))
odd = st.one_of(st.integers(-(10**400), 10**400), st.booleans(), st.none(), texts, weird)
values = st.one_of(st.floats(), st.floats(), st.floats(), odd)  # mostly numbers
ops = st.one_of(
    st.none(), values,
    st.tuples(texts, st.integers(-3, 5), st.integers(-3, 5)),
    st.lists(st.one_of(st.integers(0, 5), values), max_size=3).map(lambda xs: ("Op", *xs)),
)
parts = {"data": values, "grad": values, "op": ops, "label": st.one_of(values, texts)}

# The engine's Values hold a float as data and a str or None as label (they refuse
# anything else); their grad and op are the learner's to set to anything.
engine_data = st.one_of(st.floats(), st.integers(-(10**308), 10**308))
engine_labels = st.one_of(st.none(), st.text(max_size=8),
                          st.integers(1, 50_000).map(lambda n: "w" * n))
engine_values = st.builds(Value, engine_data, values, ops, engine_labels)

# Mostly readable, so that most graphs get as far as a table.
HOW = st.sampled_from(["plain"] * 14 + ["raising", "missing"])


@st.composite
def nodes(draw):
    attrs = {}
    for name, strategy in parts.items():
        how = draw(HOW)
        if how == "plain":
            attrs[name] = draw(strategy)
        elif how == "raising":
            attrs[name] = draw(ERRORS.map(raising))
    if draw(HOW) == "raising":
        error = draw(ERRORS)

        def getattr_(self, name, error=error):
            raise error(name)

        attrs["__getattr__"] = getattr_
    return type("N", (), attrs)()


class FailingList(list):
    def __iter__(self):
        raise RuntimeError("iter")


@st.composite
def graphs(draw):
    items = draw(st.lists(nodes(), min_size=1, max_size=6))
    lines = draw(st.one_of(
        st.none(), values,
        st.dictionaries(st.integers(0, 6), st.one_of(st.integers(1, 99), values), max_size=4),
    ))
    root = draw(st.one_of(st.integers(-2, 8), values))
    kind = draw(st.sampled_from(["engine", "built on Graph", "own"]))
    if kind == "engine":  # an engine Graph holds Values, whatever their grads and ops
        graph = Graph()
        graph.nodes = draw(st.lists(engine_values, min_size=1, max_size=6))
        graph.lines, graph.backward_root = lines, root
        return graph
    node_list = draw(st.sampled_from([list, list, list, FailingList, tuple]))(items)
    nodes_attr = node_list if draw(HOW) == "plain" else draw(ERRORS.map(raising))
    if kind == "built on Graph":  # the learner's nodes, and a Backward root to replay
        graph = type("G", (Graph,), {"nodes": nodes_attr})()
        graph.lines, graph.backward_root = lines, root
        return graph
    return type("G", (), {"nodes": nodes_attr, "lines": lines, "backward_root": root})()


def capped(text: object, limit: int) -> bool:
    return text is None or (type(text) is str and len(text) <= limit + SLACK)


def run_with(code: str, graph: object, title: object = None) -> tuple[dict, str]:
    """Run `code` with `graph` and `title` importable from the module `hostile`."""
    module = ModuleType("hostile")
    module.graph, module.title = graph, title
    sys.modules["hostile"] = module
    try:
        return run(code)
    finally:
        del sys.modules["hostile"]


@settings(max_examples=150)
@given(graphs())
def test_a_hostile_graph_in_the_globals_never_changes_the_runs_status(graph):
    result, output = run_with("from hostile import graph\nprint('ran')\n", graph)
    assert result["status"] == "done", result["error"]
    assert output.startswith("ran\n")
    assert "JSON" not in output  # every table is JSON-ready as made, not dropped at the end
    for table in result["tables"]:
        assert_page_reads(table)
        assert capped(table["title"], TITLE_CHARS)
        for column in ("label", "op", "data", "grad"):
            assert len(table[column]) == table["count"]
            assert all(capped(x, CELL_CHARS) for x in table[column] if type(x) is not float)
        assert all(capped(x, FULL_LABEL_CHARS) for x in table["fullLabel"].values())


@settings(max_examples=100)
@given(graphs(), st.one_of(st.none(), texts, weird))
def test_showing_a_hostile_graph_is_a_table_a_note_or_an_error_of_show(graph, title):
    result, _ = run_with("from hostile import graph, title\nshow(graph, title)\n", graph, title)
    assert result["status"] in ("done", "error")
    if result["status"] == "error":
        assert result["line"] == 2 and len(result["error"]) < 25_000
    for table in result["tables"]:
        assert_page_reads(table)
        assert capped(table["title"], TITLE_CHARS)
