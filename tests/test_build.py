"""build.py on Linux, macOS and Windows: where it finds a Chromium (with the package for
course authors, autograd_playground.chromium, and .venv), .venv's Python, npm and esbuild,
and how `serve` treats a busy port.

Every system's branch runs here by setting sys.platform; the file system is a
tmp_path with fake executables, and the environment names only what a test
puts there, so the machine's own browsers are never found.
"""

from __future__ import annotations

import errno
import fnmatch
import os
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

import build
from autograd_playground import chromium, server

SYSTEMS = ["linux", "darwin", "win32"]
# Where Playwright's registry puts a Chromium build's executable, per system: Chrome for
# Testing builds (newer Playwright) and Chromium builds (older Playwright).
PLAYWRIGHT_LAYOUTS = [
    ("linux", "chrome-linux64/chrome"),
    ("linux", "chrome-linux-arm64/chrome"),
    ("linux", "chrome-linux/chrome"),
    ("darwin", "chrome-mac-arm64/Google Chrome for Testing.app/Contents/MacOS/"
               "Google Chrome for Testing"),
    ("darwin", "chrome-mac-x64/Google Chrome for Testing.app/Contents/MacOS/"
               "Google Chrome for Testing"),
    ("darwin", "chrome-mac/Chromium.app/Contents/MacOS/Chromium"),
    ("win32", "chrome-win64/chrome.exe"),
    ("win32", "chrome-win/chrome.exe"),
]
# Playwright's cache folder when no variable moves it, under the home folder.
DEFAULT_CACHES = {
    "linux": ".cache/ms-playwright",
    "darwin": "Library/Caches/ms-playwright",
    "win32": "AppData/Local/ms-playwright",
}
GOOGLE_CHROME = "Google/Chrome/Application/chrome.exe"
EDGE = "Microsoft/Edge/Application/msedge.exe"
MAC_CHROME = "Google Chrome.app/Contents/MacOS/Google Chrome"
MAC_CHROMIUM = "Chromium.app/Contents/MacOS/Chromium"
MAC_EDGE = "Microsoft Edge.app/Contents/MacOS/Microsoft Edge"


def executable(path: Path) -> Path:
    """A fake program at `path`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n", encoding="utf-8")
    path.chmod(0o755)
    return path


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """An empty home folder, PATH, /Applications and .venv, and none of the variables
    that lead to a browser."""
    for name in ["CHROMIUM", "PLAYWRIGHT_BROWSERS_PATH", "XDG_CACHE_HOME", "LOCALAPPDATA",
                 "ProgramFiles", "ProgramFiles(x86)"]:
        monkeypatch.delenv(name, raising=False)
    for folder in ["home", "bin", "Applications", "venv"]:
        (tmp_path / folder).mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.setattr(chromium, "MACOS_APPLICATIONS", tmp_path / "Applications")
    monkeypatch.setattr(build, "VENV", tmp_path / "venv")
    return tmp_path / "home"


def on(monkeypatch: pytest.MonkeyPatch, system: str) -> None:
    monkeypatch.setattr(sys, "platform", system)


def missing_message() -> str:
    with pytest.raises(chromium.ChromiumNotFoundError) as missing:
        build.find_chromium()
    return str(missing.value)


# The CHROMIUM variable


@pytest.mark.parametrize("system", SYSTEMS)
def test_chromium_variable_comes_before_every_other_place(home, monkeypatch, tmp_path, system):
    on(monkeypatch, system)
    for _, layout in PLAYWRIGHT_LAYOUTS:
        executable(home / DEFAULT_CACHES[system] / "chromium-1248" / layout)
    executable(tmp_path / "bin" / "chromium")
    mine = executable(tmp_path / "elsewhere" / "my chrome")
    monkeypatch.setenv("CHROMIUM", str(mine))
    assert build.find_chromium() == mine


def test_chromium_variable_may_name_a_command_on_path(home, monkeypatch, tmp_path):
    on(monkeypatch, "linux")
    chrome = executable(tmp_path / "bin" / "google-chrome-beta")
    monkeypatch.setenv("CHROMIUM", "google-chrome-beta")
    assert build.find_chromium() == chrome


@pytest.mark.parametrize("quote", ['"', "'"])
def test_chromium_variable_may_come_in_quotes(home, monkeypatch, tmp_path, quote):
    mine = executable(tmp_path / "Program Files" / "my chrome")
    monkeypatch.setenv("CHROMIUM", f"{quote}{mine}{quote}")
    assert build.find_chromium() == mine


@pytest.mark.parametrize("what", ["nothing", "a folder", "a file that is not executable"])
def test_chromium_variable_pointing_at_no_program_is_an_error_naming_it(
    home, monkeypatch, tmp_path, what
):
    target = tmp_path / "chrome"
    if what == "a folder":
        target.mkdir()
    elif what == "a file that is not executable":
        target.write_text("not a program", encoding="utf-8")
    executable(tmp_path / "bin" / "chromium")  # there, but the variable says otherwise
    monkeypatch.setenv("CHROMIUM", str(target))
    message = missing_message()
    assert f"CHROMIUM={target} is not an executable file" in message


# Playwright's own browsers


@pytest.mark.parametrize(("system", "layout"), PLAYWRIGHT_LAYOUTS)
def test_playwright_chromium_is_found_in_the_systems_default_cache(
    home, monkeypatch, system, layout
):
    on(monkeypatch, system)
    chrome = executable(home / DEFAULT_CACHES[system] / "chromium-1248" / layout)
    assert build.find_chromium() == chrome


@pytest.mark.parametrize(("system", "variable"), [("linux", "XDG_CACHE_HOME"),
                                                  ("win32", "LOCALAPPDATA")])
def test_playwright_cache_follows_the_systems_cache_variable(
    home, monkeypatch, tmp_path, system, variable
):
    on(monkeypatch, system)
    monkeypatch.setenv(variable, str(tmp_path / "cache"))
    layout = dict(PLAYWRIGHT_LAYOUTS)[system]
    executable(home / DEFAULT_CACHES[system] / "chromium-1" / layout)
    chrome = executable(tmp_path / "cache" / "ms-playwright" / "chromium-2" / layout)
    assert build.find_chromium() == chrome


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_playwright_build_for_another_system_is_not_taken(home, monkeypatch, system):
    on(monkeypatch, system)
    for other, layout in PLAYWRIGHT_LAYOUTS:
        if other != system:
            executable(home / DEFAULT_CACHES[system] / "chromium-1248" / layout)
    assert "no Chromium or Chrome found" in missing_message()


def test_playwright_browsers_path_replaces_the_default_cache(home, monkeypatch, tmp_path):
    on(monkeypatch, "linux")
    executable(home / ".cache/ms-playwright/chromium-2000/chrome-linux64/chrome")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", "browsers")  # relative to the cwd
    chrome = executable(tmp_path / "browsers/chromium-1000/chrome-linux64/chrome")
    assert build.find_chromium() == chrome


@pytest.mark.parametrize(("system", "site_packages"), [("linux", "lib/python3.11/site-packages"),
                                                       ("win32", "Lib/site-packages")])
def test_playwright_browsers_path_0_means_inside_the_playwright_package_in_venv(
    home, monkeypatch, tmp_path, system, site_packages
):
    on(monkeypatch, system)
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", "0")
    layout = dict(PLAYWRIGHT_LAYOUTS)[system]
    executable(home / DEFAULT_CACHES[system] / "chromium-2000" / layout)
    browsers = tmp_path / "venv" / site_packages / "playwright/driver/package/.local-browsers"
    chrome = executable(browsers / "chromium-1000" / layout)
    assert build.find_chromium() == chrome


@pytest.mark.parametrize("system", ["linux", "win32"])
def test_outside_build_py_playwright_browsers_path_0_means_the_running_pythons_package(
    home, monkeypatch, tmp_path, system
):
    on(monkeypatch, system)
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", "0")
    layout = dict(PLAYWRIGHT_LAYOUTS)[system]
    executable(tmp_path / "venv" / "site-packages" / chromium.PLAYWRIGHT_PACKAGE_BROWSERS
               / "chromium-1000" / layout)  # .venv's, which only build.py looks in
    running = tmp_path / "python" / "site-packages"
    monkeypatch.setattr(chromium.site, "getsitepackages", lambda: [str(running)])
    chrome = executable(running / chromium.PLAYWRIGHT_PACKAGE_BROWSERS / "chromium-999" / layout)
    assert chromium.find_chromium() == chrome


def test_the_newest_playwright_build_wins_and_other_browsers_are_left_alone(home, monkeypatch):
    on(monkeypatch, "linux")
    cache = home / ".cache/ms-playwright"
    executable(cache / "chromium-999/chrome-linux64/chrome")
    newest = executable(cache / "chromium-1248/chrome-linux64/chrome")
    executable(cache / "chromium-1100/chrome-linux/chrome")
    executable(cache / "chromium_headless_shell-2000/chrome-linux64/chrome")
    executable(cache / "chromium-tip-of-tree/chrome-linux64/chrome")
    assert build.find_chromium() == newest


def test_a_playwright_build_comes_before_an_installed_browser(home, monkeypatch, tmp_path):
    on(monkeypatch, "win32")
    monkeypatch.setenv("ProgramFiles", str(tmp_path / "Program Files"))
    executable(tmp_path / "Program Files" / GOOGLE_CHROME)
    chrome = executable(home / "AppData/Local/ms-playwright/chromium-1248/chrome-win64/chrome.exe")
    assert build.find_chromium() == chrome


# Where each system's installers put a browser


@pytest.mark.parametrize("variable", ["ProgramFiles", "ProgramFiles(x86)", "LOCALAPPDATA"])
def test_windows_finds_google_chrome_where_its_installer_puts_it(
    home, monkeypatch, tmp_path, variable
):
    on(monkeypatch, "win32")
    monkeypatch.setenv(variable, str(tmp_path / variable))
    chrome = executable(tmp_path / variable / GOOGLE_CHROME)
    assert build.find_chromium() == chrome


def test_windows_takes_chrome_before_edge_and_edge_when_alone(home, monkeypatch, tmp_path):
    on(monkeypatch, "win32")
    monkeypatch.setenv("ProgramFiles(x86)", str(tmp_path / "x86"))
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "local"))
    edge = executable(tmp_path / "x86" / EDGE)
    assert build.find_chromium() == edge
    chrome = executable(tmp_path / "local" / GOOGLE_CHROME)
    assert build.find_chromium() == chrome


@pytest.mark.parametrize("app", [MAC_CHROME, MAC_CHROMIUM, MAC_EDGE])
@pytest.mark.parametrize("folder", ["Applications", "home/Applications"])
def test_macos_finds_an_app_in_applications_or_the_users_applications(
    home, monkeypatch, tmp_path, folder, app
):
    on(monkeypatch, "darwin")
    chrome = executable(tmp_path / folder / app)
    assert build.find_chromium() == chrome


def test_macos_takes_chrome_before_chromium_before_edge(home, monkeypatch, tmp_path):
    on(monkeypatch, "darwin")
    executable(tmp_path / "Applications" / MAC_EDGE)
    executable(home / "Applications" / MAC_CHROMIUM)
    chrome = executable(home / "Applications" / MAC_CHROME)
    assert build.find_chromium() == chrome


def test_macos_looks_in_the_systems_applications_folder():
    assert Path("/Applications") == chromium.MACOS_APPLICATIONS


@pytest.mark.parametrize(
    "command", ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]
)
def test_linux_finds_a_browser_on_path(home, monkeypatch, tmp_path, command):
    on(monkeypatch, "linux")
    chrome = executable(tmp_path / "bin" / command)
    assert build.find_chromium() == chrome


def test_a_file_that_is_not_executable_is_passed_over(home, monkeypatch, tmp_path):
    on(monkeypatch, "linux")
    (home / ".cache/ms-playwright/chromium-1248/chrome-linux64").mkdir(parents=True)
    (home / ".cache/ms-playwright/chromium-1248/chrome-linux64/chrome").write_text("",
        encoding="utf-8")
    chrome = executable(tmp_path / "bin" / "chromium")
    assert build.find_chromium() == chrome


# When there is none


@pytest.mark.parametrize(("system", "hint"), [
    ("linux", "sudo apt-get install -y chromium"),
    ("linux", "sudo dnf install -y chromium"),
    ("darwin", "brew install --cask chromium"),
    ("darwin", "install Google Chrome"),
    ("win32", "install Google Chrome"),
])
def test_no_browser_says_what_to_install_on_this_system(home, monkeypatch, system, hint):
    on(monkeypatch, system)
    message = missing_message()
    assert hint in message
    assert "-m playwright install chromium" in message
    assert "set the environment variable CHROMIUM" in message


def test_outside_build_py_the_hint_names_the_running_python(home, monkeypatch):
    on(monkeypatch, "linux")
    with pytest.raises(chromium.ChromiumNotFoundError) as missing:
        chromium.find_chromium()
    assert f"{sys.executable} -m playwright install chromium" in str(missing.value)
    assert str(build.venv_python_path()) in missing_message()


@pytest.mark.parametrize("system", ["darwin", "win32"])
def test_no_apt_get_hint_off_linux(home, monkeypatch, system):
    on(monkeypatch, system)
    assert "apt-get" not in missing_message()


@pytest.fixture
def commands(monkeypatch) -> list[list[str]]:
    """The commands build.run is asked to run, none of them run."""
    ran: list[list[str]] = []
    monkeypatch.setattr(build, "run", lambda *cmd, cwd=build.ROOT: ran.append(
        [str(part) for part in cmd]))
    return ran


def test_ensure_chromium_installs_debians_when_root_with_apt_get(home, monkeypatch, commands):
    on(monkeypatch, "linux")
    monkeypatch.setattr(build, "can_apt_get", lambda: True)
    build.ensure_chromium()
    assert commands == [["apt-get", "update"], ["apt-get", "install", "-y", "chromium"]]


def test_ensure_chromium_stops_with_the_hint_when_it_cannot_install(home, monkeypatch, commands):
    on(monkeypatch, "darwin")
    with pytest.raises(SystemExit) as stop:
        build.ensure_chromium()
    assert "build.py: no Chromium or Chrome found" in str(stop.value.code)
    assert "brew install --cask chromium" in str(stop.value.code)
    assert commands == []


def test_ensure_chromium_installs_nothing_when_the_variable_is_wrong(
    home, monkeypatch, tmp_path, commands
):
    on(monkeypatch, "linux")
    monkeypatch.setattr(build, "can_apt_get", lambda: True)
    monkeypatch.setenv("CHROMIUM", str(tmp_path / "nothing"))
    with pytest.raises(SystemExit) as stop:
        build.ensure_chromium()
    assert f"CHROMIUM={tmp_path / 'nothing'}" in str(stop.value.code)
    assert commands == []


def test_ensure_chromium_does_nothing_when_there_is_one(home, monkeypatch, tmp_path, commands):
    on(monkeypatch, "linux")
    monkeypatch.setattr(build, "can_apt_get", lambda: True)
    executable(tmp_path / "bin" / "chromium")
    build.ensure_chromium()
    assert commands == []


@pytest.mark.parametrize("system", ["darwin", "win32"])
def test_apt_get_is_for_linux_only_and_windows_has_no_euid(monkeypatch, tmp_path, system):
    on(monkeypatch, system)
    monkeypatch.delattr(os, "geteuid", raising=False)
    executable(tmp_path / "apt-get")
    monkeypatch.setenv("PATH", str(tmp_path))
    assert build.can_apt_get() is False


# .venv, npm and esbuild


@pytest.mark.parametrize(("system", "python"), [("linux", "bin/python"),
                                                ("darwin", "bin/python"),
                                                ("win32", "Scripts/python.exe")])
def test_the_venv_python_is_where_venv_puts_it_on_each_system(
    monkeypatch, tmp_path, system, python
):
    on(monkeypatch, system)
    monkeypatch.setattr(build, "VENV", tmp_path / ".venv")
    executable(tmp_path / ".venv" / python)
    assert build.venv_python() == tmp_path / ".venv" / python


@pytest.mark.parametrize(("system", "name"), [("linux", "esbuild"), ("darwin", "esbuild"),
                                              ("win32", "esbuild.cmd")])
def test_esbuild_is_npms_launcher_for_the_system(monkeypatch, system, name):
    on(monkeypatch, system)
    assert build.esbuild() == build.WEB / "node_modules" / ".bin" / name


def test_npm_runs_by_the_full_path_found_on_path(monkeypatch, tmp_path, commands):
    npm = str(tmp_path / "nodejs" / "npm.cmd")
    monkeypatch.setattr(shutil, "which", lambda name: npm if name == "npm" else None)
    monkeypatch.setattr(build, "WEB", tmp_path / "web")
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "package-lock.json").write_text("{}", encoding="utf-8")
    build.npm_ci()
    assert commands == [[npm, "ci", "--no-audit", "--no-fund"]]


# serve


@pytest.fixture
def lone_build(tmp_path: Path) -> Path:
    """build.py (and the modules it imports) copied into an otherwise empty folder with a
    dist/ of one file, so that whatever it builds there shows, and the real dist/ is never
    touched."""
    shutil.copy2(build.ROOT / "build.py", tmp_path / "build.py")
    package = Path("web", "authors", "autograd_playground")
    shutil.copytree(build.ROOT / package, tmp_path / package,
                    ignore=shutil.ignore_patterns("__pycache__", "site"))
    (tmp_path / "dist").mkdir()
    (tmp_path / "dist" / "index.html").write_text("being served", encoding="utf-8")
    return tmp_path


def run_build(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, folder / "build.py", *args], cwd=folder,
                          capture_output=True, encoding="utf-8", timeout=120)


def test_serve_on_a_busy_port_says_so_and_builds_nothing(lone_build, busy_port):
    served = run_build(lone_build, "serve", "--port", str(busy_port))
    assert served.returncode != 0
    match = re.fullmatch(rf"build\.py: port {busy_port} is in use; try --port (\d+)\n",
                         served.stderr)
    assert match, served.stderr
    assert sorted(p.name for p in lone_build.iterdir()) == ["build.py", "dist", "web"]
    assert [p.name for p in (lone_build / "dist").iterdir()] == ["index.html"]
    assert (lone_build / "dist" / "index.html").read_text(encoding="utf-8") == "being served"
    suggested = int(match[1])
    assert suggested != busy_port
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", suggested))


def test_free_port_skips_a_busy_port(busy_port):
    assert server.free_port(busy_port - 1) != busy_port


@pytest.mark.parametrize("port", ["65536", "-1", "eighty"])
def test_serve_refuses_what_is_not_a_port_number(lone_build, port):
    served = run_build(lone_build, "serve", "--port", port)
    assert served.returncode == 2
    assert f"argument --port: '{port}' is not a port number (0 to 65535)" in served.stderr
    assert sorted(p.name for p in lone_build.iterdir()) == ["build.py", "dist", "web"]


@pytest.mark.parametrize("refusal", [errno.EACCES, server.WSAEACCES], ids=["EACCES", "WSAEACCES"])
def test_a_port_the_system_reserves_gets_a_free_one_to_try(monkeypatch, busy_port, refusal):
    def refused(*args: object) -> None:
        raise OSError(refusal, "An attempt was made to access a socket in a way forbidden")

    monkeypatch.setattr(server, "make_server", refused)
    with pytest.raises(SystemExit) as stopped:
        server.take_port(build.DIST, busy_port, True, "build.py")
    message = str(stopped.value)
    assert message.startswith(f"build.py: port {busy_port} may not be used here (")
    suggested = int(re.search(r"try --port (\d+)$", message)[1])
    assert suggested not in (0, busy_port)


# Folders the build empties

def test_a_folder_held_for_a_moment_is_emptied_on_a_later_try(monkeypatch, tmp_path):
    folder = tmp_path / "dist"
    (folder / "chunks").mkdir(parents=True)
    (folder / "chunks" / "embed.js").write_text("old", encoding="utf-8")
    delete, tries = shutil.rmtree, []

    def held_once(path: Path) -> None:
        tries.append(path)
        if len(tries) == 1:
            raise PermissionError(13, "Access is denied", str(folder / "chunks" / "embed.js"))
        delete(path)

    monkeypatch.setattr(shutil, "rmtree", held_once)
    build.fresh_folder(folder, wait_s=0)
    assert len(tries) == 2
    assert list(folder.iterdir()) == []


def test_a_folder_held_for_good_stops_the_build_naming_the_file(monkeypatch, tmp_path):
    held = tmp_path / "dist" / "pyodide" / "pyodide.asm.wasm"
    held.parent.mkdir(parents=True)

    def refuse(path: Path) -> None:
        raise PermissionError(13, "Access is denied", str(held))

    monkeypatch.setattr(shutil, "rmtree", refuse)
    with pytest.raises(SystemExit) as stopped:
        build.fresh_folder(tmp_path / "dist", tries=3, wait_s=0)
    assert str(stopped.value).startswith(f"build.py: cannot delete {held}: Access is denied; ")


def test_a_missing_folder_is_made(tmp_path):
    build.fresh_folder(tmp_path / "build" / "wheel")
    assert (tmp_path / "build" / "wheel").is_dir()


# Every system

def test_build_py_says_which_python_it_needs_before_anything_else():
    older = ("import sys; sys.version_info = (3, 9, 18, 'final', 0); "
             "exec(compile(open(sys.argv[1], encoding='utf-8').read(), 'build.py', 'exec'))")
    ran = subprocess.run([sys.executable, "-c", older, build.ROOT / "build.py"],
                         capture_output=True, encoding="utf-8", timeout=60)
    assert ran.returncode == 1
    assert ran.stderr.startswith("build.py needs Python 3.10 or newer; this is Python ")


@pytest.mark.parametrize("path", [".ci/run", "build.py", "web/page/playground.js",
                                  "web/playground_runner/__init__.py", "README.md"])
def test_text_files_check_out_with_lf_line_ends_on_every_system(path):
    """By .gitattributes as git reads it (a pattern without a slash matches the file's
    name; a later line wins), so that this holds in a source archive with no .git too."""
    attributes: dict[str, str] = {}
    lines = (build.ROOT / ".gitattributes").read_text(encoding="utf-8").splitlines()
    for line in lines:
        if not line.strip() or line.startswith("#"):
            continue
        pattern, *settings = line.split()
        if fnmatch.fnmatch(Path(path).name, pattern):
            for setting in settings:
                name, _, value = setting.partition("=")
                attributes[name] = value or "set"
    assert attributes == {"text": "auto", "eol": "lf"}
    assert b"\r\n" not in (build.ROOT / path).read_bytes()
