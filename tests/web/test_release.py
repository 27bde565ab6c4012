"""What a release publishes (`python build.py release`): the engine's wheel, the authors'
wheel and the sdist, the same bytes from the same sources, each passing twine's strict
check, and the sdist a source tree whose build tests pass with no .git."""

from __future__ import annotations

import re
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

import build

pytestmark = pytest.mark.xdist_group("authoring")  # it builds the authors' wheel too


@pytest.fixture(scope="module")
def released(tmp_path_factory) -> list[Path]:
    return build.release_files(build.venv_python(), tmp_path_factory.mktemp("release"))


def test_a_release_is_two_wheels_and_an_sdist_of_the_engines_version(released):
    pyproject = (build.ROOT / "pyproject.toml").read_text(encoding="utf-8")
    version = re.search(r'^version = "(.+)"$', pyproject, re.MULTILINE)[1]
    assert [file.name for file in released] == [
        f"autograd_engine-{version}-py3-none-any.whl",
        f"autograd_playground-{version}-py3-none-any.whl", f"autograd_engine-{version}.tar.gz"]


def test_the_same_sources_give_the_same_bytes_whenever_they_are_built(released, tmp_path):
    for file in build.DIST.rglob("*"):  # as a later build of the site would leave them
        file.touch()
    again = build.release_files(build.venv_python(), tmp_path)
    assert [file.read_bytes() for file in again] == [file.read_bytes() for file in released]


def test_each_file_passes_twine_check_strict(released):
    checked = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *released],
                             capture_output=True, encoding="utf-8")
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_sdist_is_the_source_tree_and_its_build_tests_pass_there_without_git(
        released, tmp_path):
    with tarfile.open(released[-1]) as sdist:
        sdist.extractall(tmp_path, filter="data")
    (tree,) = tmp_path.iterdir()
    for part in ("build.py", ".ci/run", ".gitattributes", "README.md", "LICENSE",
                 "web/package-lock.json", "tests/test_build.py", "engine/graph.py"):
        assert (tree / part).is_file(), part
    for left_out in (".git", "web/node_modules", "dist", ".venv"):
        assert not (tree / left_out).exists(), left_out
    tested = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                             "tests/test_build.py"], cwd=tree, capture_output=True,
                            encoding="utf-8")
    assert tested.returncode == 0, tested.stdout[-3000:] + tested.stderr[-3000:]
