"""g.nodes as the course uses it: a list of Values whose reads and writes are the graph's."""

import copy
import pickle
from fractions import Fraction

import pytest

from engine import Add, Backward, Graph, Handle, MakeValue, Mul, VAdd, Value, VMul, VTanh


def small_graph() -> tuple[Graph, int, int, int]:
    g = Graph()
    a = MakeValue(g, 2.0, label="a")
    b = MakeValue(g, 3.0, label="b")
    return g, a, b, VMul(g, a, b)


def test_a_node_reads_as_a_value_with_data_grad_op_and_label():
    g, a, b, c = small_graph()
    Backward(g, c)
    v = g.nodes[c]
    assert (v.data, v.grad, v.op, v.label) == (6.0, 1.0, Mul(a, b), None)
    assert (g.nodes[a].label, g.nodes[-1].op) == ("a", Mul(0, 1))
    match v.op:
        case Mul(x, y):
            assert (x, y) == (a, b)
        case _:
            pytest.fail(f"match did not see Mul in {v.op!r}")


def test_assigning_a_nodes_fields_writes_the_graph():
    g, a, b, c = small_graph()
    g.nodes[a].data = 5.0
    g.nodes[b].grad = 7.0
    g.nodes[c].op = Add(a, b)
    g.nodes[c].label = "c"
    assert [(v.data, v.grad, v.op, v.label) for v in g.nodes] == [
        (5.0, 0.0, None, "a"), (3.0, 7.0, None, "b"), (6.0, 0.0, Add(0, 1), "c")]
    Backward(g, c)
    assert [v.grad for v in g.nodes] == [1.0, 1.0, 1.0]


def test_a_value_appended_by_hand_becomes_the_graphs_node():
    g = Graph()
    g.nodes.append(Value(2.0, label="x"))
    y = Value(4.0, op=Mul(0, 0))
    g.nodes.append(y)
    assert len(g.nodes) == 2 and g.nodes[1].op == Mul(0, 0)
    Backward(g, 1)
    assert (y.grad, g.nodes[0].grad) == (1.0, 4.0)  # y is node 1 now, not a copy
    y.data = 9.0
    assert g.nodes[1].data == 9.0


def test_the_newest_nodes_can_be_deleted_and_others_cannot():
    g, a, b, c = small_graph()
    with pytest.raises(ValueError, match="only the newest nodes can be deleted"):
        del g.nodes[a]
    del g.nodes[b:]
    assert [(v.data, v.label) for v in g.nodes] == [(2.0, "a")]
    assert VAdd(g, a, a) == 1 and g.nodes[1].label is None  # b's label went with it


def test_only_values_go_into_a_graph():
    g = Graph()
    with pytest.raises(TypeError, match="g.nodes holds Values, not tuple"):
        g.nodes.append((1.0, 0.0, None))
    with pytest.raises(TypeError, match="item 1 is a float"):
        g.nodes = [Value(1.0), 2.0]
    assert len(g.nodes) == 0


def test_an_index_past_the_end_names_the_graphs_size():
    g, *_ = small_graph()
    with pytest.raises(IndexError, match=r"node index 3 out of range \(the graph has 3 nodes\)"):
        g.nodes[3]


@pytest.mark.parametrize("index", [3, 50, -4, -100])
def test_deleting_a_node_past_either_end_names_the_index_and_the_graphs_size(index):
    g, *_ = small_graph()
    with pytest.raises(IndexError, match=rf"node index {index} out of range \(the graph has 3 "
                                         r"nodes\)"):
        del g.nodes[index]
    assert len(g.nodes) == 3


@pytest.mark.parametrize("empty", [slice(1, 1), slice(3, None), slice(50, 60), slice(2, 0),
                                   slice(-100, -100), slice(0, 3, -1)])
def test_deleting_an_empty_slice_deletes_nothing(empty):
    g, *_ = small_graph()
    del g.nodes[empty]
    assert [v.data for v in g.nodes] == [2.0, 3.0, 6.0]


@pytest.mark.parametrize(("newest", "left"), [
    (-1, 2), (2, 2), (slice(2, 100), 2), (slice(-2, None), 1), (slice(None, None, -1), 0),
    (slice(-1, None, 5), 2), (slice(None, 0, -1), 1)])
def test_any_index_or_slice_that_names_exactly_the_newest_nodes_deletes_them(newest, left):
    g, *_ = small_graph()
    del g.nodes[newest]
    assert len(g.nodes) == left


@pytest.mark.parametrize("middle", [0, -3, 1, slice(0, 1), slice(None, None, 2), slice(1, 2)])
def test_deleting_a_node_later_ones_may_refer_to_is_refused(middle):
    g, *_ = small_graph()
    with pytest.raises(ValueError, match="only the newest nodes can be deleted"):
        del g.nodes[middle]
    assert len(g.nodes) == 3


STALE_USES = {
    "v.data": lambda v, h: v.data,
    "v.grad": lambda v, h: v.grad,
    "v.op": lambda v, h: v.op,
    "v.label": lambda v, h: v.label,
    "v.data = 1.0": lambda v, h: setattr(v, "data", 1.0),
    "v.grad = 1.0": lambda v, h: setattr(v, "grad", 1.0),
    "h.data": lambda v, h: h.data,
    "h.grad = 0": lambda v, h: setattr(h, "grad", 0),
    "h * 2": lambda v, h: h * 2,
    "h + h": lambda v, h: h + h,
    "1 - h": lambda v, h: 1 - h,
    "h ** 2": lambda v, h: h**2,
    "h.tanh()": lambda v, h: h.tanh(),
    "h.backward()": lambda v, h: h.backward(),
}


@pytest.mark.parametrize("use", STALE_USES.values(), ids=STALE_USES.keys())
def test_a_value_or_handle_of_a_deleted_node_says_so_rather_than_use_its_successor(use):
    g, *_ = small_graph()
    v, h = g.nodes[2], Handle(g, 2)
    del g.nodes[2:]
    MakeValue(g, 99.0)
    with pytest.raises(ReferenceError, match=r"node 2 was deleted by del g\.nodes\[2:\]"):
        use(v, h)
    assert [(v.data, v.grad) for v in g.nodes] == [(2.0, 0.0), (3.0, 0.0), (99.0, 0.0)]


def test_values_and_handles_of_the_nodes_a_deletion_kept_go_on_as_before():
    g, a, b, _ = small_graph()
    v, h = g.nodes[b], Handle(g, b)
    for step in range(3):  # a training loop's own pattern
        del g.nodes[2:]
        VMul(g, a, b)
        assert v.data == h.data == 3.0 + step
        h.data += 1
    assert (h * 2).data == 12.0 and v.label == "b"


def test_two_values_of_one_node_are_equal_and_hash_alike_as_one_value():
    g, a, b, c = small_graph()
    v, w = g.nodes[c], g.nodes[c]
    assert v == w and hash(v) == hash(w) and len({v, w}) == 1
    assert v in g.nodes and g.nodes.index(v) == c and g.nodes.count(v) == 1
    assert g.nodes[a] != g.nodes[b] and g.nodes[a] not in g.nodes[1:]
    other, _, _, _ = small_graph()
    assert other.nodes[c] != v and other.nodes[c] not in g.nodes
    assert Value(6.0) != v and Value(6.0) not in g.nodes  # a Value by hand is its own graph's


def test_micrograds_build_topo_ported_to_values_visits_each_node_once():
    g = Graph()
    a = MakeValue(g, 2.0)
    root = VAdd(g, VMul(g, a, a), a)  # a is used three times
    topo, visited = [], set()

    def build_topo(v):
        if v not in visited:
            visited.add(v)
            for child in v.op[: v.op.arity] if v.op is not None else ():
                build_topo(g.nodes[child])
            topo.append(v)

    build_topo(g.nodes[root])
    assert topo == [g.nodes[a], g.nodes[1], g.nodes[root]]


def test_an_iterator_goes_on_as_a_lists_after_a_deletion_or_an_append():
    g, *_ = small_graph()
    nodes = iter(g.nodes)
    first = next(nodes)
    del g.nodes[1:]
    assert list(nodes) == [] and first.data == 2.0
    nodes = iter(g.nodes)
    next(nodes)
    MakeValue(g, 5.0)
    assert [v.data for v in nodes] == [5.0]


def test_a_slice_assigned_as_many_values_copies_each_into_its_node():
    g, *_ = small_graph()
    kept = g.nodes[2]
    g.nodes[1:3] = [Value(8.0), Value(9.0, op=Mul(0, 1), label="y")]
    assert [(v.data, v.op, v.label) for v in g.nodes] == [
        (2.0, None, "a"), (8.0, None, None), (9.0, Mul(0, 1), "y")]
    assert kept.data == 9.0  # node 2 is still node 2, as after g.nodes[2] = Value(9.0)
    g.nodes[::2] = (Value(1.0), Value(3.0))
    assert [v.data for v in g.nodes] == [1.0, 8.0, 3.0]


@pytest.mark.parametrize(("target", "count", "datas"), [
    (slice(2, None), 2, [2.0, 3.0, 7.0, 7.0]), (slice(1, 9), 0, [2.0]),
    (slice(3, 3), 1, [2.0, 3.0, 6.0, 7.0]), (slice(None), 1, [7.0])])
def test_the_newest_nodes_can_be_replaced_by_any_number_of_values(target, count, datas):
    g, *_ = small_graph()
    g.nodes[target] = [Value(7.0) for _ in range(count)]
    assert [v.data for v in g.nodes] == datas


@pytest.mark.parametrize(("target", "count", "message"), [
    (slice(0, 1), 0, r"g.nodes\[0:1\] = 0 values would move the nodes after them"),
    (slice(1, 1), 1, r"g.nodes\[1:1\] = 1 values would move the nodes after them"),
    (slice(None, None, 2), 1, "attempt to assign 1 values to an extended slice of 2 nodes"),
])
def test_a_slice_assignment_that_would_move_nodes_is_refused_naming_it(target, count, message):
    g, *_ = small_graph()
    with pytest.raises(ValueError, match=message):
        g.nodes[target] = [Value(7.0)] * count
    assert [v.data for v in g.nodes] == [2.0, 3.0, 6.0]


def test_a_slice_assignment_of_something_else_than_values_changes_nothing():
    g, *_ = small_graph()
    with pytest.raises(TypeError, match="g.nodes holds Values: item 1 is a float"):
        g.nodes[1:3] = [Value(8.0), 9.0]
    assert [v.data for v in g.nodes] == [2.0, 3.0, 6.0]


@pytest.mark.parametrize("copy_of", [copy.copy, copy.deepcopy,
                                     lambda v: pickle.loads(pickle.dumps(v))])
def test_a_copy_of_a_value_is_a_value_of_its_own_as_a_lists_item_copy_is(copy_of):
    g, a, b, c = small_graph()
    g.nodes[c].label = "c"
    Backward(g, c)
    w = copy_of(g.nodes[c])
    assert (w.data, w.grad, w.op, w.label) == (6.0, 1.0, Mul(a, b), "c")
    w.data, w.grad, w.label = 9.0, 0.5, "w"
    assert [(v.data, v.grad, v.label) for v in g.nodes] == [
        (2.0, 3.0, "a"), (3.0, 2.0, "b"), (6.0, 1.0, "c")]
    assert w != g.nodes[c]
    g.nodes.append(w)  # its op still names g's nodes, as a Value made by hand would
    assert g.nodes[3].op == Mul(a, b)


def test_a_pickled_value_holds_its_node_not_the_graph_around_it():
    g = Graph()
    x = MakeValue(g, 1.0)
    for _ in range(10_000):
        x = VTanh(g, x)
    alone = Value(g.nodes[3].data, op=g.nodes[3].op)
    assert len(pickle.dumps(g.nodes[3])) == len(pickle.dumps(alone))


def test_a_set_of_values_kept_across_a_step_holds_none_of_the_new_nodes():
    g, a, b, c = small_graph()
    old = g.nodes[c]
    kept = {g.nodes[a], g.nodes[b], old}
    del g.nodes[c:]
    VAdd(g, a, b)
    assert g.nodes[c] not in kept and g.nodes[c] != old and old != g.nodes[c]
    assert g.nodes[a] in kept and g.nodes[b] in kept
    assert old == old and old in kept and hash(old) == hash(g.nodes[c])


@pytest.mark.parametrize(("data", "stored"), [(3, 3.0), (Fraction(1, 4), 0.25), (-0.0, -0.0)])
def test_a_data_is_stored_as_a_float_however_it_is_given(data, stored):
    g, a, b, c = small_graph()
    g.nodes[a].data = data
    v = Value(data)
    for got in g.nodes[a].data, v.data, g.value(data).data, g.nodes[MakeValue(g, data)].data:
        assert type(got) is float and str(got) == str(stored)
    assert type(g.nodes[VMul(g, a, b)].data) is float


BAD_DATA = [
    ("2", "must be a real number, got '2' (str)"),
    ([1.0], "must be a real number, got [1.0] (list)"),
    (True, "must be a real number, got True (bool)"),
    (10**400, "must be a real number within a float's range (±1.8e308), "
              "got an int of about 400 digits"),
]


@pytest.mark.parametrize(("data", "message"), BAD_DATA)
def test_a_bad_data_is_refused_alike_everywhere_and_leaves_the_graph_as_it_was(data, message):
    g, a, *_ = small_graph()
    before = [(v.data, v.op) for v in g.nodes]
    writes = {
        "MakeValue: data": lambda: MakeValue(g, data),
        "Value: data": lambda: g.nodes.append(Value(data)),
        "Value.data": lambda: setattr(g.nodes[a], "data", data),
        "Handle.data": lambda: setattr(Handle(g, a), "data", data),
    }
    for what, write in writes.items():
        with pytest.raises((TypeError, OverflowError)) as info:
            write()
        assert str(info.value) == f"{what} {message}"
        assert [(v.data, v.op) for v in g.nodes] == before


@pytest.mark.parametrize("label", [3, b"a", ["a"]])
def test_a_label_is_a_str_or_none_everywhere(label):
    g, a, *_ = small_graph()
    writes = {
        "MakeValue: label": lambda: MakeValue(g, 1.0, label=label),
        "Value: label": lambda: Value(1.0, label=label),
        "Value.label": lambda: setattr(g.nodes[a], "label", label),
    }
    for what, write in writes.items():
        with pytest.raises(TypeError) as info:
            write()
        assert str(info.value) == f"{what} must be a str or None, got {label!r}"
    assert [v.label for v in g.nodes] == ["a", "b", None] and len(g.nodes) == 3
    g.nodes[a].label = None
    assert g.nodes[a].label is None
