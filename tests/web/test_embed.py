"""Playgrounds embedded in course pages: one script tag, one Python, each playground on its own.

Course pages here are served from a port of their own (another origin than
the site, see pages.py), except the site's own demo course page, course.html.
"""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

import build
from tests.web.conftest import NEVER_MS, RUN_MS, painted, set_deadlines
from tests.web.pages import PlaygroundAt, course_page, playground, wait_for_all

GUIDE = Path(__file__).parents[2] / "docs" / "authoring.md"  # the authoring guide
LOOP = "print('looping')\nwhile True:\n    pass\n"
CHAPTER_DATA = ["2.0", "-3.0", "10.0", "-6.0", "4.0", "0.999329"]


def leaf_code(name: str, value: float) -> str:
    """Code that prints the `mine*` names it can see, then makes a graph `name` of one leaf."""
    return (
        "from engine import Graph, MakeValue\n"
        "print(sorted(n for n in dir() if n.startswith('mine')))\n"
        f"{name} = Graph()\n"
        f"MakeValue({name}, {value}, label={name!r})\n"
    )


def leaf_row(name: str, value: float) -> list[list[str]]:
    return [["0", name, "None", str(value), "0.0"]]


@pytest.fixture
def new_page(new_context):
    """A page in a fresh browser context."""
    return lambda **context_options: new_context(**context_options).new_page()


def requests_of(page: Page) -> list[str]:
    """Every URL the page (and its workers) asks for from now on."""
    urls: list[str] = []
    page.on("request", lambda request: urls.append(request.url))
    return urls


def test_ten_playgrounds_share_one_python_and_each_keeps_its_own_globals_and_table(
    pages, site, new_page
):
    names = [f"mine_{i}" for i in range(10)]
    body = [playground(leaf_code(name, i), id=f"p{i}") for i, name in enumerate(names)]
    page = new_page()
    urls = requests_of(page)
    page.goto(pages.add("ten.html", course_page(site, *body)))
    wait_for_all(page, "ready")
    boxes = [PlaygroundAt(page, f"#p{i}") for i in range(10)]
    for box in boxes:  # pressed one after another, the runs queue; the page moves as
        box.button("Run").dispatch_event("click")  # results come: no aiming
    wait_for_all(page, "done")
    assert sum(url.endswith("/pyodide.asm.wasm.zst") for url in urls) == 1
    assert sum(url.endswith("/snapshot/memory.zst") for url in urls) == 1
    assert [w.evaluate("self.name") for w in page.workers].count("python") == 1
    for i, (box, name) in enumerate(zip(boxes, names, strict=True)):
        assert box.output.strip() == "[]"  # no other playground's globals
        assert box.rows() == leaf_row(name, float(i))
    assert boxes[1].run("print(mine_0)") == "error"
    assert "NameError: name 'mine_0' is not defined" in boxes[1].output
    assert boxes[0].rows() == leaf_row("mine_0", 0.0)


def test_the_demo_course_page_runs_every_playground(site, new_page):
    page = new_page()
    page.goto(site + "course.html")
    page.locator("#data-model").scroll_into_view_if_needed()
    wait_for_all(page, "ready")
    ids = page.locator("autograd-playground").evaluate_all("els => els.map(el => el.id)")
    for id_ in ids:  # pressed at once, one after another: the page moves as results come,
        PlaygroundAt(page, f"#{id_}").button("Run").dispatch_event("click")  # no aiming
    wait_for_all(page, "done")
    data_model = PlaygroundAt(page, "#data-model")
    assert [row[3] for row in data_model.rows()] == CHAPTER_DATA
    assert data_model.output.strip() == "e = 0.9993, built from 6 nodes"
    assert PlaygroundAt(page, "#engine-backward").graphs() == [
        "before Backward (6 nodes)", "after Backward (6 nodes)", "g (6 nodes)"
    ]
    assert PlaygroundAt(page, "#reuse").output.strip() == "d(a*a)/da = 6.0"


@pytest.mark.parametrize("isolated", [False, True], ids=["plain-host", "isolated-host"])
def test_a_course_page_on_another_origin_embeds_the_site(pages, site, new_page, isolated):
    course = (build.DIST / "course.html").read_text(encoding="utf-8")
    course = course.replace('src="embed.js"', f'src="{site}embed.js"')
    url = pages.add(f"course-{isolated}.html", course, isolated=isolated)
    page = new_page()
    urls = requests_of(page)
    page.goto(url)
    assert page.evaluate("crossOriginIsolated") is isolated
    page.locator("#data-model").scroll_into_view_if_needed()
    wait_for_all(page, "ready")
    data_model = PlaygroundAt(page, "#data-model")
    assert data_model.run() == "done"
    assert [row[3] for row in data_model.rows()] == CHAPTER_DATA
    assert all(u.startswith((site, pages.url, "blob:")) for u in urls)
    assert any(u.startswith(site) and u.endswith("/pyodide.asm.wasm.zst") for u in urls)


def host_snippet() -> str:
    """The few lines the authoring guide tells a host page to add for the iframe variant."""
    blocks = re.findall(r"```html\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)
    (block,) = [b for b in blocks if "autograd-playground:height" in b]
    return re.search(r"<script>.*</script>", block, re.S).group(0)


def guide_frame_parameters() -> str:
    """The URL parameters of the authoring guide's iframe example."""
    return re.search(r'src="[^"]*embed\.html\?([^#"]*)#code=', GUIDE.read_text(
        encoding="utf-8")).group(1)


def test_the_iframe_variant_grows_to_its_content(pages, site, new_page):
    code = "from engine import Graph, MakeValue\ng = Graph()\nMakeValue(g, 1.5, label='x')\n"
    fragment = base64.urlsafe_b64encode(code.encode()).decode().rstrip("=")
    parameters = guide_frame_parameters()
    assert parameters == "timeout=10&hide-table"
    frame_tag = (
        f'<iframe class="autograd-playground" title="Python playground" '
        f'src="{site}embed.html?{parameters}#code={fragment}" style="width: 100%; border: 0">'
        "</iframe>\n"
    )
    page = new_page()
    page.goto(pages.add("frame.html", course_page(site, frame_tag, host_snippet())))
    inner = PlaygroundAt(page.locator("iframe").element_handle().content_frame(),
                         "autograd-playground")
    inner.wait_for("ready")
    assert inner.code == code

    def heights() -> tuple[float, float]:
        """The frame's content height, once the iframe has taken it on."""
        content = inner.page.evaluate("document.documentElement.getBoundingClientRect().height")
        page.wait_for_function(
            "h => Math.abs(document.querySelector('iframe').getBoundingClientRect().height - h)"
            " < 1", arg=content)
        return content

    before = heights()
    assert before != 150  # the frame took on its content's height, not an iframe's default
    assert inner.run(code + "for i in range(12):\n    print('line', i)\n") == "done"
    assert inner.rows() == [["0", "x", "None", "1.5", "0.0"]]
    assert shown(inner) == ["Output", "output"]  # hide-table
    assert heights() > before


def test_readonly_runs_but_cannot_be_edited(pages, site, new_page):
    code = "print('read only')\n"
    page = new_page()
    page.goto(pages.add("readonly.html", course_page(site, playground(code, readonly=True))))
    box = PlaygroundAt(page, "autograd-playground")
    box.wait_for("ready")
    box.element.locator(".cm-content").click()
    page.keyboard.type("oops = 1\n")
    assert box.code == code
    assert box.button("Reset").is_hidden()
    assert box.run() == "done"
    assert box.output.strip() == "read only"


def test_autorun_runs_at_page_load_without_being_seen(pages, site, new_page):
    spacer = '<div style="height: 3000px">a long chapter</div>\n'
    body = [spacer, playground("print('ran by itself')\n", id="auto", autorun=True),
            playground("print('waits for Run')\n", id="manual")]
    page = new_page()
    page.goto(pages.add("autorun.html", course_page(site, *body)))
    auto, manual = PlaygroundAt(page, "#auto"), PlaygroundAt(page, "#manual")
    assert auto.wait_for("done") == "done"
    assert auto.output.strip() == "ran by itself"
    assert manual.wait_for("ready") == "ready"
    assert manual.output == ""
    assert page.evaluate("scrollY") == 0


def test_timeout_stops_a_run_that_takes_too_long(pages, site, new_page):
    page = new_page()
    page.goto(pages.add("timeout.html", course_page(site, playground(LOOP, timeout="1"))))
    box = PlaygroundAt(page, "autograd-playground")
    box.wait_for("ready")
    status, ms = box.element.evaluate(
        "async el => { const t = performance.now(); const r = await el.run();"
        " return [r.status, performance.now() - t]; }"
    )
    assert status == "stopped" and box.state == "stopped"
    assert ms >= 1000  # never before its time (how soon after depends on the machine)
    assert "at most 1 s" in box.output
    assert box.code == LOOP


# Prints half a line, loops until interrupted, then ends the line and stops.
HALF_A_LINE = ("print('e =', end=' ', flush=True)\ntry:\n    while True:\n        pass\n"
               "except KeyboardInterrupt:\n    print(0.999)\n    raise\n")


def test_the_timeouts_note_comes_after_the_runs_last_output_never_inside_a_line(
    pages, site, new_page
):
    page = new_page()
    url = pages.add("half.html", course_page(site, playground(HALF_A_LINE, timeout="1")),
                    isolated=True)  # where Stop interrupts the code, which then prints
    page.goto(url)
    box = PlaygroundAt(page, "autograd-playground")
    box.wait_for("ready")
    assert box.run() in ("stopped", "error")
    lines = box.output.splitlines()
    assert lines[0] == "e = 0.999"
    assert "Stopped: runs here may take at most 1 s." in lines[1:]


def test_a_run_that_ends_within_its_timeout_is_done(pages, site, new_page):
    page = new_page()
    code = "print('in time')\n"
    page.goto(pages.add("in-time.html", course_page(site, playground(code, timeout="600"))))
    box = PlaygroundAt(page, "autograd-playground")
    box.wait_for("ready")
    assert box.run() == "done"
    assert box.output.strip() == "in time"


# The parts of a playground's results, by what a reader sees.
RESULT_PARTS = {
    "Output": "h2:text-is('Output')",
    "output": ".output",
    "Nodes": "h2:text-is('Nodes')",
    "table": "table",
    "picture": ".picture-frame",
    "legend": ".legend",
    "zoom buttons": ".picture-bar button",
    "stepper": ".stepper",
}


def shown(box: PlaygroundAt) -> list[str]:
    """The result parts a reader can see in `box`."""
    return [
        name for name, selector in RESULT_PARTS.items()
        if any(part.is_visible() for part in box.element.locator(selector).all())
    ]


def test_hide_output_and_hide_table_hide_those_panels(pages, site, new_page):
    code = leaf_code("mine", 1.0) + "from engine import Backward\nBackward(mine, 0)\n"
    body = [playground(code, id="no-output", hide_output=True),
            playground(code, id="no-table", hide_table=True),
            playground(code, id="editor-only", hide_output=True, hide_table=True)]
    page = new_page(viewport={"width": 1200, "height": 900})
    page.goto(pages.add("hide.html", course_page(site, *body)))
    no_output, no_table, editor_only = (
        PlaygroundAt(page, f"#{i}") for i in ("no-output", "no-table", "editor-only")
    )
    for box in (no_output, no_table, editor_only):
        box.wait_for("ready")
        assert box.run() == "done"
        # Its picture drawn, the boxes below it are where they stay for the next click.
        expect(box.element).to_have_attribute("data-painted", "true", timeout=RUN_MS)

    assert shown(no_output) == ["Nodes", "table", "picture", "legend", "zoom buttons", "stepper"]
    assert shown(no_table) == ["Output", "output"]
    assert shown(editor_only) == []
    editor = editor_only.element.locator(".editor").bounding_box()["width"]
    assert editor >= editor_only.element.bounding_box()["width"] - 2


def test_height_takes_any_css_length(pages, site, new_page):
    body = [playground("", id="px", height="300"), playground("", id="rem", height="20rem")]
    page = new_page()
    page.goto(pages.add("height.html", course_page(site, *body)))
    wait_for_all(page, "ready")
    assert page.locator("#px").bounding_box()["height"] == 300
    assert page.locator("#rem").bounding_box()["height"] == 320


def test_theme_is_light_dark_or_the_pages_color_scheme(pages, site, new_page):
    body = [playground("", id="light", theme="light"), playground("", id="dark", theme="dark"),
            playground("", id="page"),
            f'<div style="color-scheme: light">{playground("", id="light-section")}</div>']
    head = '<meta name="color-scheme" content="light dark">\n'
    page = new_page(color_scheme="dark")  # the page follows the system, which is dark
    page.goto(pages.add("theme.html", course_page(site, *body, head=head)))
    wait_for_all(page, "ready")

    def background(id_: str) -> str:
        return page.locator(f"#{id_}").evaluate("el => getComputedStyle(el).backgroundColor")

    white, dark = "rgb(255, 255, 255)", "rgb(13, 17, 23)"
    assert (background("light"), background("dark")) == (white, dark)
    assert (background("page"), background("light-section")) == (dark, white)


@pytest.mark.parametrize("isolated", [True, False], ids=["interrupt", "restart"])
def test_stopping_an_endless_loop_in_one_playground_leaves_the_others_working(
    pages, site, new_page, isolated
):
    body = [playground(LOOP, id="loop"), playground(leaf_code("mine_b", 2.0), id="b"),
            playground(leaf_code("mine_c", 3.0), id="c")]
    page = new_page()
    page.goto(pages.add(f"stop-{isolated}.html", course_page(site, *body), isolated=isolated))
    assert page.evaluate("crossOriginIsolated") is isolated
    loop, b, c = (PlaygroundAt(page, f"#{i}") for i in ("loop", "b", "c"))
    set_deadlines(page, stopGraceMs=NEVER_MS)  # isolated: interrupted, else restarted
    b.wait_for("ready")
    assert b.run() == "done"
    loop.button("Run").click()
    loop.wait_for_output("looping")
    c.button("Run").click()  # queued behind the endless loop
    assert c.state == "running"
    loop.button("Stop").click()
    assert loop.wait_for("stopped") == "stopped"
    assert c.wait_for("done") == "done"
    assert c.rows() == leaf_row("mine_c", 3.0)
    assert b.rows() == leaf_row("mine_b", 2.0) and b.output.strip() == "[]"
    assert loop.code == LOOP
    assert loop.run("print('next run')") == "done"


def test_a_crash_in_one_playground_leaves_the_others_working(pages, site, new_page):
    # Reading past the end of WebAssembly's memory traps: Pyodide cannot go on after that.
    crash = "import ctypes\nctypes.string_at(2**32 - 8, 64)\n"
    body = [playground(crash, id="crash"), playground(leaf_code("mine", 1.0), id="other")]
    page = new_page()
    page.goto(pages.add("crash.html", course_page(site, *body)))
    crashing, other = PlaygroundAt(page, "#crash"), PlaygroundAt(page, "#other")
    other.wait_for("ready")
    assert other.run() == "done"
    assert crashing.run() == "error"
    assert "Python crashed and was restarted: RuntimeError: memory access out of bounds" in (
        crashing.output
    )
    assert crashing.code == crash
    assert other.rows() == leaf_row("mine", 1.0)
    assert other.run() == "done"
    assert other.rows() == leaf_row("mine", 1.0)


def test_python_starts_only_when_a_playground_comes_into_view(site, new_page):
    page = new_page(viewport={"width": 1000, "height": 600})
    urls = requests_of(page)
    page.goto(site + "course.html")
    wait_for_all(page, "loading")
    painted(page)
    assert page.workers == []
    assert not any("pyodide" in url or url.endswith("/worker.js") for url in urls)
    page.locator("#data-model").scroll_into_view_if_needed()
    wait_for_all(page, "ready")
    assert [w.evaluate("self.name") for w in page.workers].count("python") == 1


def test_python_starts_when_a_playground_gets_focus(site, new_page):
    page = new_page(viewport={"width": 1000, "height": 600})
    page.goto(site + "course.html")
    wait_for_all(page, "loading")
    painted(page)
    assert page.workers == []
    page.locator("#reuse").evaluate(
        "el => el.shadowRoot.querySelector('button').focus({ preventScroll: true })"
    )
    wait_for_all(page, "ready")
    assert page.evaluate("scrollY") == 0


def test_two_playgrounds_of_the_same_code_keep_their_edits_apart_on_a_page_and_across_pages(
    pages, site, new_page
):
    same = leaf_code("same", 1.0)
    body = [playground(same), playground(same), playground("print(1)\n", id="twice"),
            playground("print(2)\n", id="twice")]
    page = new_page()
    one, other = (pages.add(name, course_page(site, *body)) for name in ("one.html", "two.html"))
    page.goto(one)
    wait_for_all(page, "ready")
    boxes = [PlaygroundAt(page, f"autograd-playground:nth-of-type({i})") for i in (1, 2, 3, 4)]
    for i, box in enumerate(boxes):
        box.code = f"edited = {i}\n"
    page.goto(other)  # the same playgrounds on another page: an id is the same playground
    wait_for_all(page, "ready")
    assert [box.code for box in boxes] == [same, same, "edited = 2\n", "edited = 3\n"]
    boxes[0].code = "elsewhere = 1\n"
    page.goto(one)
    wait_for_all(page, "ready")
    assert [box.code for box in boxes] == [f"edited = {i}\n" for i in range(4)]
    keys = page.evaluate("Object.keys(localStorage).sort()")
    assert "autograd-playground:twice" in keys and "autograd-playground:twice:2" in keys


def test_code_kept_under_a_playgrounds_earlier_key_is_found_under_its_key_now(
    pages, site, new_page
):
    code = leaf_code("kept", 1.0)
    page = new_page()
    url = pages.add("earlier.html", course_page(site, playground(code), playground(code)))
    page.goto(url)
    wait_for_all(page, "ready")
    # Before keys named their page, a playground without an id kept its code under a
    # hash of its code alone (FNV-1a, 32 bits, of its UTF-8).
    digest = 0x811C9DC5
    for byte in code.encode():
        digest = ((digest ^ byte) * 0x01000193) % 2**32
    record = '{"code": "kept = 1\\n", "savedAt": 1, "from": null}'
    page.evaluate("([key, record]) => { localStorage.clear(); localStorage[key] = record; }",
                  [f"autograd-playground:code-{digest:08x}", record])
    page.reload()
    wait_for_all(page, "ready")
    first, second = (PlaygroundAt(page, f"autograd-playground:nth-of-type({i})") for i in (1, 2))
    assert first.code == "kept = 1\n"
    assert second.code == code  # the earlier key was the first's: the second had none


def test_each_playground_keeps_its_learners_edits_and_reset_brings_back_the_authors_code(
    pages, site, new_page
):
    first, second = leaf_code("mine", 1.0), leaf_code("mine", 2.0)
    body = [playground(first), playground(second), playground(first, id="named")]
    page = new_page()
    page.goto(pages.add("storage.html", course_page(site, *body)))
    wait_for_all(page, "ready")
    boxes = [PlaygroundAt(page, f"autograd-playground:nth-of-type({i})") for i in (1, 2, 3)]
    assert [box.code for box in boxes] == [first, second, first]  # indentation removed
    for i, box in enumerate(boxes):
        box.code = f"edited = {i}\n"
    page.reload()
    wait_for_all(page, "ready")
    assert [box.code for box in boxes] == ["edited = 0\n", "edited = 1\n", "edited = 2\n"]
    keys = page.evaluate("Object.keys(localStorage).sort()")
    assert len(keys) == 3 and "autograd-playground:named" in keys
    boxes[1].button("Reset").click()
    assert boxes[1].code == second
    boxes[1].button("Share").click()
    link = boxes[1].element.locator(".link").input_value()
    assert link.startswith(site + "index.html#code=")  # opens in the site's own playground
