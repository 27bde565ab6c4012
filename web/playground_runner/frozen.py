"""What Python holds once the runner is imported lives as long as it does: it is frozen
(gc.freeze), so that the collections inside runs never go through it again (else Python
3.14's collector goes through it a slice at a time: 10-100 ms a run in Pyodide, for the
first few dozen runs). A run's gc.unfreeze() or gc.freeze() is undone when it ends.

Telling whether a run called either must cost nothing: gc.get_freeze_count() walks every
frozen object (2-7 ms in Pyodide), and its count also falls whenever a frozen object is
freed, as most runs free some. Two canaries tell instead, each a reference cycle that
only a collection frees, watched by a weak reference: one frozen with the rest, which
outlives every collection unless it was unfrozen; one made as the run begins and let go
as it ends, which a collection then frees unless the run froze it."""

from __future__ import annotations

import gc
import weakref


class _Cycle:
    """An object that refers to itself: no reference count frees it, only the collector."""

    def __init__(self) -> None:
        self.itself = self


class Frozen:
    """What Python held when it was last frozen, and the canary frozen with it."""

    def __init__(self) -> None:
        self.canary = weakref.ref(_Cycle())  # a dead one, until freeze()

    def freeze(self) -> None:
        """Collect what is garbage now, and freeze what is left, a new canary with it."""
        gc.collect()
        self.canary = weakref.ref(_Cycle())
        gc.freeze()


FROZEN = Frozen()  # an object's attribute: what Pristine puts back is the module's globals


class FrozenWatch:
    """Made as a run begins; `undo()` as it ends refreezes if the run unfroze or froze."""

    def __init__(self) -> None:
        self.young = _Cycle()
        self.young_canary = weakref.ref(self.young)

    def undo(self) -> None:
        self.young = None
        gc.collect()
        if FROZEN.canary() is None or self.young_canary() is not None:
            gc.unfreeze()
            FROZEN.freeze()
