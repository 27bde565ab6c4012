"""Where a Chromium or Chrome is to drive headless, on Linux, macOS and Windows: the CHROMIUM
environment variable, Playwright's own builds, where each system's installers put one, PATH.

Standard library only: build.py (for the tests and benchmarks) and `autograd_playground check`
find a browser with the same code. build.py passes its .venv's folders where the running
interpreter's are the default.
"""

from __future__ import annotations

import os
import shutil
import site
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

# How Chromium is started: headless on a machine with no GPU, and quiet (nothing of its
# own fetched from the network).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

# Where Playwright's Chromium builds keep their executable, per system: Chrome for
# Testing (newer Playwright), then Chromium (older), as its browser registry lays them out.
PLAYWRIGHT_CHROMIUM = {
    "linux": ["chrome-linux64/chrome", "chrome-linux-arm64/chrome", "chrome-linux/chrome"],
    "darwin": [
        "chrome-mac-arm64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
        "chrome-mac-x64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
        "chrome-mac/Chromium.app/Contents/MacOS/Chromium",
    ],
    "win32": ["chrome-win64/chrome.exe", "chrome-win/chrome.exe"],
}
# Where PLAYWRIGHT_BROWSERS_PATH=0 puts the browsers: inside the playwright package.
PLAYWRIGHT_PACKAGE_BROWSERS = "playwright/driver/package/.local-browsers"
MACOS_APPLICATIONS = Path("/Applications")  # and ~/Applications
MACOS_APPS = [
    "Google Chrome.app/Contents/MacOS/Google Chrome",
    "Chromium.app/Contents/MacOS/Chromium",
    "Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
]
WINDOWS_APPS = [
    "Google/Chrome/Application/chrome.exe",
    "Chromium/Application/chrome.exe",
    "Microsoft/Edge/Application/msedge.exe",
]
# Folders that hold WINDOWS_APPS, by the environment variables that name them.
WINDOWS_APP_FOLDERS = ["ProgramFiles", "ProgramFiles(x86)", "LOCALAPPDATA"]
CHROMIUM_COMMANDS = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]
CHROMIUM_HINTS = {
    "linux": "install it, e.g. `sudo apt-get install -y chromium` on Debian"
             " or `sudo dnf install -y chromium` on Fedora",
    "darwin": "install Google Chrome, or Chromium with `brew install --cask chromium`",
    "win32": "install Google Chrome",
}


class ChromiumNotFoundError(Exception):
    """No Chromium to drive; the message says what to do about it."""


def system() -> str:
    """`win32`, `darwin` or `linux` (which stands for any other Unix too)."""
    return sys.platform if sys.platform in ("win32", "darwin") else "linux"


def running_site_packages() -> list[Path]:
    """The running interpreter's site-packages folders, where its playwright package is."""
    return [Path(folder) for folder in site.getsitepackages()]


def playwright_browsers(site_packages: Iterable[Path] | None = None) -> Path | None:
    """The folder where Playwright keeps the browsers it downloads, found as Playwright
    finds it: PLAYWRIGHT_BROWSERS_PATH (0 is inside its package, looked for in
    `site_packages`, by default the running interpreter's), else this system's cache."""
    configured = os.environ.get("PLAYWRIGHT_BROWSERS_PATH")
    if configured == "0":
        folders = running_site_packages() if site_packages is None else site_packages
        inside = (folder / PLAYWRIGHT_PACKAGE_BROWSERS for folder in folders)
        return next((browsers for browsers in inside if browsers.is_dir()), None)
    if configured:
        return Path(configured).absolute()
    if system() == "win32":
        cache = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif system() == "darwin":
        cache = Path.home() / "Library" / "Caches"
    else:
        cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "ms-playwright"


def chromium_candidates(site_packages: Iterable[Path] | None = None) -> Iterator[Path]:
    """Every place a Chromium may be, best first: Playwright's own builds, newest first,
    then where this system's installers put Chrome, Chromium or Edge, then PATH."""
    browsers = playwright_browsers(site_packages)
    if browsers and browsers.is_dir():
        revisions = {int(folder.name.removeprefix("chromium-")): folder
                     for folder in browsers.glob("chromium-*")
                     if folder.name.removeprefix("chromium-").isdigit()}
        for revision in sorted(revisions, reverse=True):
            yield from (revisions[revision] / layout for layout in PLAYWRIGHT_CHROMIUM[system()])
    if system() == "darwin":
        for app in MACOS_APPS:
            yield from (folder / app for folder in (MACOS_APPLICATIONS,
                                                    Path.home() / "Applications"))
    if system() == "win32":
        folders = [os.environ[name] for name in WINDOWS_APP_FOLDERS if os.environ.get(name)]
        for app in WINDOWS_APPS:
            yield from (Path(folder) / app for folder in folders)
    for command in CHROMIUM_COMMANDS:
        found = shutil.which(command)
        if found:
            yield Path(found)


def unquoted(value: str) -> str:
    """`value` without the quotes around it, as a path copied from Windows' Explorer
    ("Copy as path") or pasted from a shell command comes."""
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def is_executable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def find_chromium(python: str | Path = sys.executable,
                  site_packages: Iterable[Path] | None = None) -> Path:
    """The Chromium or Chrome to drive: the CHROMIUM environment variable (a path or a
    command), else the first of chromium_candidates(site_packages) there is. `python` is
    the interpreter whose Playwright the hint tells to fetch a Chromium."""
    configured = unquoted(os.environ.get("CHROMIUM", "").strip())
    if configured:
        found = shutil.which(configured)
        if not found:
            raise ChromiumNotFoundError(
                f"CHROMIUM={configured} is not an executable file: set the environment "
                "variable CHROMIUM to a Chromium or Chrome binary, or unset it")
        return Path(found).absolute()
    found = next((path for path in chromium_candidates(site_packages) if is_executable(path)),
                 None)
    if not found:
        raise ChromiumNotFoundError(
            f"no Chromium or Chrome found: {CHROMIUM_HINTS[system()]};\n"
            f"or let Playwright fetch its own: {python} -m playwright install "
            "chromium;\nor set the environment variable CHROMIUM to a Chromium or Chrome binary")
    return found
