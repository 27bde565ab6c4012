"""Build, serve and test the playground site.

    python build.py                 build dist/, a self-contained static site
    python build.py serve [--port N] [--no-isolation]
                                    build, then serve dist/ on localhost
    python build.py test            install the test tools, build, run ruff and pytest
    python build.py screenshot      build, then write docs/screenshot.png and docs/graph.png
    python build.py bench           build, then run bench/engine.py and bench/page.py

Standard library only, so that a bare Python >= 3.10 can run it: everything
else (the engine's build backend, Pyodide, CodeMirror, esbuild, pytest,
Playwright, Chromium; for the smoke tests in other engines Selenium,
marionette_driver, Firefox ESR, WebKitGTK's WebDriver and Xvfb) is installed by
the steps below.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
import venv
from pathlib import Path

ROOT = Path(__file__).parent.absolute()
WEB = ROOT / "web"
DIST = ROOT / "dist"
BUILD = ROOT / "build"
VENV = ROOT / ".venv"
CHROMIUM = Path("/usr/bin/chromium")
# How the tests and benchmarks start Debian's Chromium: headless on a machine
# with no GPU, and quiet (nothing of its own fetched from the network).
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
STATIC_FILES = ["index.html", "course.html", "embed.html", "bare.html", "worker.js", "runner.py"]

MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".py": "text/plain; charset=utf-8",
    ".whl": "application/zip",
    ".zip": "application/zip",
}


def run(*cmd: str | Path, cwd: Path = ROOT) -> None:
    """Run a command, echoing it, and stop the build if it fails."""
    print("+", " ".join(str(c) for c in cmd), flush=True)
    if subprocess.call([str(c) for c in cmd], cwd=cwd) != 0:
        sys.exit(f"build.py: failed: {' '.join(str(c) for c in cmd)}")


def need(program: str, apt_package: str) -> None:
    """Install a missing system program through apt-get when we are root, else say how."""
    if shutil.which(program):
        return
    if os.name == "posix" and os.geteuid() == 0 and shutil.which("apt-get"):
        run("apt-get", "update")
        run("apt-get", "install", "-y", apt_package)
        return
    sys.exit(
        f"build.py: {program} is missing. Install it, e.g. on Debian or Ubuntu:\n"
        f"    sudo apt-get install -y {apt_package}"
    )


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
    python = VENV / "bin" / "python"
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
    need("npm", "npm")
    installed = WEB / "node_modules" / ".package-lock.json"
    lock = WEB / "package-lock.json"
    if not installed.exists() or installed.stat().st_mtime < lock.stat().st_mtime:
        run("npm", "ci", "--no-audit", "--no-fund", cwd=WEB)


def bundle() -> None:
    """Bundle the page's JavaScript and CSS into ES modules: embed.js, the element, and
    CodeMirror as a chunk of its own that the element imports without waiting for it;
    then, on its own, the worker that lays out the graph's picture with Graphviz. Two
    runs, so no code is shared into a chunk: embed.js must stay at the top of dist/,
    since it finds the site's files from its own URL."""
    esbuild = WEB / "node_modules" / ".bin" / "esbuild"
    common = ["--bundle", "--format=esm", "--target=es2022", "--minify", "--sourcemap",
              "--log-level=warning", f"--outdir={DIST}"]
    run(esbuild, WEB / "src" / "embed.js", *common, "--splitting",
        "--loader:.css=text", "--loader:.py=text", "--chunk-names=chunks/[name]-[hash]")
    run(esbuild, WEB / "src" / "layout-worker.js", *common)


def copy_site(engine: Path, micropip: Path) -> None:
    """Lay out dist/: pages, worker, Python glue, Pyodide, wheels, and site.json,
    which tells the worker the wheels' file names."""
    for name in STATIC_FILES:
        shutil.copy2(WEB / name, DIST / name)
    (DIST / "pyodide").mkdir()
    for name in PYODIDE_FILES:
        shutil.copy2(WEB / "node_modules" / "pyodide" / name, DIST / "pyodide" / name)
    (DIST / "wheels").mkdir()
    for wheel in (engine, micropip):
        shutil.copy2(wheel, DIST / "wheels" / wheel.name)
    manifest = {"engine": f"wheels/{engine.name}", "micropip": f"wheels/{micropip.name}"}
    (DIST / "site.json").write_text(json.dumps(manifest, indent=2) + "\n")


def build() -> None:
    """Build dist/ from scratch."""
    python = venv_python()
    npm_ci()
    engine, micropip = engine_wheel(python), micropip_wheel(python)
    shutil.rmtree(DIST, ignore_errors=True)
    DIST.mkdir()
    bundle()
    copy_site(engine, micropip)
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


def make_server(
    port: int = 0, isolation: bool = True, quiet: bool = False
) -> http.server.ThreadingHTTPServer:
    """A server for dist/ on 127.0.0.1 (port 0 picks a free one); the tests use it too."""
    if not (DIST / "index.html").exists():
        raise FileNotFoundError(f"{DIST} is not built: run `python build.py` first")
    handler = type(
        "SiteHandler",
        (Handler,),
        {"isolation": isolation, "quiet": quiet},
    )
    return http.server.ThreadingHTTPServer(
        ("127.0.0.1", port), functools.partial(handler, directory=str(DIST))
    )


def start_server(isolation: bool = True) -> tuple[http.server.ThreadingHTTPServer, str]:
    """Serve dist/ quietly from a background thread; returns the server and its base URL."""
    server = make_server(isolation=isolation, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def serve(port: int, isolation: bool) -> None:
    """Build, then serve dist/ until interrupted."""
    build()
    server = make_server(port, isolation)
    mode = "cross-origin isolated" if isolation else "without isolation headers"
    print(f"serving {DIST} ({mode}) at http://127.0.0.1:{server.server_address[1]}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


def test() -> None:
    """Install what the tests need, build, then lint and run every test."""
    python = prepare()
    install_firefox()
    install_webkit()
    run(python, "-m", "ruff", "check", ".")
    run(python, "-m", "pytest", "tests")


def screenshot() -> None:
    """Build, then picture the page with the chapter's example run."""
    run(prepare(), ROOT / "bench" / "screenshot.py")


def bench() -> None:
    """Build, then measure the engine against micrograd and the page against bare Pyodide."""
    python = prepare()
    run(python, ROOT / "bench" / "engine.py")
    run(python, ROOT / "bench" / "page.py")


def prepare() -> Path:
    """The tools for a script that drives the built site: .venv, Chromium, dist/."""
    python = venv_python()
    install_test_deps(python)
    need(str(CHROMIUM), "chromium")
    build()
    return python


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command")
    serve_parser = commands.add_parser("serve", help="build, then serve dist/ on localhost")
    serve_parser.add_argument("--port", type=int, default=8000)
    serve_parser.add_argument(
        "--no-isolation", action="store_true", help="omit the COOP/COEP headers"
    )
    commands.add_parser("test", help="install the test tools, build, run ruff and pytest")
    commands.add_parser("screenshot", help="build, then write docs/screenshot.png")
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
