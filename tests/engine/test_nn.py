"""Neurons, layers and MLPs live on the graph; the moons example learns."""

import random

import pytest

from engine import Backward, Graph, MakeValue, Relu, VAdd, VMul, VRelu
from engine.datasets import make_moons
from engine.lines import record_lines
from engine.nn import MLP, Layer, Neuron
from examples.moons import train


def test_a_neuron_computes_relu_of_w_dot_x_plus_b():
    g = Graph()
    n = Neuron(g, 2, rng=random.Random(0))
    x = [MakeValue(g, 0.5), MakeValue(g, -1.0)]
    out = n(x)
    w = [g.nodes[i].data for i in n.w]
    assert g.nodes[out].op == Relu(out - 1)
    assert g.nodes[out].data == max(0.0, w[0] * 0.5 - w[1])


def test_a_neuron_records_the_nodes_of_vadd_and_vmul_input_by_input():
    g = Graph()
    n = Neuron(g, 3, rng=random.Random(1))
    x = [MakeValue(g, v) for v in (0.5, -1.0, 2.0)]
    with record_lines(test_a_neuron_records_the_nodes_of_vadd_and_vmul_input_by_input.__code__):
        out = n(x)
    by_hand = g.copy()
    del by_hand.nodes[out - 6 :]
    act = n.b
    for wi, xi in zip(n.w, x, strict=True):
        act = VAdd(by_hand, act, VMul(by_hand, wi, xi))
    VRelu(by_hand, act)
    assert [(v.data, v.op, v.label) for v in g.nodes] == [
        (v.data, v.op, v.label) for v in by_hand.nodes]
    assert sorted(g.lines) == list(range(out - 6, out + 1))


@pytest.mark.parametrize("nin", [0, 1, 2, 16])
@pytest.mark.parametrize("nonlin", [True, False])
def test_a_neuron_of_any_width_gives_the_floats_and_grads_of_vmul_and_vadd_by_hand(nin, nonlin):
    g = Graph()
    n = Neuron(g, nin, nonlin, rng=random.Random(nin))
    g.nodes[n.b].data = 0.25
    x = [MakeValue(g, random.Random(i).uniform(-2, 2)) for i in range(nin)]
    by_hand = g.copy()
    out = n(x)
    act = n.b
    for wi, xi in zip(n.w, x, strict=True):
        act = VAdd(by_hand, act, VMul(by_hand, wi, xi))
    assert (VRelu(by_hand, act) if nonlin else act) == out
    Backward(g, out)
    Backward(by_hand, out)
    assert [(v.data, v.grad, v.op) for v in g.nodes] == [
        (v.data, v.grad, v.op) for v in by_hand.nodes]


@pytest.mark.parametrize(("x", "error", "message"), [
    ([5, 6, 99], IndexError, "VMul: operand b=99 is not a node of this graph (it has 7 nodes)"),
    ([5, 6, 6.0], TypeError, "VMul: operand b=6.0 is not a node index (an int), it is a float"),
    ([5, 6], ValueError, "Neuron: 2 inputs for 3 weights"),
])
def test_a_neuron_refuses_bad_inputs_and_leaves_the_graph_unchanged(x, error, message):
    g = Graph()
    n = Neuron(g, 3, rng=random.Random(1))
    MakeValue(g, 0.5)
    MakeValue(g, -1.0)
    MakeValue(g, 2.0)
    before = [(v.data, v.op) for v in g.nodes]
    with pytest.raises(error) as info:
        n(x)
    assert str(info.value) == message
    assert [(v.data, v.op) for v in g.nodes] == before


def test_parameters_are_the_leaves_made_first():
    g = Graph()
    model = MLP(g, 2, [16, 16, 1], rng=random.Random(0))
    assert len(model.parameters()) == 16 * 3 + 16 * 17 + 17
    assert model.parameters() == list(range(len(g.nodes)))
    assert all(g.nodes[p].op is None for p in model.parameters())


def test_only_the_last_layer_is_linear():
    g = Graph()
    model = MLP(g, 3, [4, 2], rng=random.Random(0))
    assert [n.nonlin for layer in model.layers for n in layer.neurons] == [True] * 4 + [False] * 2
    assert isinstance(model.layers[0], Layer)


def test_backward_reaches_every_parameter():
    g = Graph()
    model = MLP(g, 2, [4, 1], rng=random.Random(3))
    (out,) = model([MakeValue(g, 1.0), MakeValue(g, 2.0)])
    Backward(g, VAdd(g, out, out))
    grads = [g.nodes[p].grad for p in model.layers[-1].parameters()]
    assert grads[-1] == 2.0  # the output bias gets d(2 * out)/d(out)


def test_the_moons_data_set_is_two_labelled_halves():
    points, labels = make_moons(50, 0.1, random.Random(0))
    assert len(points) == 50 and sorted(set(labels)) == [-1, 1]
    assert labels.count(1) == 25


def test_training_on_the_moons_lowers_the_loss_and_classifies(capsys):
    loss, accuracy = train(steps=25, n=60)
    printed = capsys.readouterr().out.splitlines()
    first_loss = float(printed[0].split("loss")[1].split()[0])
    assert loss < first_loss / 2
    assert accuracy >= 0.85
    assert printed[-1].startswith("step  24")


def test_forward_on_floats_gives_the_recorded_pass_s_numbers_and_records_nothing():
    rng = random.Random(5)
    g = Graph()
    model = MLP(g, 2, [16, 16, 1], rng=rng)
    for p in model.parameters():  # trained-looking weights, some relu inputs negative
        g.nodes[p].data = rng.uniform(-2, 2)
    n_params = len(g.nodes)
    for x, y in [(0.5, -1.0), (2.0, 0.25), (-1.5, 1.5), (0.0, 0.0), (3, -2)]:
        recorded = [g.nodes[i].data for i in model([MakeValue(g, x), MakeValue(g, y)])]
        del g.nodes[n_params:]
        assert model.forward([x, y]) == recorded
        assert len(g.nodes) == n_params


def test_forward_of_a_layer_and_a_neuron_matches_their_recorded_outputs():
    g = Graph()
    layer = Layer(g, 3, 4, rng=random.Random(2))
    x = [0.3, -0.7, 1.1]
    recorded = [g.nodes[i].data for i in layer([MakeValue(g, v) for v in x])]
    assert layer.forward(x) == recorded
    assert layer.neurons[0].forward(x) == recorded[0]


def test_a_predictor_gives_forward_s_numbers_with_the_weights_it_was_made_with():
    rng = random.Random(7)
    g = Graph()
    model = MLP(g, 2, [16, 16, 1], rng=rng)
    inputs = [[rng.uniform(-3, 3), rng.uniform(-3, 3)] for _ in range(50)]
    for p in model.parameters():
        g.nodes[p].data = rng.uniform(-2, 2)
    predict = model.predictor()
    before = [model.forward(x) for x in inputs]
    assert [predict(x) for x in inputs] == before
    for p in model.parameters():  # a step of training: the predictor keeps what it read
        g.nodes[p].data -= 0.1
    assert [predict(x) for x in inputs] == before
    assert [model.predictor()(x) for x in inputs] == [model.forward(x) for x in inputs] != before
    layer, neuron = model.layers[0], model.layers[0].neurons[0]
    assert layer.predictor()(inputs[0]) == layer.forward(inputs[0])
    assert neuron.predictor()(inputs[0]) == neuron.forward(inputs[0])


@pytest.mark.parametrize(("x", "error", "message"), [
    ([1.0], ValueError, "{}.forward: 1 inputs for 2 weights"),
    ([1.0, "2"], TypeError, "{}.forward: input 1 must be a real number, got '2' (str)"),
])
def test_forward_refuses_bad_inputs_naming_them(x, error, message):
    model = MLP(Graph(), 2, [3, 1], rng=random.Random(0))
    for part in (model, model.layers[0], model.layers[0].neurons[0]):
        with pytest.raises(error) as info:
            part.forward(x)
        assert str(info.value) == message.format(type(part).__name__)
        with pytest.raises(error) as info:
            part.predictor()(x)
        assert str(info.value) == message.format(type(part).__name__).replace(
            "forward", "predictor")


def test_an_mlp_labels_each_neurons_weights_bias_and_output_by_its_layer_and_place():
    g = Graph()
    model = MLP(g, 2, [2, 1], rng=random.Random(0))
    x = [MakeValue(g, 0.5, label="x1"), MakeValue(g, -1.0, label="x2")]
    (out,) = model(x)
    labels = [v.label for v in g.nodes]
    assert labels[:9] == ["L1.n1.w1", "L1.n1.w2", "L1.n1.b", "L1.n2.w1", "L1.n2.w2", "L1.n2.b",
                          "L2.n1.w1", "L2.n1.w2", "L2.n1.b"]
    assert labels.count("L1.n1.out") == labels.count("L1.n2.out") == 1
    assert labels[out] == "L2.n1.out"
    lone = Graph()
    Neuron(lone, 2)
    assert [v.label for v in lone.nodes] == ["w", "w", "b"]
