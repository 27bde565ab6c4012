"""Run the code and see every node: the chapter's example, grads, learner classes, snapshots."""

import math
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import BOTH_BOOT_PATHS, FINAL_STATES, RUN_MS, set_deadlines

pytestmark = BOTH_BOOT_PATHS
PROGRAMS = Path(__file__).parent / "programs"

# As the code leaves the graph: its last line, Backward(g, e), has filled every grad.
CHAPTER_ROWS = [
    ["0", "a", "None", "2.0", "-0.00402285"],
    ["1", "b", "None", "-3.0", "0.0026819"],
    ["2", "c", "None", "10.0", "0.00134095"],
    ["3", "#3", "Mul(0, 1)", "-6.0", "0.00134095"],
    ["4", "#4", "Add(3, 2)", "4.0", "0.00134095"],
    ["5", "#5", "Tanh(4)", "0.999329", "1.0"],
]


def chapter_grads() -> list[float]:
    """d tanh(a*b + c) / d node, for a=2, b=-3, c=10, by hand."""
    a, b = 2.0, -3.0
    t = math.tanh(a * b + 10.0)
    de = (1 - t) * (1 + t)  # 1 - t², as the engine writes it: exact to its last bits
    return [de * b, de * a, de, de, de, 1.0]


def test_the_default_code_is_the_chapters_example_and_shows_its_6_nodes(playground):
    assert "VTanh" in playground.code and "Backward(g, e)" in playground.code
    assert playground.run() == "done"
    assert playground.rows() == CHAPTER_ROWS
    assert playground.graphs() == ["g (6 nodes)"]
    assert "e = 0.999329" in playground.output


def test_the_table_shows_the_grads_backward_filled_with_no_further_click(playground):
    assert playground.run() == "done"
    assert playground.full_values("grad") == pytest.approx(chapter_grads(), rel=1e-12)
    assert playground.rows()[0][4] == "-0.00402285"


def test_a_graph_of_the_learners_own_classes_shows(playground):
    assert playground.run((PROGRAMS / "class_graph.py").read_text(encoding="utf-8")) == "done"
    assert playground.graphs() == ["graph (4 nodes)"]
    assert [row[2:4] for row in playground.rows()] == [
        ["None", "1.5"],
        ["None", "2.5"],
        ["Add(0, 1)", "4.0"],
        ["Mul(2, 1)", "6.0"],
    ]


def test_show_snapshots_a_graph_mid_run_and_each_table_can_be_picked(playground):
    code = playground.code.replace("Backward(g, e)\n", "")  # the graph, every grad zero
    code += "\nshow(g, 'before')\nfrom engine import Backward\nBackward(g, e)\n"
    code += "show(g, 'after')\n"
    assert playground.run(code) == "done"
    assert playground.graphs() == ["before (6 nodes)", "after (6 nodes)", "g (6 nodes)"]
    picker = playground.element.locator("select.picker")
    picker.select_option(label="before (6 nodes)")
    assert set(playground.full_values("grad")) == {0.0}
    picker.select_option(label="after (6 nodes)")
    assert playground.full_values("grad")[5] == 1.0


PRODUCT = ("from engine import Backward, Graph, MakeValue, VMul\n"
           "{g} = Graph()\n"
           "y = VMul({g}, MakeValue({g}, 2.0), MakeValue({g}, 3.0))\n")
IN_A_FUNCTION = "def made():\n" + "".join(
    f"    {line}\n" for line in PRODUCT.format(g="g").splitlines())


@pytest.mark.parametrize(("code", "graphs"), [
    # show()'s snapshot, then the graph as the code left it, in the globals: that one.
    (PRODUCT.format(g="net") + "show(net, 'before Backward')\nBackward(net, y)\n",
     ["before Backward", "net"]),
    # No graph in the globals: show()'s last snapshot.
    (IN_A_FUNCTION + "    show(g, 'before')\n    Backward(g, y)\n    show(g, 'after')\nmade()\n",
     ["before", "after"]),
], ids=["a-graph-in-the-globals", "snapshots-alone"])
def test_a_run_opens_on_the_graph_as_its_code_left_it_with_backwards_grads(
        playground, code, graphs):
    assert playground.run(code) == "done"
    assert playground.graphs() == [f"{title} (3 nodes)" for title in graphs]
    expect(playground.element.locator("select.picker option:checked")).to_have_text(
        f"{graphs[-1]} (3 nodes)")
    assert playground.full_values("grad") == [3.0, 2.0, 1.0]


# Each drawn row's cells: class, title and text, as a table shows them.
CELLS = """rows => rows.map(r => [...r.cells].map(c => [c.className, c.title, c.textContent]))"""


def test_picking_another_graph_of_the_same_size_draws_its_own_rows_over_the_last(
        playground):
    """Rows drawn over another table's (the same window of the same count of nodes) show
    exactly what they show when drawn first: labels, ops, values and their classes."""
    code = ("from engine import Graph, MakeValue, VAdd, VMul\n"
            "g = Graph()\n"
            "VMul(g, MakeValue(g, 1.5, label='a'), MakeValue(g, 2.0))\n"
            "h = Graph()\n"
            "VAdd(h, MakeValue(h, -3.0), MakeValue(h, 4.0, label='a_longer_label'))\n")
    assert playground.run(code) == "done"
    assert playground.graphs() == ["g (3 nodes)", "h (3 nodes)"]
    picker = playground.element.locator("select.picker")
    first = playground.measure("tbody tr[data-node]", CELLS)
    picker.select_option(label="h (3 nodes)")
    other = playground.measure("tbody tr[data-node]", CELLS)
    assert [[text for _, _, text in row] for row in other] == [
        ["0", "#0", "None", "-3.0", "0.0"],
        ["1", "a_longer_label", "None", "4.0", "0.0"],
        ["2", "#2", "Add(0, 1)", "1.0", "0.0"],
    ]
    assert other[0][1][0] == "label unlabelled" and other[1][1][0] == "label"
    picker.select_option(label="g (3 nodes)")
    assert playground.measure("tbody tr[data-node]", CELLS) == first


def test_every_run_starts_with_fresh_globals(playground):
    assert playground.run("secret = 42\nprint(secret)") == "done"
    assert playground.run("print(secret)") == "error"
    assert "NameError: name 'secret' is not defined" in playground.output


def test_output_streams_stdout_and_stderr_in_order(playground):
    code = "import sys\nprint('one')\nprint('two', file=sys.stderr)\nprint('three')"
    assert playground.run(code) == "done"
    assert playground.output.split() == ["one", "two", "three"]
    stderr = playground.element.locator(".output .stderr")
    assert stderr.all_inner_texts() == ["two\n"]


AT_END = "o => o.scrollTop > 0 && o.scrollTop + o.clientHeight >= o.scrollHeight - 4"
# Prints a numbered line every 2 ms until stopped.
PRINTS_ON = ("import time\ni = 0\nwhile True:\n    print(f'line {i}')\n    i += 1\n"
             "    t = time.time()\n    while time.time() - t < 0.002: pass\n")


def test_the_output_follows_its_end_unless_the_learner_scrolls_up(playground):
    output = playground.element.locator(".output").element_handle()
    assert playground.run("for i in range(300): print(i)") == "done"
    playground.page.wait_for_function(AT_END, arg=output)
    playground.start(PRINTS_ON)
    playground.wait_for_output("line 100\n")
    output.evaluate("o => { o.scrollTop = 0; }")
    playground.wait_for_output("line 1000\n")
    assert output.evaluate("o => o.scrollTop") == 0
    playground.button("Stop").click()
    assert playground.wait_for("stopped") == "stopped"


def test_a_scroll_up_whose_event_is_yet_to_come_is_not_undone_by_the_next_draw(playground):
    output = playground.element.locator(".output").element_handle()
    assert playground.run("for i in range(300): print(i)") == "done"
    playground.page.wait_for_function(AT_END, arg=output)
    # In one task: more output waits, the learner scrolls up, and the output draws, all
    # before the scroll's event (which comes with the next frame).
    playground.element.evaluate(
        "el => { el.output.append('stdout', 'more\\n'); el.output.root.scrollTop = 0;"
        " el.output.draw(); }")
    assert output.evaluate("o => o.scrollTop") == 0
    assert playground.output.endswith("299\nmore\n")


def test_nan_and_infinities_show_as_such_with_full_values_on_hover(playground):
    code = (
        "from engine import Graph, MakeValue\n"
        "g = Graph()\n"
        "for x in [float('nan'), float('inf'), -float('inf'), 1/3, 123456789.0, 1e-9]:\n"
        "    MakeValue(g, x)\n"
    )
    assert playground.run(code) == "done"
    data = [row[3] for row in playground.rows()]
    assert data == ["NaN", "inf", "-inf", "0.333333", "1.23457e+08", "1e-09"]
    titles = playground.element.locator("tbody td.data").evaluate_all(
        "cells => cells.map(c => c.title)"
    )
    assert titles[3] == "0.3333333333333333" and titles[4] == "123456789.0"


RECORD_STATUS = """
customElements.whenDefined("autograd-playground").then(() => {
  const status = document.querySelector("autograd-playground").shadowRoot.querySelector(".status");
  window.statuses = [status.textContent];
  new MutationObserver(() => window.statuses.push(status.textContent))
    .observe(status, { childList: true, characterData: true, subtree: true });
});
"""


def test_status_shows_the_load_phases_in_order(open_playground, site, boot_path):
    playground = open_playground(site, setup=lambda ctx: ctx.add_init_script(RECORD_STATUS))
    statuses = playground.page.evaluate("window.statuses")
    # Loading from the start, since this playground is in view as the page opens (one
    # further down starts Python when first seen: test_embed.py); starting once all is
    # downloaded; the engine is installed after Python boots fresh, and is in the
    # snapshot already.
    installing = ["installing the engine…"] if boot_path == "fresh" else []
    assert statuses == ["loading Python…", "starting Python…", *installing, "ready"]


def test_status_tells_the_run_time_in_ms(playground):
    assert playground.status == "ready"
    playground.run()
    assert playground.status.startswith("ran in ") and playground.status.endswith(" ms")


def test_reset_brings_back_the_example_and_undo_brings_back_the_learners_code(playground):
    playground.code = "mine = 1\n"
    playground.button("Reset").click()
    assert "VTanh" in playground.code
    playground.page.keyboard.press("Control+z")
    assert playground.code == "mine = 1\n"


@pytest.mark.parametrize("grace_ms", [None, 0], ids=["python answers", "python restarted"])
def test_the_nodes_show_as_soon_as_the_code_ends_before_what_it_left_is_freed(
        playground, grace_ms):
    """The run's end (the objects it left freed, their __del__ run, Python put back) comes
    after its tables are painted: here it never ends on its own. After Stop they stay,
    whether Python answers it or, given no time to (`grace_ms`), is restarted."""
    if grace_ms is not None:
        set_deadlines(playground.page, stopGraceMs=grace_ms)
    code = ("from engine import Graph, MakeValue\ng = Graph()\nMakeValue(g, 2.0, label='a')\n"
            "class Endless:\n    def __del__(self):\n        while True:\n            pass\n\n"
            "endless = Endless()\n")
    playground.start(code)
    playground.page.wait_for_function(
        "() => [...document.querySelector('autograd-playground').shadowRoot"
        ".querySelectorAll('tbody td.label')].some((cell) => cell.textContent === 'a')",
        timeout=RUN_MS, polling=100)
    assert playground.state == "running"
    playground.button("Stop").click()
    assert playground.wait_for(*FINAL_STATES, timeout=RUN_MS) in FINAL_STATES
    assert playground.rows() == [["0", "a", "None", "2.0", "0.0"]]
    assert playground.run("print('next run')") == "done"
