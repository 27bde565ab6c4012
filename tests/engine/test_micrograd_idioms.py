"""micrograd's own engine tests and training loop, written with Handles: the same code runs
unchanged, and gives the numbers worked out by hand or by finite differences."""

import pytest

from engine import Graph


def test_sanity_check():
    g = Graph()
    x = g.value(-4.0)
    z = 2 * x + 2 + x
    q = z.relu() + z * x
    h = (z * z).relu()
    y = h + q + q * x
    y.backward()
    # By hand: z = 3x + 2 = -10, so relu(z) = 0, q = z*x = 40, h = z² = 100,
    # y = h + q + q*x = -20; dy/dx = 6z + (3x + z)(1 + x) + q = -60 + 66 + 40 = 46.
    assert y.data == -20.0
    assert x.grad == 46.0


def more_ops(a, b):
    """micrograd's test_more_ops, from a and b on; on Handles or on floats."""
    c = a + b
    d = a * b + b**3
    c += c + 1
    c += 1 + c + (-a)
    d += d * 2 + relu(b + a)
    d += 3 * d + relu(b - a)
    e = c - d
    f = e**2
    g = f / 2.0
    g += 10.0 / f
    return g


def relu(v):
    return max(v, 0.0) if isinstance(v, float) else v.relu()


def test_more_ops():
    graph = Graph()
    a, b = graph.value(-4.0), graph.value(2.0)
    g = more_ops(a, b)
    g.backward()
    # By hand, with b + a < 0 < b - a: c = 4(a + b) + 3 - a = -1, d = 12(ab + b³) + b - a
    # = 6, so e = c - d = 4a + 3b + 3 - 12ab - 12b³ = -7, f = e² = 49, g = f/2 + 10/f.
    assert g.data == pytest.approx(24.5 + 10 / 49, rel=1e-12)  # micrograd's 24.7041
    # dg/de = e - 20e/f², de/da = 4 - 12b = -20, de/db = 3 - 12a - 36b² = -93.
    dg_de = -7 + 140 / 49**2
    assert a.grad == pytest.approx(dg_de * -20, rel=1e-12)  # micrograd's 138.8338
    assert b.grad == pytest.approx(dg_de * -93, rel=1e-12)  # micrograd's 645.5773
    # And central differences of the same code run on floats.
    h = 1e-6
    assert a.grad == pytest.approx((more_ops(-4 + h, 2.0) - more_ops(-4 - h, 2.0)) / (2 * h),
                                   rel=1e-6)
    assert b.grad == pytest.approx((more_ops(-4.0, 2 + h) - more_ops(-4.0, 2 - h)) / (2 * h),
                                   rel=1e-6)


def test_micrograds_training_loop_runs_unchanged_on_handles():
    graph = Graph()
    w, b = graph.value(0.5), graph.value(0.0)
    xs, ys = [1.0, 2.0, 3.0], [3.0, 5.0, 7.0]  # y = 2x + 1
    losses = []
    for _ in range(300):
        loss = sum((w * x + b - y) ** 2 for x, y in zip(xs, ys, strict=True))
        for p in (w, b):
            p.grad = 0
        loss.backward()
        if not losses:  # by hand: residuals -2.5, -4, -5.5
            assert (w.grad, b.grad) == (2 * (-2.5 - 8 - 16.5), 2 * (-2.5 - 4 - 5.5))
        for p in (w, b):
            p.data -= 0.02 * p.grad
        losses.append(loss.data)
    assert losses[0] == 2.5**2 + 4**2 + 5.5**2
    assert losses[-1] < 1e-4
    assert (w.data, b.data) == (pytest.approx(2.0, abs=1e-2), pytest.approx(1.0, abs=1e-2))


def test_assigning_a_handles_data_and_grad_sets_its_node():
    graph = Graph()
    x = graph.value(1.0)
    x.data = 3
    x.grad = 0
    assert (graph.nodes[x.index].data, graph.nodes[x.index].grad) == (3.0, 0.0)
    assert type(graph.nodes[x.index].data) is float and type(graph.nodes[x.index].grad) is float


@pytest.mark.parametrize("field", ["data", "grad"])
def test_assigning_a_handle_something_not_a_number_is_refused(field):
    graph = Graph()
    x = graph.value(1.0)
    message = f"Handle.{field} must be a real number, got '2' \\(str\\)"
    with pytest.raises(TypeError, match=message):
        setattr(x, field, "2")
    assert (x.data, x.grad) == (1.0, 0.0)
