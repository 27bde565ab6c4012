"""The built static site the package carries, and copies of it wherever a course needs one."""

from __future__ import annotations

import shutil
from pathlib import Path

SITE = Path(__file__).parent / "site"
# The files that tell a copy of the site from any other folder.
MARKS = ("embed.js", "site.json")


class ExportError(Exception):
    """The site cannot be written there; the message says why."""


def site() -> Path:
    """The site's folder in the installed package."""
    if not all((SITE / mark).is_file() for mark in MARKS):
        raise FileNotFoundError(
            f"{SITE} holds no built site: install the autograd-playground wheel "
            "(`python build.py dist` builds it)")
    return SITE


def is_site(folder: Path) -> bool:
    return all((folder / mark).is_file() for mark in MARKS)


def export(target: Path) -> Path:
    """Copy the site into `target`: a new or empty folder, or an earlier copy of the site
    (whose files are overwritten). Any other folder, or a file, is refused: nothing of
    the author's is ever overwritten."""
    target = Path(target)
    if target.exists() and not target.is_dir():
        raise ExportError(f"{target} is a file, not a folder")
    if target.is_dir() and any(target.iterdir()) and not is_site(target):
        raise ExportError(
            f"{target} is not empty and holds no copy of the site (no {' and '.join(MARKS)}): "
            "export into a new or empty folder")
    # pip compiles the site's Python files (the runner's) where it installs them: their
    # __pycache__ is no part of the site.
    shutil.copytree(site(), target, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__"))
    return target
