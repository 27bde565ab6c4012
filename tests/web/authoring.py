"""What the authoring tests share: the authors' wheel, fresh venvs with it and a docs
tool, the example courses they build, and running every playground of a page.

Each docs tool gets a venv of its own under build/authoring/ with nothing but the
wheel and the tool (pinned in tests/docs-tools.txt): build.docs_venv, which
`python build.py docs` makes its venv with too.
"""

from __future__ import annotations

import functools
import re
import subprocess
from pathlib import Path

from playwright.sync_api import Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

import build
from autograd_playground.element import ATTRIBUTES
from build import docs_venv as docs_venv  # the authoring tests' venvs
from tests.web.conftest import BOOT_MS, FINAL_STATES, RUN_MS

COURSES = build.ROOT / "examples" / "courses"


@functools.cache
def authors_wheel() -> Path:
    """The autograd-playground wheel, built from the built dist/ once a test process."""
    if not (build.DIST / "index.html").exists():
        raise FileNotFoundError(f"{build.DIST} is not built: run `python build.py` first")
    return build.package_wheel(build.venv_python())


def press_run(element: Locator) -> None:
    """Press the playground's Run by its event, not by aiming the pointer: the page moves
    as its other playgrounds start, and a click aimed before that can land elsewhere."""
    element.get_by_role("button", name="Run", exact=True).dispatch_event("click")


def run_every_playground(page: Page) -> dict[str, dict]:
    """Run each playground of the page in order, as a learner would by pressing Run (one
    with `autorun` is waited for instead); returns each one's state, output and table
    rows (None for what the page hides), by id."""
    ids = page.locator("autograd-playground").evaluate_all("els => els.map(e => e.id)")
    results = {}
    for id_ in ids:
        element = page.locator(f"#{id_}")
        if element.get_attribute("autorun") is None:
            press_run(element)
        page.wait_for_function(
            "([id, states]) => states.includes(document.getElementById(id).dataset.state)",
            arg=[id_, list(FINAL_STATES)], timeout=BOOT_MS + RUN_MS)
        output, views = element.locator(".output"), element.locator(".views")
        results[id_] = {
            "state": element.get_attribute("data-state"),
            "output": output.inner_text() if output.is_visible() else None,
            "rows": element.locator("tbody tr:not(.spacer)").count()
            if views.is_visible() else None,
        }
    return results


def open_its_share_link(page: Page, id_: str) -> tuple[str, str]:
    """Press Share on playground `id_` and open the link in a new tab, as a learner sends it
    to a friend: the link, and the code the page it opens shows once ready."""
    element = page.locator(f"#{id_}")
    element.get_by_role("button", name="Share", exact=True).click()
    link = element.locator("input.link").input_value()
    opened = page.context.new_page()
    response = opened.goto(link)
    assert response is not None and response.ok, f"{link}: {response and response.status}"
    opened.wait_for_function(
        "() => document.querySelector('autograd-playground')?.dataset.state === 'ready'",
        timeout=BOOT_MS)
    return link, opened.locator("autograd-playground").evaluate("el => el.code")


def lines_at_their_sources(page: Page, sources: Path) -> list[tuple[str, str]]:
    """Each playground's code's first line, beside the line its data-source names in the
    page's source file (under `sources`): the same, where `check` points right."""
    pairs = []
    for source, code in page.locator("autograd-playground").evaluate_all(
            "els => els.map(e => [e.dataset.source, e.code])"):
        file, line = source.rsplit(":", 1)
        text = (sources / file).read_text(encoding="utf-8").splitlines()[int(line) - 1]
        pairs.append((code.splitlines()[0], text.strip()))
    return pairs


def built_results_with_scripts_off(new_context, url: str, graph: str, exercise: str) -> None:
    """With scripts off, the page at `url` shows playground `graph`'s results computed when
    the page was built (the chapter's six nodes, its output), and exercise `exercise` none:
    they would be its answer."""
    page = new_context(java_script_enabled=False).new_page()
    page.goto(url)
    table = page.locator(f"#{graph} [data-role=built] table")
    expect(table).to_be_visible()
    assert table.locator("tbody tr").count() == 6
    expect(page.locator(f"#{graph} .built-output")).to_have_text("e = 0.9993")
    assert page.locator(f"#{exercise} [data-role=built]").count() == 0


def build_sphinx(scripts: Path, source: Path, out: Path,
                 builder: str = "html") -> subprocess.CompletedProcess:
    """sphinx-build, warnings as errors."""
    return subprocess.run([scripts / "python", "-m", "sphinx", "-W", "-q", "-b", builder,
                           source, out], capture_output=True, encoding="utf-8")


def requests_elsewhere(page: Page, url: str) -> list[str]:
    """A list that fills with the URLs the page asks for that are not under `url`."""
    elsewhere: list[str] = []
    page.on("request", lambda request: None if request.url.startswith((url, "blob:", "data:"))
            else elsewhere.append(request.url))
    return elsewhere


def authored_attributes(page: Page) -> list[dict[str, str]]:
    """Each playground's author's attributes (web/page/options.js), in page order."""
    every = page.locator("autograd-playground").evaluate_all(
        "els => els.map(e => Object.fromEntries([...e.attributes].map(a => [a.name, a.value])))")
    return [{name: value for name, value in attributes.items() if name in ATTRIBUTES}
            for attributes in every]


def looks_before_the_script(page: Page, url: str) -> dict[str, str]:
    """How the page's first playground looks when embed.js never loads: its code, as code."""
    page.route("**/embed.js", lambda route: route.abort())
    page.goto(url)
    return page.locator("autograd-playground").first.evaluate(
        "el => ({whiteSpace: getComputedStyle(el).whiteSpace,"
        " font: getComputedStyle(el).fontFamily,"
        " defined: String(!!customElements.get(el.localName))})")


def do_the_exercise(page: Page, id_: str) -> dict:
    """Do exercise `id_` as a learner: Run its starter code, ask for each hint, then for
    the solution, and Run that: each run's verdict and messages, and each hint's text
    and how many pieces of code it shows."""
    element = page.locator(f"#{id_}")
    element.evaluate("el => el.addEventListener('check-end', (e) => (el.lastCheck = e.detail))")
    console: list[str] = []
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))

    def run() -> dict:
        element.evaluate("el => (el.lastCheck = null)")
        press_run(element)
        try:
            page.wait_for_function("id => document.getElementById(id).lastCheck !== null",
                                   arg=id_, timeout=BOOT_MS + RUN_MS)
        except PlaywrightTimeoutError:
            seen = element.evaluate(
                "el => ({state: el.dataset.state, status: el.shadowRoot.querySelector("
                "'.status')?.textContent, output: el.shadowRoot.querySelector('.output')"
                "?.textContent})")
            raise AssertionError(
                f"#{id_} never ended its check: {seen}, console {console}") from None
        return element.evaluate(
            "el => ({check: el.dataset.check, messages: el.lastCheck.messages})")

    starter = run()
    hint_button = element.get_by_role("button", name=re.compile(r"^Show a hint"))
    while hint_button.is_visible():
        hint_button.click()
    hints = [{"text": hint.inner_text().strip(), "code": hint.locator("code").count()}
             for hint in element.locator(".hints li").all()]
    element.get_by_role("button", name="Show solution", exact=True).click()
    return {"starter": starter, "hints": hints, "solution": run()}
