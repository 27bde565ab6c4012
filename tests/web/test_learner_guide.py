"""The site carries its learner guide, docs/learners.md rendered at build time: the full
page's header links to it, and it reads as the docs do, offline, in either theme."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

import build

from .test_accessibility import axe_violations, readable
from .test_page_theme import look, switch

GUIDE = build.LEARNER_GUIDE.read_text(encoding="utf-8")


@pytest.fixture
def guide(new_context, site):
    """The guide, opened from the full page's header as a learner would."""
    page = new_context(color_scheme="light").new_page()
    page.goto(site)
    page.locator("header").get_by_role("link", name="How to use the playground").click()
    page.wait_for_url(re.compile(r"learners\.html$"))
    return page


def test_the_full_pages_header_links_the_guide_with_the_docs_sections(guide):
    expect(guide).to_have_title(re.search(r"^# (.+)$", GUIDE, re.M)[1])
    sections = re.findall(r"^## (.+)$", GUIDE, re.M)
    assert guide.locator("main h2").all_inner_texts() == sections
    assert guide.locator("main h2").first.get_attribute("id") == "running-code"


def test_every_picture_shows_and_every_link_is_a_page_of_the_site(guide, site):
    widths = guide.locator("main img").evaluate_all(
        "imgs => Promise.all(imgs.map(img => { img.loading = 'eager';"
        " return img.decode().then(() => img.naturalWidth); }))")
    assert len(widths) == len(re.findall(r"!\[", GUIDE)) > 0
    assert all(width > 300 for width in widths), widths
    links = guide.locator("a").evaluate_all("links => links.map(a => a.href)")
    assert f"{site}index.html" in links and f"{site}course.html" in links
    for link in links:
        assert link.startswith(site), f"{link} leaves the site"
        assert guide.request.get(link).ok, f"{link} is not on the site"


@pytest.mark.parametrize("choice", ["light", "dark"])
def test_the_switch_sets_its_theme_and_axe_finds_no_violations(guide, choice):
    switch(guide).select_option(choice)
    guide.reload()
    assert look(guide) == choice
    violations = axe_violations(guide)
    assert [v["id"] for v in violations] == [], readable(violations)
