"""What search engines and link previews read: titles, descriptions, alternates, sitemap, structured data."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from calculators import CALCULATORS
from languages.locales import LOCALES
from site_builder.build.pages import plan_pages
from site_builder.build.seo import write_sitemap

BASE = "http://localhost:8000/"


def _pages(site: Path) -> list[Path]:
    return sorted(site.rglob("index.html"))


def _head(html: str, pattern: str) -> list[str]:
    return re.findall(pattern, html)


def test_titles_and_descriptions_are_unique(site: Path) -> None:
    indexable = [p for p in _pages(site) if "/embed/" not in str(p)]
    titles = [_head(p.read_text(encoding="utf-8"), r"<title>(.*?)</title>")[0] for p in indexable]
    descriptions = [
        _head(p.read_text(encoding="utf-8"), r'<meta name="description" content="(.*?)">')[0] for p in indexable
    ]
    calculator_pages = [p for p in indexable if p.parent.parent != site]
    assert len(set(titles)) >= len(calculator_pages)
    assert all(descriptions)
    pairs = list(zip(titles, [str(p.relative_to(site)) for p in indexable], strict=True))
    categories = {calculator.category for calculator in CALCULATORS}  # each has a page of its own
    titled = len(CALCULATORS) + len(categories)
    assert len({title for title, path in pairs if path.count("/") == 2}) == titled * len(LOCALES)


def test_calculator_pages_have_canonical_alternates_and_cards(site: Path) -> None:
    for locale in LOCALES:
        for calculator in CALCULATORS:
            html = (site / locale.folder / calculator.slug / "index.html").read_text(encoding="utf-8")
            url = f"{BASE}{locale.folder}/{calculator.slug}/"
            assert f'<link rel="canonical" href="{url}">' in html
            for other in LOCALES:
                assert f'hreflang="{other.tag}" href="{BASE}{other.folder}/{calculator.slug}/"' in html
            assert f'hreflang="x-default" href="{BASE}"' in html
            for tag in ("og:title", "og:description", "og:url", "og:locale", "og:site_name"):
                assert f'property="{tag}"' in html
            assert f'<meta property="og:url" content="{url}">' in html
            assert 'name="twitter:card" content="summary"' in html


def test_structured_data(site: Path) -> None:
    html = (site / "en" / "llm-training-vram" / "index.html").read_text(encoding="utf-8")
    blocks = re.findall(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)
    assert len(blocks) == 1
    data = {item["@type"]: item for item in json.loads(blocks[0])}
    assert data["WebApplication"]["name"] == "LLM training VRAM"
    assert data["WebApplication"]["url"] == f"{BASE}en/llm-training-vram/"
    crumbs = data["BreadcrumbList"]["itemListElement"]
    assert [c["position"] for c in crumbs] == [1, 2, 3]
    assert crumbs[-1]["item"] == f"{BASE}en/llm-training-vram/"
    questions = data["FAQPage"]["mainEntity"]
    assert len(questions) == 3
    assert questions[0]["name"] == "Are these GB or GiB?"
    assert questions[0]["acceptedAnswer"]["text"].startswith("GB, that is 10⁹ bytes.")


def test_sitemap_lists_every_indexable_page_with_alternates(site: Path) -> None:
    namespaces = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    root = ET.parse(site / "sitemap.xml").getroot()
    locations = {url.findtext("s:loc", namespaces=namespaces) for url in root.findall("s:url", namespaces)}
    expected = {BASE} | {f"{BASE}{locale.folder}/" for locale in LOCALES}
    expected |= {f"{BASE}{locale.folder}/{c.slug}/" for locale in LOCALES for c in CALCULATORS}
    expected |= {f"{BASE}{locale.folder}/{c.category}/" for locale in LOCALES for c in CALCULATORS}
    assert locations == expected
    for url in root.findall("s:url", namespaces):
        if url.findtext("s:loc", namespaces=namespaces) != BASE:
            langs = {link.get("hreflang") for link in url.findall("x:link", namespaces)}
            assert langs == {locale.tag for locale in LOCALES} | {"x-default"}


def test_robots_points_to_the_sitemap(site: Path) -> None:
    assert (site / "robots.txt").read_text(encoding="utf-8").endswith(f"Sitemap: {BASE}sitemap.xml\n")


def test_localised_404_pages(site: Path) -> None:
    english = (site / "404.html").read_text(encoding="utf-8")
    assert "Page not found" in english and 'name="robots" content="noindex"' in english
    assert 'href="/_app/style.css' in english, "a 404 page links from the site root, not from its own address"
    chinese = (site / "zh-tw" / "404.html").read_text(encoding="utf-8")
    assert "找不到這個頁面" in chinese and 'lang="zh-TW"' in chinese


def test_embed_pages_are_not_indexed(site: Path) -> None:
    html = (site / "en" / "embed" / "llm-training-vram" / "index.html").read_text(encoding="utf-8")
    assert 'name="robots" content="noindex"' in html
    assert 'class="site-header"' not in html and "Powered by" in html


def test_formulas_are_mathml_with_latex_source(site: Path) -> None:
    html = (site / "en" / "gradient-accumulation-memory" / "index.html").read_text(encoding="utf-8")
    panel = html.split('class="formula-panel"', 1)[1].split("</section>", 1)[0]
    assert panel.count('<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">') == 2
    assert '<annotation encoding="application/x-tex">E = b \\cdot a \\cdot g</annotation>' in panel
    assert "katex" not in html.lower() and "mathjax" not in html.lower()


def test_language_switcher_links_to_the_same_page(site: Path) -> None:
    html = (site / "zh-tw" / "llm-training-vram" / "index.html").read_text(encoding="utf-8")
    nav = html.split('class="languages"', 1)[1].split("</nav>", 1)[0]
    assert 'href="../../en/llm-training-vram/" hreflang="en" lang="en"' in nav
    assert 'aria-current="page"' in nav


def test_footer_counts(site: Path) -> None:
    html = (site / "en" / "index.html").read_text(encoding="utf-8")
    assert f"{len(CALCULATORS)} calculators" in html and f"{len(LOCALES)} languages" in html and "free" in html


def test_sitemap_addresses_are_escaped() -> None:
    # A base URL may hold "&" (a legal path character); the sitemap used to write it raw into <loc>.
    base = "https://example.org/a&b/"
    pages = plan_pages(CALCULATORS[:1], LOCALES)
    root = ET.fromstring(write_sitemap(pages, LOCALES, base))
    namespaces = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    locations = [url.findtext("s:loc", namespaces=namespaces) for url in root.findall("s:url", namespaces)]
    assert locations[0] == base and all(location and location.startswith(base) for location in locations)
    links = root.findall("s:url/x:link", namespaces)
    assert links and all(link.get("href", "").startswith(base) for link in links)
