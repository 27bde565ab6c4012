"""The results computed when a page is built: the site's pages carry their playgrounds'
output and tables as static HTML, shown with scripts off and before Python is ready,
in the live table's own formatting, until a run replaces them; never for code that is
not the page's, nor for an exercise."""

from __future__ import annotations

import json
import random
import subprocess

import pytest
from playwright.sync_api import expect

import build
from autograd_playground.bake_html import PageBakeError, bake_page
from autograd_playground.built import full_number, short_number
from tests.web.conftest import FINAL_STATES, RUN_MS, Playground

BUILT = "[data-role=built]"
CELLS = "rows => rows.map(r => [...r.cells].map(c => [c.textContent, c.title]))"


def built_rows(element) -> list[list[list[str]]]:
    return element.locator(f"{BUILT} tbody tr").evaluate_all(CELLS)


def test_with_scripts_off_the_full_page_and_the_course_show_their_built_tables(
        new_context, site):
    page = new_context(java_script_enabled=False).new_page()
    page.goto(site + "index.html")
    table = page.locator(f"autograd-playground {BUILT} table")
    expect(table).to_be_visible()
    assert table.locator("thead th").all_inner_texts() == ["index", "label", "op", "data",
                                                           "grad"]
    assert table.locator("tbody tr").count() == 6  # the chapter's example: six nodes
    expect(page.locator(f"{BUILT} .built-mark")).to_have_text(
        "Computed when this page was built · Run to run it here")
    assert styled_as_a_table(table)
    # Its code, which is the example's and not in the page, is there too: what gave them.
    expect(page.locator(f"{BUILT} pre.built-code")).to_contain_text(
        'e = VTanh(g, VAdd(g, VMul(g, a, b), c))')
    page.goto(site + "course.html")
    assert page.locator(f"{BUILT} .built-code").count() == 0  # each code is in the page
    shown = page.locator("autograd-playground").evaluate_all(
        f"els => els.map(e => [e.id, e.querySelectorAll('{BUILT} table').length])")
    # The exercises carry none: their results would give their answers away.
    assert shown == [["data-model", 0], ["engine-graph", 0], ["topo-sort", 0],
                     ["write-backward", 0], ["engine-backward", 3], ["reuse", 1]]
    expect(page.locator(f"#engine-backward {BUILT} table").first).to_be_visible()
    assert styled_as_a_table(page.locator(f"#engine-backward {BUILT} table").first)


@pytest.mark.parametrize("page_name", ["index.html", "course.html"])
def test_on_a_phone_a_built_table_fits_without_scrolling_sideways(new_context, site, page_name):
    page = new_context(java_script_enabled=False, viewport={"width": 390, "height": 844},
                       is_mobile=True).new_page()
    page.goto(site + page_name)
    built = page.locator(f"autograd-playground {BUILT}").first
    assert built.evaluate("b => b.scrollWidth <= b.clientWidth"), "it scrolls sideways"


def styled_as_a_table(table) -> bool:
    """Whether a built table has embed.css's look: the live table's 28 px rows, numbers
    in a monospace font, right-aligned (the browser's own would be neither)."""
    return table.evaluate("""t => {
      const cell = t.querySelector('tbody td.data');
      const style = getComputedStyle(cell);
      return Math.abs(cell.parentElement.getBoundingClientRect().height - 28) <= 1
        && style.textAlign === 'right' && /mono/.test(style.fontFamily);
    }""")


def test_built_results_show_before_python_is_ready_then_a_run_replaces_them_alike(
        new_context, site):
    held = new_context().new_page()
    held.route("**/worker.js", lambda route: None)  # Python never starts
    held.goto(site + "index.html")
    held.evaluate("customElements.whenDefined('autograd-playground')")
    element = held.locator("autograd-playground")
    expect(element.locator(f"{BUILT} table")).to_be_visible()
    expect(element.locator(".first-hint")).to_be_hidden()
    expect(element.locator(f"{BUILT} pre.built-code")).to_be_hidden()  # the editor's
    assert element.get_attribute("data-state") == "loading"
    before = built_rows(element)

    page = new_context().new_page()
    playground = Playground(page).open(site + "index.html")
    assert playground.run() == "done"
    assert element.locator(BUILT).count() == 1  # the held page's are still there
    assert playground.element.locator(BUILT).count() == 0
    live = playground.element.locator("tbody tr:not(.spacer)").evaluate_all(CELLS)
    assert live == before


def test_a_run_queued_before_python_is_ready_keeps_them_until_its_result(new_context, site):
    page = new_context().new_page()
    page.goto(site + "index.html")
    element = page.locator("autograd-playground")
    element.get_by_role("button", name="Run", exact=True).click()
    expect(element.locator(f"{BUILT} table")).to_be_visible()
    page.wait_for_function(
        "states => states.includes(document.querySelector('autograd-playground').dataset.state)",
        arg=list(FINAL_STATES), timeout=RUN_MS)
    assert element.locator(BUILT).count() == 0
    expect(element.locator(".scroller")).to_be_visible()


def test_a_learners_kept_code_shows_no_built_results(new_context, site):
    page = new_context().new_page()
    playground = Playground(page).open(site + "index.html")
    assert playground.element.locator(BUILT).count() == 1
    playground.code = playground.code.replace("2.0", "5.0")
    page.evaluate("document.querySelector('autograd-playground').keeper.flush()")
    page.reload()
    playground.wait_for("ready")
    assert "5.0" in playground.code
    assert playground.element.locator(BUILT).count() == 0
    expect(playground.element.locator(".first-hint")).to_be_visible()


def test_building_twice_gives_the_same_pages():
    for name in build.BAKED_PAGES:
        page = (build.DIST / name).read_text(encoding="utf-8")
        example = build.EXAMPLE.read_text(encoding="utf-8")
        assert bake_page(page, build.DIST, name, example) == page, name


@pytest.mark.parametrize(("code", "says"), [
    ("a = 1\n  print(b)", "a.html:3: the playground failed when the page was built on line 2 "
                          "of its code: NameError: name 'b' is not defined"),
    ("while True:\n    pass", "a.html:3: the playground failed when the page was built: "
                              "it ran past its time limit of 1 s"),
])
def test_a_failing_playground_names_its_page_and_line(code, says):
    page = (f'<p>A page.</p>\n\n<autograd-playground timeout="1">\n  {code}\n'
            "</autograd-playground>\n")
    with pytest.raises(PageBakeError) as error:
        bake_page(page, build.DIST, "a.html")
    assert str(error.value) == says


def test_numbers_are_written_as_the_live_table_writes_them():
    rng = random.Random(38)
    values = [0.0, -0.0, 1.0, -3.0, 1e21, 1e-7, 5e-324, 1e16, 1234565.0, 0.999329299739067,
              1e6, 999999.5, 9.999995e6, 0.0001, 0.00009999995, 123456789012345680000.0,
              2.0**53, 1.7976931348623157e308, "nan", "inf", "-inf", None]
    values += [rng.choice((-1, 1)) * rng.random() * 10.0 ** rng.randint(-320, 300)
               for _ in range(3000)]
    values += [round(rng.uniform(-1e7, 1e7), rng.randint(0, 3)) for _ in range(1000)]
    script = ("import { shortNumber, fullNumber } from './web/page/format.js';"
              "const xs = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
              "console.log(JSON.stringify(xs.map((x) => [shortNumber(x), fullNumber(x)])));")
    script = "import { createRequire } from 'module'; const require = createRequire(" \
             "import.meta.url);" + script
    node = subprocess.run(["node", "--input-type=module", "-e", script], cwd=build.ROOT,
                          input=json.dumps(values), capture_output=True, encoding="utf-8",
                          check=True)
    assert [[short_number(x), full_number(x)] for x in values] == json.loads(node.stdout)
