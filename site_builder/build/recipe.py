"""The build, as one recipe: read, plan, render, write."""

from __future__ import annotations

import gettext
import io
import time
import warnings
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from calculators import Calculator
from calculators.live import load_kit
from calculators.registry import all_calculators
from languages.catalog import catalog_path
from languages.locales import LOCALES, Locale, number_facts_json
from site_builder import folders

from .assets import (
    QUICK_START_RUNTIME_FILES,
    RUNTIME_FILES,
    STATIC,
    asset_urls,
    bundle,
    calculator_sources,
    core_sources,
    embed_loader,
    import_graph,
    runtime_path,
    runtime_sources,
    runtime_version,
    service_worker,
    shared_sources,
    worker_script,
)
from .bytecode import compiled_bundles, lock_info, standard_library, stdlib_imports
from .catalogs import (
    CatalogCache,
    CatalogProblem,
    module_messages,
    module_names,
    read_catalog,
)
from .config import read_site_config
from .environment import TEMPLATES, MathCache, MemoryBytecodeCache, make_environment, template_users
from .errors import BuildError
from .feed import FEED, SCHEMA, price_feed, price_schema
from .minify import minify_files
from .pages import plan_pages
from .presets import DATA as PRESETS
from .presets import read_presets, stale_prices
from .rendering import LocaleResources, SiteContext, preset_menus, render_page
from .search import index_site
from .seo import write_robots, write_sitemap
from .writer import Content, check_output, collect, write_site

__all__ = [
    "PROJECT",
    "Assembly",
    "BuildConfig",
    "BuildSummary",
    "Progress",
    "assemble",
    "build",
    "collect_app_files",
    "engine_files",
    "list_sources",
    "load_resources",
    "read_catalogs",
]

PROJECT = folders.PROJECT


@dataclass(frozen=True)
class BuildConfig:
    """What a build is asked for: where to write, the public address (default: site.toml's), the runtime.

    `calculators` and `templates` default to the project's own; the benchmark swaps in a synthetic site.
    `quick_start` ships the precompiled standard library and memory snapshots (`snapshot.js`);
    without it pages boot Pyodide exactly as its own loader does (the benchmark's yardstick).
    """

    out: Path = PROJECT / "dist"
    base_url: str | None = None
    runtime_url: str | None = None
    strict: bool = False
    search: bool = True
    live_reload: bool = False
    quick_start: bool = True
    project: Path = PROJECT
    calculators: Sequence[Calculator] = field(default_factory=all_calculators)
    templates: Path = TEMPLATES
    presets: Path = PRESETS
    bytecode_cache: MemoryBytecodeCache = field(default_factory=MemoryBytecodeCache, compare=False)
    catalog_cache: CatalogCache = field(default_factory=CatalogCache, compare=False)
    math_cache: MathCache = field(default_factory=MathCache, compare=False)


@dataclass(frozen=True)
class BuildSummary:
    """What a build produced."""

    pages: int
    files: int
    seconds: float
    warnings: tuple[str, ...] = ()
    locales: int = len(LOCALES)


Progress = Callable[[int, int], None]
"""Called with (pages rendered, pages planned) while a build renders."""


@dataclass(frozen=True)
class Assembly:
    """A site assembled in memory: every output file, ready to write."""

    files: dict[str, Content]
    pages: int
    warnings: tuple[str, ...]


def build(config: BuildConfig, progress: Progress | None = None) -> BuildSummary:
    """Build the whole site into `config.out`."""
    started = time.perf_counter()
    # Refuse an output folder the build may not replace before spending a build on it.
    check_output(config.out, list_sources(config))
    with warnings.catch_warnings():
        if config.strict:
            # Strict builds treat warnings as errors: a template's invalid escape is a broken formula.
            warnings.simplefilter("error")
        assembly = assemble(config, progress=progress)
    # Write, all at once, replacing the previous output only when everything succeeded.
    write_site(assembly.files, config.out, finish=index_site if config.search else None, sources=list_sources(config))
    return BuildSummary(
        pages=assembly.pages,
        files=len(assembly.files),
        seconds=time.perf_counter() - started,
        warnings=assembly.warnings,
    )


def list_sources(config: BuildConfig) -> tuple[Path, ...]:
    """Return what a build reads: its output may be none of these, nor hold one, nor lie inside one."""
    return (
        config.project / "site.toml",
        config.project / "locales",
        config.templates,
        config.presets,
        *(PROJECT / package for package in folders.PACKAGES),
    )


def assemble(
    config: BuildConfig,
    locales: Collection[Locale] | None = None,
    progress: Progress | None = None,
    templates: Collection[str] | None = None,
) -> Assembly:
    """Read, plan and render the site without touching the output.

    Only the pages of `locales`, if given, and only the pages whose template is or uses one of
    `templates` (names relative to the templates folder), if given: what an edit touches.
    """
    # 1. Read: the site's identity and every catalog (strictly, if asked).
    site_config = read_site_config(config.project / "site.toml", config.base_url)
    catalogs, problems = read_catalogs(config.project, config.catalog_cache)
    if problems and config.strict:
        first = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise BuildError(first.path, first.line, f"{first.reason}: {first.message!r}{more}")
    resources = {locale: load_resources(locale, mo, config) for locale, mo in catalogs.items()}
    presets = read_presets(config.presets, config.calculators)
    # The prices the menus use, published at a stable address beside the pages; a page comparing models reads it.
    feed = price_feed(presets.all_prices, site_config.base_url)
    # 2. Collect the files beside the pages, and the versioned URLs pages use for them.
    app_files = collect_app_files(catalogs, resources, config)
    runtime_files = [path for path in app_files if "/pyodide/" in path]
    assets = asset_urls({path: content for path, content in app_files.items() if path not in runtime_files})
    versions = sorted([*assets.values(), *runtime_files])
    app_files["sw.js"] = service_worker([url for url in versions if _shared_by_every_page(url)], versions)
    # 3. Plan and render the pages.
    site = SiteContext(
        config=site_config,
        runtime_url=config.runtime_url or runtime_path(config.project),
        locales=LOCALES,
        calculators=tuple(config.calculators),
        resources=resources,
        assets=assets,
        live_reload=config.live_reload,
        preset_menus=preset_menus(config.calculators, presets, feed.decode()),
    )
    pages = plan_pages(config.calculators, LOCALES)
    uses = template_users(resources[LOCALES[0]].environment, templates) if templates is not None else None
    wanted = [
        page for page in pages if (locales is None or page.locale in locales) and (uses is None or uses(page.template))
    ]
    rendered = []
    for done, page in enumerate(wanted, start=1):
        rendered.append((page.path, render_page(page, site).encode()))
        if progress is not None:
            progress(done, len(wanted))
    seo = [
        ("sitemap.xml", write_sitemap(pages, LOCALES, site_config.base_url)),
        ("robots.txt", write_robots(site_config.base_url)),
    ]
    return Assembly(
        files=collect(app_files.items(), rendered, seo, [(FEED, feed), (SCHEMA, price_schema(site_config.base_url))]),
        pages=len(wanted),
        warnings=tuple(f"{problem} (English shown instead)" for problem in problems)
        + stale_prices(presets, date.today()),
    )


def read_catalogs(
    project: Path, cache: CatalogCache | None = None
) -> tuple[dict[Locale, bytes], tuple[CatalogProblem, ...]]:
    """Compile every locale's catalog to `.mo` bytes, collecting the messages that fall back to English."""
    read = cache.read if cache is not None else read_catalog
    catalogs: dict[Locale, bytes] = {}
    problems: list[CatalogProblem] = []
    for locale in LOCALES:
        catalogs[locale], found = read(catalog_path(project, locale), locale, source=locale == LOCALES[0])
        problems.extend(found)
    return catalogs, tuple(problems)


def collect_app_files(
    catalogs: dict[Locale, bytes], resources: dict[Locale, LocaleResources], config: BuildConfig
) -> dict[str, Content]:
    """Gather everything under `_app/`: static files, the embed loader, the bundles, catalogs, facts, runtime.

    A page's worker loads the shared core plus its own calculator's bundle and catalog, so what a
    page fetches stays the same size however many calculators the site has.
    """
    files: dict[str, Content] = {f"_app/{path.name}": path for path in sorted(STATIC.iterdir()) if path.is_file()}
    files["_app/embed.js"] = embed_loader(LOCALES, config.calculators)
    graph = import_graph()  # read once: every bundle and every page's catalog needs it
    shared = module_messages(module_names(shared_sources(graph)))
    # The worker only translates the core's words and its own calculator's; articles and page chrome stay out.
    keep = {c.slug: shared | module_messages(module_names(calculator_sources(c, graph))) for c in config.calculators}
    for locale, mo in catalogs.items():
        for slug, catalog in config.catalog_cache.browser_catalogs(mo, keep).items():
            files[f"_app/locales/{locale.folder}/{slug}.mo"] = catalog
        files[f"_app/locales/{locale.folder}.json"] = number_facts_json(locale).encode()
    if config.live_reload:
        files["_app/reload.js"] = folders.BROWSER_DEV / "live_reload.js"
    files.update(engine_files(config, graph))
    return minify_files(files, config.project)


def engine_files(config: BuildConfig, graph: Mapping[Path, frozenset[Path]] | None = None) -> dict[str, Content]:
    """Return what the worker runs: the shared core, each calculator's package, and the runtime.

    A quick start ships the core and the calculators as bytecode, the precompiled standard library
    and a worker that keeps memory snapshots; otherwise Pyodide's files as its loader wants them.
    """
    graph = graph or import_graph()
    bundles = {"_app/core.zip": bundle(shared_sources(graph))}
    bundles.update(
        (f"_app/calculators/{calculator.slug}.zip", bundle(calculator_sources(calculator, graph)))
        for calculator in config.calculators
    )
    version = runtime_version(config.project)
    if config.quick_start:
        stdlib = standard_library(config.project, stdlib_imports(core_sources()))
        compiled = compiled_bundles(config.project, stdlib, list(bundles.values()))
        files: dict[str, Content] = dict(zip(bundles, compiled, strict=True))
        files["_app/stdlib.zip"] = stdlib
        files["_app/worker.js"] = worker_script(version, lock_info(config.project))
    else:
        files = {**bundles, "_app/worker.js": worker_script(version, None)}
    if config.runtime_url is None:
        runtime = runtime_path(config.project)
        names = QUICK_START_RUNTIME_FILES if config.quick_start else RUNTIME_FILES
        files.update((f"{runtime}{name}", path) for name, path in runtime_sources(config.project, names).items())
    return files


def _shared_by_every_page(url: str) -> bool:
    """Whether an `_app/` file is one every page of the site uses: what a first visit precaches.

    Not a page's own calculator and catalog (it keeps those as it loads them), and not the embed
    loader, which only other sites' pages load.
    """
    return not url.startswith(("_app/calculators/", "_app/locales/", "_app/embed.js"))


def load_resources(locale: Locale, mo: bytes, config: BuildConfig) -> LocaleResources:
    """Load a locale's catalog once, through the same function the browser worker uses."""
    kit = load_kit(mo, number_facts_json(locale))
    translations = gettext.GNUTranslations(io.BytesIO(mo))
    environment = make_environment(
        locale,
        translations,
        kit.numbers,
        config.templates,
        config.bytecode_cache,
        config.calculators,
        config.math_cache,
    )
    return LocaleResources(environment=environment, kit=kit)
