"""Accessible to all: no WCAG 2.1 A or AA violation that axe-core finds, on every page and
in both themes, with the table, the picture and the stepper showing."""

from __future__ import annotations

import base64
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

import build

from .conftest import RUN_MS
from .pages import PlaygroundAt
from .test_graph import with_backward

AXE = build.WEB / "node_modules" / "axe-core" / "axe.min.js"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
EXAMPLE_WITH_BACKWARD = with_backward((build.WEB / "src" / "example.py").read_text())


def share_fragment(code: str) -> str:
    """The `#code=` fragment a share link carries (see web/src/share.js)."""
    return "#code=" + base64.urlsafe_b64encode(code.encode()).decode().rstrip("=")


def axe_violations(page: Page) -> list[dict]:
    """axe-core's WCAG 2.1 A and AA violations on the page as it is now (open shadow roots too)."""
    page.add_script_tag(path=str(AXE))
    return page.evaluate(
        "tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})"
        ".then(results => results.violations)",
        WCAG_TAGS,
    )


def readable(violations: list[dict]) -> str:
    """Each violation's id, impact and help, then each element it was found on."""
    def selector(target: list) -> str:  # a part per shadow root: ["host", "inner"]
        return " | ".join(" >> ".join(p) if isinstance(p, list) else p for p in target)

    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']}")
        for node in v["nodes"]:
            why = node["failureSummary"].splitlines()[1].strip()
            lines.append(f"    {selector(node['target'])}: {why}")
    return "\n".join(lines)


@pytest.fixture
def new_page(browser: Browser) -> Iterator:
    """Opens pages in fresh contexts (with the given options); closes them afterwards."""
    contexts = []

    def open_(**context_options) -> Page:
        context = browser.new_context(**context_options)
        contexts.append(context)
        return context.new_page()

    yield open_
    for context in contexts:
        context.close()


def run_with_backward_showing(playground: PlaygroundAt, code: str | None = None) -> None:
    """Run the code, then wait until its table, picture and stepper are all on screen."""
    playground.element.scroll_into_view_if_needed()  # Python starts once a playground is seen
    playground.wait_for("ready")
    assert playground.run(code) == "done"
    playground.element.locator(".picture[data-state='drawn']").wait_for(timeout=RUN_MS)
    expect(playground.element.locator("tbody tr:not(.spacer)").first).to_be_visible()
    expect(playground.element.locator(".stepper")).to_be_visible()


# Each page in both themes, running the chapter's example with Backward (embed.html gets
# it from its share-link fragment). The full page and the course page follow the
# system's colour scheme; embed.html is given the other theme by its `theme` attribute.
EMBED = "embed.html?theme={}" + share_fragment(EXAMPLE_WITH_BACKWARD)
PAGES = {  # name: (path, the playground to run, the system's colour scheme)
    "full page, light": ("", "autograd-playground", "light"),
    "full page, dark": ("", "autograd-playground", "dark"),
    "course page, light": ("course.html", "#engine-backward", "light"),
    "course page, dark": ("course.html", "#engine-backward", "dark"),
    "embed, theme=dark": (EMBED.format("dark"), "autograd-playground", "light"),
    "embed, theme=light": (EMBED.format("light"), "autograd-playground", "dark"),
}


@pytest.mark.parametrize("name", PAGES)
def test_axe_finds_no_wcag_a_or_aa_violations_after_a_run_with_backward(new_page, site, name):
    path, selector, scheme = PAGES[name]
    page = new_page(color_scheme=scheme)
    page.goto(site + path)
    code = None if path.startswith("embed.html") else EXAMPLE_WITH_BACKWARD  # else in the link
    run_with_backward_showing(PlaygroundAt(page, selector), code)
    violations = axe_violations(page)
    assert [v["id"] for v in violations] == [], f"axe on {name}:\n{readable(violations)}"
