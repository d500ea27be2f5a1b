"""The command line: `build` the site, or build and `serve` it on localhost."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import errno
import signal
import socket
import sys
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

from site_builder import folders
from site_builder.build.errors import BuildError, describe

from .console import Reporter

if TYPE_CHECKING:
    from calculators import Calculator

__all__ = ["PROJECT", "main"]

PROJECT = folders.PROJECT


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command named in `argv`; return the exit status."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    args = _parser().parse_args(arguments)
    reporter = Reporter(level=0 if args.quiet else 2 if args.verbose else 1)
    with _unwind_on_sigterm():
        return _run(args, arguments, reporter)


def _run(args: argparse.Namespace, arguments: list[str], reporter: Reporter) -> int:
    """Build or serve as `args` ask; report a failure in one line."""
    try:
        # The calculators are imported here, so a module that fails to import is reported like any build error.
        from site_builder.build import BuildConfig, build
        from site_builder.devserver.watcher import serve

        # The dev server's pages name the address they are served at (canonical links, the embed snippet), unless
        # --base-url says otherwise: site.toml's is the published site's, or localhost:8000 on another port.
        base_url = args.base_url or (f"http://localhost:{args.port}/" if args.command == "serve" else None)
        config = BuildConfig(out=Path(args.out), base_url=base_url, runtime_url=args.runtime_url, strict=args.strict)
        if args.only:
            config = dataclasses.replace(config, calculators=_only(args.only))
        if args.command == "serve":
            # Said before building, and once more should another program take the port during the build.
            if _port_in_use(args.port):
                reporter.error(_PORT_IN_USE.format(port=args.port))
                return 1
            try:
                serve(config, args.port, reporter, arguments)
            except OSError as error:
                if error.errno != errno.EADDRINUSE:
                    raise
                reporter.error(_PORT_IN_USE.format(port=args.port))
                return 1
            return 0
        summary = build(config, progress=reporter.progress)
    except KeyboardInterrupt:
        reporter.error("build interrupted")
        return 130
    except BuildError as error:
        reporter.error(f"build failed: {error}")
        return 1
    except Exception as error:
        reporter.error(f"build failed: {describe(error, PROJECT)}")
        return 1
    reporter.summary(summary, config)
    return 0


_PORT_IN_USE = "port {port} is in use: choose another with --port"


def _port_in_use(port: int) -> bool:
    """Whether the dev server could not listen on `port` (bound as it binds: localhost, address reuse on)."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError as error:
            return error.errno == errno.EADDRINUSE
    return False


@contextlib.contextmanager
def _unwind_on_sigterm() -> Iterator[None]:
    """Make SIGTERM unwind the stack like Ctrl-C does (exit status 143), so a build removes its staging folder."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: FrameType | None) -> None:
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)


def _only(slugs: str) -> tuple[Calculator, ...]:
    """Return the calculators named in a comma-separated list of slugs, in the catalogue's order."""
    from calculators import find
    from calculators.registry import slugs as published

    wanted = {slug.strip() for slug in slugs.split(",") if slug.strip()}
    unknown = sorted(wanted - set(published()))
    if unknown:
        raise BuildError(Path("calculators/catalogue.py"), None, f"no calculator {', '.join(unknown)}")
    return tuple(find(slug) for slug in published() if slug in wanted)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m site_builder", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    for name, help_text in (
        ("build", "build the site"),
        ("serve", "build, serve on localhost, rebuild on every change and reload open pages"),
    ):
        command = commands.add_parser(name, help=help_text)
        command.add_argument("--out", default=str(PROJECT / "dist"), help="output folder (default: dist/)")
        command.add_argument(
            "--base-url", default=None, help="the site's public address (default: base_url in site.toml)"
        )
        command.add_argument(
            "--runtime-url", default=None, help="load Pyodide from this URL instead of the self-hosted copy"
        )
        command.add_argument(
            "--strict", action="store_true", help="fail on any untranslated, fuzzy or broken message (CI uses this)"
        )
        command.add_argument(
            "--only",
            metavar="SLUG[,SLUG]",
            help="build these calculators' pages only (with the home pages): a quick preview while writing one",
        )
        loudness = command.add_mutually_exclusive_group()
        loudness.add_argument("--quiet", action="store_true", help="print errors only")
        loudness.add_argument("--verbose", action="store_true", help="print more detail")
        if name == "serve":
            command.add_argument("--port", type=int, default=8000, help="port to serve on (default: 8000)")
    return parser
