"""Picture the page for the docs (docs/): the chapter's example run, two steps into
replaying its Backward, and four nodes into replaying its tape; a 2-input layer of 3
neurons (28 nodes); an MLP of 106 nodes, its neurons folded; the first screen a learner
meets, before and after Run; and train.html's moons while they train, paused; on a laptop
(1280x800) and a phone (390x844), light and dark.

    python build.py screenshot           (builds first, then runs this)
    python bench/screenshot.py [PATH]    (after `python build.py`; default docs/screenshot.png;
                                          the others go beside it: graph.png, tape.png,
                                          layer.png, mlp.png,
                                          first-screen-<width>[-dark][-run].png,
                                          training-<width>[-dark].png)
"""

from __future__ import annotations

import sys
from pathlib import Path

from browser import ROOT, served_browser, wait_for_state
from playwright.sync_api import Browser, Page

LAPTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}


def run_and_draw(page: Page) -> None:
    page.get_by_role("button", name="Run", exact=True).click()
    wait_for_state(page, "done")
    page.locator("autograd-playground .picture[data-state='drawn']").wait_for()


def readme_pictures(browser: Browser, url: str, path: Path) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 720}, color_scheme="light")
    page.goto(url)
    wait_for_state(page, "ready")
    run_and_draw(page)  # the table and the picture hold the grads Backward filled
    page.screenshot(path=path)
    print(f"wrote {path}")
    for name in ("First", "Next", "Next"):
        page.get_by_role("button", name=name, exact=True).click()
    stepping = path.with_name("graph.png")
    page.screenshot(path=stepping)
    print(f"wrote {stepping}")
    for name in ("First node", "Next node", "Next node", "Next node"):
        page.get_by_role("button", name=name, exact=True).click()
    tape = path.with_name("tape.png")
    page.screenshot(path=tape)
    print(f"wrote {tape}")
    page.close()


def program_picture(browser: Browser, url: str, path: Path, program: str) -> None:
    """A program of tests/web/programs run at 1280x800: layer_of_three.py (a 2-input layer
    of 3 neurons, summed and run backward), mlp_of_two_layers.py (106 nodes, folded); the
    results scrolled to the picture, as a learner scrolls to a picture grown past them."""
    page = browser.new_page(**LAPTOP)
    page.goto(url + "?live=off")
    wait_for_state(page, "ready")
    code = (ROOT / "tests" / "web" / "programs" / program).read_text(encoding="utf-8")
    page.locator("autograd-playground").evaluate("(el, code) => { el.code = code; }", code)
    run_and_draw(page)
    frame = page.locator("autograd-playground .picture-frame")
    frame.evaluate("f => f.scrollIntoView({block: 'nearest'})")
    page.screenshot(path=path)
    print(f"wrote {path}")
    page.close()


def first_screens(browser: Browser, url: str, folder: Path, scheme: str = "light") -> None:
    """The full page as it opens, its results computed when it was built painted (their
    picture too, once Python is ready), and after Run: on a phone, scrolled to the nodes;
    a dark scheme's pictures are named -dark."""
    for size, options in (("1280", LAPTOP), ("390", PHONE)):
        size += "" if scheme == "light" else f"-{scheme}"
        context = browser.new_context(color_scheme=scheme, **options)
        page = context.new_page()
        page.goto(url)
        wait_for_state(page, "ready")
        page.locator("autograd-playground[data-painted='true']").wait_for()
        for suffix in ("", "-run"):
            if suffix:
                run_and_draw(page)
                if size.startswith("390"):
                    page.locator("autograd-playground .views").evaluate("v => v.scrollIntoView()")
            shot = folder / f"first-screen-{size}{suffix}.png"
            page.screenshot(path=shot)
            print(f"wrote {shot}")
        context.close()


def training_screens(browser: Browser, url: str, folder: Path, scheme: str = "light") -> None:
    """train.html's moons training at 30 steps a second, paused at step 40 or so."""
    for size, options in (("1280", LAPTOP), ("390", PHONE)):
        context = browser.new_context(color_scheme=scheme, **options)
        context.add_init_script("localStorage.setItem('autograd-playground-pace', '30')")
        page = context.new_page()
        page.goto(url + "train.html")
        moons = page.locator("#moons")
        moons.scroll_into_view_if_needed()
        page.wait_for_function("() => document.querySelector('#moons').dataset.state === 'ready'")
        moons.get_by_role("button", name="Run", exact=True).click()
        panel = moons.locator(".plots")
        page.wait_for_function("p => Number(p.dataset.steps) >= 40", arg=panel.element_handle())
        moons.get_by_role("button", name="Pause", exact=True).click()
        page.wait_for_function("p => p.dataset.waiting", arg=panel.element_handle())
        shot = folder / f"training-{size}{'' if scheme == 'light' else '-' + scheme}.png"
        page.screenshot(path=shot)
        print(f"wrote {shot}")
        context.close()


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshot.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    with served_browser() as (browser, url):
        readme_pictures(browser, url, path)
        program_picture(browser, url, path.with_name("layer.png"), "layer_of_three.py")
        program_picture(browser, url, path.with_name("mlp.png"), "mlp_of_two_layers.py")
        for scheme in ("light", "dark"):
            first_screens(browser, url, path.parent, scheme)
            training_screens(browser, url, path.parent, scheme)


if __name__ == "__main__":
    main()
