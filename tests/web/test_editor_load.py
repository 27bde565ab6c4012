"""When the editor's script cannot load, the playground says so with a Retry button, the
code stays on screen as text and Run runs it; Retry loads the editor, on the same code."""

from __future__ import annotations

from .conftest import Playground

# Both of the editor's scripts: its gzipped copy and the plain one (editor-script.js).
EDITOR_CHUNK = "**/chunks/editor-*"


def test_an_editor_that_cannot_load_says_so_runs_the_code_shown_and_loads_on_retry(
        new_context, site):
    context = new_context()
    link = {"down": True}  # until the note shows (the page may try twice by then)

    def fail_while_down(route) -> None:
        if link["down"]:
            route.abort()  # a dropped connection
        else:
            route.continue_()

    context.route(EDITOR_CHUNK, fail_while_down)
    playground = Playground(context.new_page()).open(site)
    note = playground.element.locator(".editor-failed")
    note.wait_for()
    link["down"] = False
    assert note.inner_text().startswith("The editor could not load: ")
    assert "/chunks/editor-" in note.inner_text()  # which script
    assert playground.element.locator(".cm-editor").count() == 0
    code = "print('run from the text shown')"
    playground.code = code
    assert playground.element.locator(".placeholder").inner_text() == code
    assert playground.run() == "done"
    assert playground.output.strip() == "run from the text shown"
    note.get_by_role("button", name="Retry").click()
    playground.element.locator(".cm-editor").wait_for()
    assert note.count() == 0
    assert playground.element.locator(".placeholder").count() == 0
    assert playground.code == code
    assert playground.run() == "done"
    assert playground.output.strip() == "run from the text shown"
