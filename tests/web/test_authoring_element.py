"""The element's HTML that the Sphinx directive and the MkDocs plugin write: the code as
text, the attributes the element has (web/page/options.js), and a clear error for others."""

from __future__ import annotations

import re

import pytest

import build
from autograd_playground.element import ATTRIBUTES, OptionError, playground_html


def test_the_attributes_are_the_elements_own():
    options = (build.PAGE / "options.js").read_text(encoding="utf-8")
    listed = re.search(r"export const ATTRIBUTES = \[(.*?)\];", options, re.DOTALL)[1]
    assert sorted(ATTRIBUTES) == sorted(re.findall(r'"([\w-]+)"', listed))


def test_the_code_is_text_and_the_attributes_are_quoted():
    assert playground_html('if a < b & c:\n    print("</autograd-playground>")',
                           {"id": 'x"y', "readonly": None, "height": "24rem"}) == (
        '<autograd-playground id="x&quot;y" readonly height="24rem">\n'
        'if a &lt; b &amp; c:\n    print("&lt;/autograd-playground&gt;")\n'
        "</autograd-playground>")


@pytest.mark.parametrize(("attributes", "says"), [
    ({"colour": "red"}, "unknown attribute 'colour'; the playground's attributes are readonly, "
                        "autorun, live, hide-output, hide-table, height, timeout, theme, id"),
    ({"readonly": "no"}, "readonly takes no value (got 'no')"),
    ({"id": None}, "id needs a value"),
    ({"theme": "blue"}, "theme is one of light, dark (got 'blue')"),
    ({"timeout": "5s"}, "timeout is a number of seconds (got '5s')"),
    ({"height": "tall"}, "height is a CSS length, a number of pixels or auto (got 'tall')"),
])
def test_what_the_element_cannot_take_is_named(attributes, says):
    with pytest.raises(OptionError) as error:
        playground_html("print(1)", attributes)
    assert str(error.value) == says


@pytest.mark.parametrize("height", ["auto", "400", "24rem", "50%", "calc(100vh - 4rem)"])
def test_a_height_is_any_css_length(height):
    assert f'height="{height}"' in playground_html("print(1)", {"height": height})
