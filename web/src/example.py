# The chapter's graph, e = tanh(a*b + c). Run it: Ctrl+Enter.
from engine import Backward, Graph, MakeValue, VAdd, VMul, VTanh

g = Graph()
a = MakeValue(g, 2.0, label="a")
b = MakeValue(g, -3.0, label="b")
c = MakeValue(g, 10.0, label="c")
e = VTanh(g, VAdd(g, VMul(g, a, b), c))  # 6 nodes

print("e =", g.nodes[e].data)

# Backward (the next chapter) fills every grad: step through it below.
Backward(g, e)
