"""Build, serve and test the playground site.

    python build.py                 build dist/, a self-contained static site
    python build.py serve [--port N] [--no-isolation]
                                    build, then serve dist/ on localhost
    python build.py test            install the test tools, build, run ruff and pytest
    python build.py screenshot      build, then write docs/screenshot.png and docs/graph.png
    python build.py bench           build, then run bench/engine.py and bench/page.py

Standard library only, on Linux, macOS and Windows. `build` and `serve` need
only Python >= 3.10 and Node.js with npm (Node makes Python's memory snapshot
with Pyodide's own loader): everything else (the engine's build backend,
Pyodide, CodeMirror, esbuild) is installed by the steps below. `test`,
`screenshot` and `bench` also install pytest and Playwright into .venv, and
need a Chromium or Chrome: see find_chromium() for where it is looked for.
On Linux `test` also runs smoke tests in Firefox ESR and WebKitGTK: it
installs Selenium and marionette_driver into .venv, and firefox-esr,
WebKitGTK's WebDriver and Xvfb with apt-get.
"""

from __future__ import annotations

import argparse
import errno
import functools
import hashlib
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import venv
import zipfile
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).parent.absolute()
WEB = ROOT / "web"
DIST = ROOT / "dist"
BUILD = ROOT / "build"
VENV = ROOT / ".venv"
# How the tests and benchmarks start Chromium: headless on a machine with no
# GPU, and quiet (nothing of its own fetched from the network).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
# The other engines the smoke tests drive (tests/web/engines/): Debian's Firefox ESR,
# over Marionette, its own protocol (no geckodriver needed);
# WebKitGTK's WebDriver, with the MiniBrowser it starts, in a window on Xvfb.
FIREFOX = Path("/usr/bin/firefox-esr")
WEBKIT_DRIVER = Path("/usr/bin/WebKitWebDriver")
MINIBROWSER = "/usr/lib/*/webkit2gtk-4.1/MiniBrowser"

# The files of the npm package `pyodide` that the site loads; the rest
# (consoles, type declarations, source maps, the Node.js loader) stay behind.
PYODIDE_FILES = [
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
]
# Files copied from web/ to the top of dist/ as they are.
STATIC_FILES = ["index.html", "course.html", "embed.html", "bare.html", "worker.js",
                "python-files.js", "static-data.js"]
# The Python package the worker runs code with: copied to dist/ and listed in site.json
# (for a fresh boot), and in snapshot/files.json (for a restore and the snapshot maker).
RUNNER = "playground_runner"

MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".py": "text/plain; charset=utf-8",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".gz": "application/gzip",
}


def run(*cmd: str | Path, cwd: Path = ROOT) -> None:
    """Run a command, echoing it, and stop the build if it fails."""
    print("+", " ".join(str(c) for c in cmd), flush=True)
    if subprocess.call([str(c) for c in cmd], cwd=cwd) != 0:
        sys.exit(f"build.py: failed: {' '.join(str(c) for c in cmd)}")


def can_apt_get() -> bool:
    """Whether we may install system packages: root on a Linux with apt-get."""
    return (sys.platform.startswith("linux") and os.geteuid() == 0
            and shutil.which("apt-get") is not None)


@functools.cache
def apt_get_update() -> None:
    """Refresh apt's package lists, once a build however many packages it installs."""
    run("apt-get", "update")


def apt_get_install(package: str) -> None:
    apt_get_update()
    run("apt-get", "install", "-y", package)


def need(program: str, apt_package: str) -> str:
    """The full path of a system program (npm is npm.cmd on Windows), installed through
    apt-get when it is missing and we can, else stop saying how to install it."""
    if not shutil.which(program) and can_apt_get():
        apt_get_install(apt_package)
    found = shutil.which(program)
    if not found:
        sys.exit(
            f"build.py: {program} is missing. Install it, e.g. on Debian or Ubuntu:\n"
            f"    sudo apt-get install -y {apt_package}"
        )
    return found


def system() -> str:
    """`win32`, `darwin` or `linux` (which stands for any other Unix too)."""
    return sys.platform if sys.platform in ("win32", "darwin") else "linux"


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


def venv_python_path() -> Path:
    """Where .venv keeps its Python on this system."""
    return VENV / ("Scripts/python.exe" if system() == "win32" else "bin/python")


def playwright_browsers() -> Path | None:
    """The folder where Playwright keeps the browsers it downloads, found as Playwright
    finds it: PLAYWRIGHT_BROWSERS_PATH (0 is inside its package), else this system's cache."""
    configured = os.environ.get("PLAYWRIGHT_BROWSERS_PATH")
    if configured == "0":  # in the playwright package, in .venv
        packages = [*VENV.glob("lib/python3*/site-packages"), VENV / "Lib" / "site-packages"]
        inside = "playwright/driver/package/.local-browsers"
        return next((folder / inside for folder in packages if (folder / inside).is_dir()), None)
    if configured:
        return Path(configured).absolute()
    if system() == "win32":
        cache = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif system() == "darwin":
        cache = Path.home() / "Library" / "Caches"
    else:
        cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "ms-playwright"


def chromium_candidates() -> Iterator[Path]:
    """Every place a Chromium may be, best first: Playwright's own builds, newest first,
    then where this system's installers put Chrome, Chromium or Edge, then PATH."""
    browsers = playwright_browsers()
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


def is_executable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def find_chromium() -> Path:
    """The Chromium or Chrome the tests and benchmarks drive: the CHROMIUM environment
    variable (a path or a command), else the first of chromium_candidates() there is."""
    configured = os.environ.get("CHROMIUM")
    if configured:
        found = shutil.which(configured)
        if not found:
            raise ChromiumNotFoundError(
                f"CHROMIUM={configured} is not an executable file: set the environment "
                "variable CHROMIUM to a Chromium or Chrome binary, or unset it")
        return Path(found).absolute()
    found = next((path for path in chromium_candidates() if is_executable(path)), None)
    if not found:
        raise ChromiumNotFoundError(
            f"no Chromium or Chrome found: {CHROMIUM_HINTS[system()]};\n"
            f"or let Playwright fetch its own: {venv_python_path()} -m playwright install "
            "chromium;\nor set the environment variable CHROMIUM to a Chromium or Chrome binary")
    return found


def ensure_chromium() -> None:
    """Make sure find_chromium() finds one: else install Debian's chromium when we can,
    else stop saying what to install."""
    try:
        find_chromium()
    except ChromiumNotFoundError as missing:
        if os.environ.get("CHROMIUM") or not can_apt_get():
            sys.exit(f"build.py: {missing}")
        apt_get_install("chromium")


def install_firefox() -> None:
    """Debian's Firefox ESR, for tests/web/engines/, when it is missing."""
    need(str(FIREFOX), "firefox-esr")


def install_webkit() -> None:
    """WebKitGTK's WebDriver (its package brings the library, MiniBrowser included) and
    Xvfb, for tests/web/engines/, when they are missing: WebKitGTK has no headless mode."""
    need(str(WEBKIT_DRIVER), "webkit2gtk-driver")
    need("Xvfb", "xvfb")


def minibrowser() -> Path:
    """The MiniBrowser that WebKitWebDriver starts, in the library's directory for this
    machine's architecture."""
    found = sorted(Path("/").glob(MINIBROWSER.lstrip("/")))
    if not found:
        raise FileNotFoundError(f"no {MINIBROWSER}: run `python build.py test` to install it")
    return found[0]


def venv_python() -> Path:
    """The project's .venv, created on first use; builds and tests run in it."""
    python = venv_python_path()
    if not python.exists():
        try:
            venv.create(VENV, with_pip=True)
        except subprocess.CalledProcessError:
            shutil.rmtree(VENV, ignore_errors=True)
            sys.exit("build.py: could not create .venv with pip; on Debian or Ubuntu:\n"
                     "    sudo apt-get install -y python3-venv")
    return python


def install_test_deps(python: Path) -> None:
    """Install the package with its `test` and `bench` extras (micrograd, to measure
    against), again only when pyproject.toml changed."""
    stamp = VENV / "pyproject.sha256"
    requirement = ".[test,bench]"
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + requirement.encode())
    if stamp.exists() and stamp.read_text() == digest.hexdigest():
        return
    run(python, "-m", "pip", "install", "--quiet", "-e", requirement)
    stamp.write_text(digest.hexdigest())


def engine_wheel(python: Path) -> Path:
    """Build the engine's py3-none-any wheel with pip (its backend comes from PyPI)."""
    out = BUILD / "wheel"
    shutil.rmtree(out, ignore_errors=True)
    run(python, "-m", "pip", "wheel", "--quiet", "--no-deps", ".", "-w", out)
    (wheel,) = out.glob("*.whl")
    return wheel


def micropip_wheel(python: Path) -> Path:
    """Fetch micropip's wheel, pinned and hash-checked, for Pyodide's Python version."""
    lock = json.loads((WEB / "node_modules" / "pyodide" / "pyodide-lock.json").read_text())
    out = BUILD / "micropip"
    shutil.rmtree(out, ignore_errors=True)
    run(
        python, "-m", "pip", "download", "--quiet", "--no-deps", "--require-hashes",
        "--only-binary=:all:", f"--python-version={lock['info']['python']}",
        "-r", WEB / "micropip-requirements.txt", "-d", out,
    )
    (wheel,) = out.glob("micropip-*.whl")
    return wheel


def npm_ci() -> None:
    """Install web/'s npm packages exactly as package-lock.json pins them, when it changed."""
    npm = need("npm", "npm")
    installed = WEB / "node_modules" / ".package-lock.json"
    lock = WEB / "package-lock.json"
    if not installed.exists() or installed.stat().st_mtime < lock.stat().st_mtime:
        run(npm, "ci", "--no-audit", "--no-fund", cwd=WEB)


def esbuild() -> Path:
    """esbuild as npm installed it: a native binary, or on Windows a .cmd that runs it
    through node."""
    return WEB / "node_modules" / ".bin" / ("esbuild.cmd" if system() == "win32" else "esbuild")


def bundle() -> None:
    """Bundle the page's JavaScript and CSS into ES modules: embed.js, the element, and
    CodeMirror as a chunk of its own that the element imports without waiting for it;
    then, on its own, the worker that lays out the graph's picture with Graphviz. Two
    runs, so no code is shared into a chunk: embed.js must stay at the top of dist/,
    since it finds the site's files from its own URL."""
    common = ["--bundle", "--format=esm", "--target=es2022", "--minify", "--sourcemap",
              "--log-level=warning", f"--outdir={DIST}"]
    run(esbuild(), WEB / "src" / "embed.js", *common, "--splitting",
        "--loader:.css=text", "--loader:.py=text", "--chunk-names=chunks/[name]-[hash]")
    run(esbuild(), WEB / "src" / "layout-worker.js", *common)


def runner_files() -> list[str]:
    """The runner package's files, by their path under web/ (and dist/, and Pyodide's home)."""
    return sorted(p.relative_to(WEB).as_posix() for p in (WEB / RUNNER).glob("*.py"))


def copy_site(engine: Path, micropip: Path) -> None:
    """Lay out dist/: pages, worker, Python glue, Pyodide, wheels, and site.json,
    which tells the worker the wheels' and the runner's file names."""
    for name in STATIC_FILES:
        shutil.copy2(WEB / name, DIST / name)
    (DIST / "pyodide").mkdir()
    for name in PYODIDE_FILES:
        shutil.copy2(WEB / "node_modules" / "pyodide" / name, DIST / "pyodide" / name)
    (DIST / "wheels").mkdir()
    for wheel in (engine, micropip):
        shutil.copy2(wheel, DIST / "wheels" / wheel.name)
    for name in runner_files():
        (DIST / name).parent.mkdir(exist_ok=True)
        shutil.copy2(WEB / name, DIST / name)
    manifest = {"engine": f"wheels/{engine.name}", "micropip": f"wheels/{micropip.name}",
                "runner": {"module": RUNNER, "files": runner_files()}}
    write_site_json(manifest)


def write_site_json(manifest: dict) -> None:
    (DIST / "site.json").write_text(json.dumps(manifest, indent=2) + "\n")


def snapshot_files(engine: Path) -> dict[str, dict[str, str]]:
    """The files a snapshot's Python was made with, which it needs again in its file
    system (for tracebacks' source lines, importlib.metadata): the wheel's, by their
    place in site-packages, and the runner's, by their name in the home folder."""
    with zipfile.ZipFile(engine) as wheel:
        packages = {name: wheel.read(name).decode() for name in wheel.namelist()
                    if not name.endswith("/")}
    home = {name: (WEB / name).read_text() for name in runner_files()}
    return {"site-packages": packages, "home": home}


def make_snapshot(engine: Path) -> None:
    """Make snapshot/memory.gz with Node from dist/'s own Pyodide: Python with the engine
    and the runner imported, which the worker restores instead of booting Python. Then
    add it to site.json, with its hash, which the worker checks (a stale or damaged
    snapshot is not restored)."""
    folder = DIST / "snapshot"
    folder.mkdir()
    (folder / "files.json").write_text(json.dumps(snapshot_files(engine)))
    run(need("node", "nodejs"), WEB / "make-snapshot.mjs", DIST)
    gzipped = (folder / "memory.gz").read_bytes()
    manifest = json.loads((DIST / "site.json").read_text())
    manifest["snapshot"] = {"memory": "snapshot/memory.gz",
                            "sha256": hashlib.sha256(gzipped).hexdigest(),
                            # Inflated (gzip's trailer has it), for the worker's buffer.
                            "size": int.from_bytes(gzipped[-4:], "little"),
                            "files": "snapshot/files.json"}
    write_site_json(manifest)


def build() -> None:
    """Build dist/ from scratch."""
    python = venv_python()
    npm_ci()
    engine, micropip = engine_wheel(python), micropip_wheel(python)
    shutil.rmtree(DIST, ignore_errors=True)
    DIST.mkdir()
    bundle()
    copy_site(engine, micropip)
    make_snapshot(engine)
    print(f"built {DIST}")


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files with the MIME types Pyodide needs and, optionally, cross-origin isolation.

    Isolation (COOP + COEP) makes SharedArrayBuffer available, which is what
    lets Stop interrupt Python instead of restarting it. Every file may be
    loaded by a course page on another origin: CORS for embed.js's module
    imports and fetches, CORP so that a cross-origin isolated page may too.
    """

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    isolation = True
    quiet = False

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Cross-Origin-Resource-Policy", "cross-origin")
        self.send_header("Access-Control-Allow-Origin", "*")
        if self.isolation:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        if not self.quiet:
            super().log_message(format, *args)


class Server(http.server.ThreadingHTTPServer):
    """A threading HTTP server that owns its port. On Windows SO_REUSEADDR lets a second
    server bind a port another is listening on (CPython gh-85307), so it is off there;
    elsewhere it only lets a restarted server take its port back at once."""

    allow_reuse_address = sys.platform != "win32"


def make_server(port: int = 0, isolation: bool = True, quiet: bool = False) -> Server:
    """A server for dist/ on 127.0.0.1 (port 0 picks a free one)."""
    handler = type(
        "SiteHandler",
        (Handler,),
        {"isolation": isolation, "quiet": quiet},
    )
    return Server(("127.0.0.1", port), functools.partial(handler, directory=str(DIST)))


def start_server(isolation: bool = True) -> tuple[Server, str]:
    """Serve the built dist/ quietly from a background thread; returns the server and its
    base URL. The tests use it too."""
    if not (DIST / "index.html").exists():
        raise FileNotFoundError(f"{DIST} is not built: run `python build.py` first")
    server = make_server(isolation=isolation, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def free_port(after: int) -> int:
    """The first free port after `after`, else 0 (which lets the system pick one)."""
    for port in range(after + 1, min(after + 101, 65536)):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
                return port
            except OSError:
                pass
    return 0


def serve(port: int, isolation: bool) -> None:
    """Take the port, then build, then serve dist/ until interrupted. The port comes first:
    when it is busy, the build would have wiped the dist/ another server is serving."""
    try:
        server = make_server(port, isolation)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            sys.exit(f"build.py: port {port} is in use; try --port {free_port(port)}")
        sys.exit(f"build.py: cannot serve on port {port}: {error.strerror}")
    build()
    mode = "cross-origin isolated" if isolation else "without isolation headers"
    print(f"serving {DIST} ({mode}) at http://127.0.0.1:{server.server_address[1]}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def test() -> None:
    """Install what the tests need, build, then lint and run every test."""
    python = prepare()
    skip = []
    if system() == "linux":
        install_firefox()
        install_webkit()
    else:  # Debian's Firefox ESR and WebKitGTK are what tests/web/engines/ drives
        print("build.py: the Firefox and WebKitGTK smoke tests (tests/web/engines/) run on "
              "Linux only; running the rest", flush=True)
        skip = ["--ignore", str(ROOT / "tests" / "web" / "engines")]
    run(python, "-m", "ruff", "check", ".")
    # One test process per core (the other engines' tests in one of them: see
    # tests/web/engines/test_smoke.py); --durations: the slowest tests, to keep in view.
    run(python, "-m", "pytest", "tests", "-n", "auto", "--dist", "loadgroup",
        "--durations=10", *skip)


def screenshot() -> None:
    """Build, then picture the page with the chapter's example run."""
    run(prepare(), ROOT / "bench" / "screenshot.py")


def bench() -> None:
    """Build, then measure the engine against micrograd and the page against bare Pyodide."""
    python = prepare()
    run(python, ROOT / "bench" / "engine.py")
    run(python, ROOT / "bench" / "page.py")


def prepare() -> Path:
    """The tools for a script that drives the built site: .venv, a Chromium, dist/."""
    python = venv_python()
    install_test_deps(python)
    ensure_chromium()
    build()
    return python


def port_number(text: str) -> int:
    """--port's value: a TCP port number."""
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (0 to 65535)")
    return int(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command")
    serve_parser = commands.add_parser("serve", help="build, then serve dist/ on localhost")
    serve_parser.add_argument("--port", type=port_number, default=8000,
                              help="0 lets the system pick a free port (default: 8000)")
    serve_parser.add_argument(
        "--no-isolation", action="store_true", help="omit the COOP/COEP headers"
    )
    commands.add_parser("test", help="install the test tools, build, run ruff and pytest")
    commands.add_parser(
        "screenshot", help="build, then write docs/screenshot.png and docs/graph.png"
    )
    commands.add_parser("bench", help="build, then run the engine's and the page's benchmarks")
    args = parser.parse_args()
    if args.command == "serve":
        serve(args.port, not args.no_isolation)
    elif args.command == "test":
        test()
    elif args.command == "screenshot":
        screenshot()
    elif args.command == "bench":
        bench()
    else:
        build()


if __name__ == "__main__":
    main()
