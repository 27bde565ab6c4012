"""Live re-runs: on the full page each edit re-runs the code, and number literals can be
dragged or stepped with Alt+↑ / Alt+↓; a run that takes too long pauses live re-runs."""

import base64
import itertools

import pytest
from playwright.sync_api import expect

from tests.web.conftest import RUN_MS, set_deadlines

from .test_graph import box, picture_state, run_and_draw

# A debounce longer than the few keys of an edit take, so that only the edited code runs,
# not the half-typed line between (a SyntaxError run of its own).
EDITING_MS = 1000
LOOP = "import time\nn = 1\nwhile n:\n    time.sleep(0.01)\nprint('done', n)\n"


def literal(playground, text: str):
    """The number literal `text` in the editor, as a learner points at it."""
    return playground.element.locator(".cm-content .cm-scrub", has_text=text).first


def put_cursor_after(playground, text: str) -> None:
    """Click into the editor, then move the cursor just after the first `text`."""
    page = playground.page
    page.locator("autograd-playground .cm-content").click()
    playground.element.evaluate(
        """(el, text) => {
          const view = el.view;
          const at = view.state.doc.toString().indexOf(text) + text.length;
          view.dispatch({ selection: { anchor: at } });
          view.focus();
        }""",
        text,
    )


def no_live_run_started(playground) -> bool:
    """Whether the playground is still not running once a live re-run, had one been
    scheduled by the last edit, would have started (its timer fires before this one)."""
    playground.page.evaluate("""() => new Promise(resolve => setTimeout(resolve,
        customElements.get('autograd-playground').deadlines.liveDebounceMs))""")
    return playground.state != "running"


def link_to(site: str, code: str) -> str:
    encoded = base64.urlsafe_b64encode(code.encode()).decode().rstrip("=")
    return f"{site}#code={encoded}"


def a_data(playground) -> str:
    """Node a's data, as the table shows it."""
    return next(row for row in playground.rows() if row[1] == "a")[3]


def wait_for_a(playground, text: str, label: str = "a") -> None:
    """Wait until the table shows `text` as the data of the node labelled `label`."""
    playground.page.wait_for_function(
        """([label, text]) => [...document.querySelector('autograd-playground').shadowRoot
             .querySelectorAll('tbody tr')].some(tr => tr.cells[1]?.textContent === label
             && tr.cells[3]?.textContent === text)""",
        arg=[label, text],
        timeout=RUN_MS,
    )


def test_typing_re_runs_the_code_and_the_table_follows(playground):
    assert playground.run() == "done"
    assert a_data(playground) == "2.0"
    put_cursor_after(playground, "MakeValue(g, 2")
    playground.page.keyboard.type("5")  # 2.0 -> 25.0
    wait_for_a(playground, "25.0")  # the table comes ahead of the run's end
    assert "MakeValue(g, 25.0" in playground.code
    assert playground.wait_for("done", "error") == "done"


def test_alt_arrows_step_a_number_and_undo_puts_it_back(playground):
    playground.run()
    put_cursor_after(playground, "MakeValue(g, 2")
    page = playground.page
    page.keyboard.press("Alt+ArrowUp")
    assert "MakeValue(g, 2.1," in playground.code
    wait_for_a(playground, "2.1")
    page.keyboard.press("Alt+Shift+ArrowDown")  # ten steps
    assert "MakeValue(g, 1.1," in playground.code
    page.keyboard.press("Control+z")
    assert "MakeValue(g, 2.1," in playground.code
    wait_for_a(playground, "2.1")


def frames_of_steps(playground, steps: int, seen: str) -> list:
    """`seen(el)` at each frame's start while Alt+↑ steps a's 2.0 by `steps` tenths, each
    run to its end."""
    record_each_frame(playground, seen)
    put_cursor_after(playground, "MakeValue(g, 2")
    for tenth in range(1, steps + 1):
        playground.page.keyboard.press("Alt+ArrowUp")
        wait_for_a(playground, f"2.{tenth}")
        assert playground.wait_for("done") == "done"
    return playground.element.evaluate("el => el.frames")


def record_each_frame(playground, seen: str) -> None:
    """From now on, at each frame's start (what the frame before painted), push `seen(el)`
    (a JavaScript function of the element) onto the element's `frames`."""
    playground.element.evaluate(f"""el => {{
        const seen = {seen};
        el.frames = [];
        const look = () => {{
          el.frames.push(seen(el));
          requestAnimationFrame(look);
        }};
        requestAnimationFrame(look);
    }}""")


def test_a_live_step_changes_the_picture_from_one_drawing_to_the_next_with_no_empty_frame(
    playground,
):
    run_and_draw(playground)
    record_each_frame(playground, "el => !!el.shadowRoot.querySelector('.picture-frame svg')")
    put_cursor_after(playground, "MakeValue(g, 2")
    for tenth in range(1, 6):
        playground.page.keyboard.press("Alt+ArrowUp")
        expect(box(playground, 0).locator(".data-line")).to_have_text(
            f"data 2.{tenth}", timeout=RUN_MS)  # the new drawing, which replaced the last
    frames = playground.element.evaluate("el => el.frames")
    assert len(frames) > 5
    assert frames.count(False) == 0


def test_a_live_steps_output_shows_in_the_frame_of_its_table_never_an_empty_box(playground):
    """A live run's output replaces the last run's as it is drawn: no frame shows an empty
    box, and the frame that paints a run's table paints all its output too."""
    playground.code = playground.code + 'print("a =", g.nodes[a].data)\n'
    assert playground.run() == "done"
    painted = frames_of_steps(playground, 8, """el => [
        el.shadowRoot.querySelector('.output').textContent,
        [...el.shadowRoot.querySelectorAll('tbody tr')]
          .find((tr) => tr.cells[1]?.textContent === 'a').cells[3].textContent,
    ]""")
    assert len(painted) > 8 and painted[-1][1] == "2.8"
    assert "" not in [output for output, _ in painted]
    new_tables = [now for before, now in itertools.pairwise(painted) if now[1] != before[1]]
    assert len(new_tables) == 8
    assert [p for p in new_tables if not p[0].endswith(f"a = {p[1]}\n")] == []


# 301 nodes: more than a picture draws whole, so it shows a neighbourhood.
CHAIN = ("from engine import Graph, MakeValue, VMul\ng = Graph()\n"
         "y = MakeValue(g, 0.5, label='x')\n"
         "for _ in range(150):\n    y = VMul(g, y, MakeValue(g, 1.0))\n")


def test_a_big_graphs_picture_follows_live_steps_once_they_pause_and_a_small_ones_at_once(
    playground,
):
    set_deadlines(playground.page, livePictureSettleMs=600_000)  # no pause comes
    run_and_draw(playground, CHAIN)
    playground.element.evaluate("el => { el.shadowRoot.querySelector('svg.graph').old = true; }")
    put_cursor_after(playground, "MakeValue(g, 0.5")
    playground.page.keyboard.press("Alt+ArrowUp")
    wait_for_a(playground, "0.6", label="x")
    assert playground.wait_for("done") == "done"
    assert picture_state(playground) == "laying-out"
    assert playground.element.evaluate("el => el.shadowRoot.querySelector('svg.graph').old")
    run_and_draw(playground)  # Run draws at once
    assert not playground.element.evaluate("el => el.shadowRoot.querySelector('svg.graph').old")

    run_and_draw(playground, "from engine import Graph, MakeValue\ng = Graph()\n"
                             "a = MakeValue(g, 2.0, label='a')\n")
    put_cursor_after(playground, "MakeValue(g, 2")
    playground.page.keyboard.press("Alt+ArrowUp")
    expect(box(playground, 0).locator(".data-line")).to_have_text("data 2.1", timeout=RUN_MS)


def test_a_live_step_rewrites_only_the_cells_that_changed_and_each_once(playground):
    """The table, then each stepper's grads and marks, change as a result comes: the rows
    in view are drawn once for them all, over the rows already there, and of those only
    the cells whose values changed are written (the browser lays out and paints only
    them)."""
    run_and_draw(playground)
    playground.element.evaluate("""el => {
        el.written = [];
        el.touched = new Set();
        el.rowsAdded = 0;
        const body = el.shadowRoot.querySelector('tbody');
        const cellOf = (node) =>
          (node.nodeType === 1 ? node : node.parentElement).closest('td, th');
        new MutationObserver((records) => {
          for (const r of records) {
            if (r.target === body) { el.rowsAdded += r.addedNodes.length; continue; }
            const cell = cellOf(r.target);
            const name = cell
              && `${cell.closest('tr').dataset.node} ${cell.classList[0] ?? cell.tagName}`;
            el.touched.add(name ?? `row ${r.target.dataset.node} ${r.attributeName}`);
            if (r.type === 'childList' && r.target === cell) el.written.push(name);
          }
        }).observe(body, { childList: true, subtree: true, attributes: true,
                           characterData: true });
    }""")
    before = data_cells(playground)
    put_cursor_after(playground, "MakeValue(g, 2")
    playground.page.keyboard.press("Alt+ArrowUp")
    wait_for_a(playground, "2.1")
    assert playground.wait_for("done") == "done"
    after = data_cells(playground)
    written = playground.element.evaluate("el => el.written")
    touched = playground.element.evaluate("el => [...el.touched]")
    changed_data = {f"{node} data" for node in after if after[node] != before[node]}
    assert playground.element.evaluate("el => el.rowsAdded") == 0
    assert len(written) == len(set(written)), "a cell written twice"
    assert {cell.split(" ", 1)[1] for cell in touched} <= {"data", "grad"}
    assert changed_data and changed_data <= set(written)


def data_cells(playground) -> dict[str, str]:
    """The text of each data cell in view, by its node's index."""
    return dict(playground.element.evaluate(
        "el => [...el.shadowRoot.querySelectorAll('tbody tr[data-node]')]"
        ".map((tr) => [tr.dataset.node, tr.querySelector('td.data').textContent])"))


def test_alt_arrows_away_from_a_number_still_move_the_line(playground):
    playground.code = "x = 1\ny = 2\n"
    put_cursor_after(playground, "y")
    playground.page.keyboard.press("Alt+ArrowUp")
    assert playground.code == "y = 2\nx = 1\n"


@pytest.mark.parametrize("before, after", [
    ("12345678901234567890", "12345678901234567891"),
    ("9" * 22, "1" + "0" * 22),
    ("1" + "0" * 400, "1" + "0" * 399 + "1"),
    ("0." + "0" * 119 + "1", "0." + "0" * 119 + "2"),
    ("-0.1", "0.0"),
], ids=["20 digits", "22 nines", "400 digits", "120 decimals", "to zero"])
def test_a_step_is_exact_in_the_literals_own_digits(playground, before, after):
    playground.code = f"x = {before}\ny = 2\n"
    put_cursor_after(playground, f"x = {before[:2]}")  # on the literal (a minus is its sign)
    playground.page.keyboard.press("Alt+ArrowUp")
    assert playground.code == f"x = {after}\ny = 2\n"


@pytest.mark.parametrize("literal", ["0x10", "1_000", "1e308", "2j"])
def test_a_literal_in_another_notation_is_left_alone_and_the_line_stays(playground, literal):
    playground.code = f"y = 2\nx = {literal}\n"
    put_cursor_after(playground, "x = ")
    playground.page.keyboard.press("Alt+ArrowUp")
    assert playground.code == f"y = 2\nx = {literal}\n"
    assert playground.element.locator(".cm-content .cm-scrub", has_text=literal).count() == 0


def test_a_minus_before_a_number_is_its_sign(playground):
    put_cursor_after(playground, "MakeValue(g, -3")
    for _ in range(31):
        playground.page.keyboard.press("Alt+ArrowUp")
    assert "MakeValue(g, 0.1," in playground.code


def test_a_step_finds_its_number_where_the_background_parse_has_not_reached(playground):
    # A code longer than one slice of parsing: the key comes in the same task as the
    # edit, before the background parse could reach the number at the end. The step may
    # take as long as the parse up to it does, however busy the machine.
    set_deadlines(playground.page, scrubParseMs=600_000)
    code = "x = 0\n" * 2_000 + "y = 2.0\n"
    playground.element.evaluate(
        """(el, code) => {
          const view = el.view;
          view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: code },
                          selection: { anchor: code.length - 2 } });
          view.contentDOM.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowUp",
            code: "ArrowUp", keyCode: 38, altKey: true, bubbles: true, cancelable: true }));
        }""",
        code,
    )
    assert playground.code.endswith("x = 0\ny = 2.1\n")


def test_numbers_in_names_strings_and_comments_are_not_draggable(playground):
    playground.code = "x2 = 3  # 4\ns = '5'\n"
    marked = playground.element.locator(".cm-content .cm-scrub").all_inner_texts()
    assert marked == ["3"]


def drag(playground, text: str, dx: float) -> None:
    box = literal(playground, text).bounding_box()
    mouse = playground.page.mouse
    mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    mouse.down()
    for step in range(1, 11):
        mouse.move(box["x"] + box["width"] / 2 + dx * step / 10, box["y"] + box["height"] / 2)
    mouse.up()


def test_dragging_a_number_changes_it_and_one_undo_puts_it_back(playground):
    playground.run()
    drag(playground, "10.0", 40)  # 4 px a step: ten steps of 0.1
    assert "MakeValue(g, 11.0," in playground.code
    wait_for_a(playground, "11.0", label="c")
    playground.page.locator("autograd-playground .cm-content").focus()
    playground.page.keyboard.press("Control+z")
    assert "MakeValue(g, 10.0," in playground.code


def test_a_drag_steps_its_number_on_the_pointers_raw_move_before_its_pointermove(playground):
    # Chromium sends a move's pointermove with the next frame, its pointerrawupdate at
    # once: the step (and its live run) is taken on the second.
    playground.element.evaluate(
        """el => {
          el.codeAtMoves = [];
          el.shadowRoot.addEventListener("pointermove", () => el.codeAtMoves.push(el.code),
                                         { capture: true });
        }""")
    box = literal(playground, "10.0").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    playground.page.mouse.move(x, y)
    playground.page.mouse.down()
    playground.page.mouse.move(x + 40, y)  # ten steps of 4 px, in one move
    playground.page.mouse.up()
    assert "MakeValue(g, 11.0," in playground.element.evaluate("el => el.codeAtMoves.at(-1)")


def test_a_click_on_a_number_puts_the_cursor_there(playground):
    literal(playground, "10.0").click()
    cursor = playground.element.evaluate("el => el.view.state.selection.main.head")
    start = playground.code.index("10.0")
    assert start <= cursor <= start + len("10.0")
    assert "MakeValue(g, 10.0," in playground.code


def loop_edited(playground, n: str) -> None:
    """LOOP with n = 0 put in by the page (not run), then n edited to `n` by the learner."""
    playground.code = LOOP.replace("n = 1", "n = 0")
    put_cursor_after(playground, "n = ")
    playground.page.keyboard.press("Delete")
    playground.page.keyboard.type(n)


def toolbar(playground) -> list:
    """What the toolbar says of runs: whether Run and Stop are enabled, and the status."""
    return playground.element.evaluate(TOOLBAR)


TOOLBAR = """(el) => {
  const [run, stop] = ['Run', 'Stop'].map((name) => [...el.shadowRoot.querySelectorAll('button')]
    .find((b) => b.textContent === name));
  return [!run.disabled, !stop.disabled, el.shadowRoot.querySelector('.status').textContent];
}"""


def test_a_live_step_leaves_the_toolbar_as_it_is_with_no_flicker_of_run_and_stop(playground):
    """Each step of a drag re-runs the code in a few ms: Run, Stop and the status line stay
    as the run before left them, until the new result's status replaces the last's."""
    set_deadlines(playground.page, liveRunShownMs=600_000)
    assert playground.run() == "done"
    painted = frames_of_steps(playground, 5, TOOLBAR)
    assert len(painted) > 5
    assert {(run, stop) for run, stop, _ in painted} == {(True, False)}
    assert [status for _, _, status in painted if not status.startswith("ran in")] == []


def test_a_live_run_that_lasts_shows_in_the_toolbar_once_it_has_run_a_while(playground):
    set_deadlines(playground.page, liveRunMs=600_000, liveDebounceMs=EDITING_MS,
                  liveRunShownMs=600_000)
    assert playground.run() == "done"
    loop_edited(playground, "1")
    playground.wait_for("running")
    playground.page.wait_for_timeout(300)
    assert toolbar(playground)[:2] == [True, False]  # not yet: it has not run that long
    set_deadlines(playground.page, liveRunShownMs=0)  # the next live run has run that long
    playground.page.keyboard.press("Backspace")
    playground.page.keyboard.type("2")
    playground.page.wait_for_function(
        f"() => {{ const t = ({TOOLBAR})(document.querySelector('autograd-playground'));"
        " return !t[0] && t[1] && t[2] === 'running…'; }")
    playground.button("Stop").click()
    assert playground.wait_for("stopped", "error") in ("stopped", "error")
    assert toolbar(playground)[:2] == [True, False]


def test_a_newer_edit_replaces_a_live_run_still_in_flight(playground):
    set_deadlines(playground.page, liveRunMs=600_000, liveDebounceMs=EDITING_MS)
    loop_edited(playground, "2")  # loops
    playground.wait_for_output("")  # nothing to print while it loops
    playground.wait_for("running")
    playground.page.keyboard.press("Backspace")
    playground.page.keyboard.type("0")  # ends at once
    playground.wait_for_output("done 0")
    assert playground.wait_for("done") == "done"
    assert playground.element.locator(".live-note").inner_text() == ""


def test_a_live_run_that_takes_too_long_is_stopped_and_live_runs_pause(playground):
    set_deadlines(playground.page, liveRunMs=300, liveDebounceMs=EDITING_MS)
    loop_edited(playground, "1")
    assert playground.wait_for("stopped", "error", timeout=RUN_MS) in ("stopped", "error")
    note = playground.element.locator(".live-note")
    assert "paused" in note.inner_text() and "Press Run" in note.inner_text()
    assert "at most 0.3 s" in playground.output
    playground.page.keyboard.press("Backspace")
    playground.page.keyboard.type("0")  # paused: not run
    assert no_live_run_started(playground)
    assert playground.run() == "done"  # Run resumes them
    assert note.inner_text() == ""
    assert "done 0" in playground.output


def test_stop_pauses_live_runs(playground):
    set_deadlines(playground.page, liveRunMs=600_000, liveDebounceMs=EDITING_MS)
    loop_edited(playground, "1")
    playground.wait_for("running")
    playground.button("Stop").click()
    playground.wait_for("stopped", "error")
    assert "you stopped" in playground.element.locator(".live-note").inner_text()


def test_setting_code_from_a_script_is_not_run(playground):
    playground.code = "print('not run')"
    assert no_live_run_started(playground)
    assert playground.state == "ready"


def test_live_off_in_the_url_turns_it_off(open_playground, site):
    playground = open_playground(site + "?live=off")
    put_cursor_after(playground, "MakeValue(g, 2")
    playground.page.keyboard.type("5")
    assert no_live_run_started(playground)
    assert playground.state == "ready"


def test_code_from_a_link_waits_for_a_first_run(open_playground, site):
    playground = open_playground(link_to(site, "x = 1\nprint('ran', x)\n"))
    note = playground.element.locator(".live-note")
    assert "came from a link" in note.inner_text()
    put_cursor_after(playground, "x = 1")
    playground.page.keyboard.type("2")
    assert no_live_run_started(playground)
    assert playground.state == "ready"
    playground.run()
    assert "ran 12" in playground.output
    put_cursor_after(playground, "x = 12")
    playground.page.keyboard.type("3")
    playground.wait_for_output("ran 123")


def test_a_step_of_a_number_re_runs_at_once_while_typing_waits_for_a_pause(playground):
    set_deadlines(playground.page, liveDebounceMs=600_000)
    assert playground.run() == "done"
    put_cursor_after(playground, "MakeValue(g, 2")
    playground.page.keyboard.type("5")  # 25.0, typed: run once the learner pauses
    playground.page.evaluate("() => new Promise(resolve => setTimeout(resolve))")
    assert playground.state != "running"
    assert a_data(playground) == "2.0"
    playground.page.keyboard.press("Alt+ArrowUp")  # 25.1, a whole edit: run now
    wait_for_a(playground, "25.1")


def test_a_step_of_a_number_is_sent_to_python_once_before_the_editor_shows_it(playground):
    assert playground.run() == "done"
    playground.element.evaluate(
        """el => {
          el.sent = [];  // each run's code, and the editor's text as it was sent
          const run = el.runtime.run.bind(el.runtime);
          el.runtime.run = (code, ...rest) => {
            el.sent.push([code, el.view.state.doc.toString()]);
            return run(code, ...rest);
          };
        }""")
    put_cursor_after(playground, "MakeValue(g, 2")
    playground.page.keyboard.press("Alt+ArrowUp")
    wait_for_a(playground, "2.1")
    assert playground.wait_for("done") == "done"
    [(code, shown)] = playground.element.evaluate("el => el.sent")
    assert "MakeValue(g, 2.1," in code
    assert "MakeValue(g, 2.0," in shown
