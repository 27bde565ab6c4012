"""Every learner value that becomes text on the page is capped, and a deep recursion's
traceback shows its first and last frames, however deep it went."""

from __future__ import annotations

import sys
import traceback
from types import TracebackType

from playground_runner.caps import (
    CELL_CHARS,
    ERROR_CHARS,
    FULL_LABEL_CHARS,
    NOTE_CHARS,
    TITLE_CHARS,
)
from playground_runner.errors import EDGE_FRAMES, FILENAME, learner_traceback
from playground_runner.fresh import MAX_RECURSION_LIMIT
from tests.web.runs import run

MB = 1_000_000
GRAPH = "from engine import Backward, Graph, MakeValue, VAdd\ng = Graph()\n"


def test_a_huge_error_message_is_clipped_and_says_how_much_is_left_out():
    result, _ = run("raise ValueError('v' * 5_000_000)\n")
    error = result["error"]
    assert result["status"] == "error" and result["line"] == 1
    assert error.startswith("Traceback (most recent call last):\n")
    full = ('Traceback (most recent call last):\n  File "<playground>", line 1, in <module>\n'
            "    raise ValueError('v' * 5_000_000)\nValueError: " + "v" * 5_000_000 + "\n")
    assert error == full[:ERROR_CHARS] + f"… {len(full) - ERROR_CHARS:,} more characters\n"


def test_a_huge_label_shows_clipped_with_a_longer_text_for_hovering():
    result, _ = run(GRAPH + "a = MakeValue(g, 1.0, label='x' * 10_000_000)\n"
                            "b = MakeValue(g, 2.0, label='b')\n")
    (table,) = result["tables"]
    assert table["label"][0] == "x" * CELL_CHARS + f"… {10 * MB - CELL_CHARS:,} more characters"
    assert table["label"][1] == "b"
    assert table["fullLabel"] == {
        "0": "x" * FULL_LABEL_CHARS + f"… {10 * MB - FULL_LABEL_CHARS:,} more characters"}


def test_thirty_labels_of_a_megabyte_stepped_through_make_a_small_result():
    code = GRAPH + (
        "s = MakeValue(g, 0.0, label='s' * 1_000_000)\n"
        "for i in range(30):\n"
        "    s = VAdd(g, s, MakeValue(g, i, label=str(i) * 1_000_000))\n"
        "Backward(g, s)\n"
    )
    result, _ = run(code)
    (table,) = result["tables"]
    assert table["count"] == 61 and len(table["steps"]) == 61
    texts = [term["text"] for step in table["steps"] for term in step["terms"]]
    assert texts and all(len(text) < NOTE_CHARS + 40 for text in texts)
    assert len(repr(result)) < 300_000


def test_titles_are_clipped_whether_a_name_or_shows_title():
    code = GRAPH + "MakeValue(g, 1.0)\nshow(g, 't' * 1_000_000)\nglobals()['n' * 1_000_000] = g\n"
    result, _ = run(code)
    titles = [t["title"] for t in result["tables"]]
    assert titles == ["t" * TITLE_CHARS + f"… {MB - TITLE_CHARS:,} more characters",
                      "g"]  # one graph, under its first name


def test_a_name_too_long_for_a_title_is_clipped():
    result, _ = run(GRAPH + "MakeValue(g, 1.0)\nglobals()['n' * 1_000_000] = g\ndel g\n")
    assert [t["title"] for t in result["tables"]] == [
        "n" * TITLE_CHARS + f"… {MB - TITLE_CHARS:,} more characters"]


def learner_frame():
    """A frame of code compiled as the learner's."""
    return eval(compile("__import__('sys')._getframe()", FILENAME, "eval"))


def test_a_traceback_of_100000_frames_formats_only_its_first_and_last(monkeypatch):
    frame, tb = learner_frame(), None
    for _ in range(100_000):
        tb = TracebackType(tb, frame, frame.f_lasti, 1)
    made = []

    class CountedFrameSummary(traceback.FrameSummary):
        def __init__(self, *args, **kwargs):
            made.append(self)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(traceback, "FrameSummary", CountedFrameSummary)
    text = learner_traceback(RecursionError("deep").with_traceback(tb))
    assert len(made) == 2 * EDGE_FRAMES + 1  # the first, a stand-in, the last
    assert f"… {100_000 - 2 * EDGE_FRAMES:,} frames hidden …" in text
    assert text.startswith("Traceback (most recent call last):\n")
    assert text.endswith("RecursionError: deep\n")


def test_deep_recursion_ends_as_a_short_recursion_error():
    code = "import sys\nsys.setrecursionlimit(30_000)\ndef f(n):\n    return f(n + 1)\nf(0)\n"
    result, _ = run(code)
    assert result["status"] == "error" and result["line"] == 4
    error = result["error"]
    assert error.endswith("RecursionError: maximum recursion depth exceeded\n")
    hidden = int(error.split("… ")[1].split(" frames hidden")[0].replace(",", ""))
    assert MAX_RECURSION_LIMIT - 200 < hidden < MAX_RECURSION_LIMIT  # pytest's frames too
    assert len(error) < 2_000
    assert sys.getrecursionlimit() < MAX_RECURSION_LIMIT
