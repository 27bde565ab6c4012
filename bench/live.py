"""Live re-runs: how long from a step of a number (Alt+Up on it, or 4 px of a drag) to the
table painted with the new result, on the full page in Chromium. Prints p50 and p95 of
STEPS steps, for the chapter's example (6 nodes) and for a graph of 1,000 nodes.

    python bench/live.py [--rounds N] [--against DIR] [--steps]   (after `python build.py`)

A step's time runs from the key's (or the pointer's) event to the first frame after the
table's cells change (the frame that paints them), measured in the page. Each round
measures in a fresh page, whose steps start as soon as its first run has ended (the
1,000-node graph's Alt+Up once more after its Run and READ_S seconds of reading); the
chapter's Alt+Up once more in another fresh page, after READ_S seconds in which the
learner reads it (and the worker warms Python up: web/worker/warm-up.js); and once more
at once on a returning visitor's second visit, whose browser kept what it compiled on
the first (Python's optimized WebAssembly, the page's scripts). Last, for reference, the
same steps, by key and by drag, on a page with nothing but a number, a worker that sends
it back and a table cell that shows it (BROWSER_ALONE): what the browser itself takes. With
--against, another build's dist/ (DIR) is served beside this one and measured in turns
with it, in the same browser (the order swapped every round), so that both see the same
noise; the last lines give each build's range over the rounds. --steps prints each step's
time too, in order. The machine's load average is printed as the bench starts and as each
round ends.

Each row gives a second pair of figures, "on screen": to the time the browser says that
frame was presented, as Element Timing reports it for a dot the step's frame draws too.
It checks the first pair's end, a task after the frame, which other frames and input can
hold back. And each gives the CPU time a step took, of every thread of the browser's
processes (from Linux's /proc; not printed elsewhere): beside other work on the machine,
it is what a step has to wait its turn for.
"""

from __future__ import annotations

import argparse
import os
import statistics
from pathlib import Path

from browser import load_build, returning_visitor, served_browser, wait_for_state
from playwright.sync_api import Browser, BrowserContext, Locator, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

STEPS = 40
TARGET_P95_MS = 50  # the chapter's example
READ_S = 3
VIEWPORT = {"width": 1280, "height": 800}
CHAIN = """from engine import Graph, MakeValue, VMul, VTanh, Backward

g = Graph()
y = MakeValue(g, 0.5, label="x")
w = MakeValue(g, 0.9, label="w")
for _ in range(499):
    y = VTanh(g, VMul(g, y, w))
Backward(g, y)
"""
THOUSAND_NODES = CHAIN + 'print(len(g.nodes), "nodes")\n'

MEASURE = """(el, root, observed) => {  // el holds the latencies; steps come in root
  const latency = { start: null, times: [], shown: [] };
  el.latency = latency;
  // A dot drawn in the frame that paints the step: Element Timing says when that frame
  // was presented. Its identifier is the step's start.
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      latency.shown.push(entry.renderTime - Number(entry.identifier));
      entry.element?.remove();
    }
  }).observe({ type: "element" });
  const dot = (from) => {
    const mark = document.createElement("span");
    mark.textContent = ".";
    mark.setAttribute("elementtiming", String(from));
    mark.style.cssText =
      "position: fixed; left: 0; top: 0; font-size: 4px; color: #fefefe; pointer-events: none";
    document.body.append(mark);
  };
  const step = (e) => {  // a raw move and its pointermove are one step, of one timeStamp
    if (e.timeStamp === latency.stamp) return;
    latency.stamp = e.timeStamp;
    latency.start ??= e.timeStamp;
  };
  const key = (e) => e.altKey && e.key === "ArrowUp" && step(e);
  root.addEventListener("keydown", key, { capture: true });
  const moved = (e) => e.buttons && step(e);
  root.addEventListener("pointerrawupdate", moved, { capture: true });  // a drag's step, first
  root.addEventListener("pointermove", moved, { capture: true });
  // Whether the page is inside an animation frame's callbacks (where it takes a result in
  // by then: runtime.js), whose changes that frame paints: from the first callback to the
  // frame's layout, which a toggled size makes a ResizeObserver mark.
  let inFrame = false;
  const marker = document.body.appendChild(document.createElement("div"));
  marker.style.cssText = "position: absolute; width: 1px; height: 1px; visibility: hidden";
  new ResizeObserver(() => (inFrame = false)).observe(marker);
  const frame = requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) => frame((time) => {
    if (!inFrame) marker.style.width = marker.style.width === "1px" ? "2px" : "1px";
    inFrame = true;
    callback(time);
  });
  const painted = (from) => {
    dot(from);
    setTimeout(() => latency.times.push(performance.now() - from));
  };
  new MutationObserver(() => {
    const from = latency.start;
    if (from === null) return;
    latency.start = null;
    // A change inside a frame's callbacks is painted by that frame, and a task runs
    // only after it; else by the next frame, after whose callbacks a task comes after it.
    if (inFrame) painted(from);
    else frame(() => painted(from));
  }).observe(observed, { subtree: true, childList: true, characterData: true });
}"""
PLAYGROUND = "document.querySelector('autograd-playground')"

BROWSER_ALONE = """<!doctype html>
<html lang="en"><title>A step and its paint, and nothing else</title>
<textarea aria-label="a number">10.0</textarea>
<span class="scrub" style="display: inline-block; padding: 8px; touch-action: none">10.0</span>
<table><tr><td>10.0</td></tr></table>
<script>
  // Alt+Up in the box, or 4 px of a drag on the number, steps it; a worker sends it back,
  // and the cell shows it in the next animation frame, as the playground shows a result:
  // no editor, no Python, one cell. A drag steps on the pointer's raw moves, as the
  // playground's (scrub.js) does.
  const source = new Blob(["onmessage = (e) => postMessage(e.data)"]);
  const echo = new Worker(URL.createObjectURL(source));
  const box = document.querySelector("textarea");
  const scrub = document.querySelector(".scrub");
  const cell = document.querySelector("td");
  box.addEventListener("keydown", (e) => {
    if (!e.altKey || e.key !== "ArrowUp") return;
    e.preventDefault();
    box.value = (Number(box.value) + 0.1).toFixed(1);
    echo.postMessage(box.value);
  });
  let drag = null;
  scrub.addEventListener("pointerdown", (e) => {
    scrub.setPointerCapture(e.pointerId);
    drag = { x: e.clientX, steps: 0, from: Number(scrub.textContent) };
  });
  const moved = (e) => {
    if (!drag) return;
    const steps = Math.trunc((e.clientX - drag.x) / 4);
    if (steps === drag.steps) return;
    drag.steps = steps;
    scrub.textContent = (drag.from + steps / 10).toFixed(1);
    echo.postMessage(scrub.textContent);
  };
  scrub.addEventListener("pointerrawupdate", moved);
  scrub.addEventListener("pointermove", moved);
  scrub.addEventListener("pointerup", () => (drag = null));
  echo.onmessage = (e) => requestAnimationFrame(() => (cell.textContent = e.data));
</script>"""


def cursor_on(page: Page, text: str) -> None:
    """Put the editor's cursor inside the first `text`."""
    page.locator("autograd-playground .cm-content").click()
    page.locator("autograd-playground").evaluate(
        """(el, text) => {
          const at = el.view.state.doc.toString().indexOf(text) + 1;
          el.view.dispatch({ selection: { anchor: at } });
          el.view.focus();
        }""", text)


class Steps(list):
    """Milliseconds from each step to the table painted, and (`shown`) to that frame on
    screen, for the steps whose presentation the browser reported; `cpu`, the browser's
    CPU time per step, where the machine tells it (else None)."""

    shown: list[float]
    cpu: float | None


def browser_cpu_ms() -> float | None:
    """CPU time so far of the browser's processes (every thread, and every process of
    Chromium's that this bench started), from Linux's /proc; None elsewhere. A busy
    machine shares its cores between them and the rest: a step that takes more CPU then
    waits longer for it."""
    if not Path("/proc/self/stat").exists():
        return None
    parent, ticks = {}, {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue  # ended meanwhile
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()  # from the state, field 3
        parent[pid] = fields[1]
        if name.startswith("chrom"):
            ticks[pid] = int(fields[11]) + int(fields[12])  # utime, stime
    mine = str(os.getpid())

    def ours(pid: str) -> bool:
        while pid in parent:
            if pid == mine:
                return True
            pid = parent[pid]
        return False

    return sum(t for pid, t in ticks.items() if ours(pid)) * 1000 / os.sysconf("SC_CLK_TCK")


def measured(page: Page, step, holder: str = PLAYGROUND) -> Steps:
    """STEPS steps' times; `holder`, a JavaScript expression, is what MEASURE was given
    as `el`."""
    latency = f"{holder}.latency"
    page.evaluate(f"() => {{ Object.assign({latency}, {{ times: [], shown: [], start: null }}) }}")
    cpu_before = browser_cpu_ms()
    for n in range(STEPS):
        step()
        page.wait_for_function(  # polled on a timer: on every frame, it would delay the paints
            f"n => {latency}.times.length > n", arg=n, polling=50)
    try:  # a presentation is reported after it
        page.wait_for_function(f"n => {latency}.shown.length >= n", arg=STEPS, polling=50,
                               timeout=2_000)
    except PlaywrightTimeoutError:
        pass  # a step whose dot the browser did not report: the others stand
    cpu_after = browser_cpu_ms()
    steps = Steps(page.evaluate(f"() => {latency}.times"))
    steps.shown = page.evaluate(f"() => {latency}.shown")
    steps.cpu = None if cpu_before is None else (cpu_after - cpu_before) / STEPS
    return steps


def by_key(page: Page, literal: str) -> Steps:
    cursor_on(page, literal)
    times = measured(page, lambda: page.keyboard.press("Alt+ArrowUp"))
    wait_for_state(page, "done")
    return times


def browser_alone(browser: Browser) -> dict[str, Steps]:
    """BROWSER_ALONE's Alt+Up steps and drag steps, in a fresh page that loads nothing else."""
    page = browser.new_page()
    page.set_viewport_size(VIEWPORT)
    page.set_content(BROWSER_ALONE)
    page.evaluate(f"() => ({MEASURE})(window, document, document.querySelector('table'))")
    page.locator("textarea").focus()
    times = {
        "the browser alone: a worker's echo, a cell": measured(
            page, lambda: page.keyboard.press("Alt+ArrowUp"), "window"),
        "the browser alone, drag": drag_steps(page, page.locator(".scrub"), "window"),
    }
    page.mouse.up()
    page.close()
    return times


def by_drag(page: Page, literal: str) -> Steps:
    times = drag_steps(page, page.locator("autograd-playground .cm-scrub", has_text=literal).first)
    wait_for_state(page, "done")
    page.mouse.up()
    return times


def drag_steps(page: Page, target: Locator, holder: str = PLAYGROUND) -> Steps:
    """STEPS steps of a drag of `target` (a locator), 4 px each: the pointer is left down."""
    box = target.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    moves = iter(range(1, STEPS + 1))
    return measured(page, lambda: page.mouse.move(x + 4 * next(moves) + 1, y), holder)


def percentiles(times: list[float]) -> tuple[float, float]:
    """p50 and p95."""
    return statistics.median(times), statistics.quantiles(times, n=20)[-1]


def row(name: str, times: Steps) -> str:
    p50, p95 = percentiles(times)
    shown = times.shown
    on_screen = ""
    if len(shown) > 1:
        shown50, shown95 = percentiles(shown)
        on_screen = f"   on screen p50 {shown50:5.1f}   p95 {shown95:5.1f} ({len(shown)} steps)"
    cpu = "" if times.cpu is None else f"   CPU {times.cpu:4.0f} ms a step"
    return f"   {name:<44} p50 {p50:5.1f} ms   p95 {p95:5.1f} ms{on_screen}{cpu}"


def fresh_page(opener: Browser | BrowserContext, url: str) -> Page:
    """A new page of the build served at `url`, its example run once, its steps measured."""
    page = opener.new_page()
    page.set_viewport_size(VIEWPORT)
    page.goto(url)
    wait_for_state(page, "ready")
    run(page)
    page.locator("autograd-playground").evaluate(
        f"el => ({MEASURE})(el, el.shadowRoot, el.tables.root)")
    return page


def run(page: Page, code: str | None = None) -> None:
    """Press Run, on `code` put in the editor first if given, and wait for the run's end."""
    if code is not None:
        page.locator("autograd-playground").evaluate("(el, code) => { el.code = code; }", code)
    page.get_by_role("button", name="Run", exact=True).click()
    wait_for_state(page, "done")


def measure_page(browser: Browser, url: str) -> dict[str, Steps]:
    """Each case's step times, in fresh pages of the build served at `url`."""
    page = fresh_page(browser, url)
    times = {
        "chapter's example (6 nodes), Alt+Up": by_key(page, "10.0"),
        "chapter's example (6 nodes), drag": by_drag(page, "-3.0"),
    }
    run(page, THOUSAND_NODES)
    times["1,000 nodes, Alt+Up"] = by_key(page, "0.9")
    times["1,000 nodes, drag"] = by_drag(page, "0.5")
    run(page, THOUSAND_NODES)  # again, its literals as written before the steps
    page.wait_for_timeout(READ_S * 1000)
    times[f"1,000 nodes, Alt+Up after {READ_S} s of reading"] = by_key(page, "0.9")
    page.close()
    page = fresh_page(browser, url)
    page.wait_for_timeout(READ_S * 1000)
    times[f"chapter's, Alt+Up after {READ_S} s of reading"] = by_key(page, "10.0")
    page.close()
    times["chapter's, Alt+Up at once, second visit"] = second_visit(browser, url)
    times.update(browser_alone(browser))
    return times


def second_visit(browser: Browser, url: str) -> Steps:
    """The chapter's Alt+Up at once, on a visitor's second visit: the first ran the example
    and stayed READ_S seconds, while the browser kept what it had compiled."""
    with returning_visitor(browser) as context:
        first = fresh_page(context, url)
        first.wait_for_timeout(READ_S * 1000)
        first.close()
        return by_key(fresh_page(context, url), "10.0")


def load_average() -> str:
    """The machine's one-minute load average, printed as the bench starts and as each round
    ends: figures taken beside other work (a test run ending, a build) are higher, and the
    output says so."""
    return f"load average {os.getloadavg()[0]:.1f}"


def span(values: list[float]) -> str:
    return f"{min(values):5.1f}-{max(values):5.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=1, help="pages measured per build")
    parser.add_argument("--against", type=Path, help="another build's dist/, measured in turns")
    parser.add_argument("--steps", action="store_true", help="print each step's time too")
    args = parser.parse_args()
    with served_browser() as (browser, url):
        builds = {"this build": url}
        if args.against:
            server, builds[str(args.against)] = load_build().start_in_background(args.against)
        print(f"live re-runs: a step of a number to the table painted, {STEPS} steps each "
              f"(target p95 <= {TARGET_P95_MS} ms for the chapter's example); "
              f"{load_average()} at the start")
        results: dict[str, list[dict[str, Steps]]] = {build: [] for build in builds}
        for turn in range(args.rounds):
            for build in list(builds)[:: 1 if turn % 2 == 0 else -1]:
                times = measure_page(browser, builds[build])
                results[build].append(times)
                print(f" round {turn + 1}, {build} ({load_average()}):", flush=True)
                for name, steps in times.items():
                    print(row(name, steps), flush=True)
                    if args.steps:
                        print("     " + " ".join(f"{t:.0f}" for t in steps), flush=True)
        if args.against:
            server.shutdown()
        if args.rounds > 1 or args.against:
            print(f"ranges over {args.rounds} rounds (p50, p95):")
            for build, rounds in results.items():
                print(f" {build}:")
                for name in rounds[0]:
                    p50s = [percentiles(r[name])[0] for r in rounds]
                    p95s = [percentiles(r[name])[1] for r in rounds]
                    shown = [percentiles(r[name].shown)[1] for r in rounds
                             if len(r[name].shown) > 1]
                    on_screen = f"   on screen p95 {span(shown)} ms" if shown else ""
                    cpus = [r[name].cpu for r in rounds if r[name].cpu is not None]
                    cpu = f"   CPU {span(cpus)} ms a step" if cpus else ""
                    print(f"   {name:<44} p50 {span(p50s)} ms   p95 {span(p95s)} ms"
                          f"{on_screen}{cpu}")


if __name__ == "__main__":
    main()
