"""The standard library's state that lives in its containers and objects rather than in
its modules' names (which fresh.py puts back): random's generator, warnings' filters,
re's cache, the import system's cache of finders, and the ABCs' registrations. A run
could leave any of them for the next (a seed, a filter that makes warnings errors, a
planted pattern or finder whose methods are the learner's, `Sequence.register(dict)`).
"""

from __future__ import annotations

import _abc
import random
import re
import sys
import warnings
from abc import ABCMeta, get_cache_token
from collections.abc import Iterable
from operator import is_

from .snapshots import Snapshot

GENERATOR, GENERATOR_CLASS = random._inst, type(random._inst)
"""The generator behind random's functions (`random.random` is its bound method)."""
RE_CACHES = tuple(getattr(re, name) for name in ("_cache", "_cache2") if hasattr(re, name))


def reseed() -> None:
    """random's generator starts afresh, from the system's randomness, as in a new Python
    (and not as the memory snapshot froze it: every visit would draw the same numbers)."""
    if type(GENERATOR) is not GENERATOR_CLASS:
        GENERATOR.__class__ = GENERATOR_CLASS
    state = vars(GENERATOR)
    state.clear()
    state["gauss_next"] = None
    random.Random.__mro__[1].seed(GENERATOR)  # _random.Random's, in C


class LibraryState:
    """The containers as a run begins, put back when it ends: compared by identity."""

    def __init__(self) -> None:
        self.filters = list(warnings.filters)
        self.once = Snapshot(warnings.onceregistry)
        self.caches = [Snapshot(cache) for cache in (*RE_CACHES, sys.path_importer_cache)]

    def restore(self) -> None:
        filters = warnings.filters
        if len(filters) != len(self.filters) or not all(map(is_, filters, self.filters)):
            filters[:] = self.filters
            warnings._filters_mutated()  # each module's registry of warnings seen is stale
        for snapshot in (self.once, *self.caches):
            if snapshot.changed():
                snapshot.put_back()


class Registrations:
    """The classes registered with each ABC the modules define (`collections.abc`'s,
    `numbers`', the engine's), as saved, put back when a run registered any: the ABCs'
    cache token counts every registration."""

    def __init__(self, namespaces: Iterable[dict]) -> None:
        abcs = {id(value): value for namespace in namespaces for value in namespace.values()
                if isinstance(value, ABCMeta)}
        self.saved = [(abc, _registered(abc)) for abc in abcs.values()]
        self.token = get_cache_token()

    def restore(self) -> None:
        if get_cache_token() == self.token:
            return
        for abc, saved in self.saved:
            if _registered(abc).keys() != saved.keys():
                _abc._reset_registry(abc)
                for subclass in saved.values():
                    _abc._abc_register(abc, subclass)
        for abc, _ in self.saved:  # a cached answer may rest on a registration now gone
            _abc._reset_caches(abc)
        self.token = get_cache_token()


def _registered(abc: ABCMeta) -> dict[int, type]:
    """The classes registered with `abc`, by id: a learner's class may hash as it likes."""
    registry = _abc._get_dump(abc)[0]
    return {id(cls): cls for cls in (ref() for ref in registry) if cls is not None}
