"""How fast the playground page is, against a bare page that only boots the same Pyodide.

    python bench/page.py [--runs N]      (after `python build.py`; uses .venv's Playwright)

One run of this script measures, as medians over N rounds, each measure in turn:
- navigation to ready, and to the default code's first result painted, cold
  (a fresh context) and warm (a returning visitor: a profile on disk, which
  keeps the compiled wasm; on its second visit, and on its third, when the
  browser has the JavaScript's compiled code too), against bare.html's Pyodide
  boot, for Python restored from the snapshot, booted fresh (the snapshot not
  served), and restored where no service worker may run (a browser that
  allows none: the site's service worker keeps Pyodide's script compiled from
  the first visit on) (targets: the snapshot's first result within 0.4x of the bare
  boot, cold and warm, judged on the second visit);
- from Stop (restarting Python: the code ignores the interrupt) to the next
  run's result painted, warm (target: within 0.5x of the warm bare boot);
- Run click to table painted for the chapter's example (target: <= 50 ms);
- Python run end to table painted for a 100,000-node graph (target: <= 1 s);
- a course page of 10 playgrounds against a page of one, fresh context each:
  navigation to all ready and to all run (each playground's code run once,
  every table painted), and the JS heap then, the page's and in all (the
  worker's too) (target: 10 within 1.2x of one, time and memory).

    python bench/page.py --stay 0        (a returning visitor's earlier visits close at
                                          their first result; 2000 ms by default)
    python bench/page.py --no-isolation  (served without COOP/COEP, where every Stop
                                          restarts Python; not the last)
    python bench/page.py --embed-only    (just the last)
    python bench/page.py --throttled     (just first visits on a slow link: dist/ served by
                                          link.py at 20 and 5 Mbit/s with 40 ms latency,
                                          which slows the workers' and the service
                                          worker's requests too; for `/` and course.html,
                                          the first table on screen (the one the page
                                          was built with counts) and the first live
                                          result; and bare Pyodide's boot)
"""

from __future__ import annotations

import argparse
import html
import statistics
import textwrap

from browser import (
    ROOT,
    TIMEOUT_MS,
    launched_browser,
    load_build,
    returning_visitor,
    served_browser,
    wait_for_state,
)
from link import Link, serving_over
from playwright.sync_api import Browser, BrowserContext, Page

MLP = ROOT / "tests" / "web" / "programs" / "mlp_100k.py"
EXAMPLE = ROOT / "web" / "shared" / "example.py"
PAGE_SIZES = (1, 10)
SNAPSHOT = "**/snapshot/memory.zst"
# A returning visitor's earlier visits last this long after their first result (a
# learner's last longer): what the browser keeps for the next visit (the wasm's
# compiled code, the snapshot the worker keeps) is written while the page is open.
STAY_MS = 2000
ISOLATION_HEADERS = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
}

# Before the page's own scripts: note when the element is ready and when the
# first run's table is painted (ms since navigation start), and start that run
# as soon as the element exists (it waits in the queue until Python is up).
RECORD_FIRST_RESULT = """
addEventListener("ready", () => { window.readyAt ??= performance.now(); }, true);
addEventListener("run-end", () => requestAnimationFrame(() => setTimeout(() => {
  window.resultAt ??= performance.now();
})), true);
customElements.whenDefined("autograd-playground").then(() => {
  document.querySelector("autograd-playground").run();
});
"""

# Before the page's scripts: note when a playground's table is first on screen (ms since
# navigation start), the one the page was built with or a live one, checked every frame.
RECORD_FIRST_TABLE = """
const tableShown = () => [...document.querySelectorAll("autograd-playground")].some((el) =>
  [...el.querySelectorAll("table"), ...(el.shadowRoot?.querySelectorAll("table") ?? [])]
    .some((table) => table.checkVisibility() && table.querySelector("tbody tr")));
const watch = () => requestAnimationFrame(() => {
  if (tableShown()) window.tableAt = performance.now();
  else watch();
});
watch();
"""
# The slow links --throttled measures on, in Mbit/s, and their latency.
THROTTLED_MBIT = (20, 5)
THROTTLED_LATENCY_MS = 40

# Start code that ignores Stop's interrupt, press Stop (with no grace: Python is
# restarted at once) and run the chapter's example: ms from Stop to its table painted.
STOP_RESTART_TO_RESULT = """async () => {
  const el = document.querySelector("autograd-playground");
  const example = el.code;
  customElements.get("autograd-playground").deadlines.stopGraceMs = 0;
  el.code = "print('looping')\\nwhile True:\\n    try:\\n        while True: pass\\n"
    + "    except KeyboardInterrupt: pass\\n";
  const stopped = el.run();
  const output = el.shadowRoot.querySelector(".output");
  while (!output.textContent.includes("looping")) {
    await new Promise((done) => setTimeout(done, 10));
  }
  const start = performance.now();
  el.stop();
  await stopped;
  el.code = example;
  await el.run();
  await new Promise((done) => requestAnimationFrame(() => setTimeout(done)));
  return performance.now() - start;
}"""

# Press Run, then wait for the run to end and the next frame to be painted.
CLICK_TO_PAINT = """async () => {
  const el = document.querySelector("autograd-playground");
  const ended = new Promise((done) => el.addEventListener("run-end", done, { once: true }));
  const start = performance.now();
  el.shadowRoot.querySelector("button").click();
  await ended;
  await new Promise((done) => requestAnimationFrame(() => setTimeout(done)));
  return performance.now() - start;
}"""

# Run `code`; measure from the end of the Python run (runner.py's `ended`, epoch
# ms) to the table painted.
RUN_END_TO_PAINT = """async (code) => {
  const el = document.querySelector("autograd-playground");
  el.code = code;
  const result = await el.run();
  await new Promise((done) => requestAnimationFrame(() => setTimeout(done)));
  return performance.timeOrigin + performance.now() - result.ended;
}"""


# Before a course page's own scripts: note when every playground is ready,
# then run them all (they queue) and note when the last table is painted.
RECORD_ALL = """
let ready = 0;
let ended = 0;
const all = () => document.querySelectorAll("autograd-playground");
addEventListener("ready", () => {
  if (++ready < all().length) return;
  window.allReadyAt = performance.now();
  for (const el of all()) el.run();
}, true);
addEventListener("run-end", () => {
  if (++ended < all().length) return;
  requestAnimationFrame(() => setTimeout(() => { window.allRunAt = performance.now(); }));
}, true);
"""

# The page's JS heap and the whole page's (its worker's too), after a GC.
# Immediate only with --enable-blink-features=ForceEagerMeasureMemory (see browser.py).
MEASURE_MEMORY = """async () => {
  const memory = await performance.measureUserAgentSpecificMemory();
  const page = memory.breakdown
    .filter((part) => part.types.includes("JavaScript")
      && part.attribution.some((a) => a.scope === "Window"))
    .reduce((sum, part) => sum + part.bytes, 0);
  return [page, memory.bytes];
}"""


def course_page(count: int) -> str:
    """A course page of `count` playgrounds, each on the chapter's example."""
    code = textwrap.indent(html.escape(EXAMPLE.read_text(encoding="utf-8"), quote=False), "  ")
    playgrounds = "".join(
        f'<p>Idea {i}.</p>\n<autograd-playground id="p{i}">\n{code}</autograd-playground>\n'
        for i in range(count)
    )
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<title>bench</title>\n<script type="module" src="embed.js"></script>\n</head>\n'
        f"<body>\n{playgrounds}</body>\n</html>\n"
    )


def many_playgrounds(browser: Browser, url: str, count: int, isolated: bool) -> list[float]:
    """ms to all ready and to all run, then page and total JS heap bytes, for `count`
    playgrounds on one page (served on the site's origin, as course.html is)."""
    context = browser.new_context()
    page_url = f"{url}bench-{count}.html"
    headers = ISOLATION_HEADERS if isolated else {}
    body = course_page(count)
    context.route(page_url, lambda route: route.fulfill(
        body=body, content_type="text/html", headers=headers))
    page = context.new_page()
    page.add_init_script(RECORD_ALL)
    page.goto(page_url)
    page.wait_for_function("window.allRunAt", timeout=TIMEOUT_MS)
    times = page.evaluate("[window.allReadyAt, window.allRunAt]")
    context.new_cdp_session(page).send("HeapProfiler.collectGarbage")
    memory = page.evaluate(MEASURE_MEMORY)
    context.close()
    return times + memory


def page_sizes(browser: Browser, url: str, runs: int, isolated: bool) -> dict[str, list[float]]:
    """The course-page measures, alternating page sizes over `runs` rounds."""
    names = ("all ready", "all run", "page JS heap", "total JS heap")
    times: dict[str, list[float]] = {}
    for _ in range(runs):
        for count in PAGE_SIZES:
            for name, value in zip(names, many_playgrounds(browser, url, count, isolated),
                                   strict=True):
                times.setdefault(f"{count} playground(s): {name}", []).append(value)
    return times


def report_page_sizes(times: dict[str, list[float]]) -> None:
    medians = {name: statistics.median(values) for name, values in times.items()}
    one, many = PAGE_SIZES
    for name in ("all ready", "all run", "page JS heap", "total JS heap"):
        unit, scale = ("MB", 1e6) if "heap" in name else ("ms", 1)
        a, b = medians[f"{one} playground(s): {name}"], medians[f"{many} playground(s): {name}"]
        verdict = "met" if b / a <= 1.2 else "missed"
        print(f"{name:14} {one}: {a / scale:7.1f} {unit}   {many}: {b / scale:7.1f} {unit}   "
              f"{many}/{one} = {b / a:.2f}x  (target <= 1.2x: {verdict})  "
              f"(n={len(times[f'{one} playground(s): {name}'])})")


def bare_boot(context: BrowserContext, url: str, page: Page | None = None,
              stay_ms: int = 0, keep_open: bool = False) -> float:
    """ms from navigation to bare.html's Pyodide being up (the page stays `stay_ms` more,
    then closes unless `keep_open`)."""
    page = page or context.new_page()
    page.goto(url + "bare.html")
    page.wait_for_function("window.readyAt", timeout=TIMEOUT_MS)
    ms = page.evaluate("window.readyAt")
    page.wait_for_timeout(stay_ms)
    if not keep_open:
        page.close()
    return ms


def first_result(context: BrowserContext, url: str, page: Page | None = None,
                 stay_ms: int = 0, keep_open: bool = False) -> tuple[float, float]:
    """ms from navigation to the playground ready, and to its first result painted (the
    page stays `stay_ms` more, then closes unless `keep_open`)."""
    page = page or context.new_page()
    page.add_init_script(RECORD_FIRST_RESULT)
    page.goto(url)
    page.wait_for_function("window.resultAt", timeout=TIMEOUT_MS)
    ms = page.evaluate("[window.readyAt, window.resultAt]")
    page.wait_for_timeout(stay_ms)
    if not keep_open:
        page.close()
    return ms[0], ms[1]


def restart_to_result(context: BrowserContext, url: str) -> float:
    """ms from Stop restarting Python to the next run's result painted."""
    page = context.new_page()
    page.goto(url)
    wait_for_state(page, "ready")
    ms = page.evaluate(STOP_RESTART_TO_RESULT)
    page.close()
    return ms


def without_snapshot(context: BrowserContext) -> None:
    """No snapshot for this context: its Python boots fresh, as before the snapshot."""
    context.route(SNAPSHOT, lambda route: route.fulfill(status=404))


def record(times: dict[str, list[float]], name: str, ms: float | tuple[float, float]) -> None:
    if isinstance(ms, tuple):  # a playground's ready and first result
        times.setdefault(f"{name} ready", []).append(ms[0])
        times.setdefault(f"{name} first result", []).append(ms[1])
    else:
        times.setdefault(name, []).append(ms)


def load_times(browser: Browser, url: str, runs: int,
               stay_ms: int = STAY_MS) -> dict[str, list[float]]:
    """Each measure cold in a fresh context, then warm as a returning visitor: on its
    second visit, and on its third, when the browser also has the JavaScript's compiled
    code (which it keeps from a script's second load). Each round takes every measure
    in turn."""
    no_service_worker = {"service_workers": "block"}
    measures = [("bare Pyodide boot", bare_boot, None, {}),
                ("snapshot playground", first_result, None, {}),
                ("fresh-boot playground", first_result, without_snapshot, {}),
                ("no-service-worker playground", first_result, None, no_service_worker)]
    times: dict[str, list[float]] = {}
    for _ in range(runs):
        for name, measure, setup, options in measures:
            context = browser.new_context(**options)
            if setup:
                setup(context)
            record(times, f"cold {name}", measure(context, url))
            context.close()
            with returning_visitor(browser, **options) as context:
                if setup:
                    setup(context)
                measure(context, url, stay_ms=stay_ms)
                record(times, f"warm {name}", measure(context, url, stay_ms=stay_ms))
                record(times, f"third-visit {name}", measure(context, url))
                if name == "snapshot playground":
                    record(times, "warm Stop restart to result", restart_to_result(context, url))
    return times


def throttled_first_visits(browser: Browser, isolated: bool) -> None:
    """Seconds from navigation to the first table on screen and to the first live result,
    on `/` and on course.html, and to bare Pyodide up, each in a fresh context (an empty
    cache), with dist/ served over a slow link (link.py); and the megabytes of the
    responses asked for before the first live result (bare: before Python was up)."""
    dist = load_build().DIST
    for mbit in THROTTLED_MBIT:
        link = Link(mbit, THROTTLED_LATENCY_MS)
        with serving_over(link, dist, isolated) as url:
            page = new_throttled_context(browser).new_page()
            bare = bare_boot(page.context, url, page, keep_open=True) / 1000
            print(f"{mbit:2} Mbit/s bare Pyodide boot {'':31} {bare:5.1f} s   "
                  f"{megabytes_before(link, page, 'window.readyAt')}", flush=True)
            page.context.close()
            for name in ("", "course.html"):
                page = new_throttled_context(browser).new_page()
                page.add_init_script(RECORD_FIRST_TABLE)
                result = first_result(page.context, url + name, page, keep_open=True)[1] / 1000
                table = page.evaluate("window.tableAt") / 1000
                print(f"{mbit:2} Mbit/s /{name:12} first table {table:5.1f} s   first live "
                      f"result {result:5.1f} s = {result / bare:.2f}x the bare boot   "
                      f"{megabytes_before(link, page, 'window.resultAt')}", flush=True)
                page.context.close()


def megabytes_before(link: Link, page: Page, moment: str) -> str:
    """What `link` sent for the requests `page` (its workers too) made from its navigation
    to `moment` (ms since then), in MB."""
    since_s, before_s = page.evaluate(
        f"[performance.timeOrigin / 1000, (performance.timeOrigin + {moment}) / 1000]")
    return f"{sum(link.bytes_asked(since_s, before_s).values()) / 1e6:5.1f} MB before it"


def new_throttled_context(browser: Browser) -> BrowserContext:
    context = browser.new_context()
    context.set_default_timeout(TIMEOUT_MS)
    return context


def run_times(browser: Browser, url: str, runs: int) -> dict[str, list[float]]:
    """Click-to-paint for the chapter's example, run-end-to-paint for the 100k graph."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(url)
    wait_for_state(page, "ready")
    page.evaluate(CLICK_TO_PAINT)  # the first run imports what later runs reuse
    example = [page.evaluate(CLICK_TO_PAINT) for _ in range(max(runs, 10))]
    mlp = MLP.read_text(encoding="utf-8")
    big = [page.evaluate(RUN_END_TO_PAINT, mlp) for _ in range(runs)]
    context.close()
    return {"example: Run click to table painted": example,
            "100k graph: run end to table painted": big}


def verdict(ratio: float, target: float) -> str:
    return f"(target <= {target}x: {'met' if ratio <= target else 'missed'})"


def report(times: dict[str, list[float]]) -> None:
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, median in medians.items():
        low, high = min(times[name]), max(times[name])
        print(f"{name:44} {median:8.0f} ms   ({low:.0f}-{high:.0f}, n={len(times[name])})")
    print()
    for cache in ("cold", "warm", "third-visit"):
        bare = medians[f"{cache} bare Pyodide boot"]
        snapshot = medians[f"{cache} snapshot playground first result"] / bare
        fresh = medians[f"{cache} fresh-boot playground first result"] / bare
        alone = medians[f"{cache} no-service-worker playground first result"] / bare
        print(f"{cache}: first result / bare boot = {snapshot:.2f}x {verdict(snapshot, 0.4)}; "
              f"booted fresh {fresh:.2f}x; without the service worker {alone:.2f}x")
    restart = medians["warm Stop restart to result"] / medians["warm bare Pyodide boot"]
    print(f"Stop restart to result / warm bare boot = {restart:.2f}x {verdict(restart, 0.5)}")
    click = medians["example: Run click to table painted"]
    print(f"example click to paint {click:.0f} ms  (target <= 50 ms: "
          f"{'met' if click <= 50 else 'missed'})")
    big = medians["100k graph: run end to table painted"]
    print(f"100k run end to paint {big:.0f} ms  (target <= 1000 ms: "
          f"{'met' if big <= 1000 else 'missed'})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh contexts per measure")
    parser.add_argument("--no-isolation", action="store_true", help="serve without COOP/COEP")
    parser.add_argument("--stay", type=int, default=STAY_MS, metavar="MS",
                        help="how long a returning visitor's earlier visits last after their "
                             "first result")
    parser.add_argument("--embed-only", action="store_true",
                        help="only the course page of 10 playgrounds against one")
    parser.add_argument("--throttled", action="store_true",
                        help="only first visits over a link of 20, then 5 Mbit/s")
    args = parser.parse_args()
    isolated = not args.no_isolation
    if args.throttled:
        with launched_browser() as browser:
            throttled_first_visits(browser, isolated)
        return
    with served_browser(isolation=isolated) as (browser, url):
        if not args.embed_only:
            times = load_times(browser, url, args.runs, args.stay)
            times.update(run_times(browser, url, args.runs))
        # Measuring memory (measureUserAgentSpecificMemory) needs cross-origin isolation.
        sizes = page_sizes(browser, url, args.runs, isolated) if isolated else None
    if not args.embed_only:
        report(times)
        print()
    if sizes:
        report_page_sizes(sizes)


if __name__ == "__main__":
    main()
