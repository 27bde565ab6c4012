"""Picture the page with the chapter's example run, for the README.

    python build.py screenshot           (builds first, then runs this)
    python bench/screenshot.py [PATH]    (after `python build.py`; default docs/screenshot.png)
"""

from __future__ import annotations

import sys
from pathlib import Path

from browser import ROOT, served_browser, wait_for_state


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshot.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    with served_browser() as (browser, url):
        page = browser.new_page(viewport={"width": 1280, "height": 720}, color_scheme="light")
        page.goto(url)
        wait_for_state(page, "ready")
        page.get_by_role("button", name="Run", exact=True).click()
        wait_for_state(page, "done")
        page.screenshot(path=path)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
