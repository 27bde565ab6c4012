"""Every op, one block each: its variant (operand indices, and the local derivative in
`backward`) followed by the function that computes it forward and records it.

A variant's `backward(nodes, out)` adds `out.grad * d(out)/d(operand)` to each operand's
grad (`out` is the node the op made, so rules may use its data: tanh, exp, sigmoid);
`rule` says each operand's local derivative in words, for people stepping through.
Variants are NamedTuples: immutable, equal by value, readable, and usable with `match`.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from .graph import Graph, Value, binary_data, push, unary_data, variant


@variant
class Add(NamedTuple):
    a: int
    b: int
    arity = 2
    rule = ("1", "1")

    @staticmethod
    def backward(nodes: list[Value], out: Value) -> None:
        nodes[out._a].grad += out.grad  # d(a+b)/da = 1
        nodes[out._b].grad += out.grad  # d(a+b)/db = 1


def VAdd(g: Graph, a: int, b: int) -> int:
    x, y = binary_data(g, "VAdd", a, b)
    return push(g, x + y, Add, a, b)


@variant
class Sub(NamedTuple):
    a: int
    b: int
    arity = 2
    rule = ("1", "-1")

    @staticmethod
    def backward(nodes: list[Value], out: Value) -> None:
        nodes[out._a].grad += out.grad  # d(a-b)/da = 1
        nodes[out._b].grad -= out.grad  # d(a-b)/db = -1


def VSub(g: Graph, a: int, b: int) -> int:
    x, y = binary_data(g, "VSub", a, b)
    return push(g, x - y, Sub, a, b)


@variant
class Mul(NamedTuple):
    a: int
    b: int
    arity = 2
    rule = ("{b}.data", "{a}.data")

    @staticmethod
    def backward(nodes: list[Value], out: Value) -> None:
        a, b = nodes[out._a], nodes[out._b]
        a.grad += out.grad * b.data  # d(a*b)/da = b
        b.grad += out.grad * a.data  # d(a*b)/db = a


def VMul(g: Graph, a: int, b: int) -> int:
    x, y = binary_data(g, "VMul", a, b)
    return push(g, x * y, Mul, a, b)


@variant
class Div(NamedTuple):
    a: int
    b: int
    arity = 2
    rule = ("1 / {b}.data", "-{out}.data / {b}.data")

    @staticmethod
    def backward(nodes: list[Value], out: Value) -> None:
        b = nodes[out._b]
        nodes[out._a].grad += ieee_div(out.grad, b.data)  # d(a/b)/da = 1/b
        # d(a/b)/db = -a/b² = -out/b, as torch orders it: out/b first, so a grad that
        # underflowed to 0 times an out/b that overflowed is nan, not a silent 0.0
        b.grad -= out.grad * ieee_div(out.data, b.data)


def VDiv(g: Graph, a: int, b: int) -> int:
    x, y = binary_data(g, "VDiv", a, b)
    if y == 0:
        raise ZeroDivisionError(f"VDiv: division by node {b}, whose data is {y!r}")
    return push(g, x / y, Div, a, b)


@variant
class Neg(NamedTuple):
    a: int
    arity = 1
    rule = ("-1",)

    @staticmethod
    def backward(nodes: list[Value], out: Value) -> None:
        nodes[out._a].grad -= out.grad  # d(-a)/da = -1


def VNeg(g: Graph, a: int) -> int:
    return push(g, -unary_data(g, "VNeg", a), Neg, a)


@variant
class Pow(NamedTuple):
    """a ** k for a constant exponent k (a number, not a node)."""

    a: int
    k: float
    arity = 1
    rule = ("{k} * {a}.data**({k} - 1)",)

    @staticmethod
    def backward(nodes: list[Value], out: Value) -> None:
        a = nodes[out._a]
        k = out._b
        if k != 0:  # a**0 is constant: grad 0 for every a, 0 and nan included (as torch)
            a.grad += out.grad * (k * ieee_pow(a.data, k - 1))  # d(a**k)/da = k * a**(k-1)


def VPow(g: Graph, a: int, k: float) -> int:
    x = unary_data(g, "VPow", a)
    if type(k) not in (int, float):
        raise TypeError(f"VPow: the exponent must be a number (int or float), got {k!r}")
    if x < 0 and math.isfinite(k) and not float(k).is_integer():  # -inf too (C's pow: +inf)
        raise ValueError(f"VPow: node {a} (data {x!r}) to the power {k!r} is not a real number")
    return push(g, ieee_pow(x, k), Pow, a, k)


@variant
class Exp(NamedTuple):
    a: int
    arity = 1
    rule = ("{out}.data",)

    @staticmethod
    def backward(nodes: list[Value], out: Value) -> None:
        nodes[out._a].grad += out.grad * out.data  # d(e**a)/da = e**a = out


def VExp(g: Graph, a: int) -> int:
    x = unary_data(g, "VExp", a)
    try:
        y = math.exp(x)
    except OverflowError:  # where float64 overflows: x > log(DBL_MAX) ≈ 709.78
        y = math.inf
    return push(g, y, Exp, a)


@variant
class Log(NamedTuple):
    a: int
    arity = 1
    rule = ("1 / {a}.data",)

    @staticmethod
    def backward(nodes: list[Value], out: Value) -> None:
        a = nodes[out._a]
        a.grad += ieee_div(out.grad, a.data)  # d(log a)/da = 1/a


def VLog(g: Graph, a: int) -> int:
    x = unary_data(g, "VLog", a)
    if x <= 0:
        raise ValueError(f"VLog: log of node {a} is undefined: its data {x!r} is not positive")
    return push(g, math.log(x), Log, a)


@variant
class Tanh(NamedTuple):
    a: int
    arity = 1
    rule = ("(1 - {out}.data**2)",)

    @staticmethod
    def backward(nodes: list[Value], out: Value) -> None:
        t = out.data
        nodes[out._a].grad += out.grad * (1.0 - t * t)  # d(tanh a)/da = 1 - tanh(a)**2


def VTanh(g: Graph, a: int) -> int:
    return push(g, math.tanh(unary_data(g, "VTanh", a)), Tanh, a)


@variant
class Relu(NamedTuple):
    a: int
    arity = 1
    rule = ("({out}.data > 0)",)

    @staticmethod
    def backward(nodes: list[Value], out: Value) -> None:
        if not out.data <= 0:  # d(relu a)/da = 1 if a > 0 else 0; nan passes (as torch)
            nodes[out._a].grad += out.grad


def VRelu(g: Graph, a: int) -> int:
    x = unary_data(g, "VRelu", a)
    return push(g, x if x > 0 or x != x else 0.0, Relu, a)


@variant
class Sigmoid(NamedTuple):
    a: int
    arity = 1
    rule = ("{out}.data * (1 - {out}.data)",)

    @staticmethod
    def backward(nodes: list[Value], out: Value) -> None:
        s = out.data
        nodes[out._a].grad += out.grad * (1.0 - s) * s  # d(σ(a))/da = σ(a) * (1 - σ(a))


def VSigmoid(g: Graph, a: int) -> int:
    x = unary_data(g, "VSigmoid", a)
    if x >= 0:
        y = 1.0 / (1.0 + math.exp(-x))
    else:  # the same value, written so exp never overflows: exact down to subnormals
        e = math.exp(x)  # nan stays nan
        y = e / (1.0 + e)
    return push(g, y, Sigmoid, a)


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
    try:
        return math.pow(x, k)
    except OverflowError:
        return _signed_inf(x, k)
    except ValueError:
        return _signed_inf(x, k) if x == 0 else math.nan


def _signed_inf(x: float, k: float) -> float:
    odd = float(k).is_integer() and int(k) % 2 == 1
    return -math.inf if odd and math.copysign(1.0, x) < 0 else math.inf
