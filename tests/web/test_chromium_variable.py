"""The CHROMIUM variable with a real browser: build.py finds the one it names, wherever it
is, and Playwright drives that one."""

from __future__ import annotations

import pytest

import build


def test_a_chromium_named_by_the_variable_is_found_there_and_loads_the_site(
    browser, site, tmp_path, monkeypatch
):
    elsewhere = tmp_path / "somewhere else" / "my-chromium"
    elsewhere.parent.mkdir()
    try:
        elsewhere.symlink_to(build.find_chromium())
    except OSError as refused:  # Windows, outside Developer Mode or an administrator's shell
        pytest.skip(f"this system refuses to make a symbolic link here: {refused}")
    monkeypatch.setenv("CHROMIUM", str(elsewhere))
    assert build.find_chromium() == elsewhere

    chromium = browser.browser_type.launch(executable_path=elsewhere, args=build.CHROMIUM_ARGS)
    try:
        page = chromium.new_page()
        page.goto(site)
        assert page.title() == "Autograd playground"
        assert page.evaluate("crossOriginIsolated") is True
    finally:
        chromium.close()
