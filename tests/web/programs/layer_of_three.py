# A 2-input layer of 3 neurons, summed and run backward: a 28-node graph.
import random

from engine import Backward, Graph, MakeValue, VAdd
from engine.nn import Layer

g = Graph()
x = [MakeValue(g, 1.0, label="x1"), MakeValue(g, -2.0, label="x2")]
layer = Layer(g, 2, 3, rng=random.Random(0))
outs = layer(x)
total = VAdd(g, VAdd(g, outs[0], outs[1]), outs[2])
Backward(g, total)
print(len(g.nodes), "nodes")
