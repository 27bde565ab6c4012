"""Usable by keyboard alone: run keys; Tab indents, and the editor says, while it has focus,
that Esc then Tab leaves it, so that focus can always move on from it."""

import pytest
from playwright.sync_api import expect

from tests.web.conftest import NEVER_MS, set_deadlines
from tests.web.pages import PlaygroundAt


@pytest.mark.parametrize("keys", ["Control+Enter", "Meta+Enter", "Shift+Enter"])
def test_run_keys_in_the_editor_run_the_code(playground, keys):
    playground.page.locator("autograd-playground .cm-content").click()
    playground.page.keyboard.press(keys)
    assert playground.wait_for("done", "error") == "done"
    assert len(playground.rows()) == 6


def focus_in_editor(playground) -> bool:
    return playground.element.evaluate(
        "el => el.shadowRoot.activeElement?.classList.contains('cm-content') ?? false")


def hint(playground):
    return playground.element.locator(".cm-tab-hint")


def test_tab_indents_and_escape_then_tab_leaves_the_editor(playground):
    set_deadlines(playground.page, escapeThenTabMs=NEVER_MS)
    playground.code = "x = 1"
    page = playground.page
    page.locator("autograd-playground .cm-content").click()
    page.keyboard.press("Home")
    page.keyboard.press("Tab")
    assert playground.code.startswith((" ", "\t")) and playground.code.strip() == "x = 1"
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    assert not focus_in_editor(playground)


def test_tabbing_into_the_editor_shows_how_to_leave_it_before_a_tab_indents(playground):
    set_deadlines(playground.page, escapeThenTabMs=NEVER_MS)
    playground.code = "x = 1"
    keys = playground.page.keyboard
    playground.button("Share").focus()
    expect(hint(playground)).to_be_hidden()
    keys.press("Tab")
    assert focus_in_editor(playground)
    expect(hint(playground)).to_be_visible()
    expect(hint(playground)).to_contain_text("Esc then Tab")
    content = playground.element.locator(".cm-content")
    expect(content).to_have_accessible_description(hint(playground).inner_text())
    keys.press("Tab")  # the hint said so: Tab indents
    assert playground.code.strip() == "x = 1" and playground.code != "x = 1"
    keys.press("Escape")
    keys.press("Tab")
    assert not focus_in_editor(playground)
    expect(hint(playground)).to_be_hidden()


def test_focus_leaves_the_editor_both_ways_by_keyboard_and_tab_indents_again_after_the_window(
    playground
):
    page = playground.page
    set_deadlines(page, escapeThenTabMs=NEVER_MS)
    playground.code = "x = 1"
    share = playground.button("Share")
    share.focus()
    page.keyboard.press("Tab")
    page.keyboard.press("Escape")
    page.keyboard.press("Shift+Tab")
    expect(share).to_be_focused()
    page.keyboard.press("Tab")
    assert focus_in_editor(playground)
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    assert not focus_in_editor(playground)
    assert playground.code == "x = 1"

    set_deadlines(page, escapeThenTabMs=1)
    share.focus()
    page.keyboard.press("Tab")
    page.keyboard.press("Escape")
    since = page.evaluate("() => Date.now()")
    page.wait_for_function("since => Date.now() > since + 1", arg=since)
    page.keyboard.press("Tab")  # past the window: Tab indents again
    assert focus_in_editor(playground)
    assert playground.code.strip() == "x = 1" and playground.code != "x = 1"


def test_on_code_taller_than_the_window_the_hint_stays_in_the_window_as_the_page_scrolls(
    new_context, site
):
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto(site + "course.html")
    playground = PlaygroundAt(page, "#data-model")  # the chapter's data model: 60 lines and more
    playground.element.scroll_into_view_if_needed()
    playground.element.locator(".cm-content").wait_for()
    assert playground.element.locator(".cm-editor").bounding_box()["height"] > 1.5 * 800
    playground.button("Share").focus()
    page.keyboard.press("Tab")
    expect(hint(playground)).to_be_in_viewport(ratio=1)
    for _ in range(2):
        page.evaluate("() => scrollBy(0, 300)")
        expect(hint(playground)).to_be_in_viewport(ratio=1)
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    expect(hint(playground)).to_be_hidden()


def test_the_buttons_are_reachable_and_pressable_by_keyboard(playground):
    playground.button("Run").focus()
    playground.page.keyboard.press("Enter")
    assert playground.wait_for("done", "error") == "done"
