"""A graph of 100,000+ nodes shows in the table and scrolls, with only the rows in view drawn."""

from pathlib import Path

MLP = (Path(__file__).parent / "programs" / "mlp_100k.py").read_text(encoding="utf-8")


def test_a_100k_node_graph_shows_its_count_and_scrolls_to_its_last_node(playground):
    assert playground.run(MLP) == "done"
    count = playground.element.locator(".count").inner_text()
    assert count == "101,881 nodes"
    assert len(playground.rows()) < 200
    scroller = playground.element.locator(".scroller")
    scroller.evaluate("s => { s.scrollTop = s.scrollHeight; }")
    playground.page.wait_for_function(
        "() => [...document.querySelector('autograd-playground').shadowRoot"
        ".querySelectorAll('tbody th')].some(th => th.textContent === '101880')"
    )
    rows = playground.rows()
    assert rows[-1][0] == "101880" and rows[-1][2].startswith("Add(")
    assert rows[-1][4] == "1.0"
    assert len(rows) < 200
