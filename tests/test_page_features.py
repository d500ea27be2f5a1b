"""End to end in Chromium: share, reset, print, embed, feedback, keyboard, and a site under a sub-path."""

from __future__ import annotations

import io
import re
import threading
import unicodedata
import urllib.request
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.error import HTTPError
from urllib.parse import urljoin, urlsplit

import pytest
from pypdf import PdfReader

from languages.locales import LOCALE_BY_TAG
from site_builder.build import BuildConfig, build
from site_builder.build.assets import QUICK_START_RUNTIME_FILES
from site_builder.devserver.server import make_server

from .test_browser import _open, _settle

pytestmark = pytest.mark.browser
EN, ZH = LOCALE_BY_TAG["en"], LOCALE_BY_TAG["zh-TW"]


class _Calc:
    slug = "gradient-accumulation-memory"


def _serve(directory: Path) -> Iterator[str]:
    server = make_server(directory, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def _grad(page: Any, base_url: str, locale: Any = EN, query: str = "") -> None:
    from calculators import find

    _open(page, base_url, locale, find("gradient-accumulation-memory"), query)


def test_share_link_round_trips_into_a_fresh_page(page: Any, base_url: str, browser: Any) -> None:
    _grad(page, base_url)
    page.fill('[name="micro_batch"]', "6")
    page.fill('[name="data_parallel"]', "3")
    page.fill('[name="activation_per_sample_gb"]', "abc")  # invalid values stay out of the link
    _settle(page)
    page.click('[data-open="share-dialog"]')
    link = page.input_value("[data-share-link]")
    # memory_unit, added after the page shipped, stays out of the link at its default (a link without it takes it).
    query = "micro_batch=6&accumulation_steps=8&data_parallel=3"
    assert link == f"{base_url}en/gradient-accumulation-memory/?{query}"
    x = page.get_attribute('[data-share-target="x"]', "href")
    assert x.startswith("https://twitter.com/intent/tweet?url=") and "micro_batch%3D6" in x
    assert page.get_attribute('[data-share-target="line"]', "href").startswith("https://social-plugins.line.me/")
    assert page.get_attribute('[data-share-target="email"]', "href").startswith("mailto:?subject=")
    fresh = browser.new_context().new_page()
    fresh.goto(link)
    fresh.wait_for_selector('[data-engine][data-state="ready"]', timeout=60_000)
    _settle(fresh)
    assert fresh.input_value('[name="micro_batch"]') == "6"
    assert fresh.text_content('[data-output="effective_batch"]') == "144"
    assert fresh.text_content('[data-output="activation_memory_gb"]') == "3"
    fresh.context.close()


def test_copy_link_uses_the_clipboard(browser: Any, base_url: str) -> None:
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    tab = context.new_page()
    _grad(tab, base_url, query="?micro_batch=2")
    tab.click("text=Share")
    tab.click("text=Copy link")
    tab.wait_for_selector("#share-dialog [data-copy-status]:has-text('Link copied')")
    assert tab.evaluate("navigator.clipboard.readText()").endswith(
        "?micro_batch=2&accumulation_steps=8&data_parallel=1&activation_per_sample_gb=0.5"
    )
    context.close()


def test_reset_restores_defaults_and_clears_the_query(page: Any, base_url: str) -> None:
    _grad(page, base_url, query="?micro_batch=16&data_parallel=8")
    assert page.text_content('[data-output="effective_batch"]') == "1,024"
    page.click("text=Reset")
    _settle(page)
    assert page.input_value('[name="micro_batch"]') == "4"
    assert page.text_content('[data-output="effective_batch"]') == "32"
    assert urlsplit(page.url).query == ""


def test_print_report_holds_the_report_and_no_chrome(page: Any, base_url: str) -> None:
    _grad(page, base_url, EN, "?data_parallel=4")
    page.emulate_media(media="print")
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    reader = PdfReader(io.BytesIO(page.pdf()))
    # NFKC folds the ligatures (ﬀ) the PDF's fonts use back into letters.
    text = unicodedata.normalize("NFKC", " ".join(" ".join(p.extract_text().split()) for p in reader.pages))
    for expected in (
        "Gradient accumulation memory",
        "Micro-batch size",
        "samples",
        "Effective batch size",
        "128 samples",
        "Each optimizer step learns from 128 samples",
        "Peak activation memory on each GPU is 4 samples × 0.5 GB = 2 GB.",
        "Formula",
    ):
        assert expected in text, expected
    assert re.search(r"Generated on [A-Z][a-z]+ \d{1,2}, \d{4}", text), text[:300]
    for chrome in (
        "Share",
        "Embed",
        "Reset",
        "繁體中文",
        "Frequently asked questions",
        "Recommended next",
        "Send feedback",
    ):
        assert chrome not in text, chrome


def test_print_date_follows_the_page_locale(page: Any, base_url: str) -> None:
    _grad(page, base_url, ZH)
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    assert re.fullmatch(r"產生時間：\d{4}年\d{1,2}月\d{1,2}日 .+", page.text_content("[data-generated]"))


def test_keyboard_opens_and_closes_a_dialog_returning_focus(page: Any, base_url: str) -> None:
    _grad(page, base_url)
    share = page.locator("[data-toolbar] button", has_text="Share")
    share.focus()
    page.keyboard.press("Enter")
    assert page.evaluate("document.getElementById('share-dialog').open")
    assert page.evaluate("document.getElementById('share-dialog').contains(document.activeElement)")
    for _ in range(8):  # Tab cycles inside the modal dialog
        page.keyboard.press("Tab")
        assert page.evaluate("document.getElementById('share-dialog').contains(document.activeElement)")
    page.keyboard.press("Escape")
    assert not page.evaluate("document.getElementById('share-dialog').open")
    assert page.evaluate("document.activeElement.textContent") == "Share"


def test_feedback_opens_a_prefilled_issue(page: Any, base_url: str) -> None:
    page.context.route("https://github.com/**", lambda route: route.fulfill(status=200, body="ok"))
    _grad(page, base_url)
    page.get_by_role("button", name="Needs improvement").click()
    page.fill("#feedback-body", "Please add sequence length.")
    with page.context.expect_page() as popup:
        page.get_by_role("button", name="Send feedback").click()
    url = popup.value.url
    assert url.startswith("https://github.com/") and "/issues/new?" in url
    assert "title=Feedback%3A%20Gradient%20accumulation%20memory" in url
    assert "Please%20add%20sequence%20length." in url
    assert page.locator("[data-feedback-thanks]").is_visible()


def test_embed_dialog_shows_snippet_and_live_preview(page: Any, base_url: str) -> None:
    _grad(page, base_url, ZH, "?micro_batch=8")
    page.click('[data-open="embed-dialog"]')
    code = page.input_value("[data-embed-code]")
    assert code == (
        '<script src="http://localhost:8000/_app/embed.js" data-calculator="gradient-accumulation-memory" '
        'data-lang="zh-TW" data-values="micro_batch=8" async></script>'
    )
    frame = page.frame_locator("[data-embed-preview] iframe")
    frame.locator('[data-engine][data-state="ready"]').wait_for(timeout=60_000)
    frame.locator('[data-output="effective_batch"]', has_text="64").wait_for()


HOST_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title>
<link rel="icon" href="data:,"></head>
<body><div id="column" style="width: 900px">
<p id="before">Host content before.</p>
<script src="{site}_app/embed.js" data-calculator="llm-training-vram" data-lang="zh-TW"
        data-values="params_billion=70&amp;bytes_per_param=12" async></script>
<p id="between">Host content between.</p>
<script src="{site}_app/embed.js" data-calculator="gradient-accumulation-memory" data-lang="en" async></script>
<p id="after">Host content after.</p>
</div></body></html>"""


@pytest.fixture
def host_url(tmp_path: Path, base_url: str) -> Iterator[str]:
    (tmp_path / "host.html").write_text(HOST_PAGE.format(site=base_url), encoding="utf-8")
    yield from _serve(tmp_path)


def test_two_embeds_on_a_foreign_page(page: Any, base_url: str, host_url: str) -> None:
    assert urlsplit(host_url).port != urlsplit(base_url).port
    page.goto(f"{host_url}host.html")
    original = page.evaluate(
        "fetch(location.href).then(r => r.text())"
        ".then(html => new DOMParser().parseFromString(html, 'text/html').body.innerHTML)"
    )
    iframes = page.locator("iframe")
    iframes.nth(1).wait_for()
    assert iframes.count() == 2
    vram = page.frame_locator("iframe >> nth=0")
    grad = page.frame_locator("iframe >> nth=1")
    vram.locator('[data-engine][data-state="ready"]').wait_for(timeout=60_000)
    vram.locator('[data-output="model_state_gb"]', has_text="840").wait_for()
    assert vram.locator("[name=params_billion]").input_value() == "70"
    # The embed without values shows its published results and starts no engine until the reader touches it.
    assert grad.locator("[data-engine]").get_attribute("data-state") is None
    assert not grad.locator("body").evaluate("() => performance.getEntriesByType('resource')"
                                             ".some((entry) => entry.name.includes('/pyodide/'))")  # fmt: skip
    grad.locator('[name="micro_batch"]').fill("8")
    grad.locator('[data-engine][data-state="ready"]').wait_for(timeout=60_000)
    grad.locator('[data-output="effective_batch"]', has_text="64").wait_for()
    assert vram.locator('[data-output="model_state_gb"]').text_content() == "840"

    def heights() -> list[float]:
        return page.evaluate("[...document.querySelectorAll('iframe')].map(f => f.getBoundingClientRect().height)")

    page.wait_for_function("() => [...document.querySelectorAll('iframe')].every(f => f.style.height !== '560px')")
    before = heights()
    page.evaluate("document.getElementById('column').style.width = '360px'")
    page.wait_for_function(
        "([a, b]) => { const h = [...document.querySelectorAll('iframe')].map(f => f.getBoundingClientRect().height);"
        " return h[0] > a && h[1] > b; }",
        arg=before,
    )
    for index in range(2):
        frame = page.locator("iframe").nth(index).element_handle().content_frame()
        inner = frame.evaluate("Math.ceil(document.body.getBoundingClientRect().height)")
        assert abs(heights()[index] - inner) <= 1
    # Outside the two iframes, the host page is exactly as it was written.
    without_frames = page.evaluate(
        "(() => { const c = document.body.cloneNode(true); c.querySelectorAll('iframe').forEach(f => f.remove());"
        " c.querySelector('#column').setAttribute('style', 'width: 900px'); return c.innerHTML; })()"
    )
    assert without_frames == original
    sandbox = page.get_attribute("iframe >> nth=0", "sandbox")
    assert sorted(sandbox.split()) == [
        "allow-popups",
        "allow-popups-to-escape-sandbox",
        "allow-same-origin",
        "allow-scripts",
    ]
    assert "Powered by" in grad.locator(".powered-by").text_content()


def test_embed_ignores_forged_size_messages(page: Any, base_url: str, host_url: str) -> None:
    page.goto(f"{host_url}host.html")
    page.wait_for_function("() => document.querySelectorAll('iframe')[1].style.height !== '560px'", timeout=60_000)
    height = page.evaluate("document.querySelectorAll('iframe')[1].style.height")
    # The host's own window is not the iframe, and its origin is not the site's: both checks reject it.
    page.evaluate("window.postMessage({type: 'ai-calc:size', frame: 'x', height: 9999}, '*')")
    page.wait_for_timeout(300)
    assert page.evaluate("document.querySelectorAll('iframe')[1].style.height") == height


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value and (
                name in {"href", "src"}
                or name in {"data-worker", "data-stdlib", "data-bundle", "data-catalog", "data-facts", "data-src"}
            ):
                self.links.append(value)
            if value and name == "data-runtime":
                self.links.extend(value + file for file in QUICK_START_RUNTIME_FILES)


@pytest.fixture(scope="module")
def subpath_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("subpath")
    server = make_server(root, port=0)
    port = server.server_address[1]
    base = f"http://127.0.0.1:{port}/user/repo/"
    build(BuildConfig(out=root / "user" / "repo", base_url=base))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield base
    server.shutdown()
    server.server_close()


def test_subpath_build_has_no_broken_link(subpath_site: str) -> None:
    origin = f"{urlsplit(subpath_site).scheme}://{urlsplit(subpath_site).netloc}"
    queue, seen, checked = [subpath_site], set(), 0
    while queue:
        url = queue.pop()
        if url in seen:
            continue
        seen.add(url)
        try:
            with urllib.request.urlopen(url) as response:
                body = response.read()
                kind = response.headers.get_content_type()
        except HTTPError as error:
            pytest.fail(f"{url}: HTTP {error.code}")
        checked += 1
        if kind != "text/html":
            continue
        parser = _Links()
        parser.feed(body.decode())
        for link in parser.links:
            target = urljoin(url, link).split("#")[0]
            if target.startswith(origin):
                assert target.startswith(subpath_site), f"{url} links outside the sub-path: {link}"
                queue.append(target)
            else:
                assert not link.startswith("/"), f"{url}: root-relative link {link}"
    assert checked > 20


def test_subpath_page_computes(browser: Any, subpath_site: str) -> None:
    tab = browser.new_context().new_page()
    tab.goto(f"{subpath_site}zh-tw/llm-training-vram/?activation_gb=20")
    tab.wait_for_selector('[data-engine][data-state="ready"]', timeout=60_000)
    _settle(tab)
    assert tab.text_content('[data-output="total_vram_gb"]') == "132"
    canonical = tab.get_attribute('link[rel="canonical"]', "href")
    assert canonical == f"{subpath_site}zh-tw/llm-training-vram/"
    tab.context.close()


def test_the_embed_snippet_carries_a_long_vector(page: Any, base_url: str, tmp_path: Path) -> None:
    # Values over 64 characters were dropped by embed.js: the host showed the default vectors' result, silently.
    from calculators import find

    vector = ", ".join(f"{index / 7:.6f}" for index in range(1, 41))
    _open(page, base_url, EN, find("cosine-similarity"))
    page.fill('[name="vector_a"]', vector)
    page.fill('[name="vector_b"]', ", ".join("1" for _ in range(40)))
    page.wait_for_function("() => !document.querySelector('.results').hasAttribute('aria-busy')")
    distance = page.text_content('[data-output="distance"]')
    page.click('[data-open="embed-dialog"]')
    code = page.input_value("[data-embed-code]")
    assert len(vector) > 64 and page.locator("#embed-dialog [data-too-long]").is_hidden()
    host = "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Host</title>"
    host += "<link rel='icon' href='data:,'></head><body>{}</body></html>"
    # The snippet names the site's configured address; here the site is served at base_url.
    (tmp_path / "host.html").write_text(host.format(code.replace("http://localhost:8000/", base_url)), "utf-8")
    for url in _serve(tmp_path):
        page.goto(f"{url}host.html")
        frame = page.frame_locator("iframe")
        frame.locator('[data-engine][data-state="ready"]').wait_for(timeout=60_000)
        assert frame.locator('[name="vector_a"]').input_value() == vector
        frame.locator('[data-output="distance"]', has_text=distance or "").wait_for()


def test_a_link_too_long_for_a_browser_leaves_out_what_does_not_fit_and_says_so(page: Any, base_url: str) -> None:
    # Two vectors of 60,000 numbers: 2.4 MB of query, past the 2 MiB Chromium opens (a blank page, or nothing).
    from calculators import find

    vector = ", ".join(f"0.{index:016d}" for index in range(60_000))
    _open(page, base_url, EN, find("cosine-similarity"))
    page.evaluate(
        """(vector) => { for (const name of ["vector_a", "vector_b"]) {
             const field = document.querySelector(`[name="${name}"]`);
             field.value = vector;
             field.dispatchEvent(new Event("input", { bubbles: true }));
           } }""",
        vector,
    )
    page.wait_for_function(
        "() => !document.querySelector('.results').hasAttribute('aria-busy')"
        " && document.querySelector('[data-output=\"similarity\"]').textContent === '1'",
        timeout=60_000,
    )
    page.click('[data-open="share-dialog"]')
    link = page.input_value("[data-share-link]")
    assert len(link) <= 2_000_000 and ("vector_a=" in link) != ("vector_b=" in link)
    note = page.locator("#share-dialog [data-too-long]")
    assert note.is_visible() and "too long for a link" in (note.text_content() or "")
    page.keyboard.press("Escape")
    # The language switcher carries them whole: through the tab's session storage, past a link's length.
    page.locator('.languages a[hreflang="de"]').click()
    page.wait_for_url("**/de/cosine-similarity/**")
    page.wait_for_selector('[data-engine][data-state="ready"]', timeout=60_000)
    assert page.input_value('[name="vector_a"]') == vector == page.input_value('[name="vector_b"]')
    page.wait_for_function("() => document.querySelector('[data-output=\"similarity\"]').textContent === '1'")
