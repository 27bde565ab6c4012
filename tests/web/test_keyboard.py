"""Usable by keyboard alone: run keys, Tab indents, Esc then Tab moves on."""

import pytest


@pytest.mark.parametrize("keys", ["Control+Enter", "Meta+Enter", "Shift+Enter"])
def test_run_keys_in_the_editor_run_the_code(playground, keys):
    playground.page.locator("autograd-playground .cm-content").click()
    playground.page.keyboard.press(keys)
    assert playground.wait_for("done", "error") == "done"
    assert len(playground.rows()) == 6


def test_tab_indents_and_escape_then_tab_leaves_the_editor(playground):
    playground.code = "x = 1"
    page = playground.page
    page.locator("autograd-playground .cm-content").click()
    page.keyboard.press("Home")
    page.keyboard.press("Tab")
    assert playground.code.startswith((" ", "\t")) and playground.code.strip() == "x = 1"
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    focused = playground.element.evaluate("el => el.shadowRoot.activeElement?.className ?? ''")
    assert "cm-content" not in focused


def test_the_buttons_are_reachable_and_pressable_by_keyboard(playground):
    playground.button("Run").focus()
    playground.page.keyboard.press("Enter")
    assert playground.wait_for("done", "error") == "done"
