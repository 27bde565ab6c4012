"""IEEE answers at the edges: each op's value and grads where float64 overflows,
underflows, loses precision or meets NaN, against what torch gives.

The expected numbers came from torch 2.13.0 (CPU) in float64, computed once with
`torch.tensor(x, dtype=torch.float64, requires_grad=True)` and `torch.autograd.grad`, and
are written here as numbers: torch is not a dependency. Numbers agree to within 4 ulps (a
libm, glibc's or Pyodide's, may round exp or tanh differently in the last place); NaN
matches NaN; a zero value has torch's sign (`1 / value` tells them apart), a zero grad may
not (the engine's grads start at 0.0 and add up, so a -0.0 term leaves 0.0, and no grad
divides another).

Where torch answers nan or ±inf but the engine deliberately raises a clear error (log of
a non-positive number, division by zero, a negative base to a fractional power), the
second table says so; the last tests are where the engine is more exact than torch.
"""

import math
import sys
from fractions import Fraction

import pytest

from engine import (
    Backward,
    BackwardSteps,
    Graph,
    MakeValue,
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

nan, inf = math.nan, math.inf

EXPRESSIONS = {
    "a+b": VAdd,
    "a-b": VSub,
    "a*b": VMul,
    "a/b": VDiv,
    "-a": VNeg,
    "exp(a)": VExp,
    "log(a)": VLog,
    "tanh(a)": VTanh,
    "relu(a)": VRelu,
    "sigmoid(a)": VSigmoid,
    "a**0": lambda g, a: VPow(g, a, 0),
    "a**1": lambda g, a: VPow(g, a, 1),
    "a**2": lambda g, a: VPow(g, a, 2),
    "a**3": lambda g, a: VPow(g, a, 3),
    "a**-1": lambda g, a: VPow(g, a, -1),
    "a**-2": lambda g, a: VPow(g, a, -2),
    "a**0.5": lambda g, a: VPow(g, a, 0.5),
    "a**1.5": lambda g, a: VPow(g, a, 1.5),
    "a**-0.5": lambda g, a: VPow(g, a, -0.5),
    "relu(a)**-1": lambda g, a: VPow(g, VRelu(g, a), -1),
    "relu(a*b)": lambda g, a, b: VRelu(g, VMul(g, a, b)),
    "(a*b)**0": lambda g, a, b: VPow(g, VMul(g, a, b), 0),
    "a*a": lambda g, a: VMul(g, a, a),
    "log(exp(a))": lambda g, a: VLog(g, VExp(g, a)),
    "exp(a)*b": lambda g, a, b: VMul(g, VExp(g, a), b),
    "sigmoid(a)*b": lambda g, a, b: VMul(g, VSigmoid(g, a), b),
    "a/(a/b)": lambda g, a, b: VDiv(g, a, VDiv(g, a, b)),
    "(a*b)/b": lambda g, a, b: VDiv(g, VMul(g, a, b), b),
}
"""Each expression of the tables, built from leaves a (and b)."""

# (expression, leaves' data, torch's value, torch's grad for each leaf)
TORCH = [
    ("exp(a)", (700.0,), 1.0142320547350045e+304, (1.0142320547350045e+304,)),
    ("exp(a)", (705.0,), 1.505253833063194e+306, (1.505253833063194e+306,)),
    ("exp(a)", (709.78,), 1.7928227943945155e+308, (1.7928227943945155e+308,)),
    ("exp(a)", (710.0,), inf, (inf,)),
    ("exp(a)", (-745.0,), 5e-324, (5e-324,)),
    ("exp(a)", (-746.0,), 0.0, (0.0,)),
    ("exp(a)", (-inf,), 0.0, (0.0,)),
    ("exp(a)", (nan,), nan, (nan,)),
    ("log(exp(a))", (700.0,), 700.0, (1.0,)),
    ("exp(a)*b", (705.0, 0.0), 0.0, (0.0, 1.505253833063194e+306)),
    ("exp(a)*b", (710.0, 0.0), nan, (nan, inf)),
    ("sigmoid(a)", (-700.0,), 9.85967654375977e-305, (9.85967654375977e-305,)),
    ("sigmoid(a)", (-705.0,), 6.643397797997951e-307, (6.643397797997951e-307,)),
    ("sigmoid(a)", (-709.78,), 5.577796105262746e-309, (5.577796105262746e-309,)),
    ("sigmoid(a)", (-20.0,), 2.0611536181902037e-09, (2.0611536139418496e-09,)),
    ("sigmoid(a)", (0.0,), 0.5, (0.25,)),
    ("sigmoid(a)", (40.0,), 1.0, (0.0,)),
    ("sigmoid(a)", (705.0,), 1.0, (0.0,)),
    ("sigmoid(a)", (inf,), 1.0, (0.0,)),
    ("sigmoid(a)", (-inf,), 0.0, (0.0,)),
    ("sigmoid(a)", (nan,), nan, (nan,)),
    ("sigmoid(a)*b", (nan, 0.0), nan, (nan, nan)),
    ("relu(a)", (nan,), nan, (1.0,)),
    ("relu(a)", (0.0,), 0.0, (0.0,)),
    ("relu(a)", (-3.0,), 0.0, (0.0,)),
    ("relu(a)", (2.0,), 2.0, (1.0,)),
    ("relu(a)", (inf,), inf, (1.0,)),
    ("relu(a)", (-inf,), 0.0, (0.0,)),
    ("relu(a)", (-0.0,), -0.0, (0.0,)),
    ("relu(a)**-1", (-0.0,), -inf, (0.0,)),
    ("relu(a*b)", (-1.0, inf), 0.0, (nan, -0.0)),  # relu's 0.0 still reaches a*b's operands
    ("relu(a)**-1", (0.0,), inf, (0.0,)),
    ("-a", (0.0,), -0.0, (-1.0,)),
    ("tanh(a)", (-0.0,), -0.0, (1.0,)),
    ("sigmoid(a)", (-0.0,), 0.5, (0.25,)),
    ("tanh(a)", (nan,), nan, (nan,)),
    ("tanh(a)", (20.0,), 1.0, (0.0,)),
    ("tanh(a)", (-inf,), -1.0, (0.0,)),
    ("tanh(a)", (1e-300,), 1e-300, (1.0,)),
    ("a**0", (0.0,), 1.0, (0.0,)),
    ("a**0", (5e-324,), 1.0, (0.0,)),
    ("a**0", (nan,), 1.0, (0.0,)),
    ("a**0", (-2.0,), 1.0, (0.0,)),
    ("a**0", (inf,), 1.0, (0.0,)),
    ("(a*b)**0", (inf, 1.0), 1.0, (0.0, nan)),
    ("a**1", (nan,), nan, (1.0,)),
    ("a**2", (nan,), nan, (nan,)),
    ("a**2", (1e+200,), inf, (2e+200,)),
    ("a**-1", (0.0,), inf, (-inf,)),
    ("a**-1", (-0.0,), -inf, (-inf,)),
    ("a**-2", (5e-324,), inf, (-inf,)),
    ("a**0.5", (0.0,), 0.0, (inf,)),
    ("a**0.5", (inf,), inf, (0.0,)),
    ("a**0.5", (-0.0,), -0.0, (-inf,)),
    ("a**-0.5", (0.0,), inf, (-inf,)),
    ("a**-0.5", (-0.0,), -inf, (-inf,)),
    ("a**1.5", (-0.0,), 0.0, (-0.0,)),
    ("a**3", (-0.0,), -0.0, (0.0,)),
    ("a**1.5", (0.0,), 0.0, (0.0,)),
    ("a**3", (-1e+103,), -inf, (3e+206,)),
    ("log(a)", (nan,), nan, (nan,)),
    ("log(a)", (inf,), inf, (0.0,)),
    ("log(a)", (5e-324,), -744.4400719213812, (inf,)),
    ("log(a)", (1e+300,), 690.7755278982137, (1e-300,)),
    ("a/b", (1.0, 5e-324), inf, (inf, -inf)),
    ("a/b", (nan, 2.0), nan, (0.5, nan)),
    ("a/b", (2.0, nan), nan, (nan, nan)),
    ("a/b", (inf, inf), nan, (0.0, nan)),
    ("a/b", (0.0, inf), 0.0, (0.0, -0.0)),
    ("a/b", (1e+300, 1e-300), inf, (9.999999999999999e+299, -inf)),
    ("a/(a/b)", (1.0, 1e-200), 1e-200, (1e-200, nan)),
    ("a/(a/b)", (-2.0, 1e-200), 1e-200, (-5e-201, nan)),
    ("a/(a/b)", (3.0, 1e+300), 1.0000000000000002e+300, (-inf, nan)),
    ("a/(a/b)", (5e-324, 5e-324), 5e-324, (0.0, inf)),
    ("a/(a/b)", (1.0, 2.0), 2.0, (0.0, 1.0)),
    ("(a*b)/b", (1e+200, 1e+200), inf, (1.0, -inf)),
    ("a*b", (0.0, inf), nan, (inf, 0.0)),
    ("a*b", (nan, 0.0), nan, (0.0, nan)),
    ("a*b", (1e+200, 1e+200), inf, (1e+200, 1e+200)),
    ("a*a", (nan,), nan, (nan,)),
    ("a*b", (-0.0, 2.0), -0.0, (2.0, -0.0)),
    ("a+b", (-0.0, -0.0), -0.0, (1.0, 1.0)),
    ("a-b", (-0.0, 0.0), -0.0, (1.0, -1.0)),
    ("a+b", (inf, -inf), nan, (1.0, 1.0)),
    ("a+b", (nan, 1.0), nan, (1.0, 1.0)),
    ("a-b", (inf, inf), nan, (1.0, -1.0)),
    ("-a", (nan,), nan, (-1.0,)),
]


def value_and_grads(expression: str, inputs: tuple[float, ...]) -> tuple[float, list[float]]:
    g = Graph()
    leaves = [MakeValue(g, x) for x in inputs]
    root = EXPRESSIONS[expression](g, *leaves)
    Backward(g, root)
    return g.nodes[root].data, [g.nodes[leaf].grad for leaf in leaves]


def agrees(got: float, want: float) -> bool:
    if math.isnan(want):
        return math.isnan(got)
    return math.isclose(got, want, rel_tol=4 * sys.float_info.epsilon, abs_tol=0.0)


def same_zero(got: float, want: float) -> bool:
    """Whether a zero has the sign torch's has (any other number: True)."""
    return want != 0 or math.copysign(1.0, got) == math.copysign(1.0, want)


@pytest.mark.parametrize(
    ("expression", "inputs", "value", "grads"),
    TORCH,
    ids=[f"{e} at {', '.join(map(repr, x))}" for e, x, *_ in TORCH],
)
def test_value_and_grads_are_torchs(expression, inputs, value, grads):
    got_value, got_grads = value_and_grads(expression, inputs)
    assert agrees(got_value, value), f"value {got_value!r}, torch {value!r}"
    assert same_zero(got_value, value), f"value {got_value!r}, torch {value!r}"
    for leaf, (got, want) in enumerate(zip(got_grads, grads, strict=True)):
        assert agrees(got, want), f"grad of leaf {leaf}: {got!r}, torch {want!r}"


# (expression, leaves' data, torch's value, the engine's error and the start of its message)
REFUSED = [
    ("log(a)", (0.0,), -inf, ValueError, "VLog: log of node 0 is undefined: its data 0.0"),
    ("log(a)", (-1.0,), nan, ValueError, "VLog: log of node 0 is undefined: its data -1.0"),
    ("log(a)", (-inf,), nan, ValueError, "VLog: log of node 0 is undefined: its data -inf"),
    ("log(exp(a))", (-746.0,), -inf, ValueError, "VLog: log of node 1 is undefined"),
    ("a/b", (1.0, 0.0), inf, ZeroDivisionError, "VDiv: division by node 1, whose data is 0.0"),
    ("a/b", (0.0, 0.0), nan, ZeroDivisionError, "VDiv: division by node 1"),
    ("a/b", (nan, 0.0), nan, ZeroDivisionError, "VDiv: division by node 1"),
    ("a**0.5", (-1.0,), nan, ValueError,
     "VPow: node 0 (data -1.0) to the power 0.5 is not a real number"),
    ("a**0.5", (-inf,), nan, ValueError,
     "VPow: node 0 (data -inf) to the power 0.5 is not a real number"),
    ("a**1.5", (-5e-324,), nan, ValueError, "VPow: node 0 (data -5e-324) to the power 1.5"),
]


@pytest.mark.parametrize(
    ("expression", "inputs", "torch_value", "error", "message"),
    REFUSED,
    ids=[f"{e} at {', '.join(map(repr, x))}" for e, x, *_ in REFUSED],
)
def test_where_torch_gives_nan_or_inf_the_engine_says_why(
    expression, inputs, torch_value, error, message
):
    assert math.isnan(torch_value) or math.isinf(torch_value)
    with pytest.raises(error) as info:
        value_and_grads(expression, inputs)
    assert str(info.value).startswith(message)


@pytest.mark.parametrize("x", [-710.0, -730.0, -745.0])
def test_sigmoid_stays_exact_where_torch_underflows(x):
    """torch computes 1 / (1 + exp(-x)), which is 0.0 once exp(-x) overflows (x < -709.78);
    the engine's exp(x) / (1 + exp(x)) keeps the subnormal answer, which is exp(x)."""
    value, (grad,) = value_and_grads("sigmoid(a)", (x,))
    assert value == math.exp(x) > 0.0
    assert grad == math.exp(x)


def test_exp_overflows_exactly_where_float64_does():
    largest = math.log(sys.float_info.max)  # 709.78...: the largest x whose exp is finite
    assert value_and_grads("exp(a)", (largest,)) == (math.exp(largest), [math.exp(largest)])
    assert value_and_grads("exp(a)", (math.nextafter(largest, inf),)) == (inf, [inf])


@pytest.mark.parametrize("x", [3.0, 8.0, 10.0, 12.5, 15.0, 17.0, -9.0, -16.0])
def test_a_saturated_tanhs_grad_is_exact_to_the_last_bits(x):
    """Near ±1, 1 - t*t loses the bits that rounding t*t drops (a relative error of 1e-9 at
    x = 10, where torch is within 3e-11); (1 - t) * (1 + t), torch's form, keeps them: its
    grad is within 2 roundings of 1 - t² computed exactly from the float t. Both steps
    replay Backward's rule, so both are checked."""
    g = Graph()
    a = MakeValue(g, x)
    root = VTanh(g, a)
    Backward(g, root)
    t = Fraction(g.nodes[root].data)
    exact = 1 - t * t
    assert exact > 0  # not yet 1.0 in float64: there are bits to lose
    (step,) = (s for s in BackwardSteps(g, root) if s["node"] == root)
    for grad in g.nodes[a].grad, step["terms"][0]["local"]:
        assert abs(Fraction(grad) - exact) <= 2 * sys.float_info.epsilon / 2 * exact, grad
