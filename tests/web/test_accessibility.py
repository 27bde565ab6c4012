"""Accessible to all: no WCAG 2.1 A or AA violation that axe-core finds, on every page and
in both themes (the system's or the theme attribute's), with the table, the picture and
the stepper showing; and the picture driven by keyboard and named for screen readers."""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

import build

from .conftest import BOOT_MS, RUN_MS
from .pages import PlaygroundAt
from .test_graph import (
    box,
    line_of,
    node_line,
    run_and_draw,
    run_to_backwards_grads,
    step_button,
)
from .test_loading import delay_bar, run_at_once, slow_link

AXE = build.WEB / "node_modules" / "axe-core" / "axe.min.js"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
EXAMPLE_WITH_BACKWARD = (build.WEB / "shared" / "example.py").read_text(encoding="utf-8")


def share_fragment(code: str) -> str:
    """The `#code=` fragment a share link carries (see web/page/share.js)."""
    return "#code=" + base64.urlsafe_b64encode(code.encode()).decode().rstrip("=")


def axe_violations(page: Page) -> list[dict]:
    """axe-core's WCAG 2.1 A and AA violations on the page as it is now (open shadow roots too)."""
    page.add_script_tag(path=str(AXE))
    return page.evaluate(
        "tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})"
        ".then(results => results.violations)",
        WCAG_TAGS,
    )


def readable(violations: list[dict]) -> str:
    """Each violation's id, impact and help, then each element it was found on."""
    def selector(target: list) -> str:  # a part per shadow root: ["host", "inner"]
        return " | ".join(" >> ".join(p) if isinstance(p, list) else p for p in target)

    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']}")
        for node in v["nodes"]:
            why = node["failureSummary"].splitlines()[1].strip()
            lines.append(f"    {selector(node['target'])}: {why}")
    return "\n".join(lines)


@pytest.fixture
def new_page(browser: Browser) -> Iterator:
    """Opens pages in fresh contexts (with the given options); closes them afterwards."""
    contexts = []

    def open_(**context_options) -> Page:
        context = browser.new_context(**context_options)
        contexts.append(context)
        return context.new_page()

    yield open_
    for context in contexts:
        context.close()


def run_with_backward_showing(playground: PlaygroundAt, code: str | None = None) -> None:
    """Run the code, then wait until its table, picture and stepper are all on screen."""
    playground.element.scroll_into_view_if_needed()  # Python starts once a playground is seen
    playground.wait_for("ready")
    assert playground.run(code) == "done"
    playground.element.locator(".picture[data-state='drawn']").wait_for(timeout=RUN_MS)
    expect(playground.element.locator("tbody tr:not(.spacer)").first).to_be_visible()
    expect(playground.element.locator(".stepper")).to_be_visible()


# Each page in both themes, running the chapter's example with Backward (embed.html gets
# it from its share-link fragment). The full page and the course page follow the
# system's colour scheme; embed.html is given the other theme by its `theme` attribute.
EMBED = "embed.html?theme={}" + share_fragment(EXAMPLE_WITH_BACKWARD)
PAGES = {  # name: (path, the playground to run, the system's colour scheme)
    "full page, light": ("", "autograd-playground", "light"),
    "full page, dark": ("", "autograd-playground", "dark"),
    "course page, light": ("course.html", "#engine-backward", "light"),
    "course page, dark": ("course.html", "#engine-backward", "dark"),
    "embed, theme=dark": (EMBED.format("dark"), "autograd-playground", "light"),
    "embed, theme=light": (EMBED.format("light"), "autograd-playground", "dark"),
}


@pytest.mark.parametrize("name", PAGES)
def test_axe_finds_no_wcag_a_or_aa_violations_after_a_run_with_backward(new_page, site, name):
    path, selector, scheme = PAGES[name]
    page = new_page(color_scheme=scheme)
    page.goto(site + path)
    code = None if path.startswith("embed.html") else EXAMPLE_WITH_BACKWARD  # else in the link
    run_with_backward_showing(PlaygroundAt(page, selector), code)
    violations = axe_violations(page)
    assert [v["id"] for v in violations] == [], f"axe on {name}:\n{readable(violations)}"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violations_while_python_downloads_and_a_run_waits(new_page, site, scheme):
    page = new_page(color_scheme=scheme)
    delay_bar(page.context, 0)
    run_at_once(page.context, 0)
    slow_link(page.context, page, bytes_per_s=1e6)  # Python's 18 MB take 18 s or more
    page.goto(site)
    # However slow the machine, the download lasts 18 s or more: wait for it to show.
    expect(page.get_by_role("progressbar", name="Python downloaded")).to_be_visible(
        timeout=BOOT_MS)
    expect(page.locator(".status")).to_contain_text("Your run is queued", timeout=BOOT_MS)
    violations = axe_violations(page)
    assert [v["id"] for v in violations] == [], f"axe while loading:\n{readable(violations)}"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violations_with_changes_a_step_a_selection_and_focus_in_the_picture(
    open_playground, site, scheme
):
    playground = open_playground(site, color_scheme=scheme)
    run_and_draw(playground, EXAMPLE_WITH_BACKWARD)
    run_and_draw(playground, EXAMPLE_WITH_BACKWARD.replace("2.0", "3.0"))  # marks Δ
    step_button(playground, "Next").click()
    tab_into_the_picture(playground)
    playground.page.keyboard.press("Home")
    playground.page.keyboard.press("Enter")
    picture = playground.element.locator("svg.graph")
    for marked in ["changed", "current", "target", "selected"]:
        expect(picture.locator(f"g.value.{marked}").first).to_be_visible()
    expect(picture.locator("g.value:focus-visible rect.ring")).to_be_visible()
    violations = axe_violations(playground.page)
    assert [v["id"] for v in violations] == [], f"axe, {scheme}:\n{readable(violations)}"


# The grads' shades and their legend, in the table and the picture.
SHADES = """root => [
  ...root.querySelectorAll('tbody td.grad, .legend .pos, .legend .neg'),
  ...root.querySelectorAll('svg.graph g.value rect:not(.ring)'),
].map(e => { const s = getComputedStyle(e); return s.backgroundColor + ' ' + s.fill; })"""


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_theme_attribute_shades_grads_as_the_systems_own_theme_does(new_page, site, theme):
    other = {"light": "dark", "dark": "light"}[theme]
    shades = {}
    for query, scheme in [("", theme), (f"?theme={theme}", other)]:
        page = new_page(color_scheme=scheme)
        page.goto(f"{site}embed.html{query}{share_fragment(EXAMPLE_WITH_BACKWARD)}")
        playground = PlaygroundAt(page, "autograd-playground")
        run_with_backward_showing(playground)
        shades[query] = playground.element.evaluate(f"el => ({SHADES})(el.shadowRoot)")
    assert len(shades[""]) == 6 + 2 + 6
    assert shades[f"?theme={theme}"] == shades[""]


# The picture by keyboard: one tab stop, a listbox of the value boxes.

# The chapter's ops as a screen reader hears them, by node: a leaf's, None, after its name
# (where its box shows it), the others' last.
CHAPTER_OPS = [("None", "")] * 3 + [
    ("", "Mul of 0 and 1"), ("", "Add of 3 and 2"), ("", "Tanh of 4"),
]


def focused_node(playground) -> str | None:
    """The data-node of the element that has focus in the playground, if it is a box."""
    return playground.element.evaluate("el => el.shadowRoot.activeElement?.dataset?.node ?? null")


def tab_into_the_picture(playground) -> None:
    playground.element.get_by_role("button", name="Fit the picture").focus()
    playground.page.keyboard.press("Tab")


def spoken_names(playground) -> list[str]:
    """The names of the picture's options, in node order, as Chromium's accessibility tree
    (what screen readers read) has them."""
    tree = playground.page.context.new_cdp_session(playground.page).send(
        "Accessibility.getFullAXTree"
    )
    nodes = {n["nodeId"]: n for n in tree["nodes"]}

    def role(n: dict) -> str:
        return n.get("role", {}).get("value", "")

    def options(n: dict) -> list[str]:
        if role(n) == "option":
            return [n["name"]["value"]]
        return [name for c in n.get("childIds", []) if c in nodes for name in options(nodes[c])]

    (picture,) = [n for n in nodes.values() if role(n) == "listbox"]
    return options(picture)


def test_the_picture_is_one_tab_stop_whose_arrow_keys_move_between_nodes_in_index_order(
    playground,
):
    run_and_draw(playground)
    keys = playground.page.keyboard
    tab_into_the_picture(playground)
    assert focused_node(playground) == "5"  # Backward's root, the node that matters most
    keys.press("Tab")
    # the next control after the picture: the tape's stepper, then Backward's
    expect(playground.element.locator(".tape-stepper")).to_be_focused()
    keys.press("Shift+Tab")
    assert focused_node(playground) == "5"

    visited = []
    for key in ["Home", "ArrowRight", "ArrowDown", "ArrowDown", "ArrowLeft", "ArrowUp", "End",
                "ArrowRight"]:
        keys.press(key)
        visited.append(focused_node(playground))
        in_tab_order = playground.element.locator(".picture-frame [tabindex='0']")
        assert in_tab_order.evaluate_all("els => els.map(e => e.dataset.node)") == [visited[-1]]
    assert visited == ["0", "1", "2", "3", "2", "1", "5", "5"]
    # Moving is not selecting: the table has no row selected.
    assert playground.element.locator("tbody tr[aria-selected='true']").count() == 0


def test_enter_selects_the_focused_node_in_the_table_the_picture_and_the_code(playground):
    run_and_draw(playground)
    keys = playground.page.keyboard
    tab_into_the_picture(playground)
    keys.press("Home")
    for _ in range(3):
        keys.press("ArrowRight")
    keys.press("Enter")
    assert focused_node(playground) == "3"
    assert playground.element.locator("tbody tr[aria-selected='true'] th").all_text_contents() == [
        "3"
    ]
    assert box(playground, 3).get_attribute("aria-selected") == "true"
    assert node_line(playground) == line_of(playground, "VTanh(")

    keys.press("ArrowLeft")
    keys.press(" ")
    assert box(playground, 2).get_attribute("aria-selected") == "true"
    assert box(playground, 3).get_attribute("aria-selected") == "false"
    assert node_line(playground) == line_of(playground, 'label="c"')


def test_a_run_started_from_the_picture_keeps_the_focus_on_the_same_node(playground):
    run_and_draw(playground)
    tab_into_the_picture(playground)
    playground.page.keyboard.press("Home")
    playground.page.keyboard.press("ArrowRight")
    playground.code = playground.code.replace("2.0", "3.0")
    playground.page.keyboard.press("Control+Enter")
    assert playground.wait_for("done", "error") == "done"
    playground.element.locator(".picture[data-state='drawn']").wait_for(timeout=RUN_MS)
    assert box(playground, 0).locator(".data-line").text_content() == "data 3.0"  # redrawn
    assert focused_node(playground) == "1"


def centre_is_in_view(playground, i: int) -> bool:
    frame = playground.element.locator(".picture-frame").bounding_box()
    rect = box(playground, i).locator("rect:not(.ring)").bounding_box()
    x, y = rect["x"] + rect["width"] / 2, rect["y"] + rect["height"] / 2
    return (frame["x"] <= x <= frame["x"] + frame["width"]
            and frame["y"] <= y <= frame["y"] + frame["height"])


def test_the_focused_node_has_a_focus_ring_and_is_brought_into_view(playground):
    run_and_draw(playground)
    keys = playground.page.keyboard
    tab_into_the_picture(playground)
    ring = box(playground, 5).locator("rect.ring")
    expect(ring).to_be_visible()
    for _ in range(8):
        keys.press("+")  # zooms in about the middle, far enough to leave the ends out
    assert not centre_is_in_view(playground, 0)
    keys.press("Home")
    assert centre_is_in_view(playground, 0)
    expect(box(playground, 0).locator("rect.ring")).to_be_visible()
    expect(ring).to_be_hidden()
    keys.press("End")
    assert centre_is_in_view(playground, 5)


def test_each_node_is_named_for_a_screen_reader_with_its_op_data_and_grad(playground):
    run_to_backwards_grads(playground)
    frame = playground.element.get_by_role("listbox", name="Picture of the graph")
    expect(frame).to_have_accessible_description(re.compile(r"^Arrow keys move from node to node"))

    def expected() -> list[str]:
        rows = zip(playground.rows(), CHAPTER_OPS, strict=True)
        return [
            ", ".join(filter(None, [f"node {i}", label, f"data {data}", f"grad {grad}", leaf, op]))
            for (i, label, _, data, grad), (leaf, op) in rows
        ]

    names = expected()
    assert names[0].startswith("node 0, a, data 2.0, grad -0.00")
    assert names[0].endswith(", None")
    assert names[3].startswith("node 3, #3, data -6.0, grad 0.00")
    names[0] += ", Backward is visiting it"  # the last step visits a
    for i, name in enumerate(names):
        expect(frame.get_by_role("option", name=name, exact=True)).to_have_attribute(
            "data-node", str(i)
        )
    assert spoken_names(playground) == names

    step_button(playground, "First").click()  # grads back to Backward's start
    step_button(playground, "Next").click()  # visits node 5, adds to node 4
    names = expected()
    grads = [name.split(", grad ")[1].split(", ")[0] for name in names[:4]]
    assert grads == ["0.0"] * 4  # not reached
    assert spoken_names(playground) == [
        names[0], names[1], names[2], names[3],
        f"{names[4]}, Backward adds to its grad",
        f"{names[5]}, Backward is visiting it",
    ]
    box(playground, 1).click()
    expect(frame.get_by_role("option", selected=True)).to_have_attribute("data-node", "1")
