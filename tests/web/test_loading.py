"""Python's first load, seen: on a slow link a progress bar tells how many of Python's
megabytes have arrived, then the status says Python is starting, and a run pressed
meanwhile waits, saying so. A course page shows one bar, however many playgrounds.

The link is slowed with DevTools' network emulation (it slows the workers' requests
too), so that the download lasts seconds on any machine; each test records every change
of the playgrounds' status and bar in the page, and reads the record once Python is up.
"""

from __future__ import annotations

import json
import re

import build

from .conftest import RUN_MS, Playground
from .pages import course_page, playground

# Slow enough that Python's 18 MB take seconds, fast enough for a test: 4 MB/s.
LINK_BYTES_PER_S = 4e6
MEGABYTES = re.compile(r"^\d+\.\d of \d+\.\d MB$")
# What a restore from the snapshot downloads (build.py's site.json names their sizes): the
# standard library's zip comes after the first result (web/worker/stdlib-later.js).
RESTORE_FILES = ["pyodide/pyodide.mjs", "pyodide/pyodide.asm.mjs", "pyodide/pyodide.asm.wasm",
                 "pyodide/pyodide-lock.json", "snapshot/memory.zst", "snapshot/files.json"]

# Before the page's scripts: once the element is defined, note each playground's status and
# bar (hidden: null) on every change, as a list per playground, and the most bars shown at once.
RECORD_LOADING = """
customElements.whenDefined("autograd-playground").then(() => {
  const playgrounds = [...document.querySelectorAll("autograd-playground")];
  window.loading = playgrounds.map(() => []);
  window.mostBars = 0;
  const note = () => {
    let bars = 0;
    playgrounds.forEach((el, i) => {
      const box = el.shadowRoot.querySelector(".loading");
      const bar = box.hidden ? null : {
        value: box.querySelector("progress").value,
        max: box.querySelector("progress").max,
        text: box.textContent,
      };
      bars += bar ? 1 : 0;
      const seen = { status: el.shadowRoot.querySelector(".status").textContent, bar };
      const record = window.loading[i];
      if (JSON.stringify(record.at(-1)) !== JSON.stringify(seen)) record.push(seen);
    });
    window.mostBars = Math.max(window.mostBars, bars);
  };
  note();
  for (const el of playgrounds) {
    new MutationObserver(note).observe(el.shadowRoot,
      { subtree: true, childList: true, characterData: true, attributes: true });
  }
});
"""


def slow_link(context, page, bytes_per_s: float = LINK_BYTES_PER_S) -> None:
    """Slow `page`'s link, and its workers', to `bytes_per_s`."""
    context.new_cdp_session(page).send("Network.emulateNetworkConditions", {
        "offline": False, "latency": 20,
        "downloadThroughput": bytes_per_s, "uploadThroughput": bytes_per_s})


def delay_bar(context, ms: int) -> None:
    """Set the load's time before its bar shows (deadlines.js's progressDelayMs)."""
    context.add_init_script(
        "customElements.whenDefined('autograd-playground').then(() => "
        f"customElements.get('autograd-playground').deadlines.progressDelayMs = {ms})")


def run_at_once(context, nth: int) -> None:
    """Press Run on the page's `nth` playground as soon as it is there: long before Python
    is, on a slow link."""
    context.add_init_script(
        "customElements.whenDefined('autograd-playground').then(() => "
        f"document.querySelectorAll('autograd-playground')[{nth}].run())")


def open_slowly(new_context, url: str, bar_after_ms: int = 0, run: int | None = None):
    """A page at `url` on a slow link, recording its playgrounds' loading; with `run`, Run is
    pressed on that playground as it opens."""
    context = new_context()
    delay_bar(context, bar_after_ms)
    context.add_init_script(RECORD_LOADING)
    if run is not None:
        run_at_once(context, run)
    page = context.new_page()
    slow_link(context, page)
    page.goto(url)
    return page


def restore_megabytes() -> str:
    sizes = json.loads((build.DIST / "site.json").read_text(encoding="utf-8"))["sizes"]
    return f"{sum(sizes[path] for path in RESTORE_FILES) / 1e6:.1f}"


def test_a_slow_first_load_shows_megabytes_growing_then_starting_python_then_no_bar(
    new_context, site
):
    page = open_slowly(new_context, site, run=0)
    playground = Playground(page)
    assert playground.wait_for("done", timeout=RUN_MS) == "done"
    record = page.evaluate("window.loading[0]")
    shown = [i for i, seen in enumerate(record) if seen["bar"]]
    bars = [record[i]["bar"] for i in shown]
    values = [bar["value"] for bar in bars]
    assert len(set(values)) > 1 and values == sorted(values)
    assert all(MEGABYTES.match(bar["text"]) for bar in bars)
    assert bars[-1]["text"].endswith(f" of {restore_megabytes()} MB")
    assert all(bar["value"] <= bar["max"] for bar in bars)
    # The run waits, and says so beside the bar.
    assert all("Your run is queued" in record[i]["status"] for i in shown)
    after = record[shown[-1] + 1:]
    starting = next(i for i, seen in enumerate(after)
                    if seen["status"].startswith("starting Python…"))
    assert all(seen["bar"] is None for seen in after)
    assert [seen["status"] for seen in after[starting:]][-2:] == ["running…", playground.status]
    assert playground.status.startswith("ran in ")


def test_no_bar_shows_while_the_load_is_shorter_than_its_delay(new_context, site):
    page = open_slowly(new_context, site, bar_after_ms=RUN_MS * 10)
    playground = Playground(page)
    assert playground.wait_for("ready") == "ready"
    record = page.evaluate("window.loading[0]")
    assert [seen["status"] for seen in record] == ["loading Python…", "starting Python…", "ready"]
    assert all(seen["bar"] is None for seen in record)


def test_a_course_page_shows_one_bar_in_the_first_playground_for_all_of_them(
    new_context, pages, site
):
    three = "".join(playground(f"print({i})\n", height="10rem") for i in range(3))
    page = open_slowly(new_context, pages.add("three.html", course_page(site, three)), run=2)
    page.wait_for_function(
        "() => [...document.querySelectorAll('autograd-playground')]"
        ".every(el => ['ready', 'done'].includes(el.dataset.state))", timeout=RUN_MS)
    records = page.evaluate("window.loading")
    assert page.evaluate("window.mostBars") == 1
    assert any(seen["bar"] for seen in records[0])
    assert not any(seen["bar"] for record in records[1:] for seen in record)
    assert "loading Python…" in [seen["status"] for seen in records[1]]
    assert any("Your run is queued" in seen["status"] for seen in records[2])
