"""Site search (Pagefind, built with the site): finds calculators by their words, in the page's language."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


def _search(page: Any, base_url: str, folder: str, query: str) -> list[str]:
    page.goto(f"{base_url}{folder}/")
    page.fill("#search-input", query)
    page.wait_for_selector("[data-search-results] li, #search-status:not(:empty)", timeout=30_000)
    return [link.get_attribute("href") for link in page.locator("[data-search-results] a").all()]


@pytest.mark.parametrize(
    ("folder", "query", "slug"),
    [
        ("en", "accumulation", "gradient-accumulation-memory"),
        ("en", "optimizer state", "llm-training-vram"),
        ("zh-tw", "梯度累積", "gradient-accumulation-memory"),
        ("zh-tw", "最佳化器狀態", "llm-training-vram"),
        # Taiwan's word for a cache, which the index's simplified-Chinese dictionary cuts into two characters.
        ("zh-tw", "提示快取", "prompt-caching-savings"),
        ("ja", "勾配累積", "gradient-accumulation-memory"),
        ("ja", "学習 VRAM", "llm-training-vram"),
    ],
)
def test_search_finds_the_calculator(page: Any, base_url: str, folder: str, query: str, slug: str) -> None:
    links = _search(page, base_url, folder, query)
    assert links, f"no result for {query!r}"
    # Other calculators use the same words (many mention the optimizer); the one about it ranks near the top.
    assert any(link.endswith(f"/{folder}/{slug}/") for link in links[:3]), links[:5]
    assert all(f"/{folder}/" in link for link in links), "results stay in the page's language"


def test_search_says_when_nothing_matches(page: Any, base_url: str) -> None:
    # Pagefind falls back to the query's first letters, and formulas make words of single letters (z, Q):
    # nonsense in a script the site never uses matches nothing.
    assert _search(page, base_url, "en", "ꙮꙮꙮ") == []
    assert page.text_content("#search-status") == "No calculator matches your search."


def test_search_result_opens_the_page(page: Any, base_url: str) -> None:
    _search(page, base_url, "de", "Gradientenakkumulation")
    page.press("#search-input", "Enter")
    page.wait_for_url(f"{base_url}de/gradient-accumulation-memory/")


def test_the_result_list_keys_and_closes_and_its_excerpts_are_prose(page: Any, base_url: str) -> None:
    # The training page's formulas (2 + 2 + 4 + 4 + 4 = 16\ \text{bytes}) once showed as LaTeX in its excerpts.
    assert _search(page, base_url, "en", "bytes per parameter")
    excerpts = page.locator("[data-search-results] p").all_text_contents()
    assert excerpts and not [text for text in excerpts if "\\" in text or "frac" in text], excerpts
    page.press("#search-input", "ArrowDown")
    assert page.evaluate("document.activeElement === document.querySelector('[data-search-results] a')")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement === document.querySelectorAll('[data-search-results] a')[1]")
    page.keyboard.press("Escape")  # closes the list, back in the box with the query kept
    assert page.locator("[data-search-results]").is_hidden()
    assert page.evaluate("document.activeElement.id") == "search-input"
    assert page.input_value("#search-input") == "bytes per parameter"
    page.keyboard.press("ArrowDown")  # opens it again
    assert page.locator("[data-search-results]").is_visible()
    page.mouse.click(5, page.viewport_size["height"] - 5)  # a click elsewhere on the page closes it
    assert page.locator("[data-search-results]").is_hidden()
