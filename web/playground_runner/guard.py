"""What the learner's code did that a restore cannot undo, or that reached into the
playground itself, told by Python's audit events (PEP 578).

A frame (sys._getframe, a traceback's tb_frame, a generator's gi_frame) leads through
f_back to the runner's own frames and their locals; gc.get_referrers and get_objects
lead to any object; ctypes writes memory; a trace or profile function sees every
frame; an audit hook would outlive the run. Once code has done one of these, nothing
the runner holds can be trusted: the run's verdict is "not checked", and the next run
gets a fresh Python. Each such event is reported at once to the worker (`report`), in
JavaScript, where the learner's Python cannot take it back; an audit hook the code
adds is refused.

While the code runs, the runner's own modules are out of sys.modules, and importing
them is refused: code gets at them only through one of the events above.

An event counts only while the learner's code is on the stack (a frame compiled from
FILENAME), so the runner's and the standard library's own uses (a traceback formatted
after the run, a module imported) do not; nor does the learner's printing of a
traceback (`traceback.print_exc()`), whose frames stay inside the traceback module as
long as that module is as it was and nothing else runs in between (TracebackPrinting).
The hook returns at once for every other event: audited calls are slow in Pyodide,
which is why the engine notes each node's line without one (engine.lines.note_line).
"""

from __future__ import annotations

import linecache
import sys
import traceback
from collections.abc import Callable, Iterator
from importlib.abc import MetaPathFinder
from types import CodeType, FrameType, FunctionType, ModuleType

from .errors import FILENAME
from .snapshots import Snapshots, module_snapshots

FRAME_EVENTS = frozenset({"sys._getframe", "sys._current_frames", "sys._current_exceptions"})
REACHING_EVENTS = FRAME_EVENTS | {
    "gc.get_referrers", "gc.get_referents", "gc.get_objects",
    "sys.settrace", "sys.setprofile", "sys.monitoring.register_callback",
    "sys.addaudithook", "object.__getattr__", "object.__setattr__", "object.__delattr__",
    "function.__new__", "code.__new__",
}
FRAME_ATTRIBUTES = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame"})
"""The attributes whose reading is audited because they hand out a frame."""
OWN_PACKAGE = __package__
PRINTING = ("print_exc", "format_exc", "print_exception", "format_exception", "print_tb",
            "format_tb", "extract_tb")
"""The traceback module's functions that read a traceback's frames and hand back only
text (or FrameSummary objects, which hold no frame)."""


class RefusedError(RuntimeError):
    """What the learner's code may not do: change a function that is not its own, or
    the runner's classes (restore itself would run changed code); add an audit hook
    (refused silently: Python drops this exception)."""


class Guard:
    """The audit hook, and the runner's modules hidden while learner code runs."""

    def __init__(self) -> None:
        self.report: Callable[[str], None] | None = None
        self.checking = False
        self.hidden: dict[str, object] = {}
        self.names: list[str] = []  # the runner's modules, all imported by its first run
        self._inside = False
        sys.addaudithook(self._hook)
        sys.meta_path.insert(0, RunnerImports())

    def start(self, report: Callable[[str], None] | None) -> None:
        """A run starts, reported to `report`: whatever an earlier run set the guard's
        state to (it can reach this object), the hook watches this one afresh."""
        self.report = report
        self.checking = False
        self._inside = False

    def hide_runner(self) -> None:
        """Take the runner's modules out of sys.modules while learner code runs."""
        self.names = self.names or [name for name in sys.modules if _is_runner(name)]
        for name in self.names:
            module = sys.modules.pop(name, None)
            if module is not None:
                self.hidden[name] = module

    def unhide_runner(self) -> None:
        sys.modules.update(self.hidden)
        self.hidden.clear()

    def _hook(self, event: str, args: tuple) -> None:
        if event not in REACHING_EVENTS and not event.startswith("ctypes."):
            return
        if event == "object.__getattr__" and args[1] not in FRAME_ATTRIBUTES:
            return
        changing = event in ("object.__setattr__", "object.__delattr__")
        if changing and not self._guarded(args[0]):
            return
        if self._inside:  # the hook's own look at the stack is audited too
            return
        self._inside = True
        try:
            frames = list(up_to_learner(sys._getframe(1)))
        finally:
            self._inside = False
        if frames[-1].f_code.co_filename != FILENAME:  # the learner's code is not running
            return
        if event not in ("object.__setattr__", "object.__delattr__") and printing.only(frames):
            return
        line = frames[-1].f_lineno or 0
        what = f"{event} of {args[1]}" if event.startswith("object.") else event
        self.tell(f"{what}, line {line}" if line else what)
        if event == "sys.addaudithook":
            raise RefusedError("an audit hook would outlive the run")
        if changing and (isinstance(args[0], FunctionType) or _is_runner(str(args[0].__module__))):
            raise RefusedError(f"{_name(args[0])}.{args[1]} is the playground's own: a run "
                               f"cannot change it")

    def _guarded(self, target: object) -> bool:
        """Whether changing `target` (a class, or a function's code or defaults) reaches in:
        a module's function (the engine's, the runner's, the standard library's: not
        one the run made) and the runner's classes (refused), and, while
        checks run, every class not the learner's (put back after, but the checks use it)."""
        if isinstance(target, FunctionType):
            return _module_function(target)
        module = getattr(target, "__module__", None)
        return _is_runner(str(module)) or (self.checking and module != "__main__")

    def tell(self, what: str) -> None:
        """Report that the code reached into the playground: `what`, and where."""
        if self.report is not None:
            self.report(what)


class RunnerImports(MetaPathFinder):
    """Refuses to import the runner's modules while they are hidden (during a run)."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        if _is_runner(name) and guard.hidden:
            raise ImportError(f"{name} is the playground's own code: a run cannot import it",
                              name=name)


def in_packages(name: str, *packages: str) -> bool:
    """Whether module `name` is one of `packages` or in one of them."""
    return any(name == top or name.startswith(top + ".") for top in packages)


def _is_runner(name: str) -> bool:
    return in_packages(name, OWN_PACKAGE)


def _module_function(function: FunctionType) -> bool:
    """Whether `function` is one of a module's (its globals are the module's), not one
    the learner's code or the standard library made as it ran (namedtuple's __new__)."""
    name = dict.get(function.__globals__, "__name__")
    if not isinstance(name, str) or name == "__main__":
        return False
    module = guard.hidden.get(name) or sys.modules.get(name)  # the runner's are hidden
    return getattr(module, "__dict__", None) is function.__globals__


def _name(target: object) -> str:
    return f"{getattr(target, '__module__', '?')}.{getattr(target, '__qualname__', '?')}"


def up_to_learner(frame: FrameType | None) -> Iterator[FrameType]:
    """The frames from `frame` up to the innermost of the learner's (the last), or to
    the outermost when the learner's code is not running."""
    while frame is not None:
        yield frame
        if frame.f_code.co_filename == FILENAME:
            return
        frame = frame.f_back


class TracebackPrinting:
    """Tells a learner's traceback.print_exc() (and the like, PRINTING) from code that
    reaches into the playground: the frames it reads stay inside the traceback module's
    own code, which is the module's as it was (its globals and classes, and
    linecache's, which it calls with them), and nothing of anyone else's runs in
    between (a learner's __str__ compiled under another file name, say)."""

    def __init__(self, *modules: ModuleType) -> None:
        snapshots = [snapshot for module in modules for snapshot in module_snapshots(module)]
        self.saved = Snapshots(snapshots)
        self.codes = frozenset(_codes_in([snapshot.mapping for snapshot in snapshots]))
        self.entries = frozenset(getattr(traceback, name).__code__ for name in PRINTING)

    def only(self, frames: list[FrameType]) -> bool:
        """Whether `frames` (the event's, up to the learner's) are the traceback
        module's printing of a traceback the learner asked for."""
        inside = frames[:-1]
        return (bool(inside) and inside[-1].f_code in self.entries
                and all(frame.f_code in self.codes for frame in inside)
                and not self.saved.changed())


def _codes_in(namespaces: list[dict]) -> Iterator[CodeType]:
    """The code objects of the functions in `namespaces`, and those nested in them
    (a generator's, a comprehension's)."""
    functions = [value for namespace in namespaces for value in namespace.values()]
    functions += [getattr(value, part, None) for value in list(functions)
                  for part in ("__func__", "fget", "fset", "fdel")]  # methods' wrappers
    pending = [function.__code__ for function in functions if isinstance(function, FunctionType)]
    while pending:
        code = pending.pop()
        yield code
        pending += [const for const in code.co_consts if isinstance(const, CodeType)]


guard = Guard()
printing = TracebackPrinting(traceback, linecache)
