# A 2-input MLP of layers of 4, 4 and 1 neurons on one point, with its squared error run
# backward: a 108-node graph whose 9 neurons each label their nodes L1.n1..., L3.n1.
import random

from engine import Backward, Graph, MakeValue, VAdd, VMul
from engine.nn import MLP

g = Graph()
model = MLP(g, 2, [4, 4, 1], rng=random.Random(1))
x = [MakeValue(g, 0.5, label="x1"), MakeValue(g, -1.5, label="x2")]
(out,) = model(x)
error = VAdd(g, out, MakeValue(g, -1.0, label="target"))
loss = VMul(g, error, error)
Backward(g, loss)
print(len(g.nodes), "nodes")
