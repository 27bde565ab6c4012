"""Random graphs over every op, for property tests: each step applies one op to earlier
nodes."""

from hypothesis import strategies as st

import engine

SAFE_UNARY = ["VNeg", "VExp", "VLog", "VTanh", "VRelu", "VSigmoid", "VPow"]
SAFE_BINARY = ["VAdd", "VSub", "VMul", "VDiv"]


@st.composite
def programs(draw):
    n_leaves = draw(st.integers(1, 4))
    leaves = draw(st.lists(st.floats(-2, 2).filter(lambda x: abs(x) > 0.1),
                           min_size=n_leaves, max_size=n_leaves))
    steps = []
    for k in range(draw(st.integers(1, 12))):
        available = n_leaves + k
        if draw(st.booleans()):
            steps.append((draw(st.sampled_from(SAFE_UNARY)), draw(st.integers(0, available - 1))))
        else:
            steps.append((draw(st.sampled_from(SAFE_BINARY)),
                          draw(st.integers(0, available - 1)),
                          draw(st.integers(0, available - 1))))
    return leaves, steps


def run_program(steps):
    """A build function for GradCheck; ops whose input is out of their smooth domain are
    replaced by a smooth one (the graph's shape stays random)."""

    def build(g, leaves):
        for name, *operands in steps:
            x = g.nodes[operands[0]].data
            if name == "VLog" and x <= 0.05 or name == "VRelu" and abs(x) < 0.05:
                name = "VTanh"
            if name == "VExp" and x > 5:
                name = "VSigmoid"
            if name == "VPow":
                engine.VPow(g, operands[0], 3)
            elif name == "VDiv" and abs(g.nodes[operands[1]].data) < 0.1:
                engine.VMul(g, *operands)
            else:
                getattr(engine, name)(g, *operands)
        return len(g.nodes) - 1

    return build


