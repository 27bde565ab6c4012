"""A playground is light or dark as its page is, and follows the page's switch live.

Each page mimics one documentation theme's markup (the attribute its switch
sets, no more); the test flips that switch, or the system's preference, and
reads the colours the playground and its editor end up with.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.web.conftest import painted
from tests.web.pages import course_page, playground

# The playground's background, its editor's, and that of the editor's search
# panel, which CodeMirror's own light or dark look colours.
WHITE, BLACK = "rgb(255, 255, 255)", "rgb(13, 17, 23)"
LIGHT = {"playground": WHITE, "editor": WHITE, "panel": "rgb(245, 245, 245)"}
DARK = {"playground": BLACK, "editor": BLACK, "panel": "rgb(51, 51, 56)"}
LOOKS = {"light": LIGHT, "dark": DARK}


@pytest.fixture
def open_page(pages, site, new_context):
    """Opens a page of one playground (with `attributes`) whose <html> and <body> have
    `html_attrs` and `body_attrs`, with the editor in place and its search panel open."""

    def open_(name: str, html_attrs: str = "", body_attrs: str = "", head: str = "",
              system: str = "light", **attributes: str) -> Page:
        text = course_page(site, playground("x = 1\n", id="p", **attributes), head=head)
        text = text.replace("<html ", f"<html {html_attrs} ")
        text = text.replace("<body>", f"<body {body_attrs}>")
        page = new_context(color_scheme=system).new_page()
        page.goto(pages.add(name, text))
        page.locator("#p .cm-content").click()
        page.keyboard.press("Control+f")
        page.locator("#p .cm-panels").wait_for()
        return page

    return open_


def look(page: Page) -> str:
    """"light" or "dark": what the playground and its editor show, all of them alike."""
    colours = page.locator("#p").evaluate(
        """el => {
          const style = (selector) => getComputedStyle(el.shadowRoot.querySelector(selector));
          return {
            playground: getComputedStyle(el).backgroundColor,
            editor: style(".cm-editor").backgroundColor,
            panel: style(".cm-panels").backgroundColor,
          };
        }"""
    )
    for name, expected in LOOKS.items():
        if colours == expected:
            return name
    return f"neither: {colours}"


def set_attribute(page: Page, selector: str, name: str, value: str | None) -> None:
    """What a theme's switch does when the reader flips it (None removes the attribute)."""
    page.locator(selector).evaluate(
        "(el, [name, value]) => value === null ? el.removeAttribute(name)"
        " : el.setAttribute(name, value)",
        [name, value],
    )


def set_system(page: Page, scheme: str) -> None:
    """Switch the system's colour scheme; the page hears of it (a matchMedia change event)
    when it next renders, before that frame's animation callbacks."""
    page.emulate_media(color_scheme=scheme)
    painted(page)


def test_pydata_sphinx_themes_switch_on_html_is_followed(open_page):
    page = open_page("pydata.html", html_attrs='data-mode="light" data-theme="light"')
    assert look(page) == "light"
    set_attribute(page, "html", "data-theme", "dark")
    assert look(page) == "dark"
    set_attribute(page, "html", "data-theme", "light")
    assert look(page) == "light"


def test_furos_switch_on_body_is_followed_and_auto_follows_the_system(open_page):
    page = open_page("furo.html", body_attrs='data-theme="light"', system="dark")
    assert look(page) == "light"  # the reader's choice over the system's
    set_attribute(page, "body", "data-theme", "dark")
    assert look(page) == "dark"
    set_attribute(page, "body", "data-theme", "auto")
    assert look(page) == "dark"
    set_system(page, "light")
    assert look(page) == "light"
    set_system(page, "dark")
    assert look(page) == "dark"


def test_materials_color_scheme_on_body_is_followed(open_page):
    page = open_page("material.html", body_attrs='data-md-color-scheme="default"', system="dark")
    assert look(page) == "light"
    set_attribute(page, "body", "data-md-color-scheme", "slate")
    assert look(page) == "dark"
    set_attribute(page, "body", "data-md-color-scheme", "default")
    assert look(page) == "light"


def test_a_page_that_declares_no_dark_mode_stays_light_as_the_browser_draws_it(open_page):
    page = open_page("plain.html", system="dark")
    assert look(page) == "light"


def test_a_page_that_declares_both_schemes_follows_the_system_live(open_page):
    page = open_page("both.html", head='<meta name="color-scheme" content="light dark">\n',
                     system="dark")
    assert look(page) == "dark"
    set_system(page, "light")
    assert look(page) == "light"
    set_system(page, "dark")
    assert look(page) == "dark"


def test_the_roots_color_scheme_decides_over_the_system(open_page):
    page = open_page("root-scheme.html", system="dark")
    set_attribute(page, "html", "style", "color-scheme: light")
    assert look(page) == "light"
    set_attribute(page, "html", "style", "color-scheme: light dark")  # both: the system's
    assert look(page) == "dark"
    set_attribute(page, "html", "style", "color-scheme: dark")
    set_system(page, "light")
    assert look(page) == "dark"


def test_a_class_that_sets_the_roots_color_scheme_is_followed(open_page):
    style = "<style>html.night { color-scheme: dark } html.day { color-scheme: light }</style>\n"
    page = open_page("class-scheme.html", head=style, html_attrs='class="day"', system="dark")
    assert look(page) == "light"
    set_attribute(page, "html", "class", "night")
    assert look(page) == "dark"
    set_attribute(page, "html", "class", "day")
    assert look(page) == "light"


def test_the_pages_color_scheme_meta_decides_over_the_system(open_page):
    meta = '<meta name="color-scheme" content="dark">\n'
    page = open_page("meta.html", head=meta, system="light")
    assert look(page) == "dark"
    set_attribute(page, 'meta[name="color-scheme"]', "content", "light")
    set_system(page, "dark")
    assert look(page) == "light"
    set_attribute(page, 'meta[name="color-scheme"]', "content", "light dark")
    assert look(page) == "dark"


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_theme_attribute_wins_over_the_pages_switch_and_the_system(open_page, theme):
    other = {"light": "dark", "dark": "light"}[theme]
    page = open_page(f"attribute-{theme}.html", html_attrs=f'data-theme="{other}"',
                     system=other, theme=theme)
    assert look(page) == theme
    set_attribute(page, "html", "data-theme", theme)
    set_attribute(page, "html", "data-theme", other)
    set_system(page, theme)
    set_system(page, other)
    assert look(page) == theme
    set_attribute(page, "#p", "theme", None)  # without it, as the page is
    assert look(page) == other
    set_attribute(page, "#p", "theme", theme)
    assert look(page) == theme
