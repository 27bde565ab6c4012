"""Run the learner's code inside Pyodide and describe what it left behind.

The worker imports this package once, after the engine is installed. Each run
gets a fresh namespace and a fresh Python (see fresh.py); output streams to the
page in batches; errors come back as a traceback of the learner's own frames;
every graph the code left in its globals (or passed to `show`) comes back as a
table, and an exercise's checks say whether the code passes them (checks.py), all as
one JSON string so the page parses it once; what the code passes to `plot` and
`boundary` streams to the page as it runs, for charts (plots.py). The tables of code that
ended without error go to the page as soon as they are made, ahead of the result, so
that the page paints them while the runner frees what the run left and puts Python
back. While the code runs, the engine notes which of its lines made each node, so the
page can point from a node to its line.

Whatever the code does, the run ends with a result: everything the runner does
around the code (finding graphs, tables, tracebacks, JSON) is guarded, so only a
failure of Python itself can keep a result from the page.
"""

from __future__ import annotations

import asyncio
import builtins
import gc
import json
import linecache
import signal
import sys
import time
from collections.abc import Callable, Iterable

from engine.lines import record_lines

from .caps import describe
from .checks import run_checks
from .errors import FILENAME, Parting, error_line, learner_traceback
from .fresh import Pristine, RunState, StandardLibrary, Stopped, stop
from .frozen import FROZEN
from .guard import guard
from .output import TICK, NoInput, Output, Stream
from .packed import packed_table
from .plots import Plots
from .pyodide_api import PyodideApi
from .show import Show
from .tables import MAX_TABLES, Later, Shapes, graphs_in, tabulate

__all__ = ["Runner", "take"]


class Runner:
    """What outlives a run: the state every run is put back to (fresh.py), and the
    exception held until the next run (errors.Parting). No module global refers to the
    one the worker uses (take()): learner code can reach the runner's modules (any of
    its functions' `__globals__`), but not this, so it can neither change what later
    runs are put back to nor bless a change as pristine (settle), nor get at Pyodide's
    own object, which this holds while a run goes on (pyodide_api.py)."""

    def __init__(self) -> None:
        self.parting = Parting()
        self.pristine, self.standard, self.api = Pristine(), StandardLibrary(), PyodideApi()
        self.later: list[Later | None] = []
        """What makes the Backward steps of each of the last run's tables (tables.Later):
        held here alone, and dropped as the next run starts."""
        self.shapes = Shapes()
        """The shapes of the last run's tables, for the next run's (tables.Shapes): held
        here alone."""
        self.settle()

    def run(self, code: str, send_output: Callable[[str], None], checks: Iterable[str] = (),
            report: Callable[[str], None] | None = None,
            send_plots: Callable[[str], None] | None = None,
            pace: Callable[[bool], bool] | None = None, unseen: bool = False,
            end_callbacks: Callable[[], None] | None = None, packed: bool = False,
            send_tables: Callable[[str], None] | None = None) -> str:
        """Run `code` in a fresh namespace, then, if it ended without error, the author's
        `checks` on what it left; returns the result as JSON for the page. `report` hears,
        as it happens, each time the code reaches into the playground itself (guard.py);
        `send_plots`, as they gather, the points and pictures of `plot` and `boundary`;
        `pace`, as each step of them begins, whether it may (plots.py). An `unseen` run
        (the worker's warm-up) leaves the steps held of the last run. `end_callbacks` is
        the worker's, which ends what the run handed JavaScript to call later (let_go).
        `packed` (the worker's runs) sends the tables' numbers packed for the page (packed.py).
        `send_tables`, where given, gets the tables of code that ended without error as JSON
        as soon as they are made, and the result then has none of its own."""
        output = Output(send_output)
        result = {"status": "done", "error": None, "line": None, "ms": 0.0,
                  "ended": time.time() * 1000, "tables": [], "check": None}
        checks = [str(check) for check in checks]
        held, self.later = self.later, []
        shapes = Shapes() if unseen else self.shapes  # a warm-up run's are its own
        shapes.next_run()
        self.parting.release()
        pristine = self.pristine
        pristine.restore()
        guard.start(report)
        state = RunState()
        api = self.api
        # taken before the code:
        restore = pristine.restore, state.restore, guard.unhide_runner, api.put_back
        namespace: dict = {}
        before = _tasks()
        try:
            _enter(state, api)
            plots = Plots(send_plots, _flushing(pace, output))
            namespace = _run(code, output, result, plots, self, shapes)
            if send_tables is not None and result["status"] == "done" and result["tables"]:
                send_tables(_json(result, output, self,
                                  lambda: _sent_tables(result["tables"], packed)))
                result["tables"] = []
            if checks and result["status"] == "done":
                for step in (*restore, self.standard.restore):  # the checks' pristine names
                    step()
                _enter(state, api)
                _redirect(output)
                result["check"] = _check(checks, namespace, self)
        except KeyboardInterrupt:  # a Stop that came while the runner itself was at work
            result["status"] = "stopped"
        finally:
            guard.checking = False
            _let_go(namespace, before, end_callbacks)
            while True:  # however often a late Stop interrupts putting back
                try:
                    for step in restore:
                        step()
                    break
                except KeyboardInterrupt:
                    continue
        while True:
            try:
                text = _json(result, output, self, lambda: _as_sent(result, packed))
                break
            except KeyboardInterrupt:  # a Stop that came just as the run ended
                result["status"] = "stopped"
        if unseen:
            self.later = held
        return text

    def steps(self, index: int) -> str:
        """The Backward steps of the last run's table `index`, made now (tables.Later), as
        JSON for the page: {"steps": [...] or null, "noSteps": why not or null}."""
        later = self.later[index] if 0 <= index < len(self.later) else None
        while True:
            try:
                if type(later) is Later:
                    steps, why = later.steps()
                else:
                    steps, why = None, "its run is over: run the code again to replay it"
                return json.dumps({"steps": steps, "noSteps": why}, allow_nan=False)
            except KeyboardInterrupt:  # a Stop's late signal, for the run before
                continue

    def tidy(self) -> None:
        """Put back the standard library, as the worker has it done after each run's
        result (once the page has painted it, or before the next run): a Stop may
        interrupt it."""
        while True:
            try:
                self.standard.restore()
                return
            except KeyboardInterrupt:
                continue

    def settle(self) -> None:
        """What is there now is pristine: for the worker, after it imported more (micropip)."""
        self.pristine.save()
        self.standard.save()
        self.api.save()


def _flushing(pace: Callable[[bool], bool] | None,
              output: Output) -> Callable[[bool], bool] | None:
    """`pace`, sending what the code printed before a step waits: it shows while paused."""
    if pace is None:
        return None

    def paced(block: bool) -> bool:
        if block:
            output.flush()
        return pace(block)

    return paced


def _enter(state: RunState, api: PyodideApi) -> None:
    """Before learner code runs: Stop raises Stopped, and the runner's modules and
    Pyodide's own object are out of its reach."""
    state.enter()
    guard.hide_runner()
    api.hide()


def _let_go(namespace: dict, before: set[asyncio.Task],
            end_callbacks: Callable[[], None] | None) -> None:
    """Let go, while the run's guard still watches and Pyodide's object is still hidden,
    of what the run left: the callbacks it handed JavaScript, its namespace, and the
    cycles among its objects. So its objects' `__del__` and its coroutines' `finally` run
    now, inside the run, and a Stop ends them, not after it, in a later run's Python."""
    signal.signal(signal.SIGINT, stop)
    while True:  # however often a Stop interrupts the runner here, not the code
        try:
            _end_tasks(_tasks() - before)
            if end_callbacks is not None:
                end_callbacks()
            namespace.clear()
            gc.collect()
            return
        except KeyboardInterrupt:
            continue


def _tasks() -> set[asyncio.Task]:
    """The asyncio tasks pending now, on the loop the code would get: the worker's. (In
    CPython, a test's loop may hold the test tools' own tasks: only those a run added
    are its. Where asyncio has no loop yet, none is made to ask: asyncio would hold it,
    to be put back after every run.)"""
    loop = asyncio.events._get_running_loop()  # the worker's: Pyodide's WebLoop
    if loop is None and asyncio.events._event_loop_policy is not None:
        try:
            loop = asyncio.get_event_loop()
        except RuntimeError:  # no loop
            return set()
    return set() if loop is None else asyncio.all_tasks(loop)


def _end_tasks(tasks: set[asyncio.Task]) -> None:
    """The run's asyncio tasks end with it, none of which can have run a step (the loop
    waits on the worker's event loop): each coroutine is closed, and the task let go of
    without a complaint that it was pending. Their JavaScript callbacks go next."""
    for task in tasks:
        task._log_destroy_pending = False
        try:
            task.get_coro().close()
        except Exception as exc:  # a finally that raised, or awaited again
            print(f"{task.get_name()} ended with the run: {describe(exc)}", file=sys.stderr)


def _check(checks: list[str], namespace: dict, runner: Runner) -> dict:
    """The checks' verdict; the playground's modules must be as they were after them,
    else the learner's code, called by a check, changed what the checks rely on."""
    guard.checking = True
    verdict = run_checks(checks, namespace)
    guard.checking = False
    runner.api.put_back()  # where micropip's module holds it, say: as saved, as compared
    changed = runner.pristine.changed() or runner.standard.changed()
    if changed is not None:
        guard.tell(f"{changed} was changed while the checks ran")
    return verdict


def _run(code: str, output: Output, result: dict, plots: Plots, runner: Runner,
         shapes: Shapes) -> dict:
    """Run the code, then fill in `result`: its status, error and tables; returns the
    namespace the code ran in."""
    show = Show(output.note)
    namespace = {"__name__": "__main__", "__file__": FILENAME, "__builtins__": builtins,
                 "show": show, "plot": plots.plot, "boundary": plots.boundary}
    linecache.cache[FILENAME] = (len(code), None, code.splitlines(True), FILENAME)
    _redirect(output)
    started = time.perf_counter()
    try:
        program = compile(code, FILENAME, "exec")
        with record_lines(program):
            exec(program, namespace)
    except Stopped:
        result["status"] = "stopped"
    except BaseException as exc:  # the learner's error, SystemExit included, is a result
        result["status"] = "error"
        result["error"], result["line"] = learner_traceback(exc), error_line(exc)
        runner.parting.hold(exc)
    # The page signals a Stop until the result comes: the code has ended, so a late
    # signal must not cut short what is sent of it (the charts' last points, the tables).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    result["ms"] = (time.perf_counter() - started) * 1000
    result["ended"] = time.time() * 1000
    runner.pristine.restore()  # the builtins and the runner's code as they were, for the tables
    plots.flush()  # what was drawn up to an error or a Stop shows too
    plots.say_left_out(output.note)
    show.say_left_out()
    graphs = graphs_in(namespace, output.note)
    made = [*map(_pair, show.tables),
            *tabulate(graphs, output.note, MAX_TABLES - len(show.tables), shapes)]
    result["tables"] = [t for t, _ in made]
    runner.later = [later if type(later) is Later else None for _, later in made]
    return namespace


def _pair(made: object) -> tuple[object, object]:
    """A (table, later) of show()'s, which the learner's code can reach and change."""
    return made if type(made) is tuple and len(made) == 2 else (made, None)


def _redirect(output: Output) -> None:
    """What the code prints goes to the page, on the worker's tick too; it reads no input."""
    sys.stdin = NoInput()
    sys.stdout, sys.stderr = Stream(output, "stdout"), Stream(output, "stderr")
    if TICK is not None:
        signal.signal(TICK, output.tick)


def _json(result: dict, output: Output, runner: Runner, sent: Callable[[], object]) -> str:
    """JSON of `sent()` (the result, or its tables), after the output; a table of the
    result's that cannot be sent is noted instead (and the runner keeps what makes the
    steps of those sent)."""
    try:
        text = json.dumps(sent(), allow_nan=False)
    except (TypeError, ValueError):
        kept = [(t, later) for t, later in zip(result["tables"], runner.later, strict=True)
                if _sendable(t, output)]
        result["tables"] = [t for t, _ in kept]
        runner.later = [later for _, later in kept]
        text = json.dumps(sent(), allow_nan=False)
    output.flush()
    return text


def _as_sent(result: dict, packed: bool) -> dict:
    return {**result, "tables": _sent_tables(result["tables"], packed)} if packed else result


def _sent_tables(tables: list, packed: bool) -> list:
    return list(map(packed_table, tables)) if packed else tables


def _sendable(table: dict, output: Output) -> bool:
    try:
        json.dumps(table, allow_nan=False)
        return True
    except (TypeError, ValueError) as exc:
        output.note(f"cannot show {table['title']} as a table: {describe(exc)}")
        return False


def take() -> Runner:
    """The runner, once: the worker (or a test) holds it from then on, and no module
    global does."""
    return _untaken.pop()


_untaken: list[Runner] = []
_untaken.append(Runner())  # last, so that it saves this module's globals as they end up
FROZEN.freeze()  # what Python holds by now (frozen.py)
