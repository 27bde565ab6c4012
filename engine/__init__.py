"""An autograd engine in the course's own words: a Graph is a list of Values
(data, grad, op) that refer to each other by index.

    g = Graph()
    a = MakeValue(g, 2.0, label="a")
    e = VTanh(g, VAdd(g, VMul(g, a, b), c))
    Backward(g, e)

Every course-style name has a PEP 8 twin (MakeValue = make_value, VAdd = v_add, ...).
"""

from .autograd import Backward, TopoSort, ZeroGrad
from .checks import check_grads, check_graph, check_topo_sort
from .explain import BackwardSteps
from .gradcheck import GradCheck
from .graph import Graph, MakeValue, Value
from .handle import Handle
from .inspect import rows, to_dot
from .ops import (
    Add,
    Div,
    Exp,
    Log,
    Mul,
    Neg,
    Pow,
    Relu,
    Sigmoid,
    Sub,
    Tanh,
    VAdd,
    VDiv,
    VExp,
    VLog,
    VMul,
    VNeg,
    VPow,
    VRelu,
    VSigmoid,
    VSub,
    VTanh,
)

make_value = MakeValue
v_add = VAdd
v_sub = VSub
v_mul = VMul
v_div = VDiv
v_neg = VNeg
v_pow = VPow
v_exp = VExp
v_log = VLog
v_tanh = VTanh
v_relu = VRelu
v_sigmoid = VSigmoid
topo_sort = TopoSort
backward = Backward
zero_grad = ZeroGrad
grad_check = GradCheck
backward_steps = BackwardSteps

__all__ = [
    "Graph", "Value", "Handle",
    "Add", "Sub", "Mul", "Div", "Neg", "Pow", "Exp", "Log", "Tanh", "Relu", "Sigmoid",
    "MakeValue", "VAdd", "VSub", "VMul", "VDiv", "VNeg", "VPow", "VExp", "VLog", "VTanh",
    "VRelu", "VSigmoid", "TopoSort", "Backward", "ZeroGrad", "GradCheck", "BackwardSteps",
    "rows", "to_dot",
    "make_value", "v_add", "v_sub", "v_mul", "v_div", "v_neg", "v_pow", "v_exp", "v_log",
    "v_tanh", "v_relu", "v_sigmoid", "topo_sort", "backward", "zero_grad", "grad_check",
    "backward_steps", "check_grads", "check_graph", "check_topo_sort",
]
