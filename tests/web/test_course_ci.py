"""The authoring guide's GitHub Actions steps for a course (docs/authoring.md, "In GitHub
Actions"), run here on the example courses as a runner would run them: install, build,
check. The Playwright download of Chromium is the one step left out: this machine's
Chromium stands in, as `check` finds it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from xml.etree import ElementTree

import pytest

import build
from tests.web.authoring import COURSES, authors_wheel, docs_venv

pytestmark = pytest.mark.xdist_group("authoring")  # one process builds the venvs

GUIDE = build.ROOT / "docs" / "authoring.md"
PLAYWRIGHT_DOWNLOAD = "python -m playwright install --with-deps chromium"


def guide_steps() -> tuple[list[str], list[str]]:
    """The `run:` steps of the guide's Sphinx workflow, those of its MkDocs steps, and the
    install line it gives for MkDocs."""
    section = GUIDE.read_text(encoding="utf-8").split("### In GitHub Actions", 1)[1]
    sphinx, mkdocs = (re.findall(r"^ +- run: (.+)$", block, re.MULTILINE)
                      for block in re.findall(r"```yaml\n(.*?)```", section, re.S)[:2])
    mkdocs_install = re.search(r'`(pip install "autograd-playground\[check\]" mkdocs[^`]*)`',
                               section)[1]
    return sphinx, [mkdocs_install, *mkdocs]


def run_steps(steps: list[str], scripts: Path, repository: Path) -> None:
    """Each step in a shell in `repository`, with the venv the install step makes first
    on PATH, as `pip install` on the runner's Python would leave it."""
    env = {**os.environ, "PATH": f"{scripts}{os.pathsep}{os.environ['PATH']}",
           "GITHUB_ACTIONS": "true"}
    for step in steps:
        done = subprocess.run(step, shell=True, cwd=repository, env=env, capture_output=True,
                              encoding="utf-8", timeout=900)
        assert done.returncode == 0, f"{step}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"


def installs(step: str) -> list[str]:
    """The docs tools an install step names beside the package."""
    words = step.split()
    assert words[:3] == ["pip", "install", '"autograd-playground[check]"'], step
    return words[3:]


def checked(repository: Path) -> ElementTree.Element:
    """The JUnit report the check step wrote: every case passed."""
    suites = ElementTree.parse(repository / "check.xml").getroot()
    cases = suites.findall("testsuite/testcase")
    assert cases and not suites.findall(".//failure")
    return suites


def test_the_sphinx_workflows_steps_build_and_check_a_course(tmp_path):
    steps, _ = guide_steps()
    install, download, *rest = steps
    assert download == PLAYWRIGHT_DOWNLOAD
    scripts = docs_venv("sphinx-ci", authors_wheel(), installs(install),
                        extras="check")
    shutil.copytree(COURSES / "sphinx", tmp_path / "docs")
    run_steps(rest, scripts, tmp_path)
    names = [case.get("name") for case in checked(tmp_path).iter("testcase")]
    assert any("[docs/data-model.rst:" in name for name in names), names


def test_the_mkdocs_steps_build_and_check_a_course(tmp_path):
    _, steps = guide_steps()
    install, *rest = steps
    scripts = docs_venv("mkdocs-ci", authors_wheel(), installs(install), extras="check")
    shutil.copytree(COURSES / "mkdocs", tmp_path, dirs_exist_ok=True)
    run_steps(rest, scripts, tmp_path)
    names = [case.get("name") for case in checked(tmp_path).iter("testcase")]
    assert any("[docs/index.md:" in name for name in names), names
