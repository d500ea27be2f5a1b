"""The dev server: build, serve on localhost, watch the sources, rebuild what changed, reload open pages.

A catalog edit re-renders that locale's pages; a template, style, script or
site.toml edit re-renders every page (templates are shared, and compiled
templates are reused); only files whose bytes changed are rewritten. A change
to calculators/ restarts the server process, since it is Python code the build
has imported. The search index is built once at start.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

import watchfiles

from languages.locales import LOCALES
from site_builder import folders
from site_builder.build import PROJECT, Assembly, BuildConfig, assemble, build
from site_builder.build.environment import TEMPLATES, article_name, article_path
from site_builder.build.errors import describe
from site_builder.build.writer import Content
from site_builder.console import Reporter

from .server import ReloadHub, make_server

__all__ = ["rebuild", "serve", "write_changed"]

_SOURCES = {".py", ".html", ".js", ".css", ".svg", ".po", ".pot", ".toml"}


def serve(config: BuildConfig, port: int, reporter: Reporter, argv: Sequence[str]) -> None:
    """Build, serve and watch until interrupted."""
    config = BuildConfig(**{**config.__dict__, "live_reload": True})
    reporter.summary(build(config, progress=reporter.progress), config)
    current = assemble(config)
    hub = ReloadHub()
    server = make_server(config.out, port=port, hub=hub)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    reporter.info(f"serving on http://localhost:{port}/ and watching for changes (Ctrl+C to stop)")
    sources = [PROJECT / "calculators", TEMPLATES, folders.BROWSER_STATIC, config.project / "locales",
               config.project / "site.toml", config.presets]  # fmt: skip
    try:
        for changes in watchfiles.watch(*sources, debounce=200):
            # Editors and `sed -i` leave temporary files behind; only sources count.
            paths = {Path(path) for _, path in changes if Path(path).suffix in _SOURCES}
            if not paths:
                continue
            articles = {article_path(calculator) for calculator in config.calculators}
            if any(PROJECT / "calculators" in path.parents and path not in articles for path in paths):
                # The open pages' reload streams break with this process and reload the pages once they
                # reconnect to the next one (a reload now would find no server).
                failure = _import_failure(config.project)
                if failure:  # a half-typed file (an editor's autosave): keep serving the last good build
                    reporter.error(f"build failed: {failure}; still serving the last build")
                    continue
                reporter.info("calculators changed: restarting")
                os.execv(sys.executable, [sys.executable, "-m", "site_builder", *argv])
            current = rebuild(config, current, paths, reporter)
            hub.notify()
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
        server.server_close()


def rebuild(config: BuildConfig, current: Assembly, paths: set[Path], reporter: Reporter) -> Assembly:
    """Re-render what editing `paths` touches, rewrite the files that changed, and return the new site."""
    catalogs = {path.parent.parent.name for path in paths if path.suffix == ".po"}
    only_catalogs = all(path.suffix in {".po", ".pot"} for path in paths)
    locales = [locale for locale in LOCALES if locale.catalog in catalogs] if only_catalogs else None
    # An edited template re-renders the pages that use it; anything else (static files, site.toml,
    # presets) can reach every page.
    articles = {article_path(calculator): article_name(calculator) for calculator in config.calculators}
    only_templates = all(
        path in articles or (config.templates in path.parents and path.suffix == ".html") for path in paths
    )
    templates = (
        [articles.get(path) or path.relative_to(config.templates).as_posix() for path in paths]
        if only_templates
        else None
    )
    try:
        fresh = assemble(config, locales=locales, templates=templates)
    except Exception as error:  # whatever an edit breaks, the server keeps serving the last good build
        reporter.error(f"build failed: {describe(error, config.project)}; still serving the last build")
        return current
    merged = {**current.files, **fresh.files}
    written = write_changed(merged, config.out)
    scope = ", ".join(locale.tag for locale in locales) if locales else "every locale"
    reporter.info(f"rebuilt {fresh.pages} pages ({scope}); {written} files changed")
    for warning in fresh.warnings:
        reporter.detail(f"warning: {warning}")
    return Assembly(files=merged, pages=current.pages, warnings=fresh.warnings)


def _import_failure(project: Path) -> str:
    """Whether the calculators import, asked of a fresh interpreter: the failure, located, or "" if they do."""
    # The child locates the failure as the build does (errors.describe) and exits with it.
    check = (
        "import pathlib\n"
        "from site_builder.build.errors import describe\n"
        "try:\n    from calculators import CALCULATORS\n"
        "except Exception as error:\n    raise SystemExit(describe(error, pathlib.Path.cwd()))"
    )
    run = subprocess.run([sys.executable, "-c", check], cwd=project, capture_output=True, text=True, check=False)
    return run.stderr.strip() if run.returncode else ""


def write_changed(files: dict[str, Content], out: Path) -> int:
    """Rewrite, in place, only the files whose content differs from what is on disk; return how many."""
    written = 0
    for path, content in files.items():
        target = out / path
        data = content.read_bytes() if isinstance(content, Path) else content
        if target.is_file() and target.stat().st_size == len(data) and target.read_bytes() == data:
            continue
        _unlink_links(out, path)
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        temporary.write_bytes(data)
        os.replace(temporary, target)  # replaces a link itself, never the file it points to
        written += 1
    return written


def _unlink_links(out: Path, path: str) -> None:
    """Remove any link on the way to `out/path` (the link only), so a write never lands outside the output."""
    here = out
    for part in Path(path).parts[:-1]:
        here = here / part
        if here.is_symlink():
            here.unlink()
