"""An exercise's parts as authors write them after a playground's code (parts.py), and
playgrounds found in a page's source without the docs tools (sources.py)."""

from __future__ import annotations

import textwrap

import pytest

from autograd_playground.parts import PartError, directive_parts, marked_parts
from autograd_playground.sources import in_html, in_markdown, in_rst

RST_BODY = """c = 9

print(c)

.. check::

   assert c == 10, "Make c equal 10."

.. hint::

   Ten is *9 + 1*.

.. hint::

   Write ``c = 10``.

.. solution::

   c = 10

   print(c)"""
MYST_BODY = """c = 9

print(c)

```{check}
assert c == 10, "Make c equal 10."
```

:::{hint}
Ten is *9 + 1*.
:::

```{hint}
Write `c = 10`.
```

````{solution}
c = 10

print(c)
````"""
MARKED_BODY = """c = 9

print(c)
/// check
assert c == 10, "Make c equal 10."
/// hint
Ten is *9 + 1*.
/// hint
Write `c = 10`.
/// solution
c = 10

print(c)"""


@pytest.mark.parametrize(("read", "body", "hints"), [
    (directive_parts, RST_BODY, ["Ten is *9 + 1*.", "Write ``c = 10``."]),
    (directive_parts, MYST_BODY, ["Ten is *9 + 1*.", "Write `c = 10`."]),
    (marked_parts, MARKED_BODY, ["Ten is *9 + 1*.", "Write `c = 10`."]),
], ids=["rst", "myst", "mkdocs"])
def test_the_code_ends_where_the_parts_begin_and_each_part_is_its_own_text(read, body, hints):
    parts = read(body)
    assert parts.code == "c = 9\n\nprint(c)"
    assert parts.texts("check") == ['assert c == 10, "Make c equal 10."']
    assert parts.texts("hint") == hints
    assert parts.texts("solution") == ["c = 10\n\nprint(c)"]


def test_a_playground_without_parts_is_all_code():
    assert directive_parts("... \nprint(1)\n").code == "... \nprint(1)"
    assert marked_parts("x = 1\n").parts == []


@pytest.mark.parametrize(("read", "body", "line", "says"), [
    (directive_parts, "c = 9\n.. check::\n\n   assert c\n.. hints::\n\n   Ten.",
     4, "'hints' is not a part of an exercise: write check, hint or solution"),
    (directive_parts, "c = 9\n\n```{check}\nassert c\n", 2,
     "the check part's ``` is never closed"),
    (directive_parts, "c = 9\n.. check::\n\n   assert c\nprint(c)", 4,
     "after the exercise's first part only more parts may follow (check, hint or "
     "solution), not 'print(c)'"),
    (marked_parts, "c = 9\n/// hint\nTen.", 1, "hints and a solution need a check"),
    (marked_parts, "c = 9\n/// check\nassert c\n/// solution\nc = 1\n/// solution\nc = 2",
     5, "an exercise has one solution"),
    (marked_parts, "c = 9\n/// check\n/// hint\nTen.", 1, "the check part is empty"),
])
def test_a_part_the_exercise_cannot_take_is_named_with_its_line(read, body, line, says):
    with pytest.raises(PartError) as error:
        read(body)
    assert (error.value.line, str(error.value).split(":")[0]) == (line, says.split(":")[0])
    assert str(error.value).startswith(says)


def test_a_page_source_gives_its_playgrounds_with_their_lines_and_exercises():
    markdown = ("# A page\n\n```playground {#one timeout=5}\nprint(1)\n```\n\n"
                "````python\n```playground {#an-example}\nprint(2)\n```\n````\n\n"
                f"`````{{playground}}\n:id: myst\n\n{MYST_BODY}\n`````\n\n"
                '<autograd-playground id="raw">\n  c = 9\n\n  print(c)\n'
                '  <script type="text/x-python" data-role="check">\n  assert c == 10\n'
                "  </script>\n  <template data-role=\"hint\">Ten is <em>9 + 1</em>.</template>\n"
                "</autograd-playground>\n")
    found = in_markdown(markdown)
    assert [(one.line, one.attributes, one.code, one.checks, one.solution) for one in found] == [
        (3, {"id": "one", "timeout": "5"}, "print(1)", [], None),
        (13, {"id": "myst"}, "c = 9\n\nprint(c)", ['assert c == 10, "Make c equal 10."'],
         "c = 10\n\nprint(c)"),
        (39, {"id": "raw"}, "c = 9\n\nprint(c)", ["assert c == 10"], None),
    ]
    rst = ("Title\n=====\n\n.. playground::\n   :id: rst\n   :readonly:\n\n"
           + textwrap.indent(RST_BODY, "   "))
    (one,) = in_rst(rst)
    assert (one.line, one.attributes, one.code, one.solution) == (
        4, {"id": "rst", "readonly": None}, "c = 9\n\nprint(c)", "c = 10\n\nprint(c)")
    assert [one.code for one in in_html("<p>x</p><autograd-playground>\n  a &lt; b\n"
                                        "</autograd-playground>")] == ["a < b"]
