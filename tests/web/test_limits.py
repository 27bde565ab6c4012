"""Past a limit, the page keeps what fits and says what it did with the rest."""


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

