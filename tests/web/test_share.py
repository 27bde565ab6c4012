"""The learner's code is kept: share links carry it, localStorage restores it."""

import base64

from playwright.sync_api import expect

CODE = "# ∂e/∂a, with non-ASCII text: héllo 🚀\nprint('shared')\n"


def test_a_share_link_opens_the_same_code_without_running_it(playground, open_playground):
    playground.code = CODE
    playground.button("Share").click()
    link = playground.element.locator("input.link").input_value()
    assert "#code=" in link and "+" not in link and "/" not in link.split("#code=")[1]
    opened = open_playground(link)
    assert opened.code == CODE
    assert opened.state == "ready"
    assert opened.output == "" and opened.graphs() == []


def test_an_unreadable_share_link_keeps_the_default_code_and_says_so(open_playground, site):
    opened = open_playground(site + "#code=%%%not-base64")
    assert "VTanh" in opened.code
    assert "could not be read" in opened.output


def test_the_code_survives_a_reload(playground):
    playground.page.locator("autograd-playground .cm-content").click()
    playground.page.keyboard.press("Control+End")
    playground.page.keyboard.type("\nprint('kept')")
    typed = playground.code
    playground.page.reload()
    playground.wait_for("ready")
    assert playground.code == typed
    assert playground.code.endswith("print('kept')")


def test_the_share_link_shown_goes_once_the_code_is_edited_or_another_code_is_shown(playground):
    link = playground.element.locator("input.link")
    playground.button("Share").click()
    expect(link).to_be_visible()
    assert playground.run() == "done"
    expect(link).to_be_visible()  # a run changes no code: the link is still this code's
    playground.element.locator(".cm-content").click()
    playground.page.keyboard.press("Control+End")
    playground.page.keyboard.type("\nprint('more')")
    expect(link).to_be_hidden()
    playground.button("Share").click()
    expect(link).to_be_visible()
    assert decode(link.input_value()) == playground.code
    playground.button("Reset").click()
    expect(link).to_be_hidden()
    playground.button("Share").click()
    playground.element.locator("select.source").select_option("before")  # the code before Reset
    expect(link).to_be_hidden()


def decode(link: str) -> str:
    """The code a share link carries."""
    fragment = link.split("#code=")[1]
    return base64.urlsafe_b64decode(fragment + "=" * (-len(fragment) % 4)).decode()
