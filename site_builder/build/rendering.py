"""Rendering: a planned page and the site's shared context in, an HTML string out."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlsplit

from jinja2 import Environment, TemplateError, TemplateNotFound, TemplateSyntaxError
from markupsafe import Markup, escape

from calculators import (
    Calculator,
    Category,
    InputSpec,
    Kind,
    LocaleKit,
    Message,
    format_number,
    make_report,
)
from calculators.catalogue import CATEGORIES, POPULAR
from calculators.report import NUMBER_WITH_UNIT, MenuGpu, MenuPrice, menu_prices
from calculators.report import menu_gpus as read_gpu_menu
from calculators.vocabulary.model_config import covers
from languages.locales import Locale

from .assets import calculator_module
from .config import SiteConfig
from .environment import TEMPLATES
from .errors import BuildError
from .pages import Page
from .presets import PRICE_KINDS, GpuPreset, ModelPreset, Presets, PricePreset, preset_values, uses_presets

__all__ = [
    "LocaleResources",
    "Outline",
    "PresetMenus",
    "PresetOption",
    "PriceMenu",
    "SiteContext",
    "article_outline",
    "keep_together",
    "menu_gpus",
    "preset_menus",
    "render_page",
]


@dataclass(frozen=True)
class LocaleResources:
    """What rendering one locale takes: its Jinja environment and its locale kit."""

    environment: Environment
    kit: LocaleKit


@dataclass(frozen=True)
class SiteContext:
    """What every page shares: the site's identity, locales, runtime and asset URLs (relative to the root)."""

    config: SiteConfig
    runtime_url: str
    locales: Sequence[Locale]
    calculators: Sequence[Calculator]
    resources: Mapping[Locale, LocaleResources]
    assets: Mapping[str, str]
    live_reload: bool = False
    preset_menus: Mapping[str, PresetMenus] = field(default_factory=dict)
    """Each calculator's preset menus, by slug: the same in every locale, so worked out once per build."""


def render_page(page: Page, site: SiteContext) -> str:
    """Render `page`; a template failure raises a BuildError naming the template and line."""
    resources = site.resources[page.locale]
    # A 404 page is served at any address, so its links start from the site's path, not from its own.
    root = urlsplit(site.config.base_url).path if page.template == "not_found.html" else page.root
    variables = {
        "page": page,
        "root": root,
        "site": site.config,
        "base_url": site.config.base_url,
        "locales": site.locales,
        "assets": site.assets,
        "live_reload": site.live_reload,
        "calculator_count": len(site.calculators),
        "categories": _categories(site.calculators),
        "popular": _popular(site.calculators),
        **(_category_variables(page.category, site.calculators) if page.category else {}),
        **(_calculator_variables(page.calculator, root, site, resources) if page.calculator else {}),
    }
    try:
        return resources.environment.get_template(page.template).render(variables)
    except TemplateSyntaxError as error:
        path = error.filename or _template_path(resources.environment, page.template)
        raise BuildError(path, error.lineno, error.message or "") from error
    except TemplateError as error:
        cause = f"{type(error).__name__}: {error}"
        path, line = _template_location(error) or (_template_path(resources.environment, page.template), None)
        raise BuildError(path, line, cause) from error


def _category_variables(category: Category, calculators: Sequence[Calculator]) -> dict[str, object]:
    members = next(members for other, members in _categories(calculators) if other == category)
    return {"category": category, "members": members}


def _calculator_variables(
    calculator: Calculator, root: str, site: SiteContext, resources: LocaleResources
) -> dict[str, object]:
    runtime = site.runtime_url if "://" in site.runtime_url else root + site.runtime_url
    categories = _categories(site.calculators)
    by_slug = {c.slug: c for c in site.calculators}
    menus = site.preset_menus.get(calculator.slug)
    return {
        "calculator": calculator,
        "calculator_module": calculator_module(calculator),
        "category": next(c for c in CATEGORIES if c.slug == calculator.category),
        "input_groups": _input_groups(calculator.inputs),
        "field_values": {spec.name: _field_text(spec, resources.kit) for spec in calculator.inputs},
        "report": make_report(
            calculator, calculator.defaults(), resources.kit, menu_gpus(menus), menus.compared if menus else ()
        ),
        "compares_prices": calculator.price_table is not None,
        "related": [by_slug[slug] for slug in calculator.related if slug in by_slug],
        "more_calculators": sorted(categories, key=lambda entry: entry[0].slug != calculator.category),
        "article_outline": article_outline,
        "keep_together": keep_together,
        "number_with_unit": NUMBER_WITH_UNIT,
        "runtime_url": runtime,
        "model_presets": menus.models if menus else (),
        "gpu_presets": menus.gpus if menus else (),
        "gpu_entries": menus.gpu_entries if menus else (),
        "price_menus": menus.prices if menus else (),
        "price_dates": menus.price_dates if menus else (),
        "price_kinds": PRICE_KINDS,
    }


@dataclass(frozen=True)
class PresetOption:
    """One entry of a preset menu: what it is called and the input texts it fills (JSON)."""

    id: str
    name: str
    values: str
    read_on: str = ""
    """For a list price: the ISO date its vendor's page was read."""
    source: str = ""
    """For a list price: the vendor's page it was read from."""


@dataclass(frozen=True)
class PriceMenu:
    """One kind of list price a calculator takes (`presets.PRICE_KINDS`), its entries, and the entries themselves."""

    kind: str
    options: tuple[PresetOption, ...]
    entries: tuple[PricePreset, ...]
    searched: int = 0
    """How many entries of this kind the price feed holds beyond `entries`: the page's search finds them."""


@dataclass(frozen=True)
class PresetMenus:
    """A calculator's model, GPU and price menus (empty where it takes no such fact)."""

    models: tuple[PresetOption, ...]
    gpus: tuple[PresetOption, ...]
    prices: tuple[PriceMenu, ...] = ()
    gpu_entries: tuple[GpuPreset, ...] = ()
    """The GPUs the menu offers, with their figures' sources for the table under the article."""
    compared: tuple[MenuPrice, ...] = ()
    """Where the calculator compares language models (`price_table`): the price feed's, as the page's script hands
    them to the engine (app.js priceFeed), read by the same function."""
    price_dates: tuple[str, ...] = ()
    """The days the language models of the feed were priced on (ISO), for the names its search writes."""


def preset_menus(calculators: Sequence[Calculator], presets: Presets, feed: str = "{}") -> dict[str, PresetMenus]:
    """Work out every calculator's preset menus once: they do not depend on the locale. `feed` is the text of the
    site's prices.json."""
    price_dates = tuple(sorted({price.read_on.isoformat() for price in presets.all_prices}))
    return {calculator.slug: _menus_of(calculator, presets, feed, price_dates) for calculator in calculators}


def _menus_of(calculator: Calculator, presets: Presets, feed: str, price_dates: tuple[str, ...]) -> PresetMenus:
    gpus = _offered(calculator, "gpu", presets.gpus)
    return PresetMenus(
        models=_preset_options(calculator, _offered(calculator, "model", presets.models)),
        gpus=_preset_options(calculator, gpus),
        prices=_price_menus(calculator, presets.prices, presets.dataset),
        gpu_entries=gpus,
        compared=menu_prices(calculator, feed) if calculator.price_table else (),
        price_dates=price_dates,
    )


def _price_menus(
    calculator: Calculator, prices: Sequence[PricePreset], dataset: Sequence[PricePreset]
) -> tuple[PriceMenu, ...]:
    """A menu for each kind of price the calculator takes, its entries in the file's order: a kind whose own prices
    it takes (a batch discount alone, which language models and embeddings share, makes no menu)."""
    taken = {spec.preset for spec in calculator.inputs if spec.preset}
    menus = []
    for kind, names in PRICE_KINDS.items():
        if not taken & {f"price.{name}" for name in names if name not in _SHARED_PRICES}:
            continue
        entries = tuple(price for price in prices if price.kind == kind)
        options = tuple(
            PresetOption(
                price.id,
                price.name,
                json.dumps(preset_values(calculator, price), sort_keys=True),
                price.read_on.isoformat(),
                price.source,
            )
            for price in entries
        )
        menus.append(PriceMenu(kind, options, entries, sum(price.kind == kind for price in dataset)))
    return tuple(menus)


_SHARED_PRICES = frozenset(
    name for name, kinds in Counter(name for names in PRICE_KINDS.values() for name in names).items() if kinds > 1
)
"""The prices more than one kind states (the batch discount): no kind's own."""


def menu_gpus(menus: PresetMenus | None) -> tuple[MenuGpu, ...]:
    """The GPU menu as the page's script hands it to the engine (app.js gpuMenu), read by the same function."""
    options = menus.gpus if menus else ()
    return read_gpu_menu(json.dumps([{"name": o.name, "values": json.loads(o.values)} for o in options]))


_Preset = TypeVar("_Preset", ModelPreset, GpuPreset)


def _offered(calculator: Calculator, family: str, presets: Sequence[_Preset]) -> tuple[_Preset, ...]:
    """The presets of `family` ("model" or "gpu") whose facts `calculator`'s formula can work from, in order."""
    if not uses_presets(calculator, family):
        return ()
    return tuple(preset for preset in presets if covers(calculator, preset.facts()))


def _preset_options(calculator: Calculator, presets: Sequence[ModelPreset | GpuPreset]) -> tuple[PresetOption, ...]:
    return tuple(
        PresetOption(preset.id, preset.name, json.dumps(preset_values(calculator, preset), sort_keys=True))
        for preset in presets
    )


def _popular(calculators: Sequence[Calculator]) -> list[Calculator]:
    by_slug = {c.slug: c for c in calculators}
    return [by_slug[slug] for slug in POPULAR if slug in by_slug]


def _categories(calculators: Sequence[Calculator]) -> list[tuple[Category, list[Calculator]]]:
    """Return each category that has calculators, with its calculators, the popular first, in display order."""
    first = {slug: index for index, slug in enumerate(POPULAR)}
    groups = [
        (category, sorted((c for c in calculators if c.category == category.slug), key=lambda c: first.get(c.slug, 99)))
        for category in CATEGORIES
    ]
    return [(category, members) for category, members in groups if members]


_NUMBER_WITH_UNIT = re.compile(NUMBER_WITH_UNIT)


def keep_together(text: str) -> Markup:
    """Write `text` with each number and its unit in a span that a line does not break; app.js does so live.

    >>> str(keep_together("About 1,120 GB of <state>."))
    'About <span class="nobr">1,120 GB</span> of &lt;state&gt;.'
    """
    parts: list[Markup] = []
    last = 0
    for match in _NUMBER_WITH_UNIT.finditer(text):
        parts += [escape(text[last : match.start()]), Markup('<span class="nobr">%s</span>') % match.group(0)]
        last = match.end()
    return Markup("").join([*parts, escape(text[last:])])


@dataclass(frozen=True)
class Outline:
    """An article with an id on each section heading, and those headings: a table of contents."""

    body: Markup
    headings: tuple[tuple[str, Markup], ...]


_SECTION_HEADING = re.compile(r"<h2>(.*?)</h2>", re.DOTALL)


def article_outline(body: str) -> Outline:
    """Give each of the article's <h2> headings an id (section-1, …) and list them for a table of contents.

    >>> outline = article_outline(Markup("<p>a</p><h2>Why <em>so</em></h2><h2>How</h2>"))
    >>> str(outline.body)
    '<p>a</p><h2 id="section-1">Why <em>so</em></h2><h2 id="section-2">How</h2>'
    >>> [(anchor, str(text)) for anchor, text in outline.headings]
    [('section-1', 'Why so'), ('section-2', 'How')]
    """
    headings: list[tuple[str, Markup]] = []

    def identified(match: re.Match[str]) -> str:
        anchor = f"section-{len(headings) + 1}"
        headings.append((anchor, escape(Markup(match.group(1)).striptags())))
        return f'<h2 id="{anchor}">{match.group(1)}</h2>'

    return Outline(Markup(_SECTION_HEADING.sub(identified, str(body))), tuple(headings))


def _input_groups(inputs: Sequence[InputSpec]) -> list[tuple[Message, list[InputSpec]]]:
    groups: dict[Message, list[InputSpec]] = {}
    for spec in inputs:
        groups.setdefault(spec.group, []).append(spec)
    return list(groups.items())


def _field_text(spec: InputSpec, kit: LocaleKit) -> str:
    """Write a default the way a reader of the locale would type it (no grouping; an exponent kept as written).

    A vector is written as its default is in every locale: its numbers always take a point (`read_vector`).
    """
    if spec.kind in (Kind.CHOICE, Kind.VECTOR) or "e" in spec.default.lower():
        return spec.default
    return format_number(float(spec.default), kit.numbers, spec.fraction_digits, grouping=False)


def _template_path(environment: Environment, name: str) -> Path:
    """Return the file a template is loaded from (shared templates and articles live in different folders)."""
    try:
        filename = environment.loader.get_source(environment, name)[1] if environment.loader else None
    except TemplateNotFound:
        filename = None
    return Path(filename) if filename else TEMPLATES / name


def _template_location(error: Exception) -> tuple[Path, int] | None:
    """Find the innermost template file and line of a runtime error, from the traceback Jinja rewrites."""
    traceback = error.__traceback__
    found = None
    while traceback is not None:
        filename = traceback.tb_frame.f_code.co_filename
        if filename.endswith(".html"):
            found = (Path(filename), traceback.tb_lineno)
        traceback = traceback.tb_next
    return found
