"""The site's own pages (the full-page playground, the course page) have a theme switch:
light, dark or the system's, remembered, applied before the page is first painted, and
followed by every playground on the page."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from .test_accessibility import axe_violations, readable
from .test_host_theme import set_system

# The page's background and each playground's, in each look.
LIGHT, DARK = "rgb(255, 255, 255)", "rgb(13, 17, 23)"
PAGE_LIGHT = "rgb(255, 255, 255)"
OTHER = {"light": "dark", "dark": "light"}

# Notes, as the page is parsed, the root's color-scheme when <body> first appears: what
# the first paint, which can come no earlier, is drawn with.
SCHEME_AT_BODY = """
new MutationObserver((_, observer) => {
  if (!document.body) return;
  window.schemeAtBody = document.documentElement.style.colorScheme || "unset";
  observer.disconnect();
}).observe(document, {childList: true, subtree: true});
"""


def look(page: Page) -> str:
    """"light" or "dark", when the page and each of its playgrounds show it alike."""
    page_bg = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    playgrounds = page.locator("autograd-playground").evaluate_all(
        "els => els.map(el => getComputedStyle(el).backgroundColor)")
    looks = {("light" if page_bg == PAGE_LIGHT else "dark")}
    looks |= {"light" if bg == LIGHT else "dark" if bg == DARK else bg for bg in playgrounds}
    assert len(looks) == 1, f"the page and its playgrounds differ: {page_bg}, {playgrounds}"
    return looks.pop()


def switch(page: Page):
    return page.get_by_label("Theme", exact=True)


@pytest.fixture
def open_page(new_context, site):
    """Opens one of the site's pages with the system's colour scheme `system`."""

    def open_(path: str = "", system: str = "light") -> Page:
        context = new_context(color_scheme=system)
        context.add_init_script(SCHEME_AT_BODY)
        page = context.new_page()
        page.goto(site + path)
        page.wait_for_function("() => customElements.get('autograd-playground')")
        return page

    return open_


@pytest.mark.parametrize("choice", ["light", "dark"])
def test_light_and_dark_win_over_the_system_on_the_page_and_its_playground(open_page, choice):
    page = open_page(system=OTHER[choice])
    assert switch(page).input_value() == "system"
    assert look(page) == OTHER[choice]
    switch(page).select_option(choice)
    assert look(page) == choice
    set_system(page, choice)
    set_system(page, OTHER[choice])
    assert look(page) == choice


def test_system_follows_the_systems_colour_scheme_live(open_page):
    page = open_page(system="dark")
    switch(page).select_option("light")
    switch(page).select_option("system")
    assert look(page) == "dark"
    set_system(page, "light")
    assert look(page) == "light"
    set_system(page, "dark")
    assert look(page) == "dark"


@pytest.mark.parametrize("choice", ["light", "dark", "system"])
def test_the_choice_is_remembered_and_applied_before_the_first_paint(open_page, choice):
    page = open_page(system="dark")
    switch(page).select_option(choice)
    page.reload()
    page.wait_for_function("() => customElements.get('autograd-playground')")
    assert switch(page).input_value() == choice
    assert page.evaluate("() => window.schemeAtBody") == {"system": "unset"}.get(choice, choice)
    assert look(page) == {"system": "dark"}.get(choice, choice)


def test_the_course_pages_switch_sets_every_playground_on_it(open_page):
    page = open_page("course.html", system="light")
    assert page.locator("autograd-playground").count() > 1
    switch(page).select_option("dark")
    assert look(page) == "dark"
    page.reload()
    assert look(page) == "dark"


@pytest.mark.parametrize("path", ["", "course.html"])
def test_axe_finds_no_violations_with_the_switch_on_the_other_theme(open_page, path):
    page = open_page(path, system="light")
    switch(page).select_option("dark")
    violations = axe_violations(page)
    assert [v["id"] for v in violations] == [], readable(violations)
