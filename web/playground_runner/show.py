"""`show(graph, title)`, in every run's namespace: a table of the graph as it is now.

A module of its own: code can read `show.__globals__`, so the function lives where
nothing of the runner's but the tables is in reach.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.inspect import is_graph_like

from .caps import TITLE_CHARS, describe, text_of
from .tables import table


def shower(snapshots: list[dict], note: Callable[[str], None]) -> Callable[..., None]:
    """The run's `show`, which appends its tables to `snapshots`."""

    def show(graph: object, title: object = None) -> None:
        """Snapshot `graph` now as a table of its own, named `title`."""
        if not is_graph_like(graph):
            raise TypeError("show() needs a graph: an object with a `nodes` list "
                            "whose items have data, grad and op")
        name = f"show #{len(snapshots) + 1}" if title is None else text_of(title, TITLE_CHARS)
        try:
            snapshots.append(table(name, graph))
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            note(f"cannot show {name} as a table: {describe(exc)}")

    return show
