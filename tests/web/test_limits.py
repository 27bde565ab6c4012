"""Past a limit, the page keeps what fits and says what it did with the rest; and however much
a run prints or leaves behind, the page draws it a bounded piece at a time."""

from .conftest import NEVER_MS, set_deadlines


def test_code_too_long_for_a_link_is_offered_as_a_download_instead(playground):
    code = f"# {'x' * 1_500_000}\nprint('long')\n"
    playground.code = code
    playground.button("Share").click()
    assert "too long for a link" in playground.element.locator(".notice").inner_text()
    assert not playground.element.locator("input.link").is_visible()
    with playground.page.expect_download() as download:
        playground.button("Download .py").click()
    assert open(download.value.path(), encoding="utf-8").read() == code


def test_one_huge_print_shows_its_first_250_kB_then_the_note(playground):
    assert playground.run("print('x' * 300_000)\nprint('after')\n") == "done"
    output = playground.output
    assert output.count("x") == 250_000
    assert output.rstrip().endswith("output truncated (more than 10,000 lines or 250 kB)")
    assert "after" not in output


def test_a_million_graphs_in_the_globals_list_100_tables_and_say_how_many_more(playground):
    code = "class G:\n    nodes = []\nglobals().update({f'g{i}': G() for i in range(1_000_000)})\n"
    assert playground.run(code) == "done"
    graphs = playground.graphs()
    assert len(graphs) == 100 and graphs[-1] == "g99 (0 nodes)"
    assert playground.output == (
        "999,900 more graphs in the globals not shown: a run shows 100 tables at most\n")
    assert playground.run("print('next')") == "done"


COUNT_OUTPUT_MESSAGES = """el => {
  el.outputMessages = 0;
  const receive = el.runtime.receive.bind(el.runtime);
  el.runtime.receive = (message) => {
    if (message?.type === "output") el.outputMessages++;
    receive(message);
  };
}"""


def test_a_million_empty_batches_sent_by_the_code_reach_the_page_as_nothing(playground):
    playground.element.evaluate(COUNT_OUTPUT_MESSAGES)
    code = ("import sys\nsend = sys.stdout.output.send\n"
            "for _ in range(1_000_000):\n    send('[]')\nprint('end')\n")
    assert playground.run(code) == "done"
    assert playground.output == "end\n"
    assert playground.element.evaluate("el => el.outputMessages") == 2  # "end", then "\n"


def test_more_lines_than_the_runner_sends_end_the_run_as_malformed(playground):
    code = "import sys, json\nsys.stdout.output.send(json.dumps([['stdout', '\\n' * 250_000]]))\n"
    assert playground.run(code) == "error"
    assert playground.output == ("the run's output was malformed (more output than the runner "
                                 "sends), so Python was restarted\n")
    assert playground.run("print('next')") == "done"


# Around the output box's draw: what each draw adds, and in which frame it draws (a frame
# counter, started before the run, so that it goes first among each frame's callbacks).
RECORD_DRAWS = """el => {
  const view = el.output;
  const draw = view.draw.bind(view);
  let frame = 0;
  const tick = () => { frame++; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  el.draws = [];
  view.draw = (...args) => {
    const before = view.root.textContent.length;
    draw(...args);
    const added = view.root.textContent.slice(before);
    el.draws.push({ frame, chars: added.length, lines: added.split("\\n").length - 1 });
  };
}"""


def test_output_is_drawn_within_each_frames_budget(playground):
    set_deadlines(playground.page, outputFrameMs=NEVER_MS)  # however late a frame comes
    budget = {"chars": 2_000, "lines": 50, "pieces": 10}
    playground.page.evaluate(
        "budget => Object.assign(customElements.get('autograd-playground').outputFrameBudget,"
        " budget)", budget)
    playground.element.evaluate(RECORD_DRAWS)
    assert playground.run("for i in range(3_000):\n    print(i)\nprint('x' * 20_000)\n") == "done"
    draws = playground.element.evaluate("el => el.draws")
    frames = [d["frame"] for d in draws]
    assert frames == sorted(frames)
    for frame in set(frames):  # the draws of one frame, together
        drawn = [d for d in draws if d["frame"] == frame]
        assert sum(d["chars"] for d in drawn) <= budget["chars"]
        assert sum(d["lines"] for d in drawn) <= budget["lines"]
    assert len(set(frames)) > 10  # the output took many frames
    # All of it drawn so, before the run ends, with no line break it did not print.
    printed = "".join(f"{i}\n" for i in range(3_000)) + "x" * 20_000 + "\n"
    assert sum(d["chars"] for d in draws) == len(printed)
    assert playground.output == printed
    assert playground.element.locator(".output *").count() < 100


def test_output_that_switches_stream_at_every_character_keeps_the_box_small(playground):
    code = ("import sys\nfor _ in range(50_000):\n"
            "    sys.stdout.write('a')\n    sys.stderr.write('b')\n")
    assert playground.run(code) == "done"
    assert playground.output == "ab" * 50_000
    assert playground.element.locator(".output *").count() < 2_500


NO_FRAMES = "() => { window.requestAnimationFrame = () => 0; }"


def test_output_waits_for_a_frame_no_longer_than_its_deadline(playground):
    playground.page.evaluate(NO_FRAMES)  # as in an iframe scrolled out of view
    set_deadlines(playground.page, outputFrameMs=NEVER_MS)
    playground.start("print('hello')\n")
    playground.page.wait_for_function(
        "() => document.querySelector('autograd-playground').runtime.idle")
    assert playground.state == "running" and playground.output == ""
    set_deadlines(playground.page, outputFrameMs=0)  # from the next run on
    playground.element.evaluate("el => el.output.clear()")  # let the waiting run end
    playground.wait_for("done")
    assert playground.run("print('hello')\n") == "done"
    assert playground.output == "hello\n"
