"""The results computed when a page was built, as static HTML inside the playground
element: its output and a real <table> per graph, every row written as the live table
writes it (web/page/table.js, with format.js's numbers: 6 significant digits, the full
value on hover). The page shows it until the first live result replaces it, and a
page without scripts shows it as it is (embed.css styles it). web/page/authored.js
skips it as one of the element's parts (data-role="built"); check.py reads it back."""

from __future__ import annotations

import json
import math
from decimal import ROUND_HALF_UP, Context, Decimal
from html import escape
from pathlib import Path

from .bake import Baked, bake, timeout_of

MARK = "Computed when this page was built · Run to run it here"
COLUMNS = ("index", "label", "op", "data", "grad")
# The most rows written in all of a playground's tables (the live table shows about 30
# at a time): a bigger graph's are the live table's to show, else a training loop's
# graph would add megabytes to its page, and a slow link would wait for them.
MAX_ROWS = 200
# The most characters of JSON that the page gets its built tables in, every row (about
# 60 a node: a training step's graph of 1,300 nodes is 82 kB, 0.13 s at 5 Mbit/s), to
# show them in its live panels, laid out as a run's. A bigger graph's show as written.
MAX_JSON_CHARS = 100_000
# The grads' shading (web/page/grad-scale.js): decades below the biggest grad.
DECADES = 6
NOT_FINITE = {"nan": "NaN", "inf": "inf", "-inf": "-inf"}
# toPrecision's and toExponential's rounding: to the nearer, a tie away from zero.
SIX_DIGITS = Context(prec=6, rounding=ROUND_HALF_UP)


def js_string(x: float) -> str:
    """`x` as JavaScript's String(x) writes it: the shortest digits that read back as
    `x` (repr's), laid out by ECMAScript's Number::toString."""
    if x == 0:
        return "0"
    sign, digits, exponent = Decimal(repr(abs(x))).normalize().as_tuple()
    text, point = "".join(map(str, digits)), len(digits) + exponent
    k = len(text)
    if k <= point <= 21:
        body = text + "0" * (point - k)
    elif 0 < point <= 21:
        body = f"{text[:point]}.{text[point:]}"
    elif -6 < point <= 0:
        body = "0." + "0" * -point + text
    else:
        e = point - 1
        body = (text[0] + ("." + text[1:] if k > 1 else "")
                + ("e+" if e >= 0 else "e-") + str(abs(e)))
    return ("-" if x < 0 else "") + body


def padded_exponent(text: str) -> str:
    """A one-digit exponent written with two, as Python's repr writes it (e-07)."""
    if len(text) >= 3 and text[-3] == "e" and text[-2] in "+-" and text[-1].isdigit():
        return f"{text[:-1]}0{text[-1]}"
    return text


def not_a_number(x: object) -> str:
    return "" if x is None else NOT_FINITE.get(x, str(x)) if isinstance(x, str) else str(x)


def full_number(x: object) -> str:
    """format.js's fullNumber: the full value, as Python's repr writes a float."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return not_a_number(x)
    x = float(x)
    if x == 0 and math.copysign(1, x) < 0:
        return "-0.0"
    text = js_string(x)
    if text.lstrip("-").isdigit():
        return text + ".0"
    return padded_exponent(text)


def short_number(x: object) -> str:
    """format.js's shortNumber: about 6 significant digits, for the cell itself."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return not_a_number(x)
    x = float(x)
    if x == 0:
        return full_number(x)
    rounded = SIX_DIGITS.plus(Decimal(x))
    if abs(x) >= 1e6 or abs(x) < 1e-4:
        mantissa = "".join(map(str, rounded.as_tuple().digits)).ljust(6, "0")
        e = rounded.adjusted()
        text = f"{mantissa[0]}.{mantissa[1:]}".rstrip("0").rstrip(".")
        return padded_exponent(f"{'-' if x < 0 else ''}{text}e{'+' if e >= 0 else '-'}{abs(e)}")
    return full_number(float(rounded))


def op_text(op: str) -> str:
    return "None" if op == "leaf" else op


def grad_shade(grad: object, top: float) -> tuple[str, float]:
    """grad-scale.js's gradShade: the sign, and the strength 0..1 of a grad's shade."""
    if not isinstance(grad, (int, float)):
        return {"inf": "pos", "-inf": "neg"}.get(grad, "odd"), 1.0
    if grad == 0:
        return "zero", 0.0
    size = abs(grad)
    level = 1 - math.log10(top / min(size, top)) / DECADES if top > 0 else 1.0
    return ("pos" if grad > 0 else "neg"), max(0.15, level)


def cell(tag: str, text: str, title: str | None, **attributes: str) -> str:
    """An HTML cell; attributes' names with _ for -, a trailing _ dropped (class_)."""
    names = "".join(f' {name.rstrip("_").replace("_", "-")}="{escape(value)}"'
                    for name, value in attributes.items())
    title_attribute = f' title="{escape(title)}"' if title else ""
    return f"<{tag}{names}{title_attribute}>{escape(text, quote=False)}</{tag}>"


def number_cell(table: dict, column: str, i: int) -> tuple[str, str, str]:
    """A number column's (text, title, class) as table.js's number() writes them."""
    value = table[column][i]
    text = table["notNumbers"][column].get(str(i))
    if value is None and text is not None:
        return text, f"{text}: not a number", f"{column} not-number"
    return short_number(value), full_number(value), column


def row_cells(table: dict, i: int) -> list[tuple[str, str | None, str]]:
    """Node i's cells, each (text, title, class), as the live table writes them."""
    label = table["label"][i]
    if label:
        label_cell = (label, table["fullLabel"].get(str(i), label), "label")
    else:
        label_cell = (f"#{i}", f"no label: #{i} is node {i}", "label unlabelled")
    op = op_text(table["op"][i])
    return [(str(i), None, ""), label_cell, (op, op, "op"), number_cell(table, "data", i),
            number_cell(table, "grad", i)]


def shown_rows(tables: list[dict]) -> list[int]:
    """How many rows of each table are written: MAX_ROWS in all."""
    left, shown = MAX_ROWS, []
    for table in tables:
        shown.append(min(table["count"], left))
        left -= shown[-1]
    return shown


def table_rows(tables: list[dict]) -> list[list[list[list[str | None]]]]:
    """The text and title of the cells written, row by row, table by table: what
    check.py compares with the page's."""
    return [[[[text, title or ""] for text, title, _ in row_cells(table, i)]
             for i in range(rows)]
            for table, rows in zip(tables, shown_rows(tables), strict=True)]


def row_html(table: dict, i: int, top: float) -> str:
    (index, _, _), *cells = row_cells(table, i)
    sign, level = grad_shade(table["grad"][i], top)
    shading = [{}, {}, {}, {"data_sign": sign, "style": f"--level: {level:.3f}"}]
    return ("<tr>" + cell("th", index, None, scope="row")
            + "".join(cell("td", text, title, class_=class_, **more)
                      for (text, title, class_), more in zip(cells, shading, strict=True))
            + "</tr>\n")


def table_html(table: dict, rows: int) -> str:
    """The table's first `rows` rows, in a box as tall as the live table's (30 rows, then
    they scroll: embed.css), and its notes."""
    grads = [g for g in table["grad"] if isinstance(g, (int, float)) and math.isfinite(g)]
    top = max((abs(g) for g in grads), default=0.0)
    count = table["count"]
    nodes = f"{count:,} {'node' if count == 1 else 'nodes'}"
    head = "".join(f'<th scope="col">{name}</th>' for name in COLUMNS)
    body = "".join(row_html(table, i, top) for i in range(rows))
    more = count - rows
    notes = [*table["notes"], *([f"{more:,} more nodes: Run to see every node"] if more else [])]
    steps = table["stepsLater"] or len(table["steps"] or [])
    if steps:
        notes.append(f"Backward: {steps} {'step' if steps == 1 else 'steps'}, replayed one "
                     "at a time after Run")
    listed = "".join(cell("li", note, None) for note in notes)
    title = escape(table["title"])
    return (f'<div class="built-rows" tabindex="0" role="region" aria-label="Nodes of {title}">\n'
            f'<table class="built-table"><caption>{title}: {nodes}</caption>\n'
            f"<thead><tr>{head}</tr></thead>\n<tbody>\n{body}</tbody></table>\n</div>\n"
            + (f'<ul class="built-notes">{listed}</ul>\n' if listed else ""))


def result_json(baked: Baked) -> str:
    """`baked` as the page reads it (playground.js's showBuilt), to show in its live
    table, picture and steppers: JSON that no `</script>` in a text can end early."""
    text = json.dumps({"output": baked.output, "tables": baked.tables},
                      separators=(",", ":"), allow_nan=False, sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def built_html(baked: Baked, code: str | None = None) -> str:
    """The element's child that shows `baked`: marked as built, styled by embed.css,
    shown as it is where scripts are off and until the page's script has loaded; with
    the `code` that gave it, for a playground whose code is not in the page (the site's
    full page, on the example), shown only where the element is not defined. When its
    tables, every row, fit MAX_JSON_CHARS as JSON, it holds them so too (`built-result`),
    which the page shows in its live panels, laid out as a run's results are, until a
    run replaces them: so a run changes their numbers, not the page's layout."""
    parts = [f'<div data-role="built" slot="built">\n<p class="built-mark">{MARK}</p>\n']
    if code is not None:
        parts.append('<p class="built-heading built-code">Code</p>\n'
                     f'<pre class="built-code">\n{escape(code, quote=False)}</pre>\n')
    if baked.output:
        parts.append('<p class="built-heading">Output</p>\n'
                     f'<pre class="built-output">\n{escape(baked.output, quote=False)}</pre>\n')
    parts.append('<p class="built-heading">Nodes</p>\n')
    if baked.tables:
        shown = shown_rows(baked.tables)
        parts += [table_html(table, n) for table, n in zip(baked.tables, shown, strict=True)]
    else:
        parts.append('<p class="built-empty">This code made no graph.</p>\n')
    whole = result_json(baked)
    if len(whole) <= MAX_JSON_CHARS:
        parts.append(f'<script type="application/json" class="built-result">{whole}</script>\n')
    return "".join(parts) + "</div>"


def results_html(code: str, attributes: dict[str, str | None], exercise: bool,
                 site: Path, show_code: bool = False) -> str:
    """The HTML of `code`'s results computed now with the runner and engine of the site
    at `site` (`show_code`: with the code, see built_html); none for an exercise, whose
    results would give its answer away. Raises BakeError when the code fails."""
    if exercise or not code.strip():
        return ""
    return built_html(bake(code, site, timeout_of(attributes)), code if show_code else None)
