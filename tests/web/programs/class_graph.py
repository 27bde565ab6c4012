# A learner's own data structures, as the chapter's playground defines them.
from dataclasses import dataclass
from typing import NamedTuple


class Add(NamedTuple):
    a: int
    b: int


@dataclass
class Node:
    data: float
    grad: float = 0.0
    op: object = None


class MyGraph:
    def __init__(self):
        self.nodes = []

    def push(self, node):
        self.nodes.append(node)
        return len(self.nodes) - 1


graph = MyGraph()
x = graph.push(Node(1.5))
y = graph.push(Node(2.5))
z = graph.push(Node(4.0, op=Add(x, y)))
w = graph.push(Node(6.0, op=("Mul", z, y)))
