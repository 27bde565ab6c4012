"""A namespace's names and values as they were, checked and put back by identity: a
value equal to the saved one but not it (a learner's object whose __eq__ says True) is a
change. fresh.py puts the playground back with these; guard.py checks with them that
the standard library it trusts is as it was."""

from __future__ import annotations

from itertools import repeat
from operator import is_, itemgetter
from types import ModuleType

MISSING = object()
IMMUTABLE_TYPE = 1 << 8
"""Py_TPFLAGS_IMMUTABLETYPE: a class defined in C, whose attributes no code can set."""



class Snapshot:
    """The names and values in a namespace (a dict, or a class's attributes), checked
    and put back by identity, with loops that run in C: most runs change nothing."""

    def __init__(self, mapping, owner: type | None = None) -> None:
        self.mapping, self.owner = mapping, owner
        self.keys, self.values = tuple(mapping), tuple(mapping.values())

    def changed(self, mapping=None) -> bool:
        """Whether `mapping` (by default the one saved) differs from the snapshot; a
        mapping other than the one saved is only checked for the snapshot's names."""
        current = self.mapping if mapping is None else mapping
        if mapping is None and len(current) != len(self.keys):
            return True
        return not all(map(is_, map(current.get, self.keys, repeat(MISSING)), self.values))

    def put_back(self) -> None:
        """Make the namespace hold the snapshot, never emptying it on the way (it may
        be this module's own)."""
        saved = dict(zip(self.keys, self.values, strict=True))
        current = self.mapping
        for name in current.keys() - saved.keys():
            if self.owner is None:
                del current[name]
            else:  # type's own, past a metaclass's refusal (an Enum's, say)
                type.__delattr__(self.owner, name)
        if self.owner is None:  # a dict: every name at once (sys's, after every run)
            current.update(saved)
            return
        for name, value in saved.items():
            if current.get(name, MISSING) is not value:
                type.__setattr__(self.owner, name, value)


class Snapshots:
    """Many snapshots checked at once: by length, then each by identity, its values
    fetched in one call in C (an itemgetter of its names) and compared in another."""

    def __init__(self, snapshots: list[Snapshot]) -> None:
        self.mappings = [s.mapping for s in snapshots]
        self.lengths = [len(s.keys) for s in snapshots]
        self.checks = [(s.mapping, itemgetter(*s.keys), len(s.keys) > 1,
                        s.values if len(s.keys) > 1 else s.values[0])
                       for s in snapshots if s.keys]

    def changed(self) -> bool:
        if list(map(len, self.mappings)) != self.lengths:
            return True
        for mapping, values_of, many, saved in self.checks:
            try:
                now = values_of(mapping)
            except KeyError:  # a name deleted, and another added
                return True
            if not (all(map(is_, now, saved)) if many else now is saved):
                return True
        return False


def module_snapshots(module: ModuleType) -> list[Snapshot]:
    """A module's globals, and the attributes of each class it defines that code can
    change."""
    found = [Snapshot(vars(module))]
    for value in list(vars(module).values()):
        if (isinstance(value, type) and not value.__flags__ & IMMUTABLE_TYPE
                and value.__module__ == module.__name__):
            found.append(Snapshot(vars(value), owner=value))
    return found
