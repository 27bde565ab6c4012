"""Pyodide's own JavaScript object, out of a run's reach.

The object loadPyodide returns (Python sees it as the module `pyodide_js`) holds Python's
memory (`_module.HEAPU8`), its file system (`FS`) and the runtime's switches
(`setInterruptBuffer`, `registerJsModule`, the allocation tracing with which the worker
ends a run's callbacks): code that had it could write what no check sees, or change
what the next run's Python is. Python reaches it through `sys.modules` (`pyodide_js`,
`pyodide_js._api`), the finder of JavaScript modules (`jsfinder.jsproxies`) and the
modules that imported it (micropip's). While the learner's code runs, each of those
holds a stand-in instead, whose names raise an ImportError that says why, but for what
Pyodide's own asyncio loop reads as it runs (`_api.config.enableRunUntilComplete`,
copied); importing it anew is refused too. The real objects are held by the Runner,
which learner code cannot reach (see __init__.py). Outside Pyodide (the runner under
CPython, in tests) there is nothing to hide.
"""

from __future__ import annotations

import sys
from importlib.abc import MetaPathFinder
from types import ModuleType, SimpleNamespace

from .guard import in_packages

API = "pyodide_js"
LOOP_READS = ("enableRunUntilComplete",)
"""What Pyodide's asyncio loop reads of `pyodide_js._api.config` inside a run
(`asyncio.run`, `run_until_complete`)."""


def refusal(name: str) -> ImportError:
    return ImportError(f"{name} is Pyodide's own object (Python's memory, its files, the "
                       f"runtime): a run cannot reach it", name=name)


class StandIn(ModuleType):
    """What a run finds in place of a module of Pyodide's own object."""

    def __getattr__(self, name: str) -> object:
        if name.startswith("__"):  # what the import system looks for (__path__, say)
            raise AttributeError(name)
        raise refusal(f"{self.__name__}.{name}")


class ApiImports(MetaPathFinder):
    """Refuses a run's import of Pyodide's object (or a part of it) that is not there."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        if in_packages(name, API):
            raise refusal(name)


class PyodideApi:
    """Where Python holds Pyodide's object, as saved, to hide for a run and put back."""

    def save(self) -> None:
        """Note where the object is now: again after the worker imported more (micropip)."""
        self.modules = {name: module for name, module in sys.modules.items()
                        if in_packages(name, API)}
        real = {id(module): name for name, module in self.modules.items()}
        self.holders = [(vars(module), key, real[id(value)])
                        for module in list(sys.modules.values()) if type(module) is ModuleType
                        for key, value in list(vars(module).items()) if id(value) in real]
        importhook = sys.modules.get("_pyodide._importhook")
        self.finder = getattr(importhook, "jsfinder", None)
        self.registry = self.finder.jsproxies if self.finder is not None else {}
        self.registered = dict(self.registry)
        api = self.modules.get(f"{API}._api")
        config = getattr(api, "config", None)
        self.config = {name: getattr(config, name) for name in LOOP_READS if config is not None}

    def hide(self) -> None:
        """Stand-ins everywhere the object was, fresh for this run (a run may change one)."""
        if not self.modules:
            return
        stand_ins = {name: StandIn(name) for name in self.modules}
        for name, stand_in in stand_ins.items():
            parent, _, child = name.rpartition(".")
            if parent in stand_ins:
                setattr(stand_ins[parent], child, stand_in)
        if f"{API}._api" in stand_ins:
            stand_ins[f"{API}._api"].config = SimpleNamespace(**self.config)
        sys.modules.update(stand_ins)
        for namespace, key, name in self.holders:
            namespace[key] = stand_ins[name]
        if self.finder is not None:  # the run's own registrations go with it
            self.finder.jsproxies = {k: v for k, v in self.registered.items() if k != API}
        sys.meta_path.insert(0, ApiImports())

    def put_back(self) -> None:
        """The object where it was, and the finder's registrations as saved."""
        if not self.modules:
            return
        sys.meta_path[:] = [finder for finder in sys.meta_path if type(finder) is not ApiImports]
        sys.modules.update(self.modules)
        for namespace, key, name in self.holders:
            namespace[key] = self.modules[name]
        if self.finder is not None:
            self.finder.jsproxies = self.registry
        if self.registry != self.registered:
            self.registry.clear()
            self.registry.update(self.registered)
