"""A table's numbers as the worker sends them to the page: the data and grad columns each
packed as the base64 of little-endian float64s, not as JSON numbers. JSON writes a float
a digit at a time: a 1,000-node table's 2,000 numbers took most of the 3 ms its JSON took
in Pyodide (more on a page whose Python is not yet optimized), and the page read them so
again; packed, both take microseconds. The page unpacks them as it reads the result
(web/page/protocol.js): a nan or an infinity is its number word again, and a value that
is not a number, packed as a nan, is null where notNumbers has its text.

Only the runner's own columns are packed. A show() table that the learner's code changed
may hold anything: its columns are left as they are, for the page to check and refuse."""

from __future__ import annotations

import math
import sys
from array import array
from binascii import b2a_base64
from types import NoneType

from .contract import CONTRACT

PACKED = ("data", "grad")
WORD_FLOATS = {word: float(word) for word in CONTRACT["table"]["numberWords"]}
"""The words for the floats JSON lacks ("nan", "inf", "-inf"), as those floats again."""
BIG_ENDIAN = sys.byteorder == "big"


def packed_table(table: object) -> object:
    """`table` with its data and grad columns packed, each where it holds only what the
    runner puts there."""
    if type(table) is not dict or type(table.get("notNumbers")) is not dict:
        return table
    columns = {name: pack(table.get(name), table["notNumbers"].get(name)) for name in PACKED}
    return {**table, **{name: text for name, text in columns.items() if text is not None}}


def pack(column: object, texts: object) -> str | None:
    """A column of numbers, number words and (where `texts` has the value's text) None,
    packed; None for anything else. Only exact types are looked at, so no code of the
    learner's runs here."""
    if type(column) is not list:
        return None
    kinds = set(map(type, column))
    if kinds != {float}:
        if not (kinds <= {float, str, NoneType} and type(texts) is dict
                and set(map(type, texts)) <= {int}):
            return None
        if not {x for x in column if type(x) is str} <= WORD_FLOATS.keys() \
                or any(x is None and i not in texts for i, x in enumerate(column)):
            return None
        column = [x if type(x) is float else WORD_FLOATS.get(x, math.nan) for x in column]
    numbers = array("d", column)
    if BIG_ENDIAN:
        numbers.byteswap()
    return b2a_base64(numbers, newline=False).decode("ascii")
