"""A playground on a page, driven through any `Browser`: scripts in the page do the looking,
and every wait is on the page's own changes (a MutationObserver), never a sleep."""

from __future__ import annotations

from tests.web.conftest import FINAL_STATES
from tests.web.engines.drivers import Browser, Element

# How long any wait may take: a boot or a run (with, after a Stop, Python's restart).
# Longer than the Chromium suite's 60 s: Pyodide boots about twice as slowly in WebKitGTK,
# and a boot there has taken 30 s on a busy 2-core machine.
DEADLINE_MS = 180_000

# Resolves with the element's data-state once it is one of `states`.
WAIT_FOR_STATE = """
const [selector, states, done] = arguments;
const el = document.querySelector(selector);
const check = () => {
  if (!states.includes(el.dataset.state)) return;
  observer.disconnect();
  done(el.dataset.state);
};
const observer = new MutationObserver(check);
observer.observe(el, { attributes: true, attributeFilter: ["data-state"] });
check();
"""

# Resolves once the element's output shows `text`.
WAIT_FOR_OUTPUT = """
const [selector, text, done] = arguments;
const output = document.querySelector(selector).shadowRoot.querySelector(".output");
const check = () => {
  if (!output.textContent.includes(text)) return;
  observer.disconnect();
  done(true);
};
const observer = new MutationObserver(check);
observer.observe(output, { childList: true, subtree: true, characterData: true });
check();
"""

# Each playground on the page: its state, status line and the end of its output.
DESCRIBE_PLAYGROUNDS = """
return [...document.querySelectorAll("autograd-playground")].map((el) => ({
  id: el.id,
  state: el.dataset.state,
  status: el.shadowRoot?.querySelector(".status")?.textContent,
  output: el.shadowRoot?.querySelector(".output")?.textContent.slice(-300),
}));
"""


class Playground:
    """The <autograd-playground> at `selector` on the browser's page."""

    def __init__(self, browser: Browser, selector: str = "autograd-playground") -> None:
        self.browser = browser
        self.selector = selector

    def call(self, body: str, *args: object) -> object:
        """Run `body` with `el` bound to the element (and its shadow root as `root`)."""
        return self.browser.script(
            f"const el = document.querySelector(arguments[0]); const root = el.shadowRoot;"
            f"{body}",
            self.selector,
            *args,
        )

    @property
    def state(self) -> str:
        return self.call("return el.dataset.state;")

    def wait_for(self, *states: str) -> str:
        return self.wait(WAIT_FOR_STATE, list(states))

    def wait_for_output(self, text: str) -> None:
        self.wait(WAIT_FOR_OUTPUT, text)

    def wait(self, script: str, *args: object) -> object:
        """Run a WAIT_FOR_* script on this playground; a timeout fails the test saying
        where each playground on the page was."""
        try:
            return self.browser.wait(script, self.selector, *args, timeout_ms=DEADLINE_MS)
        except TimeoutError as timeout:
            seen = self.browser.script(DESCRIBE_PLAYGROUNDS)
            message = f"{self.selector}: {timeout}\nthe page's playgrounds: {seen}"
            raise AssertionError(message) from None

    @property
    def code(self) -> str:
        return self.call("return el.code;")

    @code.setter
    def code(self, text: str) -> None:
        self.call("el.code = arguments[1];", text)

    def button(self, name: str) -> Element:
        return self.call(
            "return [...root.querySelectorAll('button')]"
            ".find(b => b.checkVisibility() "
            "&& (b.getAttribute('aria-label') ?? b.textContent) === arguments[1]);",
            name,
        )

    def press(self, name: str) -> None:
        """Click the button named `name` as a script does: WebKitGTK's WebDriver has refused
        a pointer's click on the button of a band just laid out over the table, as hidden
        by another element, on a busy machine."""
        self.call(
            "[...root.querySelectorAll('button')].find(b => b.checkVisibility() "
            "&& (b.getAttribute('aria-label') ?? b.textContent) === arguments[1]).click();",
            name,
        )

    def start(self, code: str | None = None) -> None:
        """Press Run (after putting `code` in the editor), without waiting for the run to end."""
        # The element is defined once embed.js has loaded, which a page load may not wait for.
        self.wait_for("loading", "ready", *FINAL_STATES)
        if code is not None:
            self.code = code
        self.button("Run").click()

    def run(self, code: str | None = None) -> str:
        """Press Run and wait for the run to end; returns the final state."""
        self.start(code)
        return self.wait_for(*FINAL_STATES)

    @property
    def output(self) -> str:
        return self.call("return root.querySelector('.output').textContent;")

    def rows(self) -> list[list[str]]:
        """The table's rendered rows as cell texts: index, label, op, data, grad."""
        return self.call(
            "return [...root.querySelectorAll('tbody tr:not(.spacer)')]"
            ".map(r => [...r.cells].map(c => c.textContent));"
        )

    def full_values(self, column: str) -> list[float]:
        """A number column's full values, from the cells' hover titles."""
        titles = self.call(
            "return [...root.querySelectorAll(`tbody td.${arguments[1]}`)].map(c => c.title);",
            column,
        )
        return [float(t) for t in titles]
