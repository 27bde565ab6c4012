"""Every run starts from the same Python. What a run may change is put back: the
builtins, the engine's and this package's modules (their globals, classes, functions'
names and module-level lists, dicts and sets: Pristine), and every module of the
standard library (and of Pyodide's, and `__main__`) imported by then (their globals and
classes, and the ABCs' registrations: StandardLibrary), as they were when saved; and, as
they were when the run began, `sys` and `sys.modules` (so a module the run imported is
imported afresh by the next), the recursion limit, the trace and profile functions,
sys.monitoring's tools, the garbage collector and its callbacks, the working directory,
the environment variables, the handlers of SIGINT and of the worker's tick, the
collector's thresholds, debugging and frozen objects (frozen.py), the switch interval,
and what library.py keeps (the standard library's containers: warnings' filters, re's
cache, the finders' cache); random's generator is seeded afresh for every run. What cannot be put
back so (a frame's locals, memory written by ctypes, an audit hook) is what guard.py
watches for.

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
from itertools import chain
from operator import attrgetter, is_
from types import FrameType, FunctionType, ModuleType

import engine

from .errors import FILENAME
from .frozen import FrozenWatch
from .guard import in_packages, up_to_learner
from .library import LibraryState, Registrations, reseed
from .output import TICK
from .snapshots import Snapshot, Snapshots, module_snapshots

TRACKED = ("engine", __package__)
"""The packages put back whole: their functions' names and module-level containers too."""
RUNNER_USES = ("json", "traceback", "linecache")
"""Standard modules the runner itself works with as a run ends (its result's JSON, the
learner's traceback): put back with the builtins, before and after every run."""
PUT_BACK_OTHERWISE = frozenset({"sys", "builtins"})
"""By RunState, and builtins first."""
PYODIDES_OWN = ("__main__", "pyodide", "_pyodide", "_pyodide_core", "micropip")
"""Modules not of the standard library put back with it: Pyodide's (`pyodide.ffi`),
micropip once imported, and the interpreter's `__main__` (not the run's namespace)."""
FUNCTION_PARTS = ("__name__", "__qualname__", "__module__", "__doc__")
"""What code may change of a module's function (its code and defaults it may not:
guard.py), and whose reading is not audited."""

MAX_RECURSION_LIMIT = 2_000
"""The highest recursion limit a learner may set. Measured by bench/recursion.py in
Chromium 156's module worker, Pyodide 314.0.7 (the deepest limit at which endless
recursion still ends as a RecursionError; past it the browser's stack runs out, a
fatal error of Pyodide): 3,333 for Python calling Python, so 2,000 leaves room for
the worker's and this runner's frames. Recursion through a builtin (503) or a dunder
method (549) takes more stack a level and runs out below even the default limit of
1,000, whatever the limit: such code crashes Python, and the page restarts it."""


MONITORING = getattr(sys, "monitoring", None)
"""sys.monitoring, in Python 3.12 and later (Pyodide's is 3.14): a tool that a run
registers would have its callbacks act inside later runs, and inside checks."""


class Stopped(KeyboardInterrupt):
    """The page's Stop (SIGINT from its interrupt buffer), told apart from a
    KeyboardInterrupt that the learner's code raises itself."""


_stopped = False
"""Whether a Stop raised Stopped in this run."""


def stop(signum: int, frame: FrameType | None) -> None:
    """Raise Stopped; once it has ended the learner's code, again only where that code
    still runs (it caught the first). The page repeats a Stop until the result comes,
    and one landing as the runner takes in the end of the code (before it can ignore
    Stop) must not cut short what is sent of it: the charts' last points, the tables."""
    global _stopped
    if _stopped and not _learner_running(frame):
        return
    _stopped = True
    raise Stopped


def _learner_running(frame: FrameType | None) -> bool:
    """Whether a frame of the learner's code is on the stack from `frame` out."""
    return any(each.f_code.co_filename == FILENAME for each in up_to_learner(frame))


def _standard(name: str) -> bool:
    """A module of the standard library's or Pyodide's own (not a test's)."""
    if name in PUT_BACK_OTHERWISE:
        return False
    return name.partition(".")[0] in sys.stdlib_module_names or in_packages(name, *PYODIDES_OWN)


class Pristine:
    """The builtins and the engine's and the runner's modules as they are when saved,
    to put back, before and after every run."""

    def save(self) -> None:
        """Save what is there now as pristine; again after the worker imported more."""
        for info in pkgutil.walk_packages(engine.__path__, "engine."):
            importlib.import_module(info.name)  # so a learner's import finds it pristine
        modules = {name: m for name, m in sys.modules.items() if in_packages(name, *TRACKED)}
        self.modules = Snapshot(modules)  # checked against sys.modules, never put back whole
        self.namespaces = [Snapshot(builtins.__dict__)]
        self.functions: list[FunctionType] = []
        self.containers: list[tuple[object, object]] = []
        for module in modules.values():
            self.namespaces.append(Snapshot(vars(module)))
            for value in list(vars(module).values()):
                self._note(value, module.__name__)
        for name, module in list(sys.modules.items()):
            if in_packages(name, *RUNNER_USES):
                self._note_module(module)
        self.first = [(s.mapping, dict(s.mapping)) for s in self.namespaces if s.owner is None]
        # A container two modules share (`from .graph import VARIANTS`) is checked once.
        self.containers = list({id(c): (c, saved) for c, saved in self.containers}.values())
        self._index()

    def _index(self) -> None:
        self.parts_of = attrgetter(*FUNCTION_PARTS)
        self.function_parts = tuple(chain.from_iterable(map(self.parts_of, self.functions)))
        self.all_namespaces = Snapshots(self.namespaces)
        # Once restore() has put back the names of the `first` namespaces, they can differ
        # from those saved only by names added: their lengths tell.
        first = {id(namespace) for namespace, _ in self.first}
        self.first_namespaces = [namespace for namespace, _ in self.first]
        self.first_lengths = list(map(len, self.first_namespaces))
        self.after_first = Snapshots([s for s in self.namespaces if id(s.mapping) not in first])
        # Most containers are functions' empty __dict__s: their lengths, read in C, tell
        # whether they changed; the few that hold something are compared whole.
        self.held = [container for container, _ in self.containers]
        self.held_lengths = list(map(len, self.held))
        self.filled = [(container, saved) for container, saved in self.containers if saved]

    def _note(self, value: object, home: str) -> None:
        """Save the parts of a module's value that code can change in place."""
        if isinstance(value, type) and value.__module__ == home:
            self.namespaces.append(Snapshot(vars(value), owner=value))
            for member in list(vars(value).values()):
                if type(member) is FunctionType:
                    self._note(member, home)
        elif type(value) is FunctionType and value.__module__ == home:
            self.functions.append(value)
            self.containers.append((value.__dict__, value.__dict__.copy()))
        elif type(value) in (list, dict, set) and value is not vars(builtins):  # saved whole
            self.containers.append((value, value.copy()))

    def _note_module(self, module: ModuleType) -> None:
        """Save a standard module's globals and its classes' attributes, not its containers."""
        self.namespaces += module_snapshots(module)

    def changed(self) -> str | None:
        """The first module or class whose names differ from those saved, or None."""
        if (not self.all_namespaces.changed() and not self._functions_changed()
                and not self._containers_changed()):
            return None
        for namespace in self.namespaces:
            if namespace.changed():
                owner = namespace.owner
                return (f"{owner.__module__}.{owner.__qualname__}" if owner is not None
                        else str(namespace.mapping.get("__name__", "a module")))
        return "a function or list of the engine or the playground"

    def _containers_changed(self) -> bool:
        return (list(map(len, self.held)) != self.held_lengths
                or not all(container == saved for container, saved in self.filled))

    def _functions_changed(self) -> bool:
        now = chain.from_iterable(map(self.parts_of, self.functions))
        return not all(map(is_, now, self.function_parts))

    def restore(self) -> None:
        # First the names this code runs on (builtins, the modules' globals), with no
        # name that the learner's code could have changed: then the rest, precisely.
        for namespace, saved in self.first:
            namespace.update(saved)
        if self.modules.changed(sys.modules):
            sys.modules.update(zip(self.modules.keys, self.modules.values, strict=True))
        if (list(map(len, self.first_namespaces)) != self.first_lengths
                or self.after_first.changed()):
            for namespace in self.namespaces:
                if namespace.changed():
                    namespace.put_back()
        if self._functions_changed():
            saved = iter(self.function_parts)  # each function's parts, in turn
            for function in self.functions:
                for part in FUNCTION_PARTS:
                    value = next(saved)
                    if getattr(function, part) is not value:
                        setattr(function, part, value)
        if not self._containers_changed():
            return
        for container, saved in self.containers:
            if container != saved:
                container.clear()
                container.update(saved) if type(saved) is not list else container.extend(saved)


class StandardLibrary(Pristine):
    """The standard library's modules imported by the time they are saved: their
    globals and their classes' attributes (`json.dumps`, say, or
    `traceback.TracebackException.format`), to put back; not their containers. About
    15,000 names: comparing them takes milliseconds, so the worker has them put back
    once the page has painted a run's result, or before the next run if it comes first
    (`tidy`), off the way of the result, and the runner before an exercise's checks,
    which use them."""

    def save(self) -> None:
        self.modules = Snapshot({})
        self.namespaces: list[Snapshot] = []
        self.functions, self.containers, self.first = [], [], []
        for name, module in list(sys.modules.items()):
            put_back = _standard(name) and not in_packages(name, *RUNNER_USES)
            if put_back and isinstance(module, ModuleType):
                self._note_module(module)
        self._index()
        self.registrations = Registrations(namespace.mapping for namespace in self.namespaces)

    def restore(self) -> None:
        super().restore()
        self.registrations.restore()

class RunState:
    """What the interpreter looks like as a run begins, to put back when it ends."""

    def __init__(self) -> None:
        self.modules = Snapshot(sys.modules)
        self.sys = Snapshot(vars(sys))
        self.sys_lists = [(items, items.copy()) for items in (sys.path, sys.meta_path,
                                                              sys.path_hooks, gc.callbacks)]
        self.recursion_limit = sys.getrecursionlimit()
        self.trace, self.profile = sys.gettrace(), sys.getprofile()
        self.int_digits = sys.get_int_max_str_digits()
        self.gc_enabled = gc.isenabled()
        self.cwd = os.getcwd()
        self.environ = Snapshot(os.environ._data)  # the dict behind os.environ
        self.handlers = {signum: signal.getsignal(signum)
                         for signum in (signal.SIGINT, TICK) if signum is not None}
        global _stopped
        _stopped = False
        self.tools = monitoring_tools()
        self.collector = gc.get_threshold(), gc.get_debug()
        self.frozen = FrozenWatch()
        self.switch_interval = sys.getswitchinterval()
        self.library = LibraryState()

    def enter(self) -> None:
        """Stop raises Stopped, the recursion limit can be set only as high as is safe,
        and random's numbers are new."""
        reseed()
        signal.signal(signal.SIGINT, stop)
        sys.setrecursionlimit = capped_recursion_limit(sys.setrecursionlimit)

    def restore(self) -> None:
        for snapshot in (self.modules, self.sys):
            if snapshot.changed():
                snapshot.put_back()
        for items, saved in self.sys_lists:
            if items != saved:
                items[:] = saved
        sys.setrecursionlimit(self.recursion_limit)
        sys.settrace(self.trace)
        sys.setprofile(self.profile)
        sys.set_int_max_str_digits(self.int_digits)
        gc.enable() if self.gc_enabled else gc.disable()
        thresholds, debug = self.collector
        gc.set_threshold(*thresholds)
        gc.set_debug(debug)
        self.frozen.undo()
        sys.setswitchinterval(self.switch_interval)
        self.library.restore()
        if os.getcwd() != self.cwd:
            os.chdir(self.cwd)
        if self.environ.changed():
            self.restore_environ()
        for signum, handler in self.handlers.items():
            signal.signal(signum, handler)
        for tool_id, name in enumerate(monitoring_tools()):
            if name is not None and name != self.tools[tool_id]:
                MONITORING.free_tool_id(tool_id)  # since Python 3.14, its events and callbacks too

    def restore_environ(self) -> None:
        """os.environ's dict as it was, and the C library's environment with it (which
        os.environ's own setting changes too: time.tzset() reads TZ there)."""
        saved = self.environ
        for key in os.environ._data.keys() - set(saved.keys):
            try:
                os.unsetenv(key)
            except (TypeError, ValueError, OSError):  # not a name the C library could hold
                pass
        saved.put_back()
        for key, value in zip(saved.keys, saved.values, strict=True):
            os.putenv(key, value)


def monitoring_tools() -> list[str | None]:
    """The name of the sys.monitoring tool that holds each tool id (None: free)."""
    return [MONITORING.get_tool(i) for i in range(6)] if MONITORING else []


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
