"""Rendering: a planned page and the site's shared context in, an HTML string out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from jinja2 import Environment, TemplateError, TemplateSyntaxError

from calculators import (
    CALCULATORS,
    CATEGORIES,
    Calculator,
    Category,
    InputSpec,
    Kind,
    LocaleKit,
    Message,
    format_number,
    make_report,
)
from calculators.registry import find

from .config import SiteConfig
from .environment import TEMPLATES
from .errors import BuildError
from .locales import Locale
from .pages import Page

__all__ = ["LocaleResources", "SiteContext", "render_page"]


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
    resources: Mapping[Locale, LocaleResources]
    assets: Mapping[str, str]


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
        "calculator_count": len(CALCULATORS),
        "categories": _categories(),
        **(_calculator_variables(page.calculator, root, site, resources) if page.calculator else {}),
    }
    try:
        return resources.environment.get_template(page.template).render(variables)
    except TemplateSyntaxError as error:
        raise BuildError(error.filename or TEMPLATES / page.template, error.lineno, error.message or "") from error
    except TemplateError as error:
        cause = f"{type(error).__name__}: {error}"
        raise BuildError(TEMPLATES / page.template, _template_line(error), cause) from error


def _calculator_variables(
    calculator: Calculator, root: str, site: SiteContext, resources: LocaleResources
) -> dict[str, object]:
    runtime = site.runtime_url if "://" in site.runtime_url else root + site.runtime_url
    categories = _categories()
    return {
        "calculator": calculator,
        "category": next(c for c in CATEGORIES if c.slug == calculator.category),
        "input_groups": _input_groups(calculator.inputs),
        "field_values": {spec.name: _field_text(spec, resources.kit) for spec in calculator.inputs},
        "report": make_report(calculator, calculator.defaults(), resources.kit),
        "related": [find(slug) for slug in calculator.related],
        "more_calculators": sorted(categories, key=lambda entry: entry[0].slug != calculator.category),
        "runtime_url": runtime,
    }


def _categories() -> list[tuple[Category, list[Calculator]]]:
    """Return each category that has calculators, with its calculators, in display order."""
    groups = [(category, [c for c in CALCULATORS if c.category == category.slug]) for category in CATEGORIES]
    return [(category, members) for category, members in groups if members]


def _input_groups(inputs: Sequence[InputSpec]) -> list[tuple[Message, list[InputSpec]]]:
    groups: dict[Message, list[InputSpec]] = {}
    for spec in inputs:
        groups.setdefault(spec.group, []).append(spec)
    return list(groups.items())


def _field_text(spec: InputSpec, kit: LocaleKit) -> str:
    """Write a default the way a reader of the locale would type it (no grouping)."""
    if spec.kind is Kind.CHOICE:
        return spec.default
    return format_number(float(spec.default), kit.numbers, spec.fraction_digits, grouping=False)


def _template_line(error: Exception) -> int | None:
    """Find the template line of a runtime error from the traceback Jinja rewrites."""
    traceback = error.__traceback__
    line = None
    while traceback is not None:
        if traceback.tb_frame.f_code.co_filename.startswith(str(TEMPLATES)):
            line = traceback.tb_lineno
        traceback = traceback.tb_next
    return line
