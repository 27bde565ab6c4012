# An MLP's forward pass, 100 inputs and three tanh layers of 111 neurons,
# then its backward pass: a graph of about 108,000 nodes.
import random

from engine import Backward, Graph, MakeValue, VAdd, VMul, VTanh

random.seed(0)
g = Graph()
x = [MakeValue(g, random.uniform(-1, 1), label=f"x{i}") for i in range(100)]
for layer in range(3):
    out = []
    for n in range(111):
        s = MakeValue(g, 0.0, label=f"b{layer}.{n}")
        for xi in x:
            s = VAdd(g, s, VMul(g, MakeValue(g, random.uniform(-1, 1)), xi))
        out.append(VTanh(g, s))
    x = out
loss = x[0]
for xi in x[1:]:
    loss = VAdd(g, loss, xi)
Backward(g, loss)
print(len(g.nodes), "nodes")
