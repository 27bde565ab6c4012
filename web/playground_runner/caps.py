"""Caps on the learner's values that become text on the page: a 10 MB label or error
message would freeze the page that lays it out, so each is cut to a size a person reads."""

from __future__ import annotations

ERROR_CHARS = 20_000
"""A traceback, message included."""
CELL_CHARS = 200
"""A table cell: a label, an op, a value that is not a number."""
FULL_LABEL_CHARS = 2_000
"""A label's longer text, for hovering over its cell."""
TITLE_CHARS = 200
"""A table's title: a variable's name or show()'s title."""
NOTE_CHARS = 1_000
"""A note about a graph that cannot be shown, or why Backward cannot be replayed."""


def clip(text: str, limit: int) -> str:
    """`text` if it has at most `limit` characters, else its start and how much is left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… {len(text) - limit:,} more characters"


def text_of(value: object, limit: int) -> str:
    """str(value) as a plain str, clipped; a learner's __str__ may return a str subclass."""
    return clip(str.__str__(str(value)), limit)


def describe(exc: BaseException) -> str:
    """repr(exc) for a note, clipped; its type's name when even repr fails."""
    try:
        return text_of(repr(exc), NOTE_CHARS)
    except KeyboardInterrupt:
        raise
    except BaseException:
        return f"a {type(exc).__name__} that cannot be printed"
