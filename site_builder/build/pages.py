"""Planning: which pages the site has, as plain values, before anything is rendered."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from calculators import Calculator, Category
from calculators.catalogue import CATEGORIES
from languages.locales import Locale

__all__ = ["Page", "plan_pages"]


@dataclass(frozen=True)
class Page:
    """One HTML file of the site.

    `locale_path` is the page's address inside its locale ("" for the locale's
    home, "<slug>/" for a calculator or a category), which is what the language
    switcher and the hreflang alternates keep; the language chooser at the root has none.
    """

    path: str
    template: str
    locale: Locale
    locale_path: str | None
    calculator: Calculator | None = None
    category: Category | None = None

    @property
    def indexable(self) -> bool:
        """Whether search engines should list this page (and the sitemap hold it)."""
        return self.template not in {"embed.html", "not_found.html"}

    @property
    def root(self) -> str:
        """Return the relative prefix from this page to the site root."""
        return "../" * self.path.count("/")


def plan_pages(calculators: Sequence[Calculator], locales: Sequence[Locale]) -> tuple[Page, ...]:
    """List every page: the language chooser and 404, then each locale's home, categories, calculators and embeds."""
    pages = [
        Page(path="index.html", template="root.html", locale=locales[0], locale_path=None),
        Page(path="404.html", template="not_found.html", locale=locales[0], locale_path=None),
    ]
    for locale in locales:
        pages.append(Page(f"{locale.folder}/index.html", "home.html", locale, ""))
        pages.append(Page(f"{locale.folder}/404.html", "not_found.html", locale, None))
        for category in CATEGORIES:
            if any(calculator.category == category.slug for calculator in calculators):
                path = f"{locale.folder}/{category.slug}/index.html"
                pages.append(Page(path, "category.html", locale, f"{category.slug}/", category=category))
        for calculator in calculators:
            pages.append(
                Page(
                    path=f"{locale.folder}/{calculator.slug}/index.html",
                    template=f"articles/{calculator.slug}.html",
                    locale=locale,
                    locale_path=f"{calculator.slug}/",
                    calculator=calculator,
                )
            )
            pages.append(
                Page(
                    path=f"{locale.folder}/embed/{calculator.slug}/index.html",
                    template="embed.html",
                    locale=locale,
                    locale_path=f"embed/{calculator.slug}/",
                    calculator=calculator,
                )
            )
    return tuple(pages)
