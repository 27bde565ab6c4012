"""Build, serve and test the playground site.

    python build.py                 build dist/, a self-contained static site
    python build.py serve [--port N] [--no-isolation]
                                    build, then serve dist/ on localhost
    python build.py dist            build dist/, then the authors' package's wheel
    python build.py docs            build docs/ into a static site in build/docs-site/
    python build.py test            install the test tools, build, run ruff and pytest
                                    (tests/engine in Pyodide under Node too)
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

import sys

if sys.version_info < (3, 10):  # noqa: UP036 (for whoever runs it with an older one)
    sys.exit(f"build.py needs Python 3.10 or newer; this is Python {sys.version.split()[0]} "
             f"({sys.executable})")

import argparse
import functools
import hashlib
import json
import os
import shutil
import subprocess
import time
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).parent.absolute()
WEB = ROOT / "web"
# web/'s folders, one for each place its code runs: the page's modules (bundled into
# embed.js), the Python worker's, the pages and scripts served as they are, and what runs
# at build time.
PAGE = WEB / "page"
WORKER = WEB / "worker"
SITE = WEB / "site"
TOOLS = WEB / "tools"
# The authors' package, with its pyproject.toml: it finds a Chromium, for its `check`, as
# the tests do, and serves the site it carries as build.py serves dist/.
AUTHORS = WEB / "authors"
sys.path.insert(0, str(AUTHORS))
from autograd_playground import chromium  # noqa: E402
from autograd_playground.bake_html import PageBakeError, bake_page  # noqa: E402
from autograd_playground.chromium import ChromiumNotFoundError, system  # noqa: E402
from autograd_playground.server import (  # noqa: E402
    Server,
    port_number,
    serve_until_interrupted,
    start_in_background,
    take_port,
)

DIST = ROOT / "dist"
BUILD = ROOT / "build"
COMPRESSED_CACHE = BUILD / "compressed"  # compress_files()'s, by the SHA-256 of what they hold
BUNDLES = BUILD / "bundles"  # esbuild's metafiles: what went into each bundle
# The authors' package: its source, its long description, and where its wheel is written.
PACKAGE = AUTHORS / "autograd_playground"
PACKAGE_README = AUTHORS / "package-readme.md"
PACKAGES = BUILD / "packages"
RELEASE = BUILD / "release"  # what a release publishes: both wheels and the sdist
# Venvs each holding the authors' wheel and one docs tool, at the pins of DOCS_TOOLS.
DOCS_TOOLS = ROOT / "tests" / "docs-tools.txt"
TOOL_VENVS = BUILD / "authoring"
# This project's documentation: its MkDocs config, and where its site is built.
DOCS_CONFIG = ROOT / "mkdocs.yml"
DOCS_SITE = BUILD / "docs-site"
# The docs' page for learners, which the site carries too (learner_guide()).
LEARNER_GUIDE = ROOT / "docs" / "learners.md"
# Pyodide's script, which the worker asks for by its content (see bundle()).
PYODIDE_SCRIPT = "pyodide.asm.mjs"
# Files the site also stores compressed, beside FILE, which the Python worker downloads
# and decodes (web/worker/stored.js): a static host (GitHub Pages, `python -m
# http.server`) sends a file as it is stored. Pyodide's wasm, 9.6 MB as it is, as
# FILE.zst (ZSTD_STORED): 2.9 MB in Zstandard, 3.4 MB gzipped; the others as FILE.gz
# (GZIPPED), small enough that a decoder of their own would cost more than it saves:
# Pyodide's script 1.25 MB, 0.25 MB gzipped. Pyodide's standard library is a zip already
# (gzip saves 2%). The plain files stay in dist/ for bare.html (the benchmark's bare
# Pyodide), not in the authors' wheel; but for Pyodide's script, which the service worker
# keeps (compiled, where the browser keeps code) as it is.
ZSTD_STORED = ["pyodide/pyodide.asm.wasm"]
GZIPPED = [f"pyodide/{PYODIDE_SCRIPT}", "pyodide/pyodide-lock.json", "snapshot/files.json"]
# What of dist/ the authors' wheel leaves out: source maps, the benchmark's bare
# Pyodide page and the plain copies of the files stored compressed that no page of theirs
# asks for. The site's own pages stay: the full-page playground is where an embedded
# playground's Share link opens, and the chapter and training pages are templates to copy.
NOT_IN_WHEEL = ["*.map", "bare.html", *(Path(path).name for path in ZSTD_STORED + GZIPPED
                                        if path != f"pyodide/{PYODIDE_SCRIPT}")]
VENV = ROOT / ".venv"
# How the tests and benchmarks start Chromium.
CHROMIUM_ARGS = chromium.CHROMIUM_ARGS
STRICT_ENCODING = ("-X", "warn_default_encoding", "-W", "error::EncodingWarning")
"""Python's options that make a text read or write without an encoding an error: `test`
builds under them, and the tests run the authors' commands under them, so that what is
built and written is the same on Windows (whose default is not UTF-8) as here."""
HANG_S = 600
"""How long one test may take before it is failed as hung: the slowest take up to 100 s
with both cores busy (`--durations`), so this fails only a test that waits for what
never comes."""
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
# The editor's script (web/page/editor.js, CodeMirror), bundled whole, as
# chunks/editor-HASH.js and its gzipped copy chunks/editor-HASH.js.gz: the page imports
# the gzipped one, decoded (web/page/editor-script.js), unless the service worker keeps
# the plain one; both stay in the authors' wheel.
EDITOR_CHUNK = "chunks/editor"
# Files copied to the top of dist/ as they are: the site's pages and classic scripts, and
# the snapshot worker, which the Python worker starts by its URL.
STATIC_FILES = [*(SITE / name for name in ["index.html", "course.html", "train.html",
                                           "embed.html", "bare.html", "embed.css",
                                           "served-only.js", "page-theme.js"])]
# The site's pages whose playgrounds carry their results computed at build time
# (bake_pages()); the full page's playground runs the chapter's example.
BAKED_PAGES = ["index.html", "course.html", "train.html"]
EXAMPLE = WEB / "shared" / "example.py"
# The Python package the worker runs code with: copied to dist/ and listed in site.json
# (for a fresh boot), and in snapshot/files.json (for a restore and the snapshot maker);
# with it, the contract between it and the page, which it reads from beside its folder.
RUNNER = "playground_runner"
CONTRACT = "shared/contract.json"
# Python in Pyodide under Node, for the engine's tests and bench/engine.py: the script that
# runs it, and the pinned wheels it unpacks beside the engine's.
PYODIDE_RUN = ROOT / "tests" / "pyodide" / "run.mjs"
PYODIDE_REQUIREMENTS = ROOT / "tests" / "pyodide" / "requirements.txt"
# The engine's tests left out of their run in Pyodide, each with its reason.
LEFT_OUT_IN_PYODIDE = {
    "tests/engine/test_packaging.py::test_the_wheel_is_pure_typed_and_dependency_free":
        "it builds the wheel with pip in a subprocess, and Pyodide cannot start processes",
}


def run(*cmd: str | Path, cwd: Path = ROOT, env: dict[str, str] | None = None) -> None:
    """Run a command (with `env` added to the environment), echoing it, and stop the
    build if it fails."""
    print("+", " ".join(str(c) for c in cmd), flush=True)
    if subprocess.call([str(c) for c in cmd], cwd=cwd, env={**os.environ, **(env or {})}) != 0:
        sys.exit(f"build.py: failed: {' '.join(str(c) for c in cmd)}")


def fresh_folder(folder: Path, tries: int = 10, wait_s: float = 0.5) -> None:
    """`folder`, emptied (or made). Windows refuses to delete a file that a program holds
    open (an editor, a virus scanner, a server still serving it): try again a few times,
    then stop, naming the file."""
    for attempt in range(tries):
        try:
            shutil.rmtree(folder)
            break
        except FileNotFoundError:
            if not folder.exists():
                break
        except OSError as error:
            if attempt == tries - 1:
                sys.exit(f"build.py: cannot delete {error.filename or folder}: {error.strerror};"
                         " is it open in another program (an editor, or a server serving "
                         f"{folder})? Close it, then build again")
        time.sleep(wait_s)
    folder.mkdir(parents=True)


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


def venv_python_path() -> Path:
    """Where .venv keeps its Python on this system."""
    return VENV / ("Scripts/python.exe" if system() == "win32" else "bin/python")


def venv_site_packages() -> list[Path]:
    """.venv's site-packages, on Unix and on Windows: where its playwright package is."""
    return [*VENV.glob("lib/python3*/site-packages"), VENV / "Lib" / "site-packages"]


def find_chromium() -> Path:
    """The Chromium or Chrome the tests and benchmarks drive, found as chromium.py says,
    with .venv's Playwright."""
    return chromium.find_chromium(venv_python_path(), venv_site_packages())


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
    if stamp.exists() and stamp.read_text(encoding="utf-8") == digest.hexdigest():
        return
    run(python, "-m", "pip", "install", "--quiet", "-e", requirement)
    stamp.write_text(digest.hexdigest(), encoding="utf-8")


def pip_wheel(python: Path, project: Path, out: Path) -> Path:
    """Build `project`'s py3-none-any wheel into `out` with pip (its backend comes from PyPI)."""
    fresh_folder(out)
    run(python, "-m", "pip", "wheel", "--quiet", "--no-deps", project, "-w", out)
    (wheel,) = out.glob("*.whl")
    return wheel


def engine_wheel(python: Path) -> Path:
    """The engine's wheel, which the site runs."""
    return pip_wheel(python, ROOT, BUILD / "wheel")


def package_wheel(python: Path, out: Path = PACKAGES) -> Path:
    """The authors' wheel, autograd-playground, from web/authors/pyproject.toml and
    web/authors/autograd_playground/ with the built dist/ inside as its site/ (but
    NOT_IN_WHEEL), and the engine's version (see web/authors/pyproject.toml). It needs no
    Node.js to use."""
    project = BUILD / "package"
    fresh_folder(project)
    shutil.copytree(PACKAGE, project / PACKAGE.name,
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(DIST, project / PACKAGE.name / "site",
                    ignore=shutil.ignore_patterns(*NOT_IN_WHEEL))
    shutil.copy2(AUTHORS / "pyproject.toml", project / "pyproject.toml")
    shutil.copy2(PACKAGE_README, project / "README.md")
    shutil.copy2(ROOT / "LICENSE", project / "LICENSE")
    shutil.copy2(ROOT / "pyproject.toml", project / "engine-pyproject.toml")
    return pip_wheel(python, project, out)


def release_files(python: Path, out: Path) -> list[Path]:
    """What a release publishes, from the built dist/, into `out`: the engine's wheel, the
    authors' wheel and the sdist (the project's source as its files are, tests and all,
    from which `python build.py test` runs). hatchling writes fixed timestamps, so the
    same sources give the same bytes."""
    built = [pip_wheel(python, ROOT, out / "engine"), package_wheel(python, out / "authors")]
    # Run from `out`: in the project's folder, `python -m build` would be this file.
    run(python, "-m", "build", "--sdist", "--outdir", out / "sdist", ROOT, cwd=out)
    built += (out / "sdist").glob("*.tar.gz")
    files = [Path(shutil.move(file, out)) for file in built]
    for file in built:
        file.parent.rmdir()
    return files


def release() -> None:
    """Build dist/, then the release's files into RELEASE, and check them as PyPI will."""
    python = venv_python()
    install_test_deps(python)  # build and twine, pinned in the test extra
    build()
    fresh_folder(RELEASE)
    files = release_files(python, RELEASE)
    run(python, "-m", "twine", "check", "--strict", *files)
    for file in files:
        print(f"built {file}")


def docs_venv(name: str, wheel: Path, tools: list[str], extras: str = "") -> Path:
    """A venv with the wheel (with its `extras`, e.g. "check") and the docs `tools` (at
    their pins in DOCS_TOOLS) and nothing else; its folder's bin (or Scripts) directory.
    It is made again only when the wheel, the pins or the tools change: its folder under
    TOOL_VENVS is named by their hash."""
    package = f"{wheel}[{extras}]" if extras else str(wheel)
    digest = hashlib.sha256(wheel.read_bytes() + DOCS_TOOLS.read_bytes()
                            + " ".join([*tools, extras]).encode())
    folder = TOOL_VENVS / f"{name}-{digest.hexdigest()[:16]}"
    scripts = folder / ("Scripts" if system() == "win32" else "bin")
    if (folder / "complete").exists():
        return scripts
    for old in TOOL_VENVS.glob(f"{name}-*"):
        shutil.rmtree(old)
    venv.create(folder, with_pip=True)
    run(scripts / "python", "-m", "pip", "install", "--quiet", "-c", DOCS_TOOLS, package, *tools)
    (folder / "complete").touch()
    return scripts


def pyodide_wheels(python: Path, requirements: Path, out: Path) -> list[Path]:
    """Fetch the wheels a requirements file pins, hash-checked, for Pyodide's Python
    version, into a fresh `out`."""
    lock = json.loads((WEB / "node_modules" / "pyodide" / "pyodide-lock.json").read_text(
        encoding="utf-8"))
    fresh_folder(out)
    run(
        python, "-m", "pip", "download", "--quiet", "--no-deps", "--require-hashes",
        "--only-binary=:all:", f"--python-version={lock['info']['python']}",
        "-r", requirements, "-d", out,
    )
    return sorted(out.glob("*.whl"))


def micropip_wheel(python: Path) -> Path:
    """micropip's wheel, for the site."""
    (wheel,) = pyodide_wheels(python, WORKER / "micropip-requirements.txt", BUILD / "micropip")
    return wheel


def in_pyodide(python: Path, copy: list[str], *argv: str) -> list[str | Path]:
    """The command that runs `argv` (a script, or -m and a module, and its arguments) in
    the built site's Pyodide under Node, with the built engine's wheel and those of
    PYODIDE_REQUIREMENTS in site-packages, and `copy` (paths under ROOT) in its folder."""
    site = json.loads((DIST / "site.json").read_text(encoding="utf-8"))
    wheels = [DIST / site["engine"],
              *pyodide_wheels(python, PYODIDE_REQUIREMENTS, BUILD / "pyodide-wheels")]
    return [need("node", "nodejs"), PYODIDE_RUN, DIST / "pyodide",
            *(arg for wheel in wheels for arg in ("--wheel", wheel)),
            *(arg for path in copy for arg in ("--copy", path)), "--", *argv]


def engine_tests_in_pyodide(python: Path) -> None:
    """Run tests/engine in Pyodide, where learners run the engine, but LEFT_OUT_IN_PYODIDE."""
    for test, reason in LEFT_OUT_IN_PYODIDE.items():
        print(f"build.py: left out in Pyodide: {test}: {reason}", flush=True)
    deselect = [arg for test in LEFT_OUT_IN_PYODIDE for arg in ("--deselect", test)]
    copy = ["pyproject.toml", "tests/__init__.py", "tests/conftest.py", "tests/engine", "examples"]
    run(*in_pyodide(python, copy, "-m", "pytest", "tests/engine", *deselect))


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
    """Bundle the page's JavaScript and CSS into ES modules: first the editor (CodeMirror)
    whole, with no import of the page's other scripts, named by its content and stored
    gzipped too (EDITOR_CHUNK: the element imports it without waiting for it, from a
    blob: URL where it comes gzipped); then embed.js, the element, with the charts as a
    chunk it imports once a run plots;
    then, each on its own, the worker that lays out the graph's picture with Graphviz,
    the snapshot's worker, and the Python worker with the modules it shares with the
    snapshot maker (one request, not six, before its first line runs: on a first visit
    each waits its turn among Pyodide's downloads), which asks for Pyodide's script by
    its content;
    last, the service worker that keeps the scripts whose URLs name their content.
    Separate runs, so no code is shared into a chunk: embed.js, worker.js and
    service-worker.js must stay at the top of dist/, since they find the site's files
    from their own URLs."""
    common = ["--bundle", "--format=esm", "--target=es2022", "--minify", "--sourcemap",
              "--log-level=warning", f"--outdir={DIST}",
              f"--define:BUILD_ID={json.dumps(build_id())}"]
    fresh_folder(BUNDLES)

    def bundled(entry: Path, *options: str) -> None:
        """One bundle, with esbuild's account of what went into it (for notices())."""
        run(esbuild(), entry, *common, f"--metafile={BUNDLES / (entry.stem + '.json')}",
            *options)

    bundled(PAGE / "editor.js", f"--entry-names={EDITOR_CHUNK}-[hash]")
    [editor_script] = [p.relative_to(DIST).as_posix() for p in DIST.glob(f"{EDITOR_CHUNK}-*.js")]
    bundled(PAGE / "embed.js", "--splitting", "--loader:.css=text", "--loader:.py=text",
            "--chunk-names=chunks/[name]-[hash]",
            f"--define:EDITOR_SCRIPT={json.dumps('./' + editor_script)}")
    bundled(PAGE / "layout-worker.js")
    bundled(WORKER / "zstd.js")
    bundled(WORKER / "snapshot-worker.js", "--external:./zstd.js")
    pyodide_script = content_addressed(f"pyodide/{PYODIDE_SCRIPT}",
                                       WEB / "node_modules" / "pyodide" / PYODIDE_SCRIPT)
    bundled(WORKER / "worker.js", "--external:./pyodide/*", "--loader:.py=text",
            f"--define:PYODIDE_SCRIPT={json.dumps('./' + pyodide_script)}",
            "--define:STORED_COMPRESSED=" + json.dumps(
                {path: stored_as(path) for path in ZSTD_STORED + GZIPPED}),
            "--external:./zstd.js")
    # Each by the SHA-256 of its bytes, which the service worker checks on every use.
    kept = {pyodide_script: pyodide_script.rpartition("=")[2],
            editor_script: hashlib.sha256((DIST / editor_script).read_bytes()).hexdigest()}
    bundled(SITE / "service-worker.js", f"--define:KEPT_SCRIPTS={json.dumps(kept)}")


def notices(micropip: Path) -> None:
    """dist/THIRD-PARTY-NOTICES.txt: each package whose code the site ships, with its
    version, license and license text, from the bundles' esbuild metafiles and the
    packages' own package.json and license files; then what ships without its own text
    there: Pyodide's files (and the CPython inside them), Graphviz (inside @viz-js/viz's
    wasm) and micropip's wheel (its METADATA)."""
    modules = WEB / "node_modules"
    names = {"pyodide"}
    for metafile in BUNDLES.glob("*.json"):
        for source in json.loads(metafile.read_text(encoding="utf-8"))["inputs"]:
            if "node_modules/" in source:
                parts = source.rpartition("node_modules/")[2].split("/")
                names.add("/".join(parts[:2] if parts[0].startswith("@") else parts[:1]))
    sections = []
    for name in sorted(names):
        meta = json.loads((modules / name / "package.json").read_text(encoding="utf-8"))
        texts = [p for p in sorted((modules / name).iterdir())
                 if p.name.upper().startswith(("LICENSE", "LICENCE", "COPYING"))]
        text = texts[0].read_text(encoding="utf-8").strip() if texts else (
            f"The {meta['license']} license: https://spdx.org/licenses/{meta['license']}.html")
        sections.append(f"{name} {meta['version']} ({meta['license']})\n\n{text}")
    with zipfile.ZipFile(micropip) as wheel:
        metadata = next(wheel.read(n).decode() for n in wheel.namelist()
                        if n.endswith(".dist-info/METADATA"))
    fields = dict(line.split(": ", 1) for line in metadata.splitlines() if ": " in line)
    license_ = fields.get("License-Expression") or fields.get("License", "see its METADATA")
    sections += [
        f"micropip {fields['Version']} ({license_}): the wheel in wheels/, unchanged",
        "CPython (PSF-2.0), inside Pyodide's files: https://docs.python.org/3/license.html",
        "Graphviz (EPL-1.0), compiled to WebAssembly inside @viz-js/viz: "
        "https://graphviz.org/license/",
    ]
    header = ("Third-party software shipped with the autograd playground's site, made by "
              "python build.py from the packages as they are pinned.\n")
    (DIST / "THIRD-PARTY-NOTICES.txt").write_text(
        header + "\n" + ("-" * 72 + "\n\n").join(s + "\n" for s in sections),
        encoding="utf-8")


@functools.cache
def build_id() -> str:
    """What identifies this build: a hash of the engine's and the site's sources (and of
    the npm lockfile, which pins Pyodide). The page, its Python worker and site.json each
    carry it, so that a page open while a new build is deployed never runs with the new
    worker, nor hands it what the old one had."""
    digest = hashlib.sha256()
    sources = [*ROOT.joinpath("engine").rglob("*.py"), LEARNER_GUIDE,
               *(p for p in WEB.rglob("*") if p.is_file() and "node_modules" not in p.parts)]
    for path in sorted(sources):
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def content_addressed(path: str, file: Path) -> str:
    """`path` with the SHA-256 of `file`'s content: a URL whose content never changes."""
    return f"{path}?sha256={hashlib.sha256(file.read_bytes()).hexdigest()}"


def runner_files() -> list[str]:
    """The runner package's files and the contract it reads, by their path under web/ (and
    dist/, and Pyodide's home): the same places relative to each other in all three."""
    return sorted([*(p.relative_to(WEB).as_posix() for p in (WEB / RUNNER).glob("*.py")),
                   CONTRACT])


def copy_site(engine: Path, micropip: Path) -> None:
    """Lay out dist/: pages, worker, Python glue, Pyodide, wheels, and site.json,
    which tells the worker the wheels' and the runner's file names."""
    for file in STATIC_FILES:
        shutil.copy2(file, DIST / file.name)
    (DIST / "pyodide").mkdir()
    for name in PYODIDE_FILES:
        shutil.copy2(WEB / "node_modules" / "pyodide" / name, DIST / "pyodide" / name)
    (DIST / "wheels").mkdir()
    for wheel in (engine, micropip):
        shutil.copy2(wheel, DIST / "wheels" / wheel.name)
    for name in runner_files():
        (DIST / name).parent.mkdir(exist_ok=True)
        shutil.copy2(WEB / name, DIST / name)
    manifest = {"build": build_id(),
                "engine": f"wheels/{engine.name}", "micropip": f"wheels/{micropip.name}",
                "runner": {"module": RUNNER, "files": runner_files()}}
    write_site_json(manifest)


def bake_pages() -> None:
    """Write into the site's pages in dist/ the results of their playgrounds' code,
    computed with dist/'s own runner and engine, so that they show before Python has
    downloaded (and with scripts off); a playground that fails stops the build."""
    example = EXAMPLE.read_text(encoding="utf-8")
    for name in BAKED_PAGES:
        page = DIST / name
        try:
            page.write_text(bake_page(page.read_text(encoding="utf-8"), DIST, f"web/site/{name}",
                                      example), encoding="utf-8")
        except PageBakeError as error:
            sys.exit(f"build.py: {error}")


def write_site_json(manifest: dict) -> None:
    (DIST / "site.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")


def snapshot_files(engine: Path) -> dict[str, dict[str, str]]:
    """The files a snapshot's Python was made with, which it needs again in its file
    system (for tracebacks' source lines, importlib.metadata): the wheel's, by their
    place in site-packages, and the runner's, by their name in the home folder."""
    with zipfile.ZipFile(engine) as wheel:
        packages = {name: wheel.read(name).decode() for name in wheel.namelist()
                    if not name.endswith("/")}
    home = {name: (WEB / name).read_text(encoding="utf-8") for name in runner_files()}
    return {"site-packages": packages, "home": home}


def make_snapshot(engine: Path) -> None:
    """Make snapshot/memory.zst with Node from dist/'s own Pyodide: Python with the engine
    and the runner imported, which the worker restores instead of booting Python. Then
    add it to site.json, with its hash, which the worker checks (a stale or damaged
    snapshot is not restored)."""
    folder = DIST / "snapshot"
    folder.mkdir()
    (folder / "files.json").write_text(json.dumps(snapshot_files(engine)), encoding="utf-8")
    facts = BUILD / "snapshot.json"
    run(need("node", "nodejs"), TOOLS / "make-snapshot.mjs", DIST, facts)
    made = json.loads(facts.read_text(encoding="utf-8"))
    manifest = json.loads((DIST / "site.json").read_text(encoding="utf-8"))
    manifest["snapshot"] = {"memory": "snapshot/memory.zst",
                            "sha256": hashlib.sha256((folder / "memory.zst").read_bytes())
                            .hexdigest(),
                            # Of its bytes as a returning visitor's browser keeps them,
                            # decoded: checked on every use (snapshot-cache.js).
                            "storedSha256": made["storedSha256"],
                            # Unpacked, for the worker's buffer.
                            "size": made["size"],
                            "files": "snapshot/files.json"}
    write_site_json(manifest)


def learner_guide() -> None:
    """learners.html, the guide the full page links to, from the docs' own page: the built
    site explains itself offline."""
    run(need("node", "nodejs"), TOOLS / "learner-guide.mjs", LEARNER_GUIDE,
        SITE / "learners.html", DIST)


def compressed_files() -> dict[Path, Path]:
    """The files of dist/ stored compressed too, each with its compressed copy: the
    ZSTD_STORED, the GZIPPED and the editor's script (gzipped)."""
    gzipped = [DIST / path for path in GZIPPED] + sorted(DIST.glob(f"{EDITOR_CHUNK}-*.js"))
    return {**{DIST / path: DIST / stored_as(path) for path in ZSTD_STORED},
            **{file: file.with_name(file.name + ".gz") for file in gzipped}}


def compress_files() -> None:
    """Write each of compressed_files()' copies, by web/tools/compress.mjs (Zstandard for
    the wasm, Zopfli for gzip). Each is made once per content (the wasm takes Zstandard's
    level 19 5 s) and kept in build/compressed/ under its SHA-256."""
    kept = {file: COMPRESSED_CACHE / (hashlib.sha256(file.read_bytes()).hexdigest()
                                      + copy.suffix) for file, copy in compressed_files().items()}
    missing = [str(path) for file, cached in kept.items() if not cached.exists()
               for path in (file, cached)]
    if missing:
        COMPRESSED_CACHE.mkdir(parents=True, exist_ok=True)
        run(need("node", "nodejs"), TOOLS / "compress.mjs", *missing, cwd=WEB)
    for file, copy in compressed_files().items():
        shutil.copyfile(kept[file], copy)


def stored_as(path: str) -> str:
    """The file the worker downloads for `path`: its compressed copy, if the site has one."""
    if path in ZSTD_STORED:
        return f"{path}.zst"
    return f"{path}.gz" if path in GZIPPED else path


def add_sizes() -> None:
    """Give site.json the size of each file Python's start may download, by its path in
    dist/, as it is sent (compressed, for ZSTD_STORED and GZIPPED): the worker counts the
    bytes that arrive towards them, for the page's progress bar."""
    manifest = json.loads((DIST / "site.json").read_text(encoding="utf-8"))
    paths = [*(f"pyodide/{name}" for name in PYODIDE_FILES), manifest["engine"],
             *manifest["runner"]["files"], manifest["snapshot"]["memory"],
             manifest["snapshot"]["files"]]
    manifest["sizes"] = {path: (DIST / stored_as(path)).stat().st_size for path in paths}
    write_site_json(manifest)


def build() -> None:
    """Build dist/ from scratch."""
    python = venv_python()
    npm_ci()
    engine, micropip = engine_wheel(python), micropip_wheel(python)
    fresh_folder(DIST)
    bundle()
    copy_site(engine, micropip)
    bake_pages()
    notices(micropip)
    make_snapshot(engine)
    compress_files()
    add_sizes()
    learner_guide()
    print(f"built {DIST}")


def built() -> None:
    """dist/ as the sources are: built unless its site.json names this build already,
    so that building the docs leaves alone a dist/ that is being served."""
    site = DIST / "site.json"
    if not site.exists() or json.loads(site.read_text(encoding="utf-8")).get(
            "build") != build_id():
        build()


def docs() -> Path:
    """Build docs/ into DOCS_SITE with MkDocs and Material, in a venv beside the authors'
    wheel, whose plugin makes the pages' playgrounds live. Strict: a broken link or a
    wrong playground option stops the build. Returns the site's folder."""
    built()
    scripts = docs_venv("mkdocs", package_wheel(venv_python()), ["mkdocs", "mkdocs-material"])
    fresh_folder(DOCS_SITE)
    # NO_MKDOCS_2_WARNING: Material's notice about MkDocs 2, which this build does not use.
    run(scripts / "python", "-m", "mkdocs", "build", "--strict", "-f", DOCS_CONFIG,
        "-d", DOCS_SITE, env={"NO_MKDOCS_2_WARNING": "1"})
    print(f"built {DOCS_SITE}")
    return DOCS_SITE


def start_server(isolation: bool = True) -> tuple[Server, str]:
    """Serve the built dist/ quietly from a background thread; returns the server and its
    base URL. The tests use it too."""
    if not (DIST / "index.html").exists():
        raise FileNotFoundError(f"{DIST} is not built: run `python build.py` first")
    return start_in_background(DIST, isolation)


def serve(port: int, isolation: bool) -> None:
    """Take the port, then build, then serve dist/ until interrupted. The port comes first:
    when it is busy, the build would have wiped the dist/ another server is serving."""
    server = take_port(DIST, port, isolation, "build.py")
    build()
    serve_until_interrupted(server, isolation)


def test() -> None:
    """Install what the tests need, build (the site and the authors' wheel, with
    STRICT_ENCODING), then lint and run every test."""
    python = venv_python()
    install_test_deps(python)
    ensure_chromium()
    run(sys.executable, *STRICT_ENCODING, ROOT / "build.py", "dist")
    skip = []
    if system() == "linux":
        install_firefox()
        install_webkit()
    else:  # Debian's Firefox ESR and WebKitGTK are what tests/web/engines/ drives
        print("build.py: the Firefox and WebKitGTK smoke tests (tests/web/engines/) run on "
              "Linux only; running the rest", flush=True)
        skip = ["--ignore", str(ROOT / "tests" / "web" / "engines")]
    run(python, "-m", "ruff", "check", ".")
    engine_tests_in_pyodide(python)
    # One test process per core (the other engines' tests in one of them: see
    # tests/web/engines/test_smoke.py); --durations: the slowest tests, to keep in view;
    # a test that hangs has every thread's stack printed, then its process is ended
    # (pytest-timeout's thread method), and the run ends with it failed by name: a process
    # started in its place would be handed the rest of its group with that test in it, and
    # xdist's load-group scheduling then waits for ever (--max-worker-restart=0).
    run(python, "-m", "pytest", "tests", "-n", "auto", "--dist", "loadgroup",
        "--durations=10", "-o", f"faulthandler_timeout={HANG_S - 30}",
        f"--timeout={HANG_S}", "--timeout-method=thread", "--max-worker-restart=0", *skip)


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command")
    serve_parser = commands.add_parser("serve", help="build, then serve dist/ on localhost")
    serve_parser.add_argument("--port", type=port_number, default=8000,
                              help="0 lets the system pick a free port (default: 8000)")
    serve_parser.add_argument(
        "--no-isolation", action="store_true", help="omit the COOP/COEP headers"
    )
    commands.add_parser("dist", help="build dist/, then the authors' wheel from it into "
                        f"{PACKAGES.relative_to(ROOT).as_posix()}/")
    commands.add_parser("release", help="build dist/, then both wheels and the sdist into "
                        f"{RELEASE.relative_to(ROOT).as_posix()}/, checked with twine")
    commands.add_parser("docs", help="build docs/ into a static site in "
                        f"{DOCS_SITE.relative_to(ROOT).as_posix()}/")
    commands.add_parser("test", help="install the test tools, build, run ruff and pytest")
    commands.add_parser(
        "screenshot", help="build, then write docs/screenshot.png and docs/graph.png"
    )
    commands.add_parser("bench", help="build, then run the engine's and the page's benchmarks")
    args = parser.parse_args()
    if args.command == "serve":
        serve(args.port, not args.no_isolation)
    elif args.command == "dist":
        build()
        print(f"built {package_wheel(venv_python())}")
    elif args.command == "release":
        release()
    elif args.command == "docs":
        docs()
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
