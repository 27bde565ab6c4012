"""Neurons, layers and multi-layer perceptrons whose parameters are leaves of a graph.

A model's parameters are made first, so a training step can drop the previous step's
nodes with `del g.nodes[n_params:]` and build the next forward pass on the same graph.

Calling a model records its forward pass as nodes, for Backward; `forward` computes the
same numbers on plain floats and records nothing, for predictions that need no grads;
`predictor()` reads the weights once for many such passes (a decision boundary asks for
hundreds between two steps of training).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from . import lines
from .graph import Graph, MakeValue, as_float, bad_operand, node_indices
from .lines import note_line
from .ops import Add, Mul, VRelu


class Neuron:
    """relu(w · x + b), or w · x + b when `nonlin` is False.

    A neuron with a `name` (a Layer names its own: n1, n2, ...; an MLP's, L1.n1, ...)
    labels its weights `name.w1`, `name.w2`, ..., its bias `name.b` and each output it
    computes `name.out`: the page's picture folds the nodes between them into one box.
    Without one, its weights are labelled w and its bias b."""

    def __init__(self, g: Graph, nin: int, nonlin: bool = True, rng: random.Random | None = None,
                 name: str | None = None):
        rng = rng or random.Random()
        self.g = g
        prefix = f"{name}." if name else ""
        self.w = [MakeValue(g, rng.uniform(-1, 1), label=f"{prefix}w{k + 1}" if name else "w")
                  for k in range(nin)]
        self.b = MakeValue(g, 0.0, label=f"{prefix}b")
        self.out_label = f"{prefix}out" if name else None
        self.nonlin = nonlin

    def __call__(self, x: list[int]) -> int:
        """Records the nodes `act = VAdd(g, act, VMul(g, wi, xi))` would, input by input,
        then VRelu's; but in one call, as a neuron's sum is most of an MLP's graph and a
        call costs about as much as a node. It walks the inputs by index, as in Pyodide a
        step of zip costs more than two reads, and leaves the check that a node exists to
        the read, as the ops do, and, at C speed, to one look at the products' inputs
        once made (a node this call made is not one of its inputs). Bad input leaves the
        graph as it was."""
        g = self.g
        data, kinds, firsts, seconds = g._data, g._kind, g._a, g._b
        w = self.w
        if len(x) != len(w):
            raise ValueError(f"Neuron: {len(x)} inputs for {len(w)} weights")
        start = n = len(data)
        act = self.b
        total = data[act]
        line = lines.now  # while recording, the nodes' line, stored as they are made if known
        noted = g.lines if line and type(g.lines) is dict else None
        for k in range(len(w)):
            wi = w[k]
            xi = x[k]
            if not (type(wi) is int and type(xi) is int and wi >= 0 and xi >= 0):
                try:
                    wi, xi = node_indices("VMul", start, a=wi, b=xi)
                except (TypeError, IndexError):
                    g._truncate(start)
                    raise
            try:
                y = data[wi] * data[xi]
            except IndexError:  # a node past the newest
                g._truncate(start)
                raise bad_operand("VMul", start, a=wi, b=xi) from None
            total = total + y
            data.append(y)  # the product, node n
            data.append(total)  # the running sum, node n + 1
            kinds.append(Mul)
            kinds.append(Add)
            firsts.append(wi)
            firsts.append(act)
            seconds.append(xi)
            seconds.append(n)
            act = n + 1
            if noted is not None:
                noted[n] = noted[act] = line
            n += 2
        if n > start and max(seconds[start:n:2]) >= start:  # an input this call made
            k = next(k for k, xi in enumerate(seconds[start:n:2]) if xi >= start)
            g._truncate(start)
            raise bad_operand("VMul", start, a=w[k], b=x[k])
        if line is not None and noted is None:
            note_line(g, start, n - start)
        out = VRelu(g, act) if self.nonlin else act
        if self.out_label is not None and out != self.b:  # no input: the bias is the output
            g._label[out] = self.out_label
        return out

    def forward(self, x: list[float]) -> float:
        """What calling the neuron on leaves holding `x` gives as its output's data, in the
        same order of operations (so the same float), without recording a node."""
        return _predictor(self, "Neuron.forward")(x)[0]

    def predictor(self) -> Callable[[list[float]], float]:
        """forward(), with the weights as they are now, read once (see MLP.predictor)."""
        run = _predictor(self, "Neuron.predictor")
        return lambda x: run(x)[0]

    def parameters(self) -> list[int]:
        return [*self.w, self.b]

    def __repr__(self) -> str:
        return f"{'ReLU' if self.nonlin else 'Linear'}Neuron({len(self.w)})"


class Layer:
    """`nout` neurons that all read the same inputs, named n1, n2, ... (`name`.n1, ...
    in a named layer)."""

    def __init__(self, g: Graph, nin: int, nout: int, nonlin: bool = True,
                 rng: random.Random | None = None, name: str | None = None):
        prefix = f"{name}." if name else ""
        self.neurons = [Neuron(g, nin, nonlin, rng, name=f"{prefix}n{j + 1}") for j in range(nout)]

    def __call__(self, x: list[int]) -> list[int]:
        return [n(x) for n in self.neurons]

    def forward(self, x: list[float]) -> list[float]:
        """The layer's outputs on plain floats, recording nothing (see Neuron.forward)."""
        return _predictor(self, "Layer.forward")(x)

    def predictor(self) -> Callable[[list[float]], list[float]]:
        """forward(), with the weights as they are now, read once (see MLP.predictor)."""
        return _predictor(self, "Layer.predictor")

    def parameters(self) -> list[int]:
        return [p for n in self.neurons for p in n.parameters()]

    def __repr__(self) -> str:
        return f"Layer of [{', '.join(map(repr, self.neurons))}]"


Weights = list[list[tuple[list[float], float, bool]]]
"""Layer by layer, each neuron's weights, bias and whether it applies relu, as floats."""


def float_weights(model: Neuron | Layer | MLP) -> Weights:
    """The model's weights as floats, as they are now: what forward() computes with,
    for code that computes it elsewhere (the playground's page draws a decision
    boundary of a model from them, with the same floats)."""
    if isinstance(model, Neuron):
        layers = [[model]]
    elif isinstance(model, Layer):
        layers = [model.neurons]
    else:
        layers = [layer.neurons for layer in model.layers]
    data = layers[0][0].g._data
    return [[([data[w] for w in n.w], data[n.b], n.nonlin) for n in layer] for layer in layers]


def _predictor(model: Neuron | Layer | MLP,
               where: str) -> Callable[[list[float]], list[float]]:
    """A forward pass of `model` on its weights as they are now; `where` names the
    model's method in the errors of bad inputs."""
    weights = float_weights(model)
    nin = len(weights[0][0][0])
    return lambda x: _pass(weights, _floats(x, nin, where))


def _pass(weights: Weights, x: list[float]) -> list[float]:
    """A forward pass on `x`, floats as many as the first layer's weights: the sums in
    the order the recorded pass makes them, so the same floats. Plain loops over floats
    read beforehand: a call, an attribute or a graph lookup per weight would cost about
    as much as the sum itself, and a decision boundary asks for hundreds of passes."""
    for layer in weights:
        outputs = []
        for ws, total, nonlin in layer:
            for w, xi in zip(ws, x, strict=True):
                total = total + w * xi
            outputs.append(0.0 if nonlin and total < 0 else total)  # VRelu's: -0.0, nan pass
        x = outputs
    return x


class MLP:
    """Layers of sizes `nouts`, named L1, L2, ...; every layer but the last applies relu."""

    def __init__(self, g: Graph, nin: int, nouts: list[int], rng: random.Random | None = None):
        sizes = [nin, *nouts]
        self.layers = [
            Layer(g, sizes[i], sizes[i + 1], nonlin=i != len(nouts) - 1, rng=rng, name=f"L{i + 1}")
            for i in range(len(nouts))
        ]

    def __call__(self, x: list[int]) -> list[int]:
        for layer in self.layers:
            x = layer(x)
        return x

    def forward(self, x: list[float]) -> list[float]:
        """The model's outputs on plain floats, recording nothing (see Neuron.forward):
        `model.forward([x, y])[0]` is what `model(...)` on leaves of x and y computes."""
        return _predictor(self, "MLP.forward")(x)

    def predictor(self) -> Callable[[list[float]], list[float]]:
        """forward() as a function whose weights are read now, once: the same floats for
        as long as the weights stay as they are, in about three quarters of the time a
        pass of forward() takes, which reads them every time. Make a new one after they
        change."""
        return _predictor(self, "MLP.predictor")

    def parameters(self) -> list[int]:
        return [p for layer in self.layers for p in layer.parameters()]

    def __repr__(self) -> str:
        return f"MLP of [{', '.join(map(repr, self.layers))}]"


def _floats(x: list[float], count: int, where: str) -> list[float]:
    """The inputs `x` as floats, checked once for a whole forward pass, not per neuron."""
    if len(x) != count:
        raise ValueError(f"{where}: {len(x)} inputs for {count} weights")
    return [xi if type(xi) is float else as_float(xi, f"{where}: input {i}")
            for i, xi in enumerate(x)]
