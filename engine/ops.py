"""Every op, one block each: its variant (operand indices; for people stepping through,
each operand's local derivative in words, `rule`, and what the op computes in words,
`forward`) followed by the function that computes it forward and records its node.

Variants are NamedTuples: immutable, equal by value, readable, and usable with `match`.
Their derivatives are the arms of `autograd.chain_rule`, one per variant, so that Backward
dispatches them without a call per node; for the same reason each function below checks
its operands and records its node (and, while `engine.lines` records, the line that made
it, when known) itself rather than through helpers: a Python call costs about as much as
the op. An operand is checked to be an int >= 0 up front, and to
be a node by reading it: the list's IndexError costs nothing until it is raised.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from . import lines
from .graph import Graph, bad_operand, node_indices, not_a_graph, out_of_range, variant
from .lines import note_line


@variant
class Add(NamedTuple):
    a: int
    b: int
    arity = 2
    rule = ("1", "1")
    forward = "{a}.data + {b}.data"


def VAdd(g: Graph, a: int, b: int) -> int:
    try:
        data = g._data
    except AttributeError:
        raise not_a_graph(g, "VAdd") from None
    n = len(data)
    if not (type(a) is int and type(b) is int and a >= 0 and b >= 0):
        a, b = node_indices("VAdd", n, a=a, b=b)
    try:
        data.append(data[a] + data[b])
    except IndexError:  # an operand past the newest node
        raise bad_operand("VAdd", n, a=a, b=b) from None
    g._kind.append(Add)
    g._a.append(a)
    g._b.append(b)
    line = lines.now
    if line is not None:  # recording: see engine.lines
        if line and type(g.lines) is dict:
            g.lines[n] = line
        else:
            note_line(g, n)
    return n


@variant
class Sub(NamedTuple):
    a: int
    b: int
    arity = 2
    rule = ("1", "-1")
    forward = "{a}.data - {b}.data"


def VSub(g: Graph, a: int, b: int) -> int:
    try:
        data = g._data
    except AttributeError:
        raise not_a_graph(g, "VSub") from None
    n = len(data)
    if not (type(a) is int and type(b) is int and a >= 0 and b >= 0):
        a, b = node_indices("VSub", n, a=a, b=b)
    try:
        data.append(data[a] - data[b])
    except IndexError:  # an operand past the newest node
        raise bad_operand("VSub", n, a=a, b=b) from None
    g._kind.append(Sub)
    g._a.append(a)
    g._b.append(b)
    line = lines.now
    if line is not None:  # recording: see engine.lines
        if line and type(g.lines) is dict:
            g.lines[n] = line
        else:
            note_line(g, n)
    return n


@variant
class Mul(NamedTuple):
    a: int
    b: int
    arity = 2
    rule = ("{b}.data", "{a}.data")
    forward = "{a}.data * {b}.data"


def VMul(g: Graph, a: int, b: int) -> int:
    try:
        data = g._data
    except AttributeError:
        raise not_a_graph(g, "VMul") from None
    n = len(data)
    if not (type(a) is int and type(b) is int and a >= 0 and b >= 0):
        a, b = node_indices("VMul", n, a=a, b=b)
    try:
        data.append(data[a] * data[b])
    except IndexError:  # an operand past the newest node
        raise bad_operand("VMul", n, a=a, b=b) from None
    g._kind.append(Mul)
    g._a.append(a)
    g._b.append(b)
    line = lines.now
    if line is not None:  # recording: see engine.lines
        if line and type(g.lines) is dict:
            g.lines[n] = line
        else:
            note_line(g, n)
    return n


@variant
class Div(NamedTuple):
    a: int
    b: int
    arity = 2
    rule = ("1 / {b}.data", "-{out}.data / {b}.data")
    forward = "{a}.data / {b}.data"


def VDiv(g: Graph, a: int, b: int) -> int:
    try:
        data = g._data
    except AttributeError:
        raise not_a_graph(g, "VDiv") from None
    n = len(data)
    if not (type(a) is int and type(b) is int and a >= 0 and b >= 0):
        a, b = node_indices("VDiv", n, a=a, b=b)
    try:
        x, y = data[a], data[b]
    except IndexError:  # an operand past the newest node
        raise bad_operand("VDiv", n, a=a, b=b) from None
    if y == 0:
        raise ZeroDivisionError(f"VDiv: division by node {b}, whose data is {y!r}")
    data.append(x / y)
    g._kind.append(Div)
    g._a.append(a)
    g._b.append(b)
    line = lines.now
    if line is not None:  # recording: see engine.lines
        if line and type(g.lines) is dict:
            g.lines[n] = line
        else:
            note_line(g, n)
    return n


@variant
class Neg(NamedTuple):
    a: int
    arity = 1
    rule = ("-1",)
    forward = "-{a}.data"


def VNeg(g: Graph, a: int) -> int:
    try:
        data = g._data
    except AttributeError:
        raise not_a_graph(g, "VNeg") from None
    n = len(data)
    if not (type(a) is int and a >= 0):
        (a,) = node_indices("VNeg", n, a=a)
    try:
        data.append(-data[a])
    except IndexError:  # an operand past the newest node
        raise bad_operand("VNeg", n, a=a) from None
    g._kind.append(Neg)
    g._a.append(a)
    g._b.append(None)
    line = lines.now
    if line is not None:  # recording: see engine.lines
        if line and type(g.lines) is dict:
            g.lines[n] = line
        else:
            note_line(g, n)
    return n


@variant
class Pow(NamedTuple):
    """a ** k for a constant exponent k (a number, not a node)."""

    a: int
    k: float
    arity = 1
    rule = ("{k} * {a}.data**({k} - 1)",)
    forward = "{a}.data**{k}"


def VPow(g: Graph, a: int, k: float) -> int:
    try:
        data = g._data
    except AttributeError:
        raise not_a_graph(g, "VPow") from None
    n = len(data)
    if not (type(a) is int and a >= 0):
        (a,) = node_indices("VPow", n, a=a)
    if type(k) not in (int, float):
        raise TypeError(f"VPow: the exponent must be a number (int or float), got {k!r}")
    try:
        x = data[a]
    except IndexError:  # an operand past the newest node
        raise bad_operand("VPow", n, a=a) from None
    try:
        if x < 0 and math.isfinite(k) and not float(k).is_integer():  # -inf too (C's: +inf)
            raise ValueError(f"VPow: node {a} (data {x!r}) to the power {k!r} is not a "
                             f"real number")
        y = ieee_pow(x, k)
    except OverflowError:  # an int exponent no float holds
        raise out_of_range("VPow: the exponent must be a number", k) from None
    data.append(y)
    g._kind.append(Pow)
    g._a.append(a)
    g._b.append(k)
    line = lines.now
    if line is not None:  # recording: see engine.lines
        if line and type(g.lines) is dict:
            g.lines[n] = line
        else:
            note_line(g, n)
    return n


@variant
class Exp(NamedTuple):
    a: int
    arity = 1
    rule = ("{out}.data",)
    forward = "exp({a}.data)"


def VExp(g: Graph, a: int) -> int:
    try:
        data = g._data
    except AttributeError:
        raise not_a_graph(g, "VExp") from None
    n = len(data)
    if not (type(a) is int and a >= 0):
        (a,) = node_indices("VExp", n, a=a)
    try:
        x = data[a]
    except IndexError:  # an operand past the newest node
        raise bad_operand("VExp", n, a=a) from None
    try:
        y = math.exp(x)
    except OverflowError:  # where float64 overflows: x > log(DBL_MAX) ≈ 709.78
        y = math.inf
    data.append(y)
    g._kind.append(Exp)
    g._a.append(a)
    g._b.append(None)
    line = lines.now
    if line is not None:  # recording: see engine.lines
        if line and type(g.lines) is dict:
            g.lines[n] = line
        else:
            note_line(g, n)
    return n


@variant
class Log(NamedTuple):
    a: int
    arity = 1
    rule = ("1 / {a}.data",)
    forward = "log({a}.data)"


def VLog(g: Graph, a: int) -> int:
    try:
        data = g._data
    except AttributeError:
        raise not_a_graph(g, "VLog") from None
    n = len(data)
    if not (type(a) is int and a >= 0):
        (a,) = node_indices("VLog", n, a=a)
    try:
        x = data[a]
    except IndexError:  # an operand past the newest node
        raise bad_operand("VLog", n, a=a) from None
    if x <= 0:
        raise ValueError(f"VLog: log of node {a} is undefined: its data {x!r} is not positive")
    data.append(math.log(x))
    g._kind.append(Log)
    g._a.append(a)
    g._b.append(None)
    line = lines.now
    if line is not None:  # recording: see engine.lines
        if line and type(g.lines) is dict:
            g.lines[n] = line
        else:
            note_line(g, n)
    return n


@variant
class Tanh(NamedTuple):
    a: int
    arity = 1
    rule = ("(1 - {out}.data**2)",)
    forward = "tanh({a}.data)"


def VTanh(g: Graph, a: int) -> int:
    try:
        data = g._data
    except AttributeError:
        raise not_a_graph(g, "VTanh") from None
    n = len(data)
    if not (type(a) is int and a >= 0):
        (a,) = node_indices("VTanh", n, a=a)
    try:
        data.append(math.tanh(data[a]))
    except IndexError:  # an operand past the newest node
        raise bad_operand("VTanh", n, a=a) from None
    g._kind.append(Tanh)
    g._a.append(a)
    g._b.append(None)
    line = lines.now
    if line is not None:  # recording: see engine.lines
        if line and type(g.lines) is dict:
            g.lines[n] = line
        else:
            note_line(g, n)
    return n


@variant
class Relu(NamedTuple):
    a: int
    arity = 1
    rule = ("({out}.data > 0)",)
    forward = "max(0, {a}.data)"


def VRelu(g: Graph, a: int) -> int:
    try:
        data = g._data
    except AttributeError:
        raise not_a_graph(g, "VRelu") from None
    n = len(data)
    if not (type(a) is int and a >= 0):
        (a,) = node_indices("VRelu", n, a=a)
    try:
        x = data[a]
    except IndexError:  # an operand past the newest node
        raise bad_operand("VRelu", n, a=a) from None
    data.append(0.0 if x < 0 else x)  # -0.0 and nan pass as they are (as torch, micrograd)
    g._kind.append(Relu)
    g._a.append(a)
    g._b.append(None)
    line = lines.now
    if line is not None:  # recording: see engine.lines
        if line and type(g.lines) is dict:
            g.lines[n] = line
        else:
            note_line(g, n)
    return n


@variant
class Sigmoid(NamedTuple):
    a: int
    arity = 1
    rule = ("{out}.data * (1 - {out}.data)",)
    forward = "1 / (1 + exp(-{a}.data))"


def VSigmoid(g: Graph, a: int) -> int:
    try:
        data = g._data
    except AttributeError:
        raise not_a_graph(g, "VSigmoid") from None
    n = len(data)
    if not (type(a) is int and a >= 0):
        (a,) = node_indices("VSigmoid", n, a=a)
    try:
        x = data[a]
    except IndexError:  # an operand past the newest node
        raise bad_operand("VSigmoid", n, a=a) from None
    if x >= 0:
        y = 1.0 / (1.0 + math.exp(-x))
    else:  # the same value, written so exp never overflows: exact down to subnormals
        e = math.exp(x)  # nan stays nan
        y = e / (1.0 + e)
    data.append(y)
    g._kind.append(Sigmoid)
    g._a.append(a)
    g._b.append(None)
    line = lines.now
    if line is not None:  # recording: see engine.lines
        if line and type(g.lines) is dict:
            g.lines[n] = line
        else:
            note_line(g, n)
    return n


OPS = (Add, Sub, Mul, Div, Neg, Pow, Exp, Log, Tanh, Relu, Sigmoid)
"""Every variant; an op outside this tuple is not one Backward can differentiate."""


def ieee_div(x: float, y: float) -> float:
    """x / y as IEEE floats do it (±inf or nan for y == 0), so Backward never raises."""
    try:
        return x / y
    except ZeroDivisionError:
        return math.nan if x == 0 or x != x else math.copysign(math.inf, x) * math.copysign(1, y)


def ieee_pow(x: float, k: float) -> float:
    """x ** k as IEEE floats do it: overflow and 0 ** -k give ±inf, and a negative base
    with a fractional exponent gives nan."""
    if x == 0 and (k == 0.5 or k == -0.5):  # torch's sqrt and 1 / sqrt: a zero keeps its sign
        return x if k > 0 else math.copysign(math.inf, x)
    try:
        return math.pow(x, k)
    except OverflowError:
        return _signed_inf(x, k)
    except ValueError:
        return _signed_inf(x, k) if x == 0 else math.nan


def _signed_inf(x: float, k: float) -> float:
    odd = float(k).is_integer() and int(k) % 2 == 1
    return -math.inf if odd and math.copysign(1.0, x) < 0 else math.inf
