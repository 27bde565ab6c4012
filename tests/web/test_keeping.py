"""The learner's code is never lost: not to a link, a full storage, or a second tab.

The pages of one browser context share localStorage, as a browser's tabs do.
Closing a tab is a navigation away from it here (pagehide fires, as when a
tab is closed).
"""

from __future__ import annotations

import base64
import json

from playwright.sync_api import BrowserContext

from tests.web.conftest import FINAL_STATES, Playground

KEY = "autograd-playground:/"
MINE = "print('MY OWN WORK')"
FRIENDS = "print('shared by a friend')\n"


def encoded(code: str) -> str:
    """`code` as a share link's fragment has it: base64url, unpadded."""
    return base64.urlsafe_b64encode(code.encode()).decode().rstrip("=")


def open_tab(context: BrowserContext, url: str) -> Playground:
    return Playground(context.new_page()).open(url)


def type_code(playground: Playground, text: str) -> None:
    """Replace the editor's text by typing, as a learner does."""
    playground.element.locator(".cm-content").click()
    playground.page.keyboard.press("Control+a")
    playground.page.keyboard.type(text)


def saved(playground: Playground, text: str, key: str = KEY) -> None:
    """Wait until `text` is what localStorage keeps under `key`."""
    playground.page.wait_for_function(
        "([key, text]) => JSON.parse(localStorage.getItem(key) ?? 'null')?.code === text",
        arg=[key, text])


def close(playground: Playground) -> None:
    playground.page.goto("about:blank")
    playground.page.close()


def switch(playground: Playground):
    return playground.element.locator("select.source")


def notice(playground: Playground) -> str:
    return playground.element.locator(".notice").inner_text()


def test_a_links_code_opens_beside_the_learners_own_and_never_over_it(playground, site):
    context = playground.page.context
    type_code(playground, MINE)
    saved(playground, MINE)
    close(playground)

    linked = open_tab(context, f"{site}#code={encoded(FRIENDS)}")
    assert linked.code == FRIENDS
    assert "yours is kept" in notice(linked)
    options = switch(linked).locator("option").all_inner_texts()
    assert options[0].startswith("Your code (saved") and options[1] == "Code from the link"
    switch(linked).select_option("yours")
    assert linked.code == MINE
    switch(linked).select_option("link")
    assert linked.code == FRIENDS
    close(linked)

    plain = open_tab(context, site)
    assert plain.code == MINE
    assert not switch(plain).is_visible()


def test_an_edited_links_code_is_kept_as_a_draft_beside_the_learners_own(playground, site):
    context = playground.page.context
    type_code(playground, MINE)
    saved(playground, MINE)
    linked = open_tab(context, f"{site}#code={encoded(FRIENDS)}")
    type_code(linked, "print('the friend's code, edited')")
    saved(linked, "print('the friend's code, edited')", key=KEY + ":link")
    close(linked)

    plain = open_tab(context, site)
    assert plain.code == MINE
    options = switch(plain).locator("option").all_inner_texts()
    assert options[1].startswith("Code from a link (edited, saved")
    switch(plain).select_option("link")
    assert plain.code == "print('the friend's code, edited')"
    switch(plain).select_option("yours")
    assert plain.code == MINE


def test_an_empty_link_says_so_and_leaves_the_learners_code(playground, site):
    context = playground.page.context
    type_code(playground, MINE)
    saved(playground, MINE)
    empty = open_tab(context, f"{site}#code=")
    assert empty.code == MINE
    assert "the link holds no code" in empty.output
    close(empty)
    assert open_tab(context, site).code == MINE


def test_a_full_storage_is_said_with_the_code_offered_as_a_download(playground):
    playground.page.evaluate("""() => {
        let n = 0;
        for (let size = 1 << 20; size >= 1; size >>= 1) {
            const filler = "x".repeat(size);
            for (;;) {
                try { localStorage.setItem(`filler-${n++}`, filler); } catch { break; }
            }
        }
    }""")
    type_code(playground, MINE)
    playground.page.wait_for_function(
        "() => document.querySelector('autograd-playground').shadowRoot"
        ".querySelector('.notice').textContent.includes('could not be saved')")
    with playground.page.expect_download() as download:
        playground.button("Download .py").click()
    assert download.value.suggested_filename == "playground.py"
    assert open(download.value.path(), encoding="utf-8").read() == MINE


def test_two_tabs_the_later_edit_wins_and_the_other_tab_follows_it(playground, site):
    first = playground
    second = open_tab(first.page.context, site)
    type_code(first, "print('first tab')")
    saved(first, "print('first tab')")
    first.page.wait_for_function("() => document.querySelector('autograd-playground')"
                                 ".code === \"print('first tab')\"")
    second.page.wait_for_function("() => document.querySelector('autograd-playground')"
                                  ".code === \"print('first tab')\"")
    type_code(second, "print('second tab, later')")
    saved(second, "print('second tab, later')")
    first.page.wait_for_function("() => document.querySelector('autograd-playground')"
                                 ".code === \"print('second tab, later')\"")
    assert "another tab" in notice(first)
    context = first.page.context
    close(second)
    close(first)  # closed last, with nothing of its own to save
    assert open_tab(context, site).code == "print('second tab, later')"


def test_a_tab_with_an_unsaved_edit_keeps_it_and_is_told_of_the_other_tabs_save(playground, site):
    first = playground
    second = open_tab(first.page.context, site)
    type_code(second, "print('second tab')")
    saved(second, "print('second tab')")
    # The other tab's save arrives while this tab's edit is not yet saved.
    record = json.dumps({"code": "print('second tab')", "savedAt": 0})
    first.element.evaluate("""(el, [key, record]) => {
        el.code = "print('first tab, unsaved')";
        const event = {key, newValue: record, storageArea: localStorage};
        dispatchEvent(new StorageEvent("storage", event));
    }""", [KEY, record])
    assert first.code == "print('first tab, unsaved')"
    assert "changed in another tab" in notice(first)
    close(first)
    assert open_tab(second.page.context, site).code == "print('second tab')"


def test_a_link_never_runs_by_itself(open_playground, site):
    url = f"{site}embed.html?autorun#code={encoded(FRIENDS)}"
    opened = Playground(open_playground(site).page.context.new_page())
    opened.page.goto(url)
    assert opened.wait_for("ready", *FINAL_STATES, "running") == "ready"
    assert "does not run by itself" in notice(opened)
    assert opened.output == ""
    assert opened.run() == "done"
    assert opened.output.strip() == "shared by a friend"


def test_a_tab_on_a_link_keeps_that_links_code_when_another_tab_edits_another_link(
    playground, site
):
    context = playground.page.context
    first = open_tab(context, f"{site}#code={encoded(FRIENDS)}")
    second = open_tab(context, f"{site}#code={encoded('print(2)')}")
    type_code(second, "print('another link, edited')")
    saved(second, "print('another link, edited')", key=KEY + ":link")
    playground.page.wait_for_function(  # the plain tab's switch now offers that draft
        "() => document.querySelector('autograd-playground').shadowRoot"
        ".querySelector('select.source').textContent.includes('edited')")
    assert first.code == FRIENDS
