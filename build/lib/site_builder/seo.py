"""The files search engines read: sitemap.xml (with hreflang alternates) and robots.txt."""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import quoteattr

from .locales import Locale
from .pages import Page

__all__ = ["write_robots", "write_sitemap"]


def write_sitemap(pages: Sequence[Page], locales: Sequence[Locale], base_url: str) -> bytes:
    """List every indexable page of every locale, each with its language alternates."""
    entries = []
    for page in pages:
        if not page.indexable:
            continue
        if page.locale_path is None:
            entries.append(f"<url><loc>{base_url}</loc></url>")
            continue
        alternates = "".join(
            f'<xhtml:link rel="alternate" hreflang={quoteattr(other.tag)} '
            f"href={quoteattr(base_url + other.folder + '/' + page.locale_path)}/>"
            for other in locales
        )
        default = f'<xhtml:link rel="alternate" hreflang="x-default" href={quoteattr(base_url)}/>'
        loc = base_url + page.locale.folder + "/" + page.locale_path
        entries.append(f"<url><loc>{loc}</loc>{alternates}{default}</url>")
    body = "\n".join(entries)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
        f"{body}\n</urlset>\n"
    ).encode()


def write_robots(base_url: str) -> bytes:
    """Allow everything and point to the sitemap."""
    return f"User-agent: *\nAllow: /\n\nSitemap: {base_url}sitemap.xml\n".encode()
