"""Check a whole course headlessly: run every playground of its pages, in order, in Chromium.

    python -m autograd_playground check URL_OR_DIR... [--timeout S] [--json] [--verbose]

A target is a URL, an HTML file, or a folder whose .html files (at any depth, sorted) are
served from localhost; pages in a copy of the playground site itself (a folder with
site.json and embed.js) are not course pages and are skipped. Pages without playgrounds
(a docs site's index, search and 404 pages) are only counted, unless --verbose. A page
that, while its playgrounds are checked, goes to another page, reloads, closes its window,
opens a dialog, loses a playground or throws an error nothing catches fails with what it
did, and the check goes on with the next page. An exercise (a playground with checks)
runs twice: its starter code, which must not pass its checks (it is the learner's to
finish), then its solution, which must. A playground that carries results computed
when its page was built must give them again (its output, its tables' rows): a page
that shows results its code no longer gives fails. The exit status is 0 when every
playground ran without error and every exercise is so, 1 when one failed (an error, past
its timeout, a failed check, a starter that passes, stale results) or a page could not
be checked, 2 when the command line is wrong (a target that is no page), 3 when no page
had a playground, 4 without Playwright, 5 without a Chromium. A course's CI can so catch
a lesson that an engine change broke.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import posixpath
import sys
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote
from xml.etree import ElementTree

from autograd_playground import server
from autograd_playground.built import MAX_ROWS, table_rows
from autograd_playground.chromium import CHROMIUM_ARGS, ChromiumNotFoundError, find_chromium

if TYPE_CHECKING:
    from playwright.async_api import Browser, JSHandle, Page

# The exit statuses, each its own, for a CI step to tell apart (2 is argparse's, for a
# command line it cannot read; a target that is no page is a command line's mistake too).
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_NOTHING_TO_CHECK = 3
EXIT_NO_PLAYWRIGHT = 4
EXIT_NO_CHROMIUM = 5
# How long a run may take when its playground has no `timeout` attribute of its own, in s.
DEFAULT_TIMEOUT_S = 60.0
# How long a page may take to load, and Python to start (or start again after a
# stopped run), before the checker gives up on it.
LOAD_S = 60
BOOT_S = 120
# How long the check's end waits for what is left of Playwright's work (run_to_end).
SHUTDOWN_S = 5
# The files a copy of the playground site holds: pages beside them are the site's own.
SITE_MARKERS = ("site.json", "embed.js")

# Gives each playground on the page without a valid `timeout` attribute the checker's,
# so that the element itself stops a run that takes too long, and the page's Python goes
# on to the next one.
LIMIT_RUNS = """
(defaultTimeout) => {
  for (const el of document.querySelectorAll("autograd-playground")) {
    if (!(Number(el.getAttribute("timeout")) > 0)) el.setAttribute("timeout", defaultTimeout);
  }
}
"""
# LIMIT_RUNS once the page is parsed, before its scripts run: before an `autorun` starts.
LIMIT_AUTORUNS = """
document.addEventListener("readystatechange", () => {
  if (document.readyState === "interactive") (LIMIT_RUNS)(DEFAULT_TIMEOUT);
});
"""

# Where the page keeps why its check has to stop (see STAY_ON_PAGE).
STOP_KEY = 'Symbol.for("autograd-playground check")'
# The checker stands in for a reader who stays on the page: from the page's load on, what
# would take the page away from the check (another document, a reload, closing the window,
# a dialog that waits for an answer) is refused, and the first of them, or an error nothing
# caught, is kept as why the check of the page stops. Refused in the page itself, so that
# the check knows of it as soon as the run during which it happened ends, and the page is
# never closed while it goes to another document (which Chromium may never answer). The
# page's frames are not checked, and left alone.
STAY_ON_PAGE = """
(() => {
  if (window !== window.top) return;
  let loaded = false;
  let why = null;
  const note = (text) => loaded && (why ??= text);
  window[STOP_KEY] = () => why;
  addEventListener("load", () => (loaded = true));
  navigation.addEventListener("navigate", (event) => {
    if (!loaded || event.destination.sameDocument) return;
    event.preventDefault();
    note(event.navigationType === "reload" ? "the page reloaded itself"
      : `the page navigated away to ${event.destination.url}`);
  });
  window.close = () => note("the page closed itself");
  // Answered as Playwright answers a dialog nobody handles: dismissed.
  const dismissed = { alert: undefined, confirm: false, prompt: null };
  for (const [kind, answer] of Object.entries(dismissed)) {
    window[kind] = (message = "") => {
      note(`the page opened a dialog (${kind}: ${message})`);
      return answer;
    };
  }
  // An error event without an error is a notice (ResizeObserver's) or a muted one.
  addEventListener("error", (event) =>
    event.error != null && note(`the page threw an error (${event.error})`));
  addEventListener("unhandledrejection", (event) =>
    note(`the page threw an error (${event.reason})`));
})();
""".replace("STOP_KEY", STOP_KEY)
# Why the check of the page has to stop (STAY_ON_PAGE's reason, or one of `playgrounds`
# gone from the page), or null.
WHY_STOP = """
(playgrounds) => window[STOP_KEY]?.()
  ?? (playgrounds.every((el) => el.isConnected) ? null : "a playground was removed from the page")
""".replace("STOP_KEY", STOP_KEY)

# Starts the page's Python and waits until it is ready, or failed, or `bootMs` passed;
# says what stopped it starting, or null.
START_PYTHON = """
async (bootMs) => {
  const runtime = document.querySelector("autograd-playground").runtime;
  const settled = () => runtime.ready || runtime.phase.startsWith("failed");
  runtime.start();
  if (!settled()) {
    await new Promise((resolve) => {
      runtime.addEventListener("phase", () => settled() && resolve());
      setTimeout(resolve, bootMs);
    });
  }
  return runtime.ready ? null : runtime.phase;
}
"""

# Each playground of the page as it loaded: its id, whether it is an exercise (checks in
# its light DOM), and where its code is in the page's source (data-source, file:line,
# written by the Sphinx and MkDocs builds).
# A box the Sphinx build put where it could not build a playground (sphinx.py's
# ERROR_BOX) counts as a playground that failed, with the box's text.
FOUND = """
(playgrounds) => playgrounds.map((el) => ({
  id: el.id || null,
  exercise: el.querySelector(':scope > script[data-role="check"]') !== null,
  source: el.dataset.source ?? null,
  unbuilt: el.localName === "autograd-playground" ? null : el.textContent.trim(),
}))
"""
# The page's playgrounds, and the boxes where a playground could not be built, in order.
PLAYGROUNDS = "[...document.querySelectorAll('autograd-playground, .autograd-playground-error')]"

# Runs playground number `index` (from 0) of `playgrounds`, the page's as it loaded, or
# waits for its autorun, and says how it ended; with `code`, runs that in its place (an
# exercise's solution). `guardMs` bounds the wait beyond its timeout, should Python never
# answer.
RUN_PLAYGROUND = """
const MAX_ROWS = BUILT_ROWS;
async ([playgrounds, index, guardMs, code]) => {
  const el = playgrounds[index];
  const timeout = Number(el.getAttribute("timeout"));
  let check = null;
  el.addEventListener("check-end", (event) => (check = event.detail), { once: true });
  if (code !== null) el.code = code;
  // The results computed when the page was built, which the run replaces: as the page
  // shows them, to compare with the run's own.
  const shown = code === null ? el.querySelector(":scope > [data-role=built]") : null;
  const built = shown && {
    output: shown.querySelector(".built-output")?.textContent ?? "",
    rows: [...shown.querySelectorAll("table")].map((t) => [...t.tBodies[0].rows].map(
      (r) => [...r.cells].map((c) => [c.textContent, c.title]))),
  };
  const guard = new Promise((resolve) => setTimeout(resolve, guardMs + timeout * 1000, null));
  const result = await Promise.race([el.run(), guard]);
  // Every panel painted (the picture drawn), where the element says so (data-painted).
  const painted = new Promise((resolve) => el.dataset.painted !== "false" ? resolve()
    : el.addEventListener("painted", resolve, { once: true }));
  if (result) await Promise.race([painted, guard]);
  return {
    id: el.id || null,
    timeout,
    code: el.code,
    status: result?.status ?? null,
    error: result?.error ?? null,
    line: result?.line ?? null,
    phase: el.runtime?.phase ?? "",
    check: el.dataset.check ?? null,
    messages: check?.messages ?? [],
    exercise: Boolean(el.exercise),
    solution: el.exercise?.solution ?? null,
    source: el.dataset.source ?? null,
    built,
    output: built && el.shadowRoot.querySelector(".output").textContent,
    // Of the run's tables, what the results built hold: their first rows' cells.
    tables: built && (result?.tables ?? []).map((t) => ({
      count: t.count, notNumbers: t.notNumbers, fullLabel: t.fullLabel,
      ...Object.fromEntries(
        ["label", "op", "data", "grad"].map((k) => [k, t[k].slice(0, MAX_ROWS)])),
    })),
  };
}
""".replace("BUILT_ROWS", str(MAX_ROWS))


@dataclass
class Outcome:
    """How one playground ended. `status`: passed, error, timeout, check failed, starter
    passed (an exercise's starter code passes its checks), stale results (the page shows
    results computed when it was built that the code no longer gives), or not run."""

    index: int  # from 1, on its page
    id: str | None
    status: str
    error: str | None = None  # the error's last line, or why it failed
    line: int | None = None  # the learner's line that failed, and its text
    code: str | None = None
    part: str | None = None  # of an exercise: the code that failed, "starter" or "solution"
    exercise: bool = False
    source: str | None = None  # where its code begins in the page's source: "file:line"

    @property
    def failed(self) -> bool:
        return self.status != "passed"


@dataclass
class PageReport:
    page: str  # as the command line named it (a file's path, or the URL)
    url: str
    error: str | None = None  # why it could not be checked: it did not load, or crashed
    playgrounds: list[Outcome] = field(default_factory=list)
    seconds: float = 0.0  # how long its check took


class CheckError(Exception):
    """The check cannot run: the message says why, and `status` is the exit status."""

    def __init__(self, message: str, status: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.status = status


def is_url(target: str) -> bool:
    return target.startswith(("http://", "https://"))


def course_pages(folder: Path) -> list[Path]:
    """The .html files under `folder`, sorted, but for those in a copy of the site."""
    def in_site(page: Path) -> bool:
        below = page.relative_to(folder).parents[:-1]  # the folders between, not `folder`
        return any(all((folder / inner / name).is_file() for name in SITE_MARKERS)
                   for inner in below)
    return sorted(page for page in folder.rglob("*.html") if not in_site(page))


def pages_of(target: str) -> tuple[Path | None, list[tuple[str, str]]]:
    """The folder to serve for `target` (None for a URL) and its pages, as (name, path
    in that folder or URL) pairs."""
    if is_url(target):
        return None, [(target, target)]
    path = Path(target)
    if path.is_file():
        return path.parent, [(target, quote(path.name))]
    if not path.is_dir():
        raise CheckError(f"{target}: no such file or folder, and not an http(s) URL")
    pages = course_pages(path)
    if not pages:
        raise CheckError(f"{target}: no .html files in this folder")
    return path, [(str(page), quote(page.relative_to(path).as_posix())) for page in pages]


def first_line(message: str) -> str:
    """A Playwright error's first line, without the call it names ("Page.goto: ")."""
    return message.splitlines()[0].split(": ", 1)[-1]


def last_line(text: str | None) -> str | None:
    lines = [line for line in (text or "").splitlines() if line.strip()]
    return lines[-1].strip() if lines else None


def outcome(index: int, ran: dict) -> Outcome:
    """An Outcome from what RUN_PLAYGROUND returned."""
    mine = Outcome(index, ran["id"], "passed", exercise=ran["exercise"], source=ran["source"])
    if ran["status"] is None:
        mine.status, mine.error = "error", "no result: Python never answered"
    elif ran["status"] in ("stopped", "error") and ran["phase"].startswith("failed"):
        mine.status, mine.error = "error", f"Python did not start: {ran['phase']}"
    elif ran["status"] == "stopped":
        mine.status, mine.error = "timeout", f"ran past its timeout of {ran['timeout']:g} s"
    elif ran["status"] == "error":
        mine.status, mine.error, mine.line = "error", last_line(ran["error"]), ran["line"]
        lines = ran["code"].splitlines()
        if mine.line and mine.line <= len(lines):
            mine.code = lines[mine.line - 1].strip()
    elif ran["check"] in ("failed", "unchecked"):
        mine.status = "check failed"
        mine.error = "; ".join(map(str, ran["messages"])) or "a check failed"
    elif ran.get("built") and (differs := stale(ran)):
        mine.status = "stale results"
        mine.error = (f"the page shows results computed when it was built that its code no "
                      f"longer gives: {differs} (build the page again)")
    return mine


def unbuilt(i: int, found: dict) -> Outcome:
    """A box where the docs build could not make playground number `i` (from 0)."""
    return Outcome(i + 1, None, "not built", found["unbuilt"], source=found["source"])


def stale(ran: dict) -> str | None:
    """What of the results built the run's own differ in (its output, a table's row), or
    None when they are the same."""
    if ran["built"]["output"] != ran["output"]:
        return "its output"
    # The cells' text, not their titles: a title holds a number's every digit, and
    # CPython's libm and the browser's may differ in a float's last bits, which the
    # table's 6 significant digits never show.
    built, live = ([[[text for text, _ in row] for row in table] for table in rows]
                   for rows in (ran["built"]["rows"], table_rows(ran["tables"])))
    if len(built) != len(live):
        return f"{len(built)} tables where the run gives {len(live)}"
    for t, (built_rows, live_rows) in enumerate(zip(built, live, strict=True), 1):
        for i in range(max(len(built_rows), len(live_rows))):
            if built_rows[i:i + 1] != live_rows[i:i + 1]:
                return f"table {t}, node {i}"
    return None


def starter_passed(index: int, ran: dict) -> Outcome:
    """An exercise's starter code, which the learner is to finish, passed its checks."""
    return Outcome(index, ran["id"], "starter passed", "it passes every check, so it leaves "
                   "the learner nothing to do", part="starter", exercise=True,
                   source=ran["source"])


async def check_page(browser: Browser, name: str, url: str, timeout: float) -> PageReport:
    """Open `url` in a fresh context and run its playgrounds one after the other."""
    from playwright.async_api import Error

    report = PageReport(name, url)
    began = time.monotonic()
    context = await browser.new_context()
    await context.add_init_script(script=LIMIT_AUTORUNS.replace("LIMIT_RUNS", LIMIT_RUNS)
                            .replace("DEFAULT_TIMEOUT", json.dumps(timeout)))
    await context.add_init_script(script=STAY_ON_PAGE)
    try:
        page = await context.new_page()
        try:
            response = await page.goto(url, wait_until="load", timeout=LOAD_S * 1000)
        except Error as error:
            report.error = f"did not load: {first_line(error.message)}"
            return report
        if response is not None and not response.ok:
            report.error = f"did not load: HTTP {response.status} {response.status_text}"
            return report
        playgrounds = await page.evaluate_handle(PLAYGROUNDS)
        found = await page.evaluate(FOUND, playgrounds)

        def none_run(why: str) -> list[Outcome]:
            return [Outcome(i + 1, one["id"], "not run", why, exercise=one["exercise"],
                            source=one["source"]) if one["unbuilt"] is None
                    else unbuilt(i, one) for i, one in enumerate(found)]
        elements = [one for one in found if one["unbuilt"] is None]
        if elements and not await page.evaluate(
                "Boolean(customElements.get('autograd-playground'))"):
            report.playgrounds = none_run(
                "<autograd-playground> is not defined: did the page's embed.js load?")
            return report
        not_started = elements and await page.evaluate(START_PYTHON, BOOT_S * 1000)
        if not_started:
            report.playgrounds = none_run(
                f"Python did not start: {not_started}" if not_started.startswith("failed")
                else f"Python did not start within {BOOT_S} s (it was {not_started})")
            return report
        python_gone = False  # then the page's other playgrounds cannot run
        for i, one in enumerate(found):
            if one["unbuilt"] is not None:
                report.playgrounds.append(unbuilt(i, one))
                continue
            if python_gone:
                report.playgrounds.append(
                    none_run("Python failed on an earlier playground")[i])
                continue
            await page.evaluate(LIMIT_RUNS, timeout)  # for playgrounds added since
            ran = await page.evaluate(RUN_PLAYGROUND, [playgrounds, i, BOOT_S * 1000, None])
            python_gone = ran["status"] is None or ran["phase"].startswith("failed")
            if ran["exercise"] and not python_gone:
                ran, verdict = await check_exercise(page, playgrounds, i, ran)
                python_gone = ran["status"] is None or ran["phase"].startswith("failed")
            else:
                verdict = outcome(i + 1, ran)
            report.playgrounds.append(verdict)
            why = await page.evaluate(WHY_STOP, playgrounds)
            if why:
                report.error = f"{why} while it was checked"
                break
    except Error as error:  # the page crashed or closed
        report.error = f"broke: {first_line(error.message)}"
    finally:
        await context.close()
        report.seconds = round(time.monotonic() - began, 1)
    return report


async def check_exercise(page: Page, playgrounds: JSHandle, i: int, starter: dict,
                         ) -> tuple[dict, Outcome]:
    """An exercise passes when its starter code (`starter`, its run) does not pass its
    checks, and its solution, if it has one, does: the last run, and the verdict."""
    if starter["check"] == "passed":
        return starter, starter_passed(i + 1, starter)
    if starter["solution"] is None:
        return starter, Outcome(i + 1, starter["id"], "passed", exercise=True,
                                source=starter["source"])
    ran = await page.evaluate(RUN_PLAYGROUND,
                              [playgrounds, i, BOOT_S * 1000, starter["solution"]])
    verdict = outcome(i + 1, ran)
    if verdict.failed:
        verdict.part = "solution"
    return ran, verdict


def where(one: Outcome) -> str:
    """The playground on its page: its place, its id and the part of it that failed."""
    place = f"playground {one.index}" + (f" ({one.id})" if one.id else "")
    return place + (f", its {one.part}" if one.part else "")


def source_line(one: Outcome, sources: str = "") -> tuple[str, int] | None:
    """The source file (under `sources`, the folder the pages were built from) and line of
    the failure, where the page says where its code is: the learner's failing line
    counted from the code's first line."""
    file, _, first = (one.source or "").rpartition(":")
    if not file or not first.isdigit():
        return None
    return posixpath.join(sources, file), int(first) + (one.line - 1 if one.line else 0)


def without_playgrounds(report: PageReport) -> bool:
    """A page that loaded with no playground on it: a docs site has many (its index,
    search, 404 pages)."""
    return report.error is None and not report.playgrounds


def indented(text: str, by: str) -> list[str]:
    """`text`'s lines, each after `by`: a message of several lines stays under its page."""
    return [by + line for line in text.splitlines() or [""]]


def describe(reports: list[PageReport], verbose: bool = False, sources: str = "") -> str:
    """The report for people: each page with playgrounds (`verbose`: each page) and how
    long it took, each failure indented under its page, and a summary line."""
    lines = []
    for report in reports:
        failed = [one for one in report.playgrounds if one.failed]
        took = f" ({report.seconds:.1f} s)"
        if without_playgrounds(report):
            if verbose:
                lines.append(f"--   {report.page}: no playgrounds{took}")
        elif report.error:
            lines.append(f"FAIL {report.page}: {report.error}{took}")
        else:
            verdict = f"{len(failed)} failed" if failed else "all passed"
            lines.append(f"{'FAIL' if failed else 'ok  '} {report.page}: "
                         f"{count(len(report.playgrounds), 'playground')}, {verdict}{took}")
        for one in failed:
            first, *more = (one.error or "").splitlines() or [""]
            lines.append(f"     {where(one)}: {one.status}: {first}")
            lines += [line for text in more for line in indented(text, "       ")]
            if one.line:
                lines.append(f"       at line {one.line}: {one.code}")
            if source_line(one, sources):
                lines.append("       in {}:{}".format(*source_line(one, sources)))
    lines.append(summary(reports))
    return "\n".join(lines)


def summary(reports: list[PageReport]) -> str:
    """`3 pages, 12 playgrounds, 3 exercises: 1 failed`, and the pages that could not be
    checked or have no playground."""
    playgrounds = [one for report in reports for one in report.playgrounds]
    text = (f"{count(len(reports), 'page')}, {count(len(playgrounds), 'playground')}, "
            f"{count(sum(one.exercise for one in playgrounds), 'exercise')}: "
            f"{sum(one.failed for one in playgrounds)} failed")
    unchecked = sum(report.error is not None for report in reports)
    if unchecked:
        text += f"; {count(unchecked, 'page')} could not be checked"
    empty = sum(map(without_playgrounds, reports))
    if empty:
        text += f"; {count(empty, 'page')} without playgrounds"
    return text


def count(n: int, thing: str) -> str:
    return f"{n} {thing}{'' if n == 1 else 's'}"


def exit_status(reports: list[PageReport]) -> int:
    if any(report.error or any(one.failed for one in report.playgrounds)
           for report in reports):
        return EXIT_FAILED
    if not any(report.playgrounds for report in reports):
        return EXIT_NOTHING_TO_CHECK
    return 0


def as_json(reports: list[PageReport]) -> str:
    playgrounds = [one for report in reports for one in report.playgrounds]
    return json.dumps({
        "exit_status": exit_status(reports),
        "playgrounds": len(playgrounds),
        "failed": sum(one.failed for one in playgrounds),
        "pages": [{**asdict(report), "playgrounds": [
            {**asdict(one), "failed": one.failed} for one in report.playgrounds]}
            for report in reports],
    }, indent=2)


def as_junit(reports: list[PageReport], sources: str = "") -> str:
    """JUnit XML, as CI systems show test results: a suite per page, a test case per
    playground (an exercise's starter and solution are one case), named with its page and
    its source line where the page gives one; a page that could not be checked is one
    failing case of its own."""
    suites = ElementTree.Element("testsuites", name="autograd-playground check")
    for report in reports:
        failures = sum(one.failed for one in report.playgrounds) + (report.error is not None)
        suite = ElementTree.SubElement(
            suites, "testsuite", name=report.page, time=f"{report.seconds:.1f}",
            tests=str(len(report.playgrounds) + (report.error is not None)),
            failures=str(failures))
        for one in report.playgrounds:
            name = f"{report.page}, {where(one)}"
            if source_line(one, sources):
                name += " [{}:{}]".format(*source_line(one, sources))
            case = ElementTree.SubElement(suite, "testcase", classname=report.page, name=name)
            if one.failed:
                failure = ElementTree.SubElement(case, "failure", message=one.status)
                failure.text = "\n".join(filter(None, (
                    one.error, one.line and f"at line {one.line}: {one.code}")))
        if report.error:
            case = ElementTree.SubElement(suite, "testcase", classname=report.page,
                                          name=f"{report.page}, the page")
            ElementTree.SubElement(case, "failure", message="not checked").text = report.error
    ElementTree.indent(suites)
    return ElementTree.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"


def annotations(reports: list[PageReport], sources: str = "") -> list[str]:
    """GitHub Actions' workflow commands that mark each failure in the pull request: on
    the source file and line where the page says where the playground's code is, else
    on the page."""
    def escaped(text: str, more: str = "") -> str:
        for char, code in (("%", "%25"), ("\r", "%0D"), ("\n", "%0A"), *(
                (c, f"%{ord(c):02X}") for c in more)):
            text = text.replace(char, code)
        return text

    lines = []
    for report in reports:
        failed = [one for one in report.playgrounds if one.failed]
        if report.error:
            lines.append(f"::error title={escaped(report.page, ':,')}::{escaped(report.error)}")
        for one in failed:
            message = escaped(f"{report.page}, {where(one)}: {one.status}: {one.error}")
            place = source_line(one, sources)
            at = (f"file={escaped(place[0], ':,')},line={place[1]}," if place else "")
            lines.append(f"::error {at}title={escaped('playground check', ':,')}::{message}")
    return lines


def check(targets: list[str], timeout: float, jobs: int = 1) -> list[PageReport]:
    """Check every page of `targets`, in one headless Chromium, `jobs` pages at a time."""
    found = [pages_of(target) for target in targets]
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        raise CheckError("the check needs Playwright beside this package: pip install "
                         "'playwright>=1.49,<2' (what the wheel's check extra installs)",
                         EXIT_NO_PLAYWRIGHT) from None
    try:
        chromium = find_chromium()
    except ChromiumNotFoundError as missing:
        raise CheckError(str(missing), EXIT_NO_CHROMIUM) from None
    return in_own_thread(lambda: run_to_end(
        check_all(async_playwright, chromium, found, timeout, jobs)))


async def check_all(async_playwright: Callable, chromium: Path,
                    found: list[tuple[Path | None, list[tuple[str, str]]]],
                    timeout: float, jobs: int) -> list[PageReport]:
    """Each page in a browser context of its own, `jobs` at a time, in one browser; the
    reports in the order of the pages."""
    slots = asyncio.Semaphore(jobs)
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=chromium,
                                                   args=CHROMIUM_ARGS)

        async def one(name: str, url: str) -> PageReport:
            async with slots:
                return await check_page(browser, name, url, timeout)
        with contextlib.ExitStack() as servers:
            urls = []
            for folder, pages in found:
                base = "" if folder is None else servers.enter_context(
                    server.serving(folder))  # isolated: Stop interrupts
                urls += [(name, base + path) for name, path in pages]
            reports = await asyncio.gather(*(one(name, url) for name, url in urls))
        await browser.close()
    return list(reports)


def run_to_end(coroutine: Coroutine, shutdown_s: float = SHUTDOWN_S):  # noqa: ANN201
    """asyncio.run(coroutine), but for a shutdown that gives the tasks still pending
    `shutdown_s` to end once cancelled: a task of Playwright's (1.62 and later) caught
    mid-call waits for an answer from its driver, gone by then, and asyncio.run would
    wait for it forever."""
    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(coroutine)
    finally:
        pending = asyncio.all_tasks(loop)
        for task in pending:
            task.cancel()
        if pending:
            loop.run_until_complete(asyncio.wait(pending, timeout=shutdown_s))
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.run_until_complete(loop.shutdown_default_executor())
        loop.close()


def in_own_thread(work: Callable[[], list[PageReport]]) -> list[PageReport]:
    """Run `work` in a thread of its own: asyncio.run refuses a thread whose loop runs, as
    a notebook's does (or a test process that drives a browser)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(work).result()


def seconds(text: str) -> float:
    """--timeout's value: a positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        value = 0
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of seconds")
    return value


def jobs(text: str) -> int:
    """--jobs's value: a whole number of pages, 1 or more."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of pages (1 or more)")
    return int(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m autograd_playground check",
        description="Run every playground of a course's pages in headless Chromium; list "
                    "each that ends in an error or runs past its timeout, and each exercise "
                    "whose solution fails its checks or whose starter code passes them.")
    parser.add_argument("targets", nargs="+", metavar="URL_OR_DIR",
                        help="a page's http(s) URL, an HTML file, or a folder of pages "
                             "(served from localhost)")
    parser.add_argument("--timeout", type=seconds, default=DEFAULT_TIMEOUT_S,
                        help="seconds each run may take when its playground has no timeout "
                             f"attribute (default: {DEFAULT_TIMEOUT_S:g})")
    parser.add_argument("--json", action="store_true",
                        help="print a machine-readable report instead")
    parser.add_argument("--verbose", action="store_true",
                        help="list the pages without playgrounds too (otherwise only "
                             "counted)")
    parser.add_argument("--jobs", type=jobs, default=1, metavar="N",
                        help="check N pages at a time, each in a browser context of its own "
                             "(default: 1)")
    parser.add_argument("--junit", type=Path, metavar="FILE",
                        help="also write the report as JUnit XML into FILE")
    parser.add_argument("--sources", default="", metavar="DIR",
                        help="the folder the pages were built from, as CI names it (e.g. "
                             "docs): the source files' paths in annotations and JUnit start "
                             "with it")
    args = parser.parse_intermixed_args(argv)
    try:
        reports = check(args.targets, args.timeout, args.jobs)
    except CheckError as error:
        print(f"autograd-playground check: {error}", file=sys.stderr)
        return error.status
    print(as_json(reports) if args.json else describe(reports, args.verbose, args.sources))
    if args.junit:
        args.junit.write_text(as_junit(reports, args.sources), encoding="utf-8")
    if os.environ.get("GITHUB_ACTIONS") == "true":
        print("\n".join(annotations(reports, args.sources)))
    status = exit_status(reports)
    if status == EXIT_NOTHING_TO_CHECK:
        print("autograd-playground check: no playground on any page: is this the course's "
              "built site?", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
