"""Picture the page for the README: the chapter's example run, and the same example
with Backward, two steps into replaying it.

    python build.py screenshot           (builds first, then runs this)
    python bench/screenshot.py [PATH]    (after `python build.py`; default docs/screenshot.png;
                                          the stepping picture goes beside it, as graph.png)
"""

from __future__ import annotations

import sys
from pathlib import Path

from browser import ROOT, served_browser, wait_for_state

WITH_BACKWARD = """el => {
  el.code = el.code.replace("# from engine", "from engine")
    .replace("# Backward(g, e)", "Backward(g, e)");
}"""


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshot.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    with served_browser() as (browser, url):
        page = browser.new_page(viewport={"width": 1280, "height": 720}, color_scheme="light")
        page.goto(url)
        wait_for_state(page, "ready")
        run = page.get_by_role("button", name="Run", exact=True)
        run.click()
        wait_for_state(page, "done")
        drawn = page.locator("autograd-playground .picture[data-state='drawn']")
        drawn.wait_for()
        page.screenshot(path=path)
        print(f"wrote {path}")

        page.locator("autograd-playground").evaluate(WITH_BACKWARD)
        run.click()
        wait_for_state(page, "done")
        drawn.wait_for()
        for name in ("First", "Next", "Next"):
            page.get_by_role("button", name=name, exact=True).click()
        stepping = path.with_name("graph.png")
        page.screenshot(path=stepping)
        print(f"wrote {stepping}")


if __name__ == "__main__":
    main()
