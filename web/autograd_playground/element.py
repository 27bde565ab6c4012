"""The <autograd-playground> element as HTML, from a code and the author's attributes
(web/src/options.js reads them): what the Sphinx directive and the MkDocs fences write."""

from __future__ import annotations

import html
import re

# Attributes that are there or not.
FLAGS = ("readonly", "autorun", "live", "hide-output", "hide-table")
# Attributes with a value, and the values each takes (None: any text).
VALUES: dict[str, tuple[str, ...] | None] = {
    "height": None, "timeout": None, "theme": ("light", "dark"), "id": None,
}
ATTRIBUTES = (*FLAGS, *VALUES)
# A number of seconds (timeout); a CSS length, a number of pixels or "auto" (height).
NUMBER = re.compile(r"\d+(\.\d+)?")
LENGTH = re.compile(r"auto|\d+(\.\d+)?([a-z]+|%)?|(calc|min|max|clamp|var)\(.*\)")


class OptionError(ValueError):
    """An attribute the element does not have, or a value it does not take."""


def check(attributes: dict[str, str | None]) -> None:
    """Raise OptionError naming the first attribute or value the element cannot take."""
    for name, value in attributes.items():
        if name not in ATTRIBUTES:
            raise OptionError(f"unknown attribute {name!r}; the playground's attributes "
                                  f"are {', '.join(ATTRIBUTES)}")
        if name in FLAGS:
            if value not in (None, "", name):
                raise OptionError(f"{name} takes no value (got {value!r})")
            continue
        if not value:
            raise OptionError(f"{name} needs a value")
        choices = VALUES[name]
        if choices and value not in choices:
            raise OptionError(f"{name} is one of {', '.join(choices)} (got {value!r})")
        if name == "timeout" and not NUMBER.fullmatch(value):
            raise OptionError(f"timeout is a number of seconds (got {value!r})")
        if name == "height" and not LENGTH.fullmatch(value.strip()):
            raise OptionError(
                f"height is a CSS length, a number of pixels or auto (got {value!r})")


def playground_html(code: str, attributes: dict[str, str | None]) -> str:
    """The element holding `code` as text, with `attributes` (None or "" for a flag)."""
    check(attributes)
    opening = "".join(
        f" {name}" if name in FLAGS else f' {name}="{html.escape(value, quote=True)}"'
        for name, value in attributes.items())
    return f"<autograd-playground{opening}>\n{html.escape(code, quote=False)}\n" \
           "</autograd-playground>"
