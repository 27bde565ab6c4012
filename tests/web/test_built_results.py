"""The results computed when a page is built: the site's pages carry their playgrounds'
output and tables as static HTML, shown with scripts off and before Python is ready,
in the live table's own formatting, until a run replaces them; never for code that is
not the page's, nor for an exercise."""

from __future__ import annotations

import json
import random
import re
import subprocess

import pytest
from playwright.sync_api import expect

import build
from autograd_playground.bake_html import PageBakeError, bake_page
from autograd_playground.built import (
    MAX_JSON_CHARS,
    MAX_ROWS,
    full_number,
    results_html,
    short_number,
)
from tests.web.conftest import FINAL_STATES, RUN_MS, Playground
from tests.web.pages import PlaygroundAt, course_page, playground

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


def live_rows(element) -> list[list[list[str]]]:
    return element.locator(".scroller tbody tr:not(.spacer)").evaluate_all(CELLS)


def built_note(element) -> str:
    """What the results' first heading says after its name: the mark of built results."""
    return element.locator(".results > h2").first.evaluate(
        "h => getComputedStyle(h, '::after').content")


def test_before_python_is_ready_the_built_results_show_in_the_live_panels(new_context, site):
    page = new_context().new_page()
    page.route("**/worker.js", lambda route: None)  # Python never starts
    page.goto(site + "index.html")
    page.evaluate("customElements.whenDefined('autograd-playground')")
    element = page.locator("autograd-playground")
    assert element.get_attribute("data-state") == "loading"
    # Laid out as a run's: the output, the table and the steppers, not the page's HTML.
    expect(element.locator(".scroller")).to_be_visible()
    expect(element.locator(f"{BUILT} table")).to_be_hidden()
    expect(element.locator(".first-hint")).to_be_hidden()
    assert live_rows(element) == built_rows(element)  # its one table's rows, alike
    assert element.locator(".output").inner_text().strip() == "e = 0.999329299739067"
    expect(element.locator(".tape-stepper")).to_be_visible()
    assert "computed when this page was built" in built_note(element)
    # The picture waits for Python: its Graphviz would share a slow link with Python.
    assert element.locator(".picture").get_attribute("data-state") == "laying-out"
    assert element.locator(".picture-frame").evaluate(
        "f => getComputedStyle(f, '::before').content") == \
        '"The picture is drawn once Python has loaded."'


def test_on_a_phone_the_built_results_mark_shows_whole_on_its_one_line(new_context, site):
    page = new_context(viewport={"width": 390, "height": 844}).new_page()
    page.route("**/worker.js", lambda route: None)  # the built results alone
    page.goto(site + "index.html")
    element = page.locator("autograd-playground")
    heading = element.locator(".results > h2").first
    expect(heading).to_have_attribute("data-built", re.compile("computed when"))
    assert "Run to run it here" in built_note(element)
    assert heading.evaluate("h => h.scrollWidth <= h.clientWidth"), "cut short"


@pytest.mark.parametrize(("width", "page_name", "playground_id"), [
    (1280, "course.html", "engine-backward"), (390, "course.html", "engine-backward"),
    (1280, "course.html", "reuse"), (1280, "index.html", None), (390, "index.html", None),
    (390, "train.html", "neuron"), (1280, "train.html", "steps")])
def test_a_run_replaces_the_built_results_moving_nothing_on_the_page(
        new_context, site, width, page_name, playground_id):
    page = new_context(viewport={"width": width, "height": 900}).new_page()
    playground = PlaygroundAt(page, f"#{playground_id}") if playground_id else Playground(page)
    page.goto(site + page_name)
    playground.element.scroll_into_view_if_needed()
    playground.wait_for("ready")
    wait_for_painted(playground)  # the built results' picture, once Python is ready
    in_view(playground)  # where the page above grew meanwhile, the editor draws every line
    before = where_things_are(playground)
    rows = live_rows(playground.element)
    assert playground.run() == "done"
    wait_for_painted(playground)
    assert playground.element.locator(BUILT).count() == 0
    assert built_note(playground.element) in ("none", "normal")
    assert live_rows(playground.element) == rows
    assert where_things_are(playground) == before


def in_view(playground) -> None:
    """Scroll `playground`'s top into view, and wait for the frame after the next."""
    playground.element.evaluate("""el => new Promise((done) => {
      el.scrollIntoView();
      requestAnimationFrame(() => requestAnimationFrame(done));
    })""")


def wait_for_painted(playground) -> None:
    playground.page.wait_for_function("el => el.dataset.painted === 'true'",
                                      arg=playground.element.element_handle(), timeout=RUN_MS)


def where_things_are(playground) -> dict[str, list[int]]:
    """The top and height, in the page, of the playground, its table, its picture, its
    steppers and of what follows it (null: not shown)."""
    return playground.element.evaluate("""el => {
      const box = (e) => { const r = e.getBoundingClientRect();
        return r.height ? [Math.round(r.top + scrollY), Math.round(r.height)] : null; };
      const parts = ['.scroller', '.picture-frame', '.tape-stepper', '.stepper'];
      const next = el.nextElementSibling ?? el.parentElement.nextElementSibling;
      return { playground: box(el), next: next ? box(next) : null,
        ...Object.fromEntries(parts.map((p) => [p, box(el.shadowRoot.querySelector(p))])) };
    }""")


def test_a_run_queued_before_python_is_ready_keeps_them_until_its_result(new_context, site):
    page = new_context().new_page()
    page.goto(site + "index.html")
    element = page.locator("autograd-playground")
    element.get_by_role("button", name="Run", exact=True).click()
    assert len(live_rows(element)) == 6
    page.wait_for_function(
        "states => states.includes(document.querySelector('autograd-playground').dataset.state)",
        arg=list(FINAL_STATES), timeout=RUN_MS)
    assert element.locator(BUILT).count() == 0
    assert built_note(element) in ("none", "normal")
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


# A graph whose table is more JSON than a page holds (MAX_JSON_CHARS).
PAST_JSON = "from engine import Graph, MakeValue\ng = Graph()\nfor i in range(5_000):\n" \
            "    MakeValue(g, i)\n"


def test_the_page_gets_the_built_tables_as_json_every_row_where_they_fit():
    code = ("from engine import Graph, MakeValue\ng = Graph()\n"
            "for i in range({n}):\n    MakeValue(g, i, label='</script><b>&')\n")
    whole = results_html(code.format(n=MAX_ROWS + 1), {}, False, build.DIST)
    script = re.search(r'<script type="application/json" class="built-result">(.*?)</script>',
                       whole, re.S)
    assert script, "no built-result"
    assert len(script.group(1)) <= MAX_JSON_CHARS
    built = json.loads(script.group(1))
    assert [t["label"][0] for t in built["tables"]] == ["</script><b>&"]
    # Every row as JSON; as HTML, MAX_ROWS of them.
    assert built["tables"][0]["count"] == MAX_ROWS + 1
    assert whole.count("<tr>") == MAX_ROWS + 1  # a row per node written, and the heading's
    # Past MAX_JSON_CHARS the page shows the rows it wrote, as it wrote them, and no JSON.
    cut = results_html(PAST_JSON, {}, False, build.DIST)
    assert "built-result" not in cut
    assert cut.count("<tr>") == MAX_ROWS + 1


LONG_BACKWARD = """from engine import Backward, Graph, MakeValue, VAdd
g = Graph()
x = MakeValue(g, 1.0, label="x")
for _ in range(120):
    x = VAdd(g, x, x)
Backward(g, x)
"""


def test_a_built_backward_whose_steps_a_run_makes_says_so_and_a_bigger_graph_shows_as_written(
        pages, new_context, site):
    text = course_page(site, playground(LONG_BACKWARD, id="long"), playground(PAST_JSON, id="big"))
    url = pages.add("baked.html", bake_page(text, build.DIST, "baked.html"))
    page = new_context().new_page()
    page.route("**/worker.js", lambda route: None)  # Python never starts
    page.goto(url)
    backward = page.locator("#long .stepper")
    expect(backward).to_be_visible()
    backward.get_by_role("button", name="Next").click()
    expect(backward).to_contain_text(
        "Backward cannot be replayed: a run makes its steps, and these results were "
        "computed when the page was built: press Run.")
    # Past what the page holds as JSON: shown as the page wrote them.
    expect(page.locator("#big [data-role=built] table")).to_be_visible()
    expect(page.locator("#big .views")).to_be_hidden()


@pytest.mark.parametrize("scripts", [True, False], ids=["scripts", "no scripts"])
def test_a_built_table_longer_than_the_live_tables_30_rows_scrolls_in_a_box_as_tall(
        pages, new_context, site, scripts):
    styled = course_page(site, playground(PAST_JSON, id="big"),
                         head=f'<link rel="stylesheet" href="{site}embed.css">\n')
    url = pages.add("long.html", bake_page(styled, build.DIST, "long.html"))
    page = new_context(java_script_enabled=scripts).new_page()
    if scripts:
        page.route("**/worker.js", lambda route: None)  # Python never starts
    page.goto(url)
    rows = page.get_by_role("region", name="Nodes of g")  # a keyboard scrolls it
    expect(rows).to_be_visible()
    box = rows.evaluate("""b => ({ height: b.getBoundingClientRect().height,
                                   scrolls: b.scrollHeight > b.clientHeight })""")
    assert box["scrolls"]
    assert box["height"] <= 31 * 28 + 3
    # Scrolled by keys to its last row, the header stays at its top.
    bottom = rows.evaluate("b => b.scrollHeight - b.clientHeight")
    rows.focus()
    page.keyboard.press("End")
    expect(rows).to_have_js_property("scrollTop", bottom)
    top = rows.bounding_box()["y"]
    assert top - 1 <= rows.locator("thead th").first.bounding_box()["y"] <= top + 1


def test_built_json_that_is_not_the_runners_leaves_them_as_the_page_wrote_them(
        pages, new_context, site):
    code = "from engine import Graph, MakeValue\ng = Graph()\nMakeValue(g, 1.0)\n"
    text = bake_page(course_page(site, playground(code, id="one")), build.DIST, "odd.html")
    text, found = re.subn(r'(class="built-result">).*?(</script>)',
                          r'\1{"output": "", "tables": [{"count": -1}]}\2', text)
    assert found == 1
    page = new_context().new_page()
    with page.expect_console_message(lambda message: "table 0 has no" in message.text):
        page.goto(pages.add("odd.html", text))
    expect(page.locator("#one [data-role=built] table")).to_be_visible()
    expect(page.locator("#one .views")).to_be_hidden()
