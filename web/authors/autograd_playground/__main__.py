"""python -m autograd_playground serve | export | bake | check | try: the site, for
course authors."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import server
from .bake_html import PageBakeError, bake_files
from .site import ExportError, export, site

PROGRAM = "autograd_playground"


def parser() -> argparse.ArgumentParser:
    program = argparse.ArgumentParser(prog=f"python -m {PROGRAM}", description=__doc__)
    commands = program.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the site on localhost")
    serve.add_argument("--port", type=server.port_number, default=8000,
                       help="0 lets the system pick a free port (default: 8000)")
    serve.add_argument("--no-isolation", action="store_true",
                       help="omit the COOP/COEP headers")
    export_ = commands.add_parser("export", help="write the site into a folder")
    export_.add_argument("folder", type=Path, help="a new or empty folder, or an earlier export")
    bake = commands.add_parser(
        "bake", help="write into HTML pages their playgrounds' results, computed now "
                     "(again after each change: the pages' earlier results are replaced)")
    bake.add_argument("pages", nargs="+", type=Path, metavar="PAGE.html")
    commands.add_parser("check", add_help=False,
                        help="run every playground of course pages headlessly "
                             "(`check --help` says more)")
    commands.add_parser("try", add_help=False,
                        help="run each exercise of pages' sources in this Python, against "
                             "its solution and its starter code (`try --help` says more)")
    return program


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["check"]:
        from .check import main as check  # needs a browser, which serve and export do not

        return check(argv[1:])
    if argv[:1] == ["try"]:
        from .trying import main as try_exercises

        return try_exercises(argv[1:])
    args = parser().parse_args(argv)
    try:
        if args.command == "serve":
            isolation = not args.no_isolation
            server.serve_until_interrupted(
                server.take_port(site(), args.port, isolation, PROGRAM), isolation)
        elif args.command == "bake":
            bake_files(args.pages, site())
            print(f"wrote the results of {len(args.pages)} page(s)' playgrounds")
        else:
            print(f"wrote the site to {export(args.folder)}")
    except (ExportError, FileNotFoundError, PageBakeError) as error:
        sys.exit(f"{PROGRAM}: {error}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
