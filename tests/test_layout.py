"""The page as a reader sees it, in Chromium: on a phone, in menus, in print and in Arabic. One test per mechanism."""

from __future__ import annotations

import io
import re
import unicodedata
from typing import Any

import pytest
from pypdf import PdfReader

from calculators import find
from languages.locales import LOCALE_BY_TAG

from .test_browser import _open, _settle

pytestmark = pytest.mark.browser
EN, AR = LOCALE_BY_TAG["en"], LOCALE_BY_TAG["ar"]
VRAM = find("llm-training-vram")
PHONE = {"width": 390, "height": 844}


def _box(page: Any, selector: str) -> dict[str, float]:
    box: dict[str, float] = page.locator(selector).first.bounding_box()
    return box


def test_a_phone_keeps_the_headline_in_sight_while_editing(page: Any, base_url: str) -> None:
    page.set_viewport_size(PHONE)
    _open(page, base_url, EN, VRAM)
    bar = "[data-summary]"
    # In sight at the foot of the screen from the top of the page and with a field deep in the form focused...
    for field in (None, '[name="activation_gb"]'):
        if field:
            page.focus(field)
            page.locator(field).scroll_into_view_if_needed()
            bottom = _box(page, field)["y"] + _box(page, field)["height"]
            assert bottom <= _box(page, bar)["y"], "the bar hides the field"
        summary = _box(page, bar)
        assert summary["y"] + summary["height"] == pytest.approx(844, abs=1) and summary["height"] <= 80
        assert summary["width"] >= 380
    # ...and it says what the first result says, live, while data-output stays the one hook per result.
    page.fill('[name="params_billion"]', "70")
    _settle(page)
    assert page.text_content("[data-summary-value]") == page.text_content('[data-output="total_vram_gb"]') == "1,120"
    assert page.locator('[data-output="total_vram_gb"]').count() == 1
    # A number and its unit stay on one line in the results' sentences, whose text is the report's, unchanged.
    pairs = page.locator(".results .sentence .nobr")
    assert "1,120 GB" in pairs.all_text_contents()
    assert pairs.evaluate_all("(spans) => spans.every((span) => span.getClientRects().length === 1)")
    assert page.text_content('[data-sentence="total_vram_gb"]') == (
        "A full fine-tune needs about 1,120 GB: 1,120 GB of model state plus 0 GB of activations."
    )
    # The chart's GPU labels read at 12 px or more at this width (13 viewBox units over 320).
    label_px = page.evaluate(
        """() => { const svg = document.querySelector('.memory-chart');
                   const label = svg.querySelector('.chart-mark-label');
                   return parseFloat(getComputedStyle(label).fontSize) * svg.getBoundingClientRect().width
                     / svg.viewBox.baseVal.width; }"""
    )
    assert label_px >= 12
    assert page.locator(".chart-mark-label").all_text_contents() == ["1 × 141\xa0GB", "10 × 141\xa0GB"]
    # An invalid input greys it with the results it keeps.
    page.fill('[name="params_billion"]', "x")
    _settle(page)
    assert page.get_attribute(bar, "data-state") == "invalid" and page.text_content("[data-summary-value]") == "1,120"
    page.fill('[name="params_billion"]', "70")
    _settle(page)
    # Past the inputs the bar is in the flow, above the full results, and print and embeds go without it.
    page.locator(".results").scroll_into_view_if_needed()
    assert _box(page, bar)["y"] < _box(page, ".results")["y"]
    page.emulate_media(media="print")
    assert page.locator(bar).is_hidden()
    page.emulate_media(media="screen")
    page.goto(f"{base_url}en/embed/{VRAM.slug}/")
    assert page.locator(bar).is_hidden()


_MENU_FITS = """() => [...document.querySelectorAll('select')].filter((menu) => menu.offsetParent).map((menu) => {
  const longest = [...menu.options].reduce((a, b) => (b.text.length > a.text.length ? b : a));
  menu.value = longest.value;
  const style = getComputedStyle(menu);
  const context = document.createElement('canvas').getContext('2d');
  context.font = style.font;
  const pad = (side) => parseFloat(style[`padding${side}`]) + parseFloat(style[`border${side}Width`]);
  const room = menu.getBoundingClientRect().width - pad('Left') - pad('Right') - 24;  // 24: the arrow
  const lines = Math.ceil(context.measureText(longest.text).width / room);
  const height = menu.getBoundingClientRect().height - pad('Top') - pad('Bottom');
  return { name: menu.id, text: longest.text, fits: height >= lines * parseFloat(style.lineHeight) - 2 };
})"""


@pytest.mark.parametrize("path", [f"en/{VRAM.slug}/", f"en/embed/{VRAM.slug}/", "en/transformer-params/"])
def test_menus_show_the_whole_of_their_longest_option(page: Any, base_url: str, path: str) -> None:
    for viewport in (PHONE, {"width": 1366, "height": 900}):
        page.set_viewport_size(viewport)
        page.goto(base_url + path)
        page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
        menus = page.evaluate(_MENU_FITS)
        assert menus and all(menu["fits"] for menu in menus), (viewport, menus)
    # Each closed group of advanced inputs says which it is.
    summaries = page.locator("details[data-advanced] > summary").all_text_contents()
    assert len(set(summaries)) == len(summaries)


def test_a_printed_report_holds_every_input_the_results_and_the_link(page: Any, base_url: str) -> None:
    _open(page, base_url, EN, VRAM, "?zero_stage=3&data_parallel=8")
    page.evaluate("() => document.querySelectorAll('details[data-advanced]').forEach((d) => { d.open = false; })")
    page.emulate_media(media="print")
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    reader = PdfReader(io.BytesIO(page.pdf(format="A4")))
    pages = [unicodedata.normalize("NFKC", " ".join(p.extract_text().split())) for p in reader.pages]
    # Results and every input, advanced ones too, on the first page; only the formula goes on.
    assert len(pages) <= 2, len(pages)
    for expected in ("Total VRAM", "14 GB", "Parameters 7 billion", "ZeRO stage Stage 3", "Data-parallel GPUs 8"):
        assert expected in pages[0], expected
    link = f"{base_url}en/{VRAM.slug}/?zero_stage=3&data_parallel=8"
    assert link in "".join(pages[0].split()), "the link that reproduces the report"
    assert page.get_attribute("[data-print-url]", "href") == link
    page.evaluate("window.dispatchEvent(new Event('afterprint'))")
    assert page.locator("details[data-advanced][open]").count() == 0, "the groups close again after printing"


def test_arabic_isolates_each_number_with_its_unit(page: Any, base_url: str) -> None:
    page.set_viewport_size(PHONE)
    _open(page, base_url, AR, VRAM)
    published = page.text_content('[data-sentence="total_vram_gb"]')
    page.fill('[name="activation_gb"]', "20.35")
    _settle(page)
    live = page.text_content('[data-sentence="total_vram_gb"]')
    chart = page.text_content("[data-chart]")
    for text in (published, live, chart):
        assert re.search("\u2066[\\d.,]+[ \xa0]GB\u2069", text), text
    assert "\u206620.35 GB\u2069" in live and "\u2066132.4\xa0GB\u2069" in chart
    # Isolated, the pair reads left to right in the right-to-left line: the number sits left of its unit.
    order = page.evaluate(
        """() => { const pair = [...document.querySelectorAll('[data-sentence="total_vram_gb"] .nobr')]
                     .find((span) => span.textContent === '20.35 GB').firstChild;
                   const at = (start, length) => { const range = new Range();
                     range.setStart(pair, start); range.setEnd(pair, start + length);
                     return range.getBoundingClientRect().x; };
                   return [at(0, 5), at(6, 2)]; }"""
    )
    assert order[0] < order[1]


def test_arabic_article_prose_isolates_numbers_with_units_and_latin_names(page: Any, base_url: str) -> None:
    page.set_viewport_size(PHONE)
    page.goto(f"{base_url}ar/{VRAM.slug}/")
    article = page.text_content(".article")
    assert "\u2066112 GB\u2069" in article and "\u2066Hugging Face Accelerate\u2069" in article
    # Only text: addresses, attributes and the formulas' MathML carry no mark.
    marked = """() => [...document.querySelectorAll('.article *')].some((e) => [...e.attributes].some((a) =>
                 /[\u2066\u2069]/.test(a.value))) || [...document.querySelectorAll('.article math')]
                 .some((m) => /[\u2066\u2069]/.test(m.textContent))"""
    assert not page.evaluate(marked)
    # Isolated, "112 GB" reads left to right in the right-to-left paragraph: the number left of its unit.
    order = page.evaluate(
        """() => { const walker = document.createTreeWalker(document.querySelector('.article'), NodeFilter.SHOW_TEXT);
                   let node; while ((node = walker.nextNode()) && !node.data.includes('\u2066112 GB')) {}
                   const start = node.data.indexOf('\u2066112 GB') + 1;
                   const at = (from, length) => { const range = new Range();
                     range.setStart(node, from); range.setEnd(node, from + length);
                     return range.getBoundingClientRect().x; };
                   return [at(start, 3), at(start + 4, 2)]; }"""
    )
    assert order[0] < order[1]
    page.goto(f"{base_url}en/{VRAM.slug}/")
    english = page.text_content("main")
    assert "112 GB" in english and "\u2066" not in english and "\u2069" not in english


def test_any_calculator_is_two_steps_from_home_and_the_article_uses_the_width(page: Any, base_url: str) -> None:
    from calculators import CALCULATORS

    page.set_viewport_size(PHONE)
    page.goto(f"{base_url}en/")
    # A phone's home page stays short: topics with counts, the most used, a few per topic (was 4,868 px for 20).
    assert page.evaluate("document.documentElement.scrollHeight") < 3000
    search = _box(page, "#search-input")
    assert search["y"] < 250 and search["width"] >= 340 and search["height"] >= 48, "a prominent search"
    tiles = page.locator(".category-tiles a")
    counts = {calculator.category: 0 for calculator in CALCULATORS}
    for calculator in CALCULATORS:
        counts[calculator.category] += 1
    assert tiles.count() == len(counts)
    reached: set[str] = set()
    for href, text in [(tiles.nth(i).get_attribute("href"), tiles.nth(i).inner_text()) for i in range(tiles.count())]:
        slug = href.strip("/").split("/")[-1]
        assert f"{counts[slug]} calculator{'' if counts[slug] == 1 else 's'}" in text
        page.goto(f"{base_url}en/{slug}/")  # step one: the topic; step two: any of its calculators
        links = page.locator("main > .calc-list a").evaluate_all("(links) => links.map((a) => a.pathname)")
        assert len(links) == counts[slug]
        reached |= {link.strip("/").split("/")[-1] for link in links}
    assert reached == {calculator.slug for calculator in CALCULATORS}
    # On a desktop the article has its table of contents and the recommended calculators beside it.
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(f"{base_url}en/{VRAM.slug}/")
    article, aside, main = _box(page, ".article"), _box(page, ".article-aside"), _box(page, "main")
    assert aside["x"] >= article["x"] + article["width"] and aside["y"] < article["y"] + 200
    assert aside["x"] + aside["width"] - article["x"] >= 0.9 * (main["width"] - 32)
    anchors = page.locator(".toc a").evaluate_all("(links) => links.map((a) => a.hash)")
    assert len(anchors) >= 4 and all(page.locator(anchor).count() == 1 for anchor in anchors)


def test_a_desktop_keeps_the_results_in_sight_while_the_inputs_scroll(page: Any, base_url: str) -> None:
    page.set_viewport_size({"width": 1366, "height": 768})
    moe = find("moe-active-params")  # the longest form: many inputs beside five results
    _open(page, base_url, EN, moe)
    page.evaluate("() => document.querySelectorAll('details[data-advanced]').forEach((d) => { d.open = true; })")
    start = _box(page, ".results")
    form = _box(page, "form.inputs")
    assert form["height"] > 2 * 768, "a form long enough to scroll"
    page.evaluate("window.scrollTo(0, 1500)")
    inputs, results = _box(page, "form.inputs"), _box(page, ".results")
    # The inputs went up with the page; the results stay beside them, 1 rem below the top of the screen.
    assert inputs["y"] < -1000 and results["y"] == pytest.approx(16, abs=1)
    assert results["x"] == pytest.approx(start["x"]) and results["height"] <= 768 - 32 + 1
    assert page.locator('[data-output="total_params_billion"]').is_visible()
    # Not on a phone (the summary bar is its headline in sight), nor in print or an embed.
    page.emulate_media(media="print")
    assert page.eval_on_selector(".results", "(r) => getComputedStyle(r).position") == "static"
    page.emulate_media(media="screen")
    page.set_viewport_size(PHONE)
    assert page.eval_on_selector(".results", "(r) => getComputedStyle(r).position") == "static"
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{base_url}en/embed/{moe.slug}/")
    assert page.eval_on_selector(".results", "(r) => getComputedStyle(r).position") == "static"


def test_a_phone_header_gives_the_languages_one_line(page: Any, base_url: str) -> None:
    # Ten language names wrapped onto three lines (about 100 px) above every calculator on a phone; now they scroll
    # sideways on one line, each a whole touch target, and the last can be scrolled to and followed.
    page.set_viewport_size({"width": 360, "height": 780})
    _open(page, base_url, EN, VRAM)
    languages = _box(page, ".languages")
    assert languages["height"] <= 32
    links = page.locator(".languages a")
    assert links.count() == 10
    assert all(box["height"] >= 24 for box in (links.nth(i).bounding_box() for i in range(10)))
    arabic = page.locator('.languages a[hreflang="ar"]')
    arabic.scroll_into_view_if_needed()
    assert 0 <= arabic.bounding_box()["x"] and arabic.bounding_box()["x"] + arabic.bounding_box()["width"] <= 360
    assert page.evaluate("document.documentElement.scrollWidth") == 360


def test_an_embed_keeps_short_beside_a_host_page_s_text(page: Any, base_url: str) -> None:
    # The longest embed, lora-parameters, stood 5,062 px tall at 640 px wide: every help text shown, the results
    # under the inputs. Now a field's help shows while it is edited, and the results sit beside the inputs. The
    # activations it counts since issue 29 (a menu, the vocabulary, two closed groups) took it to about 2,700.
    page.set_viewport_size({"width": 640, "height": 800})
    page.goto(f"{base_url}en/embed/lora-parameters/")
    assert page.evaluate("document.documentElement.scrollHeight") <= 2_800
    assert _box(page, ".results")["y"] < _box(page, ".inputs")["y"] + 100
    help_text = page.locator("#help-rank")
    assert help_text.is_hidden()
    page.focus('[name="rank"]')
    assert help_text.is_visible()
    assert page.get_attribute('[name="rank"]', "aria-describedby").startswith("help-rank")


@pytest.mark.parametrize("folder", ["en", "ja", "zh-cn", "zh-tw"])
def test_no_page_scrolls_sideways_on_a_small_phone(page: Any, base_url: str, folder: str) -> None:
    # Long formulas, tables and price lists scroll in their own boxes; the page itself stays 360 px wide. Chinese
    # and Japanese put no space between words: a number kept with "its word" up to the next space held the rest
    # of the sentence on one line (38 of 60 pages overflowed).
    from calculators import CALCULATORS

    page.set_viewport_size({"width": 360, "height": 780})
    wide, clipped = [], []
    for calculator in CALCULATORS:
        page.goto(f"{base_url}{folder}/{calculator.slug}/")
        if page.evaluate("document.documentElement.scrollWidth") > 360:
            wide.append(calculator.slug)
        # A table's caption stays within the box the table scrolls in (it was as wide as the table, its end unseen).
        script = """() => [...document.querySelectorAll('.plan-scroll, .table-scroll')].some(box => {
            const caption = box.querySelector('caption');
            return caption && caption.getBoundingClientRect().width > box.clientWidth + 1; })"""
        if page.evaluate(script):
            clipped.append(calculator.slug)
    assert wide == [] and clipped == []
