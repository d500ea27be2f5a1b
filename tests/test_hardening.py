"""Hostile input, hostile links, a broken runtime, offline use; valid HTML and accessible pages."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import threading
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from calculators import Kind, LocaleKit, find, make_report
from languages.locales import LOCALE_BY_TAG, LOCALES, Locale
from site_builder.build import PROJECT, BuildConfig, build
from site_builder.build.assets import calculator_module
from site_builder.devserver.server import make_server

from .cases import BAD_INPUT
from .pagetext import kept_text, result_text
from .test_browser import _open, _settle

EN, DE = LOCALE_BY_TAG["en"], LOCALE_BY_TAG["de"]
GRAD, VRAM = find("gradient-accumulation-memory"), find("llm-training-vram")
XSS = [
    "<img src=x onerror=alert(1)>",
    '"><script>alert(1)</script>',
    "javascript:alert(1)",
    "'><svg onload=alert(1)>",
    "</textarea><img src=x onerror=alert(2)>",
]


# ---- the build's own output ----


def _one_page_per_template(site: Path) -> list[Path]:
    """Return every English page (each calculator's article is its own markup) and, in every other
    locale, one page of each template: a translation changes words, and catalogs.py refuses one whose
    markup differs from its source's."""
    english = sorted((site / "en").rglob("*.html"))
    pages = [site / "index.html", site / "404.html", *english]
    for locale in LOCALES[1:]:
        folder = site / locale.folder
        pages += [folder / "index.html", folder / "404.html", folder / GRAD.category / "index.html"]
        pages += [folder / GRAD.slug / "index.html", folder / "embed" / VRAM.slug / "index.html"]
    return pages


def test_pages_are_valid_html(site: Path) -> None:
    java = shutil.which("java")
    assert java, "Java is required for the Nu HTML Checker (./dev test installs it)"
    checker = PROJECT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
    pages = _one_page_per_template(site)
    assert all(page.is_file() for page in pages)
    run = subprocess.run(
        [java, "-jar", str(checker), "--errors-only", "--no-langdetect", "--format", "json", *map(str, pages)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    messages = json.loads(run.stderr or '{"messages": []}')["messages"]
    assert [f"{m['url']}:{m.get('lastLine')}: {m['message']}" for m in messages] == []
    assert run.returncode == 0


def test_every_page_declares_the_content_security_policy(site: Path) -> None:
    for page in site.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        head = html.split("</head>", 1)[0]
        assert head.index('http-equiv="Content-Security-Policy"') < head.index("<script"), page
        assert "script-src &#39;self&#39; &#39;wasm-unsafe-eval&#39;;" in head, page
        assert "unsafe-inline" not in head and "unsafe-eval&#39;;" not in head.replace("wasm-unsafe-eval", ""), page


# ---- bad input, typed ----


@pytest.mark.browser
def test_bad_input_in_every_field(page: Any, base_url: str, kits: dict[str, LocaleKit]) -> None:
    """The page shows what the core says of bad input, field by field (every calculator's own fields
    get the same bad input under Pyodide in every locale, in test_pyodide.py: the reading is shared, the
    page is one). German, whose decimal comma is the case a page most easily gets wrong."""
    calculator, locale = VRAM, DE
    _open(page, base_url, locale, calculator)
    page.evaluate("() => document.querySelectorAll('details[data-advanced]').forEach(d => { d.open = true; })")
    names = [spec.name for spec in calculator.inputs]
    defaults = make_report(calculator, calculator.defaults(), kits[locale.tag])
    for spec in calculator.inputs:
        if spec.kind is Kind.CHOICE:
            continue
        last_valid = defaults
        for text in BAD_INPUT:
            page.fill(f'[name="{spec.name}"]', text)
            _settle(page)
            values = {**calculator.defaults(), spec.name: text}
            report = make_report(calculator, values, kits[locale.tag])
            # An invalid field leaves the last results computed in place, greyed (tests/test_controls.py).
            shown = kept_text(report, last_valid, names, chart=bool(calculator.chart))
            assert result_text(page.content()) == shown, (spec.name, text[:20])
            last_valid = report if report.ok else last_valid
            if not report.ok:
                assert page.locator(f'[data-error-for="{spec.name}"]').is_visible()
                assert page.locator("[data-status]").is_visible()
            main = page.text_content("main")
            assert "NaN" not in main and "undefined" not in main and "Infinity" not in main
        page.fill(f'[name="{spec.name}"]', calculator.defaults()[spec.name])
        _settle(page)


# ---- hostile links ----


def _no_injection(page: Any) -> None:
    injected = page.evaluate(
        "() => [...document.querySelectorAll('img, svg:not(math svg), script:not([src]):not([type])')].length"
        " + [...document.querySelectorAll('*')]"
        ".filter(e => [...e.attributes].some(a => a.name.startsWith('on'))).length"
    )
    assert injected == 0


@pytest.mark.browser
@pytest.mark.parametrize("payload", XSS)
def test_hostile_share_links(page: Any, base_url: str, payload: str) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    query = f"?micro_batch={quote(payload)}&{quote(payload)}=1&data_parallel=4#{quote(payload)}"
    _open(page, base_url, EN, GRAD, query)
    assert page.input_value('[name="micro_batch"]') == payload[:200]
    assert page.text_content('[data-error-for="micro_batch"]') == "Enter a number, for example 4."
    assert page.get_attribute(".results", "data-state") == "invalid"
    _no_injection(page)
    assert dialogs == []


@pytest.mark.browser
def test_out_of_range_link_values_are_flagged(page: Any, base_url: str) -> None:
    _open(page, base_url, EN, VRAM, "?params_billion=-5&bytes_per_param=10&activation_gb=20")
    assert page.text_content('[data-error-for="params_billion"]') == "Enter a number greater than 0."
    assert page.text_content('[data-error-for="bytes_per_param"]') == "Choose one of the listed options."
    assert page.get_attribute(".results", "data-state") == "invalid"
    page.select_option('[name="bytes_per_param"]', "12")
    page.fill('[name="params_billion"]', "7")
    _settle(page)
    assert page.text_content('[data-output="total_vram_gb"]') == "104"


@pytest.mark.browser
def test_a_value_a_float_cannot_hold_never_freezes_the_page(page: Any, base_url: str) -> None:
    # 1e-400 is above 0 but is 0.0 as a float: the formula divided by it, the worker had no answer,
    # and the page stayed busy for the rest of the visit.
    gpus = find("gpu-count")
    _open(page, base_url, EN, gpus, "?gpu_memory_gb=1e-400")
    assert page.text_content('[data-error-for="gpu_memory_gb"]') == "This value is out of range for the calculation."
    page.fill('[name="gpu_memory_gb"]', "80")
    _settle(page)
    assert page.text_content('[data-error-for="gpu_memory_gb"]') == ""
    assert page.get_attribute(".results", "data-state") == "ok"


def _breaking_bundle(original: bytes, module: str) -> bytes:
    """The calculator's bundle with its module wrapped so that compute raises for a value of 13."""
    package = module.replace(".", "/")
    wrapper = f"""import dataclasses
from {module}_real import CALCULATOR as REAL

def compute(values):
    if 13 in values.values():
        raise RuntimeError("a bug the core did not foresee")
    return REAL.compute(values)

CALCULATOR = dataclasses.replace(REAL, compute=compute)
"""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(original)) as source, zipfile.ZipFile(out, "w") as target:
        for name in source.namelist():
            target.writestr(name.replace(package + "/", package + "_real/"), source.read(name))
        target.writestr(f"{package}/__init__.py", wrapper)
    return out.getvalue()


@pytest.mark.browser
def test_an_exception_in_the_engine_is_answered_not_left_pending(browser: Any, base_url: str, site: Path) -> None:
    bundle = _breaking_bundle(
        (site / "_app" / "calculators" / f"{GRAD.slug}.zip").read_bytes(), calculator_module(GRAD)
    )
    context = browser.new_context()
    context.route(f"**/calculators/{GRAD.slug}.zip*", lambda route: route.fulfill(status=200, body=bundle))
    tab = context.new_page()
    _open(tab, base_url, EN, GRAD)
    tab.fill('[name="micro_batch"]', "13")
    _assert_failed_gracefully(tab)
    context.close()


HOSTILE_HOST = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title>
<link rel="icon" href="data:,"></head><body>
<script src="{site}_app/embed.js" data-calculator="llm-training-vram"
  data-lang='"><img src=x onerror=alert(1)>'
  data-values="params_billion=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&amp;onerror=1&amp;x%22%3E=2" async></script>
<script src="{site}_app/embed.js" data-calculator='"><script>alert(1)</script>' async></script>
<script src="{site}_app/embed.js" data-calculator="../../etc" async></script>
<script src="{site}_app/embed.js" data-calculator="javascript:alert(1)" data-lang="zh-TW" async></script>
<p id="after">end</p></body></html>"""


@pytest.fixture
def hostile_host(tmp_path: Path, base_url: str) -> Iterator[str]:
    (tmp_path / "host.html").write_text(HOSTILE_HOST.format(site=base_url), encoding="utf-8")
    server = make_server(tmp_path, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/host.html"
    server.shutdown()
    server.server_close()


@pytest.mark.browser
def test_hostile_embed_attributes(page: Any, hostile_host: str) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(hostile_host)
    page.wait_for_load_state("load")
    frame = page.frame_locator("iframe")
    frame.locator('[data-engine][data-state="ready"]').wait_for(timeout=60_000)
    assert page.locator("iframe").count() == 1, "only the embed naming a real calculator is mounted"
    src = page.get_attribute("iframe", "src")
    assert "/en/embed/llm-training-vram/?params_billion=" in src, "an unknown language falls back to English"
    # The loader holds no per-calculator lists (it stays small as the catalogue grows): it drops keys
    # that cannot be input names, and the page ignores names that are not its inputs.
    assert "x%22" not in src, "keys that cannot be input names are dropped"
    assert frame.locator('[name="onerror"]').count() == 0
    assert frame.locator('[name="params_billion"]').input_value() == "<img src=x onerror=alert(1)>"
    # The message comes with the first report, a moment after the engine is ready.
    error = frame.locator('[data-error-for="params_billion"]', has_text="Enter a number, for example 7.")
    error.wait_for(timeout=30_000)
    assert error.text_content() == "Enter a number, for example 7."
    _no_injection(page)
    assert page.evaluate("() => document.querySelectorAll('img').length") == 0
    assert dialogs == []


# ---- a broken runtime ----


def _assert_failed_gracefully(tab: Any) -> None:
    tab.wait_for_selector('[data-engine][data-state="failed"]', timeout=30_000)
    note = tab.text_content("[data-engine]")
    assert "could not start" in note
    assert tab.get_attribute('[name="micro_batch"]', "readonly") is not None
    assert tab.input_value('[name="micro_batch"]') == "4", "the inputs show the values the results belong to"
    assert tab.text_content('[data-output="effective_batch"]') == "32"
    assert tab.get_attribute(".results", "aria-busy") is None


@pytest.mark.browser
@pytest.mark.parametrize(
    "blocked",
    ["pyodide.asm.wasm", "pyodide.mjs", "stdlib.zip", "worker.js", "core.zip", "gradient-accumulation-memory.zip"],
)
def test_blocked_runtime_file(browser: Any, base_url: str, blocked: str) -> None:
    context = browser.new_context()
    context.route(f"**/{blocked}*", lambda route: route.abort())
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.goto(f"{base_url}en/{GRAD.slug}/?micro_batch=16")
    _assert_failed_gracefully(tab)
    assert errors == []
    context.close()


@pytest.mark.browser
def test_truncated_webassembly_fails_at_once(browser: Any, base_url: str, site: Path) -> None:
    # Pyodide only warns when its WebAssembly cannot be instantiated and never settles: the page used
    # to show "Loading…" until its 60-second deadline.
    wasm = next((site / "_app" / "pyodide").iterdir()).joinpath("pyodide.asm.wasm").read_bytes()
    context = browser.new_context()
    half = {"status": 200, "body": wasm[: len(wasm) // 2], "headers": {"content-type": "application/wasm"}}
    context.route("**/pyodide.asm.wasm", lambda route: route.fulfill(**half))
    tab = context.new_page()
    started = time.monotonic()
    tab.goto(f"{base_url}en/{GRAD.slug}/?micro_batch=16")
    _assert_failed_gracefully(tab)
    assert time.monotonic() - started < 20
    context.close()


@pytest.mark.browser
def test_missing_runtime_file(browser: Any, tmp_path: Path) -> None:
    out = tmp_path / "dist"
    build(BuildConfig(out=out, strict=True, calculators=(GRAD,)))
    next((out / "_app" / "pyodide").iterdir()).joinpath("pyodide.asm.wasm").unlink()
    server = make_server(out, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        tab = browser.new_context().new_page()
        tab.goto(f"http://127.0.0.1:{server.server_address[1]}/en/{GRAD.slug}/")
        _assert_failed_gracefully(tab)
        tab.context.close()
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.browser
def test_no_webassembly(browser: Any, base_url: str) -> None:
    context = browser.new_context()
    context.add_init_script("delete globalThis.WebAssembly")
    tab = context.new_page()
    tab.goto(f"{base_url}en/{GRAD.slug}/")
    _assert_failed_gracefully(tab)
    context.close()


# ---- offline ----


@pytest.mark.browser
def test_offline_after_a_first_visit(browser: Any, base_url: str) -> None:
    context = browser.new_context()
    tab = context.new_page()
    _open(tab, base_url, EN, VRAM)
    tab.evaluate(
        "() => navigator.serviceWorker.ready.then(() => new Promise(resolve => navigator.serviceWorker.controller"
        " ? resolve() : navigator.serviceWorker.addEventListener('controllerchange', resolve)))"
    )
    context.set_offline(True)
    tab.reload()
    tab.wait_for_selector('[data-engine][data-state="ready"]', timeout=60_000)
    tab.fill('[name="params_billion"]', "70")
    _settle(tab)
    assert tab.text_content('[data-output="total_vram_gb"]') == "1,120"
    context.close()


# ---- the quick start: memory snapshots, and the plain boot they fall back to ----

_STORED = "() => caches.open('python-snapshots /').then(c => c.keys()).then(keys => keys.map(k => k.url))"


def _start(tab: Any, url: str) -> str:
    """Open the page, make an edit and check its live result; return how the engine started."""
    tab.goto(url)
    tab.wait_for_selector('[data-engine][data-state="ready"]', timeout=60_000)
    tab.fill('[name="micro_batch"]', "16")
    _settle(tab)
    expected = make_report(GRAD, {**GRAD.defaults(), "micro_batch": "16"}, _kit(EN))
    assert tab.text_content('[data-output="effective_batch"]') == expected.results[0].value
    start: str = tab.evaluate("() => performance.getEntriesByName('calculator:engine-ready')[0].detail.start")
    return start


def _kit(locale: Locale) -> LocaleKit:
    from calculators.live import load_kit
    from languages.locales import number_facts_json
    from site_builder.build import read_catalogs

    return load_kit(read_catalogs(PROJECT)[0][locale], number_facts_json(locale))


@pytest.mark.browser
def test_a_second_visit_restores_the_snapshot_the_first_made(browser: Any, base_url: str) -> None:
    context = browser.new_context()
    tab = context.new_page()
    url = f"{base_url}en/{GRAD.slug}/"
    assert _start(tab, url) == "plain"
    tab.wait_for_function(f"() => ({_STORED})().then(urls => urls.length === 1)", timeout=30_000)
    (key,) = tab.evaluate(_STORED)
    # Named after everything it was made with: another runtime, library or core never finds it.
    assert all(part in key for part in ("runtime=", "stdlib=", "core=", "version=314."))
    assert _start(tab, url) == "snapshot"
    context.close()


@pytest.mark.browser
@pytest.mark.parametrize("damage", ["garbage", "another-build", "truncated", "flipped-bit"])
def test_a_broken_snapshot_falls_back_to_a_plain_boot(browser: Any, base_url: str, damage: str) -> None:
    context = browser.new_context()
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    url = f"{base_url}en/{GRAD.slug}/"
    assert _start(tab, url) == "plain"
    tab.wait_for_function(f"() => ({_STORED})().then(urls => urls.length === 1)", timeout=30_000)
    # Replace the stored snapshot, under its own key, by a damaged one.
    tab.evaluate(
        """async (damage) => {
          const cache = await caches.open("python-snapshots /");
          const [key] = await cache.keys();
          const stored = await cache.match(key);
          const bytes = new Uint8Array(await stored.arrayBuffer());
          let damaged;
          if (damage === "garbage") damaged = new Uint8Array(1 << 20).fill(7);
          else if (damage === "truncated") damaged = bytes.slice(0, bytes.length >> 1);
          else if (damage === "flipped-bit") {
            // One float in the interpreter's memory: it still restores, and every calculator would refuse
            // ordinary input on every page until the reader cleared the site's data.
            damaged = bytes.slice();
            damaged[bytes.length >> 1] ^= 1;
          } else {
            damaged = bytes.slice();
            damaged.fill(0x41, 16, 48); // the build id Pyodide wrote: another Pyodide build's snapshot
          }
          const digest = "X-Snapshot-SHA256";
          await cache.put(key, new Response(damaged, { headers: { [digest]: stored.headers.get(digest) } }));
        }""",
        damage,
    )
    assert _start(tab, url) == "plain", "the page still goes live"
    # The damaged snapshot is gone, and the plain boot made a good one in its place.
    tab.wait_for_function(f"() => ({_STORED})().then(urls => urls.length === 1)", timeout=30_000)
    assert _start(tab, url) == "snapshot"
    assert errors == []
    context.close()


@pytest.mark.browser
def test_under_a_small_storage_quota_offline_use_comes_before_the_snapshot(browser: Any, base_url: str) -> None:
    # 40 MB: with the 31 MB snapshot stored first, the offline cache had no room, and the service worker failed
    # to install on every visit. The snapshot makes way; the site works offline.
    context = browser.new_context()
    tab = context.new_page()
    tab.goto(f"{base_url}robots.txt")  # the origin, before any page registers the service worker
    tab.evaluate(
        """() => caches.open("python-snapshots /").then(cache =>
             cache.put("/snapshot-of-an-earlier-visit", new Response(new Uint8Array(31 * 1024 * 1024))))"""
    )
    origin = base_url.rstrip("/")
    session = context.new_cdp_session(tab)
    session.send("Storage.overrideQuotaForOrigin", {"origin": origin, "quotaSize": 40 * 1024 * 1024})
    # (navigator.storage.estimate() does not see an override; the quota system does.)
    assert session.send("Storage.getUsageAndQuota", {"origin": origin})["quota"] == 40 * 1024 * 1024
    url = f"{base_url}en/{GRAD.slug}/"
    _start(tab, url)
    tab.wait_for_function("() => navigator.serviceWorker.controller?.state === 'activated'", timeout=30_000)
    context.set_offline(True)
    assert _start(tab, url) in ("plain", "snapshot")
    context.close()


@pytest.mark.browser
def test_an_edit_while_the_engine_starts_says_it_is_being_recomputed(browser: Any, base_url: str) -> None:
    context = browser.new_context()

    def slow_start(route: Any) -> None:
        # The engine starts three seconds late: long enough to look at the page in between.
        source = route.fetch().text()
        delayed = source.replace(
            "export async function startPython(",
            "export async function startPython(...args) {\n  await new Promise((r) => setTimeout(r, 3000));\n"
            "  return startNow(...args);\n}\nasync function startNow(",
            1,
        )
        route.fulfill(body=delayed, content_type="text/javascript")

    context.route("**/worker.js*", slow_start)
    tab = context.new_page()
    tab.goto(f"{base_url}de/{GRAD.slug}/")
    tab.fill('[name="micro_batch"]', "16")
    shown = tab.evaluate(
        """() => ({
          engine: document.querySelector("[data-engine]").dataset.state,
          texts: [...document.querySelectorAll(".results [data-sentence], .results [data-status]")]
            .map(e => e.textContent),
          stale: document.querySelector(".results").dataset.stale !== undefined,
        })"""
    )
    assert shown["engine"] == "loading"
    assert shown["stale"]
    # Beside each result, in the page's language: no sentence about the values the form no longer holds.
    assert set(shown["texts"]) == {"Wird mit den eingegebenen Werten neu berechnet …"}
    tab.wait_for_selector('[data-engine][data-state="ready"]', timeout=60_000)
    _settle(tab)
    report = make_report(GRAD, {**GRAD.defaults(), "micro_batch": "16"}, _kit(DE))
    for result in report.results:
        assert tab.text_content(f'[data-sentence="{result.name}"]') == result.sentence
    assert tab.evaluate("() => document.querySelector('.results').dataset.stale") is None
    # The service worker may still be precaching worker.js through the route: stop it before closing, or its
    # "response disposed" error surfaces in whichever test this worker runs next.
    context.unroute_all(behavior="ignoreErrors")
    context.close()


# ---- accessibility ----

AXE = PROJECT / "node_modules" / "axe-core" / "axe.min.js"


def _axe_violations(tab: Any) -> list[str]:
    tab.add_script_tag(path=str(AXE))
    result = tab.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in result["violations"]
        if v["impact"] in {"serious", "critical"}
    ]


@pytest.mark.browser
# Left to right in Latin script, right to left, and CJK: the templates are the same in every locale.
@pytest.mark.parametrize("locale", [EN, LOCALE_BY_TAG["ar"], LOCALE_BY_TAG["zh-TW"]], ids=lambda locale: locale.tag)
def test_accessibility_of_every_page_type(browser: Any, base_url: str, locale: Locale) -> None:
    # bypass_csp only lets the test inject axe; the pages themselves are unchanged.
    context = browser.new_context(bypass_csp=True)
    tab = context.new_page()
    paths = ["", f"{locale.folder}/", f"{locale.folder}/{GRAD.slug}/", f"{locale.folder}/embed/{VRAM.slug}/",
             f"{locale.folder}/404.html"]  # fmt: skip
    problems = {}
    for path in paths:
        tab.goto(f"{base_url}{path}")
        tab.wait_for_load_state("load")
        found = _axe_violations(tab)
        if found:
            problems[tab.url] = found
    assert problems == {}
    context.close()


@pytest.mark.browser
@pytest.mark.parametrize("slug", ["gradient-accumulation-memory", "llm-inference-vram", "token-cost"])
def test_the_phone_summary_bar_leaves_every_field_a_whole_touch_target(browser: Any, base_url: str, slug: str) -> None:
    # Lighthouse's phone (412 × 823): the field that straddles the screen's foot sat under the bar, itself a link,
    # and axe's target-size found 17 px of it left to touch.
    context = browser.new_context(bypass_csp=True, viewport={"width": 412, "height": 823}, has_touch=True)
    tab = context.new_page()
    tab.goto(f"{base_url}en/{slug}/")
    tab.wait_for_load_state("load")
    tab.add_script_tag(path=str(AXE))
    result = tab.evaluate("() => axe.run(document, {runOnly: ['target-size'], resultTypes: ['violations']})")
    assert [node["target"] for rule in result["violations"] for node in rule["nodes"]] == []
    context.close()


@pytest.mark.browser
@pytest.mark.parametrize("slug", ["moe-active-params", "inference-throughput"])
def test_a_formula_too_wide_for_a_phone_scrolls_and_takes_the_keyboard(browser: Any, base_url: str, slug: str) -> None:
    # At 360 px these pages' formulas scroll in their own boxes, which a keyboard could not reach (axe's
    # scrollable-region-focusable); at a desktop's width most fit, and those are no tab stops.
    context = browser.new_context(bypass_csp=True, viewport={"width": 360, "height": 740})
    tab = context.new_page()
    tab.goto(f"{base_url}en/{slug}/")
    tab.wait_for_load_state("load")
    tab.add_script_tag(path=str(AXE))
    rules = "{runOnly: ['scrollable-region-focusable'], resultTypes: ['violations']}"
    assert tab.evaluate(f"() => axe.run(document, {rules})")["violations"] == []
    focusable = 'math[display="block"][tabindex="0"]'
    on_a_phone = tab.locator(focusable).count()
    assert on_a_phone >= 1
    tab.set_viewport_size({"width": 1366, "height": 900})
    tab.wait_for_function(
        """() => [...document.querySelectorAll('math[display="block"]')].every(
                   (m) => (m.scrollWidth > m.clientWidth + 1) === m.hasAttribute('tabindex'))"""
    )
    assert tab.locator(focusable).count() < on_a_phone
    context.close()


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_contrast_in_both_themes(browser: Any, base_url: str, scheme: str) -> None:
    context = browser.new_context(bypass_csp=True, color_scheme=scheme)
    tab = context.new_page()
    _open(tab, base_url, EN, VRAM)
    tab.fill('[name="params_billion"]', "abc")  # the error colour too
    _settle(tab)
    assert _axe_violations(tab) == []
    context.close()
