"""Every run starts from the same Python. What a run may change is put back: the
builtins, the engine's and this package's modules (their globals, classes, functions
and module-level lists, dicts and sets) as they were when first imported, and, as they
were when the run began, `sys` and `sys.modules`, the recursion limit, the trace and
profile functions, the garbage collector, the working directory and the SIGINT handler.

Putting back is cheap when nothing changed (each saved name is compared by identity),
so it runs both before a run (against whatever ran between runs, a timer say) and
after it. See bench/fresh.py for its cost.
"""

from __future__ import annotations

import builtins
import gc
import importlib
import os
import pkgutil
import signal
import sys
from types import FunctionType

import engine

TRACKED = ("engine", __package__)
FUNCTION_PARTS = ("__code__", "__defaults__", "__kwdefaults__")

MAX_RECURSION_LIMIT = 2_000
"""The highest recursion limit a learner may set. Measured by bench/recursion.py in
Chromium 156's module worker, Pyodide 314.0.7: plain Python recursion ends as a
RecursionError up to a limit of about 3,300, and fails fatally (the wasm stack runs
out) above it; 2,000 leaves room for the frames of the page's worker and this runner.
Recursion through builtins or dunder methods costs more stack per level, and runs out
below Pyodide's default limit of 1,000 whatever limit is set."""


class Stopped(KeyboardInterrupt):
    """The page's Stop (SIGINT from its interrupt buffer), told apart from a
    KeyboardInterrupt that the learner's code raises itself."""


def stop(signum: int, frame: object) -> None:
    raise Stopped


def _tracked(name: str) -> bool:
    return any(name == top or name.startswith(top + ".") for top in TRACKED)


class Pristine:
    """The builtins and the tracked modules as they are when saved, to put back."""

    def save(self) -> None:
        for info in pkgutil.walk_packages(engine.__path__, "engine."):
            importlib.import_module(info.name)  # so a learner's import finds it pristine
        self.modules = {name: m for name, m in sys.modules.items() if _tracked(name)}
        self.namespaces = [(builtins.__dict__, dict(builtins.__dict__))]
        self.attributes: list[tuple[object, dict]] = []
        self.containers: list[tuple[object, object]] = []
        for module in self.modules.values():
            self.namespaces.append((vars(module), dict(vars(module))))
            for value in list(vars(module).values()):
                self._note(value, module.__name__)

    def _note(self, value: object, home: str) -> None:
        """Save the parts of a module's value that code can change in place."""
        if isinstance(value, type) and value.__module__ == home:
            self.attributes.append((value, dict(vars(value))))
            for member in list(vars(value).values()):
                if type(member) is FunctionType:
                    self._note(member, home)
        elif type(value) is FunctionType and value.__module__ == home:
            self.attributes.append((value, _function_parts(value)))
        elif type(value) in (list, dict, set):
            self.containers.append((value, value.copy()))

    def restore(self) -> None:
        for name, module in self.modules.items():
            if sys.modules.get(name) is not module:
                sys.modules[name] = module
        for namespace, saved in self.namespaces:
            put_back(namespace, saved)
        for owner, saved in self.attributes:
            current = vars(owner) if isinstance(owner, type) else _function_parts(owner)
            for name in current.keys() - saved.keys():
                delattr(owner, name)
            for name, value in saved.items():
                if current.get(name, put_back) is not value:
                    setattr(owner, name, value)
        for container, saved in self.containers:
            if container != saved:
                container.clear()
                container.update(saved) if type(saved) is not list else container.extend(saved)


def _function_parts(function: FunctionType) -> dict:
    return {part: getattr(function, part) for part in FUNCTION_PARTS}


def put_back(namespace: dict, saved: dict) -> None:
    """Make `namespace` hold what `saved` holds, never emptying it on the way (the
    namespace may be this module's own)."""
    for name in namespace.keys() - saved.keys():
        del namespace[name]
    for name, value in saved.items():
        if namespace.get(name, put_back) is not value:
            namespace[name] = value


class RunState:
    """What the interpreter looks like as a run begins, to put back when it ends."""

    def __init__(self) -> None:
        self.modules = dict(sys.modules)
        self.sys = dict(vars(sys))
        self.sys_lists = [(items, items.copy()) for items in (sys.path, sys.meta_path,
                                                              sys.path_hooks)]
        self.recursion_limit = sys.getrecursionlimit()
        self.trace, self.profile = sys.gettrace(), sys.getprofile()
        self.int_digits = sys.get_int_max_str_digits()
        self.gc_enabled = gc.isenabled()
        self.cwd = os.getcwd()
        self.sigint = signal.getsignal(signal.SIGINT)

    def enter(self) -> None:
        """Stop raises Stopped, and the recursion limit can be set only as high as is safe."""
        signal.signal(signal.SIGINT, stop)
        sys.setrecursionlimit = capped_recursion_limit(sys.setrecursionlimit)

    def restore(self) -> None:
        put_back(sys.modules, self.modules)
        put_back(vars(sys), self.sys)
        for items, saved in self.sys_lists:
            if items != saved:
                items[:] = saved
        sys.setrecursionlimit(self.recursion_limit)
        sys.settrace(self.trace)
        sys.setprofile(self.profile)
        sys.set_int_max_str_digits(self.int_digits)
        gc.enable() if self.gc_enabled else gc.disable()
        if os.getcwd() != self.cwd:
            os.chdir(self.cwd)
        signal.signal(signal.SIGINT, self.sigint)


def capped_recursion_limit(setrecursionlimit):
    """sys.setrecursionlimit as the learner sees it: no higher than MAX_RECURSION_LIMIT,
    past which Pyodide would fail fatally instead of raising RecursionError."""

    def capped(limit: int, /) -> None:
        if type(limit) is int and limit > MAX_RECURSION_LIMIT:
            print(f"sys.setrecursionlimit({limit:,}): the browser's stack holds "
                  f"{MAX_RECURSION_LIMIT:,} at most, so the limit is {MAX_RECURSION_LIMIT:,}",
                  file=sys.stderr)
            limit = MAX_RECURSION_LIMIT
        setrecursionlimit(limit)

    capped.__doc__ = setrecursionlimit.__doc__
    return capped
