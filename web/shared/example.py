# The chapter's graph: e = tanh(a*b + c)
from engine import Backward, Graph, MakeValue, VAdd, VMul, VTanh

g = Graph()
a = MakeValue(g, 2.0, label="a")
b = MakeValue(g, -3.0, label="b")
c = MakeValue(g, 10.0, label="c")
e = VTanh(g, VAdd(g, VMul(g, a, b), c))
print("e =", g.nodes[e].data)

# Next chapter: Backward fills every grad.
# Replay it step by step: press Next.
Backward(g, e)
