"""Looks and access: a real table, a live output region, dark mode, a phone layout."""


def test_the_table_is_a_real_table_with_header_cells(playground):
    playground.run()
    headers = playground.element.locator("thead th[scope=col]").all_inner_texts()
    assert headers == ["index", "label", "op", "data", "grad"]
    assert playground.element.locator("tbody th[scope=row]").count() == 6


def test_output_is_an_aria_live_region_and_the_editor_does_not_autocorrect(playground):
    output = playground.element.locator(".output")
    assert output.get_attribute("aria-live") == "polite"
    content = playground.element.locator(".cm-content")
    assert content.get_attribute("autocorrect") == "off"
    assert content.get_attribute("autocapitalize") == "off"
    assert content.get_attribute("spellcheck") == "false"


def background(playground) -> str:
    return playground.element.evaluate("el => getComputedStyle(el).backgroundColor")


def test_light_and_dark_follow_the_system(open_playground, site):
    light = background(open_playground(site, color_scheme="light"))
    dark = background(open_playground(site, color_scheme="dark"))
    assert light == "rgb(255, 255, 255)"
    assert dark != light


def test_on_a_phone_everything_fits_the_width_and_stacks(open_playground, site):
    playground = open_playground(site, viewport={"width": 390, "height": 844}, is_mobile=True)
    playground.run()
    page = playground.page
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    editor = playground.element.locator(".editor").bounding_box()
    table = playground.element.locator(".scroller").bounding_box()
    assert table["y"] >= editor["y"] + editor["height"]
    assert table["width"] > 300
