"""The files search engines read: sitemap.xml (with hreflang alternates) and robots.txt."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence

from languages.locales import Locale

from .pages import Page

__all__ = ["write_robots", "write_sitemap"]

_SITEMAP = "http://www.sitemaps.org/schemas/sitemap/0.9"
_XHTML = "http://www.w3.org/1999/xhtml"


def write_sitemap(pages: Sequence[Page], locales: Sequence[Locale], base_url: str) -> bytes:
    """List every indexable page of every locale, each with its language alternates.

    Written by an XML writer, which escapes every address (an `&` in the base URL, say).
    """
    urlset = ET.Element("urlset", {"xmlns": _SITEMAP, "xmlns:xhtml": _XHTML})
    for page in pages:
        if not page.indexable:
            continue
        url = ET.SubElement(urlset, "url")
        if page.locale_path is None:
            ET.SubElement(url, "loc").text = base_url
            continue
        ET.SubElement(url, "loc").text = base_url + page.locale.folder + "/" + page.locale_path
        for other in locales:
            href = base_url + other.folder + "/" + page.locale_path
            ET.SubElement(url, "xhtml:link", {"rel": "alternate", "hreflang": other.tag, "href": href})
        ET.SubElement(url, "xhtml:link", {"rel": "alternate", "hreflang": "x-default", "href": base_url})
    ET.indent(urlset, space="")
    document: bytes = ET.tostring(urlset, encoding="UTF-8", xml_declaration=True)
    return document + b"\n"


def write_robots(base_url: str) -> bytes:
    """Allow everything and point to the sitemap."""
    return f"User-agent: *\nAllow: /\n\nSitemap: {base_url}sitemap.xml\n".encode()
