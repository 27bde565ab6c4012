# An MLP (100 inputs, two hidden layers of 140 neurons, one output), its forward
# and backward pass: a graph of 101,881 nodes.
import random

from engine import Backward, Graph, MakeValue
from engine.nn import MLP

rng = random.Random(0)
g = Graph()
model = MLP(g, 100, [140, 140, 1], rng=rng)
x = [MakeValue(g, rng.uniform(-1, 1), label=f"x{i}") for i in range(100)]
(y,) = model(x)
Backward(g, y)
print(len(g.nodes), "nodes; y =", g.nodes[y].data)
