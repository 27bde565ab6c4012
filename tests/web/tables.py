"""What the page reads as a table (web/page/protocol.js's isTable), for the runner's tests:
the page takes anything else for a message the runner never sends."""

from __future__ import annotations

MAX_SAFE_INT = 2**53 - 1
NUMBER_WORDS = ("nan", "inf", "-inf")
TEXT_CHARS = 10_000
MAX_NOTES = 3


def is_node(i: object, count: int) -> bool:
    return type(i) is int and 0 <= i < count


def is_text(text: object) -> bool:
    return type(text) is str and len(text) <= TEXT_CHARS


def assert_page_reads(table: dict) -> None:
    """Fail, saying which field, unless the page reads `table` (as JSON gives it back)."""
    count = table["count"]
    assert type(count) is int and count >= 0
    for name in ("label", "op", "data", "grad", "args", "line"):
        assert len(table[name]) == count, name
    assert all(label is None or type(label) is str for label in table["label"])
    assert all(type(op) is str for op in table["op"])
    for name in ("data", "grad"):
        texts = table["notNumbers"][name]
        assert all(is_node(int(i), count) and is_text(text) for i, text in texts.items()), name
        for i, value in enumerate(table[name]):
            if value is None:
                assert str(i) in texts, f"{name} {i} is None with no text"
            else:
                assert type(value) is float or value in NUMBER_WORDS, f"{name} {i} is {value!r}"
    assert all(is_node(a, count) for args in table["args"] for a in args), "args"
    assert all(is_node(i, count) for i in table["missingOperands"]), "missingOperands"
    assert all(line is None or (type(line) is int and 0 < line <= MAX_SAFE_INT)
               for line in table["line"]), "line"
    assert all(is_node(int(i), count) and is_text(text)
               for i, text in table["fullLabel"].items()), "fullLabel"
    assert table["root"] is None or is_node(table["root"], count), "root"
    for step in table["steps"] or ():
        assert is_node(step["node"], count), "step"
        for term in step["terms"]:
            assert is_node(term["operand"], count) and is_text(term["rule"]), "term"
            for name in ("upstream", "local", "value", "grad"):
                number = term[name]
                assert type(number) is float or number in NUMBER_WORDS, f"term {name}"
    assert table["noSteps"] is None or is_text(table["noSteps"]), "noSteps"
    assert table["forward"] is None or all(is_text(rule["fn"]) and is_text(rule["rule"])
                                           for rule in table["forward"].values()), "forward"
    assert len(table["notes"]) <= MAX_NOTES and all(map(is_text, table["notes"])), "notes"
