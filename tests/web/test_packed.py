"""The worker's runs send each table's data and grad packed (playground_runner/packed.py),
which the page unpacks (web/page/protocol.js's unpack, done here as it does it) to exactly
the columns an unpacked run sends, whatever the nodes hold: a nan or an infinity is its
word again, a value that is not a number is null beside its text, and -0.0 keeps its sign.
A column that is not the runner's own is sent as it is, for the page to refuse."""

from __future__ import annotations

import base64
import math
import struct
from pathlib import Path

import pytest

from tests.web.runs import MINE, RUNNER, strict_json
from tests.web.tables import assert_page_reads

EXAMPLE = (Path(__file__).parents[2] / "web" / "shared" / "example.py").read_text()
ODD_NUMBERS = (
    "from engine import Graph, MakeValue, VMul, VAdd, Backward\n"
    "g = Graph()\n"
    "xs = [MakeValue(g, x) for x in (0.0, -0.0, 5e-324, 1.7976931348623157e308, 0.1, -2.5)]\n"
    "big = VMul(g, xs[3], xs[3])\n"  # inf
    "VAdd(g, big, VMul(g, big, MakeValue(g, -1.0)))\n"  # inf - inf: nan
    "Backward(g, xs[4])\n"
)
NOT_NUMBERS = MINE + "mine = Mine(Node('one'), Node(4.0, ('Mul', 0, 0)), Node(None))\n"
CHANGED_SHOW = (
    "from engine import Graph, MakeValue\n"
    "g = Graph()\n"
    "MakeValue(g, 1.0)\n"
    "show(g)\n"
    "show.tables[0][0]['data'] = ['one']\n"
    "del g\n"
)


def unpacked(text: str, texts: dict[str, str]) -> list:
    """A packed column as protocol.js's unpack reads it."""
    raw = base64.b64decode(text, validate=True)
    assert len(raw) % 8 == 0

    def read(i: int, x: float) -> float | str | None:
        if math.isfinite(x):
            return x
        if str(i) in texts:
            return None
        return "nan" if math.isnan(x) else "inf" if x > 0 else "-inf"

    return [read(i, x) for i, (x,) in enumerate(struct.iter_unpack("<d", raw))]


def tables_of(code: str, packed: bool) -> list[dict]:
    result = strict_json(RUNNER.run(code, lambda batch: None, packed=packed))
    RUNNER.tidy()
    assert result["status"] == "done", result["error"]
    return result["tables"]


@pytest.mark.parametrize("code", [EXAMPLE, ODD_NUMBERS, NOT_NUMBERS],
                         ids=["chapter", "odd numbers", "not numbers"])
def test_packed_tables_unpack_to_exactly_the_tables_sent_unpacked(code):
    plain, packed = tables_of(code, packed=False), tables_of(code, packed=True)
    assert plain and len(packed) == len(plain)
    for sent, table in zip(packed, plain, strict=True):
        for name in ("data", "grad"):
            assert type(sent[name]) is str
            column = unpacked(sent[name], sent["notNumbers"][name])
            assert list(map(repr, column)) == list(map(repr, table[name])), name
            sent[name] = column
        assert sent == table
        assert_page_reads(sent)


def test_what_the_odd_columns_hold_survives_packing():
    (table,) = tables_of(ODD_NUMBERS, packed=True)
    data = unpacked(table["data"], table["notNumbers"]["data"])
    assert list(map(repr, data[:8])) == ["0.0", "-0.0", "5e-324", "1.7976931348623157e+308",
                                         "0.1", "-2.5", "'inf'", "-1.0"]
    assert data[-1] == "nan"
    (mine,) = [t for t in tables_of(NOT_NUMBERS, packed=True) if t["title"] == "mine"]
    data = unpacked(mine["data"], mine["notNumbers"]["data"])
    assert data == [None, 4.0, None]
    assert mine["notNumbers"]["data"] == {"0": "'one'", "2": "None"}


def test_a_show_table_the_code_changed_is_sent_as_it_is():
    (table,) = tables_of(CHANGED_SHOW, packed=True)
    assert table["data"] == ["one"]
    assert type(table["grad"]) is str
