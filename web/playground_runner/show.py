"""`show(graph, title)`, in every run's namespace: a table of the graph as it is now.

A module of its own: code can read what `show` leads to (its class's functions'
globals), so it lives where nothing of the runner's but the tables is in reach.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.inspect import is_graph_like

from .caps import TITLE_CHARS, describe, text_of
from .tables import MAX_TABLES, Later, more, table


class Show:
    """The run's `show`: the tables it made (MAX_TABLES at most, the rest counted), each
    with what makes its steps later (tables.table)."""

    def __init__(self, note: Callable[[str], None]) -> None:
        self.tables: list[tuple[dict, Later | None]] = []
        self.left_out = 0
        self.note = note

    def __call__(self, graph: object, title: object = None) -> None:
        """Snapshot `graph` now as a table of its own, named `title`."""
        if not is_graph_like(graph):
            raise TypeError("show() needs a graph: an object with a `nodes` list "
                            "whose items have data, grad and op")
        if len(self.tables) == MAX_TABLES:
            self.left_out += 1
            return
        name = f"show #{len(self.tables) + 1}" if title is None else text_of(title, TITLE_CHARS)
        try:
            self.tables.append(table(name, graph, snapshot=True))
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            self.note(f"cannot show {name} as a table: {describe(exc)}")

    def say_left_out(self) -> None:
        if self.left_out:
            self.note(f"{more(self.left_out, 'snapshot', 'snapshots')} of show() not shown: "
                      f"a run shows {MAX_TABLES} tables at most")
