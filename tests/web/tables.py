"""What the page reads as a table, for the runner's tests: exactly the fields of the
contract (web/shared/contract.json), each of its type as web/page/protocol.js's
TABLE_TYPES checks it. The page takes anything else for a message the runner never sends."""

from __future__ import annotations

from collections.abc import Callable

from tests.web.contract import CONTRACT

TABLE = CONTRACT["table"]
MAX_SAFE_INT = 2**53 - 1
TEXT_CHARS = CONTRACT["text"]["chars"]


def is_node(i: object, t: dict) -> bool:
    return type(i) is int and 0 <= i < t["count"]


def is_text(text: object) -> bool:
    return type(text) is str and len(text) <= TEXT_CHARS


def is_number(x: object) -> bool:
    return type(x) is float or x in TABLE["numberWords"]


def is_column(v: object, t: dict, check: Callable[[object], bool]) -> bool:
    return type(v) is list and len(v) == t["count"] and all(map(check, v))


def texts_by_node(texts: object, t: dict) -> bool:
    """Text by node index (a str, as JSON gives it back)."""
    return type(texts) is dict and all(is_node(int(i), t) and is_text(text)
                                       for i, text in texts.items())


def numbers(v: object, t: dict, name: str) -> bool:
    """A number per node, or None where notNumbers has its text."""
    texts = t["notNumbers"].get(name)
    return (texts_by_node(texts, t) and type(v) is list and len(v) == t["count"]
            and all(str(i) in texts if x is None else is_number(x) for i, x in enumerate(v)))


def steps(v: object, t: dict) -> bool:
    return type(v) is list and all(
        is_node(step["node"], t) and all(
            is_node(term["operand"], t) and is_text(term["rule"])
            and all(is_number(term[name]) for name in ("upstream", "local", "value", "grad"))
            for term in step["terms"])
        for step in v)


TYPES: dict[str, Callable[[object, dict, str], bool]] = {
    "string": lambda v, t, name: type(v) is str,
    "true or false": lambda v, t, name: type(v) is bool,
    "count": lambda v, t, name: type(v) is int and v >= 0,
    "count or null": lambda v, t, name: v is None or (type(v) is int and v >= 0),
    "column: string or null": lambda v, t, name: is_column(
        v, t, lambda x: x is None or type(x) is str),
    "column: string": lambda v, t, name: is_column(v, t, lambda x: type(x) is str),
    "column: number": numbers,
    "not numbers": lambda v, t, name: type(v) is dict and all(
        texts_by_node(texts, t) for texts in v.values()),
    "texts by node": lambda v, t, name: texts_by_node(v, t),
    "column: nodes": lambda v, t, name: is_column(
        v, t, lambda args: type(args) is list and all(is_node(a, t) for a in args)),
    "nodes": lambda v, t, name: type(v) is list and all(is_node(i, t) for i in v),
    "column: line or null": lambda v, t, name: is_column(
        v, t, lambda x: x is None or (type(x) is int and 0 < x <= MAX_SAFE_INT)),
    "node or null": lambda v, t, name: v is None or is_node(v, t),
    "steps or null": lambda v, t, name: v is None or steps(v, t),
    "text or null": lambda v, t, name: v is None or is_text(v),
    "forward rules or null": lambda v, t, name: v is None or (type(v) is dict and all(
        is_text(rule["fn"]) and is_text(rule["rule"]) for rule in v.values())),
    "notes": lambda v, t, name: (type(v) is list and len(v) <= TABLE["notes"]
                                 and all(map(is_text, v))),
}


def assert_page_reads(table: dict) -> None:
    """Fail, saying which field, unless the page reads `table` (as JSON gives it back)."""
    assert sorted(table) == sorted(TABLE["fields"]), "the contract's fields"
    for name, field in TABLE["fields"].items():
        assert TYPES[field["type"]](table[name], table, name), name
