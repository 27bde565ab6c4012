"""The learner's code is never lost: not to a link, a full storage, or a second tab.

The pages of one browser context share localStorage, as a browser's tabs do.
Closing a tab is a navigation away from it here (pagehide fires, as when a
tab is closed).
"""

from __future__ import annotations

import base64

from playwright.sync_api import BrowserContext

from tests.web.conftest import FINAL_STATES, NEVER_MS, Playground, set_deadlines, within

from .test_accessibility import axe_violations, readable

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


def saved(playground: Playground, text: str) -> None:
    """Wait until `text` is what localStorage keeps as the learner's code."""
    playground.page.wait_for_function(
        "([key, text]) => JSON.parse(localStorage.getItem(key) ?? 'null')?.code === text",
        arg=[KEY, text])


def shows(playground: Playground, text: str) -> None:
    """Wait until the editor shows `text`: for another tab's save, once this tab heard it."""
    playground.page.wait_for_function(
        "text => document.querySelector('autograd-playground').code === text", arg=text)


def drafts(playground: Playground) -> list[str]:
    """The codes of every link's draft localStorage keeps, in no order."""
    return playground.page.evaluate(
        "key => Object.keys(localStorage).filter(k => k.startsWith(key))"
        ".map(k => JSON.parse(localStorage.getItem(k)).code)", KEY + ":link")


def draft_saved(playground: Playground, text: str) -> None:
    """Wait until `text` is what localStorage keeps as one of the links' drafts."""
    playground.page.wait_for_function(
        "([key, text]) => Object.keys(localStorage).some(k => k.startsWith(key)"
        " && JSON.parse(localStorage.getItem(k)).code === text)", arg=[KEY + ":link", text])


def append_code(playground: Playground, text: str) -> None:
    """Type `text` at the end of the editor's text."""
    playground.element.locator(".cm-content").click()
    playground.page.keyboard.press("Control+End")
    playground.page.keyboard.type(text)


def fill_storage(playground: Playground) -> None:
    """Fill localStorage to the last character it takes."""
    playground.page.evaluate("""() => {
        let n = 0;
        for (let size = 1 << 20; size >= 1; size >>= 1) {
            const filler = "x".repeat(size);
            for (;;) {
                try { localStorage.setItem(`filler-${n++}`, filler); } catch { break; }
            }
        }
    }""")


def free_storage(playground: Playground) -> None:
    playground.page.evaluate("() => Object.keys(localStorage).filter(k => k.startsWith('filler-'))"
                             ".forEach(k => localStorage.removeItem(k))")


def wait_for_notice(playground: Playground, text: str) -> None:
    playground.page.wait_for_function(
        "text => document.querySelector('autograd-playground').shadowRoot"
        ".querySelector('.notice').textContent.includes(text)", arg=text)


def listen_for_save(playground: Playground, text: str) -> None:
    """From now on, note when another tab saves `text`; `heard` waits for it. The page's own
    listener came first, so once this one has heard the save, the page has handled it."""
    playground.page.evaluate("""text => { window.heard = new Promise(done =>
        addEventListener("storage", (e) => { if (e.newValue?.includes(text)) done(); })); }""",
                             text)


def edit_then_hear_another_tab_save(playground: Playground, edit: str, code: str) -> None:
    """Set the code to `edit`, and at once, before the page saves it, hear another tab's
    save of `code`, edited from the save kept now: written as that tab writes it, then told."""
    playground.element.evaluate("""(el, [key, edit, code]) => {
        el.code = edit;
        const basedOn = JSON.parse(localStorage.getItem(key)).savedAt;
        localStorage.setItem(key, JSON.stringify({code, savedAt: Date.now(), basedOn}));
        dispatchEvent(new StorageEvent("storage", {key, storageArea: localStorage}));
    }""", [KEY, edit, code])


def heard(playground: Playground) -> None:
    playground.page.evaluate(within("() => window.heard"))


def codes_in_switch(playground: Playground) -> list[str]:
    """The code each of the switch's options shows, picked in turn."""
    shown = []
    for value in switch(playground).locator("option").evaluate_all("os => os.map(o => o.value)"):
        switch(playground).select_option(value)
        shown.append(playground.code)
    return shown


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


def friends_code_edited_in_a_tab(playground, site):
    """The learner's own code saved, then a friend's link opened in a tab and edited
    there: that tab's playground."""
    type_code(playground, MINE)
    saved(playground, MINE)
    linked = open_tab(playground.page.context, f"{site}#code={encoded(FRIENDS)}")
    type_code(linked, "print('the friend's code, edited')")
    draft_saved(linked, "print('the friend's code, edited')")
    return linked


def test_an_edited_links_code_is_kept_as_a_draft_beside_the_learners_own(playground, site):
    linked = friends_code_edited_in_a_tab(playground, site)
    close(linked)

    plain = open_tab(playground.page.context, site)
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
    fill_storage(playground)
    type_code(playground, MINE)
    wait_for_notice(playground, "could not be saved")
    with playground.page.expect_download() as download:
        playground.button("Download .py").click()
    assert download.value.suggested_filename == "playground.py"
    assert open(download.value.path(), encoding="utf-8").read() == MINE


def test_two_tabs_the_later_edit_wins_and_the_other_tab_follows_it(playground, site):
    first = playground
    second = open_tab(first.page.context, site)
    type_code(first, "print('first tab')")
    saved(first, "print('first tab')")
    shows(first, "print('first tab')")
    shows(second, "print('first tab')")
    type_code(second, "print('second tab, later')")
    saved(second, "print('second tab, later')")
    shows(first, "print('second tab, later')")
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
    # Heard here too: the save below, made from this tab, is then made after it in storage
    # (a tab's own view of storage can be ahead of another's).
    shows(first, "print('second tab')")
    # The other tab saves again while this tab's edit is not yet saved.
    edit_then_hear_another_tab_save(first, "print('first tab, unsaved')",
                                    "print('second tab, again')")
    assert first.code == "print('first tab, unsaved')"
    assert "changed in another tab" in notice(first)
    close(first)
    reopened = open_tab(second.page.context, site)
    assert reopened.code == "print('second tab, again')"
    assert switch(reopened).locator("option").all_inner_texts()[1].startswith(
        "Your code before another tab's edit (saved")  # what the first tab typed, kept beside it
    switch(reopened).select_option("before")
    assert reopened.code == "print('first tab, unsaved')"


def test_a_tab_whose_last_edit_left_its_code_as_saved_follows_the_other_tabs_save(playground):
    type_code(playground, MINE)
    saved(playground, MINE)
    # An edit that leaves the code as it was saved (the code set to itself), then the other
    # tab's save, edited from this one's, told before this tab saves again.
    edit_then_hear_another_tab_save(playground, MINE, "print('edited in another tab')")
    assert playground.code == "print('edited in another tab')"
    assert notice(playground) == "Updated from another tab."
    assert switch(playground).locator("option").count() == 1  # nothing kept: nothing typed


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
    draft_saved(second, "print('another link, edited')")
    playground.page.wait_for_function(  # the plain tab's switch now offers that draft
        "() => document.querySelector('autograd-playground').shadowRoot"
        ".querySelector('select.source').textContent.includes('edited')")
    assert first.code == FRIENDS


def test_a_reload_after_editing_a_links_code_shows_the_edit_and_the_next_keystroke_keeps_it(
    playground, site
):
    linked = friends_code_edited_in_a_tab(playground, site)
    linked.page.reload()
    linked.wait_for("ready")
    assert linked.code == "print('the friend's code, edited')"
    assert "yours is kept" in notice(linked)
    append_code(linked, "!")
    draft_saved(linked, "print('the friend's code, edited')!")
    assert drafts(linked) == ["print('the friend's code, edited')!"]
    switch(linked).select_option("yours")
    assert linked.code == MINE


def tell_of_a_save(playground: Playground, earlier_code: str | None = None) -> None:
    """Fire a storage event for each link's draft: of the save the page holds, as a browser
    can for a tab reloaded just after it saved, or of an earlier save of `earlier_code`, as
    an event that came late."""
    playground.page.evaluate("""([key, earlier]) => {
        for (const k of Object.keys(localStorage).filter(k => k.startsWith(key))) {
            const held = JSON.parse(localStorage.getItem(k));
            const told = earlier === null ? held
                : {...held, code: earlier, savedAt: held.savedAt - 1000, basedOn: undefined};
            dispatchEvent(new StorageEvent("storage",
                {key: k, newValue: JSON.stringify(told), storageArea: localStorage}));
        }
    }""", [KEY + ":link", earlier_code])


def test_a_tab_told_of_a_save_it_holds_or_of_an_earlier_one_changes_nothing(playground, site):
    linked = friends_code_edited_in_a_tab(playground, site)
    linked.page.reload()
    linked.wait_for("ready")
    tell_of_a_save(linked)
    assert "yours is kept" in notice(linked)
    append_code(linked, "!")
    tell_of_a_save(linked, "print('the friend")  # while the learner's "!" waits to be saved
    draft_saved(linked, "print('the friend's code, edited')!")
    tell_of_a_save(linked, "print('the friend")
    assert linked.code == "print('the friend's code, edited')!"
    assert switch(linked).input_value() == "link"
    assert "another tab" not in notice(linked)
    assert switch(linked).locator("option").count() == 2  # yours and the link's: nothing kept
    linked.element.locator(".cm-content").press("Control+z")  # the same editor: "!" undone
    draft_saved(linked, "print('the friend's code, edited')")
    assert linked.code == "print('the friend's code, edited')"


def test_two_tabs_on_two_links_each_keep_their_own_edit_through_undo_and_closing(playground, site):
    context = playground.page.context
    first = open_tab(context, f"{site}#code={encoded(FRIENDS)}")
    second = open_tab(context, f"{site}#code={encoded('print(2)')}")
    type_code(first, "print('first link, edited')")
    draft_saved(first, "print('first link, edited')")
    listen_for_save(first, "second link, edited")
    type_code(second, "print('second link, edited')")
    draft_saved(second, "print('second link, edited')")
    heard(first)
    assert first.code == "print('first link, edited')"
    first.element.locator(".cm-content").press("Control+z")
    first.page.wait_for_function(  # the undo, once the page has handled the key
        "() => document.querySelector('autograd-playground').code"
        " !== \"print('first link, edited')\"")
    undone = first.code
    assert undone != "print('first link, edited')"
    draft_saved(first, undone)
    assert "print('second link, edited')" in drafts(first)
    close(second)
    close(first)
    shown = codes_in_switch(open_tab(context, site))
    assert "print('second link, edited')" in shown and undone in shown


def test_an_edit_that_storage_refused_stays_said_and_unsaved_across_a_switch_until_it_is_saved(
    playground, site
):
    context = playground.page.context
    link = f"{site}#code={encoded(FRIENDS)}"
    linked = open_tab(context, link)
    type_code(linked, "print('draft')")
    draft_saved(linked, "print('draft')")
    fill_storage(linked)
    append_code(linked, " # more")
    wait_for_notice(linked, "could not be saved")
    switch(linked).select_option("yours")
    assert "Code from the link could not be saved" in notice(linked)
    assert switch(linked).locator("option").all_inner_texts()[1] \
        == "Code from the link (edited, not saved)"
    violations = axe_violations(linked.page)
    assert [v["id"] for v in violations] == [], readable(violations)
    with linked.page.expect_download() as download:
        linked.button("Download .py").click()
    assert open(download.value.path(), encoding="utf-8").read() == "print('draft') # more"
    free_storage(linked)
    switch(linked).focus()  # the next save (on the switch, a timer, or leaving the page)
    draft_saved(linked, "print('draft') # more")
    assert "could not be saved" not in notice(linked)
    close(linked)
    assert open_tab(context, link).code == "print('draft') # more"


def test_a_switch_is_no_undo_step_so_undo_never_carries_one_code_into_another(playground, site):
    context = playground.page.context
    type_code(playground, MINE)
    saved(playground, MINE)
    linked = open_tab(context, f"{site}#code={encoded(FRIENDS)}")
    switch(linked).select_option("yours")
    linked.element.locator(".cm-content").press("Control+z")
    assert linked.code == MINE
    close(linked)
    assert open_tab(context, site).code == MINE


def test_reset_keeps_the_code_it_replaced_in_the_switch_across_a_reload(playground):
    type_code(playground, MINE)
    saved(playground, MINE)
    playground.button("Reset").click()
    assert "VTanh" in playground.code
    saved(playground, playground.code)
    playground.page.reload()
    playground.wait_for("ready")
    assert switch(playground).locator("option").all_inner_texts()[1].startswith(
        "Your code before Reset (saved")
    switch(playground).select_option("before")
    assert playground.code == MINE


def paste_into_address_bar(playground: Playground, url: str) -> None:
    """Go to `url`, which differs from the page's only in its fragment, as a learner who
    pastes it into the address bar does (no reload); returns once the page has heard of it."""
    playground.page.evaluate(within("""url => new Promise(done => {
        addEventListener("hashchange", done, {once: true});
        location.href = url;
    })"""), url)


def test_an_unreadable_link_pasted_while_a_live_run_is_in_flight_is_said_after_its_output(
    playground, site
):
    # The live run's first output clears the last run's: the note about the link is
    # part of the run in flight's output, and stays.
    playground.code = "n = 0\n"
    playground.run()
    set_deadlines(playground.page, liveRunMs=NEVER_MS)  # the loop is not stopped, however slow
    playground.element.locator(".cm-content").click()
    playground.page.keyboard.press("Control+a")
    slow = "for i in range(3_000_000):\n    pass\nprint('after the loop')\n"
    playground.page.keyboard.insert_text(slow)  # one edit, so one live run
    playground.wait_for("running")
    paste_into_address_bar(playground, f"{site}#code=%%%not-base64")
    assert playground.wait_for(*FINAL_STATES) == "done"
    assert "could not be read" in playground.output
    assert playground.output.endswith("after the loop\n")


def test_an_unreadable_link_pasted_while_an_edit_waits_to_be_re_run_is_kept_in_that_runs_output(
    playground, site
):
    # The edit's live run starts after the note is said; its first output would clear it.
    playground.code = "n = 0\n"
    playground.run()
    set_deadlines(playground.page, liveDebounceMs=NEVER_MS)  # the edit waits while the link comes
    playground.element.locator(".cm-content").click()
    playground.page.keyboard.press("Control+a")
    playground.page.keyboard.insert_text("print('after the edit')\n")
    paste_into_address_bar(playground, f"{site}#code=%%%not-base64")
    assert "could not be read" in playground.output
    set_deadlines(playground.page, liveDebounceMs=0)
    playground.page.keyboard.insert_text("# and another")  # the waiting edit runs with this one
    playground.wait_for_output("after the edit")
    assert playground.wait_for(*FINAL_STATES) == "done"
    assert "could not be read" in playground.output


def test_a_link_pasted_into_the_open_page_opens_as_a_draft_beside_the_learners_own(
    playground, site
):
    type_code(playground, MINE)
    saved(playground, MINE)
    playground.page.evaluate("() => { window.notReloaded = true; }")
    paste_into_address_bar(playground, f"{site}#code={encoded(FRIENDS)}")
    assert playground.code == FRIENDS
    assert playground.page.evaluate("() => window.notReloaded")
    assert "yours is kept" in notice(playground)
    options = switch(playground).locator("option").all_inner_texts()
    assert options[0].startswith("Your code (saved") and options[1] == "Code from the link"
    switch(playground).select_option("yours")
    assert playground.code == MINE

    paste_into_address_bar(playground, f"{site}#code=%%%not-base64")
    assert playground.code == MINE
    assert "could not be read" in playground.output

    paste_into_address_bar(playground, f"{site}#code={encoded('print(2)')}")
    assert playground.code == "print(2)"
    assert switch(playground).locator("option").all_inner_texts()[1] == "Code from the link"
    close(playground)
    assert open_tab(playground.page.context, site).code == MINE


def test_a_first_time_visitor_on_a_link_is_told_it_is_a_draft_not_that_their_code_is_kept(
    open_playground, site
):
    linked = open_playground(f"{site}#code={encoded(FRIENDS)}")
    assert linked.code == FRIENDS
    assert switch(linked).locator("option").all_inner_texts()[0] == "Your code (none saved yet)"
    assert "yours is kept" not in notice(linked)
    assert "a draft of its own, so editing it replaces nothing of yours" in notice(linked)
