"""End to end in Debian's Chromium: the live page recomputes through Pyodide and agrees with the build."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from calculators import CALCULATORS, Calculator, Kind, LocaleKit, make_report
from languages.locales import LOCALES, Locale

from .cases import value_sets
from .pagetext import HOOKS, expected_text, gpu_menu, messages, price_menu, result_text

pytestmark = pytest.mark.browser


def _open(page: Any, base_url: str, locale: Locale, calculator: Calculator, query: str = "") -> None:
    page.goto(f"{base_url}{locale.folder}/{calculator.slug}/{query}")
    page.wait_for_selector('[data-engine][data-state="ready"]', timeout=60_000)
    _settle(page)


def _settle(page: Any) -> None:
    page.wait_for_function("() => !document.querySelector('.results').hasAttribute('aria-busy')", timeout=30_000)


def _enter(page: Any, calculator: Calculator, values: dict[str, str]) -> None:
    page.evaluate("() => document.querySelectorAll('details[data-advanced]').forEach(d => { d.open = true; })")
    values = {**calculator.defaults(), **values}
    for spec in calculator.inputs:
        if spec.kind is Kind.CHOICE:
            page.select_option(f'[name="{spec.name}"]', values[spec.name])
        else:
            page.fill(f'[name="{spec.name}"]', values[spec.name])
    _settle(page)


def _names(calculator: Calculator) -> list[str]:
    return [spec.name for spec in calculator.inputs]


def _mechanisms(calculator: Calculator) -> set[str]:
    """Name what a calculator's page does that another's may not: its chart, input kinds, money, unit menus."""
    return {
        f"chart:{type(calculator.chart).__name__}",
        *(f"input:{spec.kind.value}" for spec in calculator.inputs),
        *("input:preset" for spec in calculator.inputs if spec.preset),
        *("input:optional" for spec in calculator.inputs if spec.optional),
        *("output:money" for spec in calculator.outputs if spec.currency),
        *("output:unit-choice" for spec in calculator.outputs if spec.unit_choice),
    }


def _one_page_per_mechanism() -> list[Calculator]:
    """Return, in catalogue order, each calculator that shows a mechanism no earlier one in the list shows.

    Every calculator × locale × value set is compared with CPython in Pyodide (test_pyodide.py); what the
    browser adds is the page's own code, which depends on these mechanisms, not on the formula.
    """
    chosen: list[Calculator] = []
    seen: set[str] = set()
    for calculator in CALCULATORS:
        if not _mechanisms(calculator) <= seen:
            chosen.append(calculator)
            seen |= _mechanisms(calculator)
    return chosen


# Those pages, each in a locale that rotates from one page to the next.
ROTATION = [(calculator, LOCALES[index % len(LOCALES)]) for index, calculator in enumerate(_one_page_per_mechanism())]


@dataclass
class _OpenPage:
    tab: Any
    prerendered: dict[str, str]
    problems: list[str] = field(default_factory=list)


class _PagesAhead:
    """Opens the next calculators' pages before their tests, so their engines start while one is checked.

    Starting the engine is most of a page's cost and runs in the page's own worker, so a few pages
    starting side by side keep both cores busy instead of one.
    """

    AHEAD = 3

    def __init__(self, browser: Any, base_url: str) -> None:
        self.context = browser.new_context()
        self.base_url = base_url
        self.opened: dict[str, _OpenPage] = {}

    def _open(self, calculator: Calculator, locale: Locale) -> None:
        if calculator.slug in self.opened:
            return
        tab = self.context.new_page()
        problems: list[str] = []
        tab.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
        tab.on("pageerror", lambda error: problems.append(str(error)))
        tab.goto(f"{self.base_url}{locale.folder}/{calculator.slug}/")
        self.opened[calculator.slug] = _OpenPage(tab, result_text(tab.content()), problems)

    def take(self, calculator: Calculator) -> _OpenPage:
        index = next(i for i, (c, _) in enumerate(ROTATION) if c.slug == calculator.slug)
        for upcoming, locale in ROTATION[index : index + 1 + self.AHEAD]:
            self._open(upcoming, locale)
        return self.opened.pop(calculator.slug)


@pytest.fixture(scope="module")
def pages_ahead(browser: Any, base_url: str) -> Iterator[_PagesAhead]:
    pages = _PagesAhead(browser, base_url)
    yield pages
    pages.context.close()


@pytest.mark.parametrize(
    ("calculator", "locale"), ROTATION, ids=lambda value: getattr(value, "slug", None) or value.tag
)
def test_live_page_agrees_with_the_build(
    pages_ahead: _PagesAhead, kits: dict[str, LocaleKit], locale: Locale, calculator: Calculator
) -> None:
    """The Python side of every calculator × locale × value set is proved in one Pyodide process
    (test_pyodide.py); this proves that a page of each mechanism puts its report on screen as the build does."""
    opened = pages_ahead.take(calculator)
    page = opened.tab
    page.wait_for_selector('[data-engine][data-state="ready"]', timeout=60_000)
    _settle(page)
    kit = kits[locale.tag]
    defaults = expected_text(
        make_report(calculator, calculator.defaults(), kit, gpu_menu(calculator), price_menu(calculator)),
        _names(calculator),
        chart=bool(calculator.chart or calculator.price_table),
    )
    assert opened.prerendered == defaults
    for values in [*value_sets(calculator), calculator.defaults()]:
        _enter(page, calculator, values)
        report = make_report(calculator, values, kit, gpu_menu(calculator), price_menu(calculator))
        expected = expected_text(report, _names(calculator), chart=bool(calculator.chart or calculator.price_table))
        shown = result_text(page.content())
        if not report.ok:
            # An invalid field leaves the results it changes as last computed, greyed (test_controls.py): which
            # values those are depends on the fields typed in before, so the messages and the results the report
            # could still compute are what is compared.
            computed = {f"{hook}={r.name}" for r in report.results if r.value for hook in HOOKS}
            shown = {**messages(shown), **{key: shown[key] for key in computed}}
            expected = {**messages(expected), **{key: expected[key] for key in computed}}
        assert shown == expected, values
    assert result_text(page.content()) == opened.prerendered
    page.close()
    assert opened.problems == []


def test_inputs_recompute_the_seed_example(page: Any, base_url: str) -> None:
    calculator = CALCULATORS[0]
    _open(page, base_url, LOCALES[0], calculator)
    assert page.text_content('[data-output="effective_batch"]') == "32"
    page.fill('[name="data_parallel"]', "4")
    _settle(page)
    assert page.text_content('[data-output="effective_batch"]') == "128"
    assert page.text_content('[data-output="activation_memory_gb"]') == "2"
    assert "128 samples" in page.text_content('[data-sentence="effective_batch"]')


def test_query_string_prefills_the_form(page: Any, base_url: str) -> None:
    calculator = next(c for c in CALCULATORS if c.slug == "gradient-accumulation-memory")
    _open(page, base_url, LOCALES[0], calculator, "?micro_batch=8&data_parallel=4&unknown=1")
    assert page.input_value('[name="micro_batch"]') == "8"
    assert page.text_content('[data-output="effective_batch"]') == "256"
    assert page.text_content('[data-output="activation_memory_gb"]') == "4"


def test_query_string_choice(page: Any, base_url: str) -> None:
    calculator = next(c for c in CALCULATORS if c.slug == "llm-training-vram")
    _open(page, base_url, LOCALES[1], calculator, "?params_billion=70&bytes_per_param=12&activation_gb=20")
    assert page.input_value('[name="bytes_per_param"]') == "12"
    assert page.text_content('[data-output="model_state_gb"]') == "840"
    assert page.text_content('[data-output="total_vram_gb"]') == "860"


# One left-to-right and one right-to-left page: the messages of every locale are checked under Pyodide.
@pytest.mark.parametrize("locale", [LOCALES[0], LOCALES[-1]], ids=lambda locale: locale.tag)
def test_bad_input_shows_a_message_and_keeps_the_results_greyed(page: Any, base_url: str, locale: Locale) -> None:
    calculator = next(c for c in CALCULATORS if c.slug == "gradient-accumulation-memory")
    _open(page, base_url, locale, calculator)
    page.fill('[name="micro_batch"]', "2.5")
    _settle(page)
    error = page.locator('[data-error-for="micro_batch"]')
    assert error.is_visible()
    assert error.text_content()
    assert page.get_attribute('[name="micro_batch"]', "aria-invalid") == "true"
    assert page.locator("[data-status]").is_visible()
    assert page.get_attribute(".results", "data-kept") == ""  # the last results, greyed: test_controls.py
    body = page.text_content("main")
    for junk in ("NaN", "Infinity", "undefined", "Traceback"):
        assert junk not in body
    page.fill('[name="micro_batch"]', "4")
    _settle(page)
    assert not error.is_visible()
    assert page.text_content('[data-output="effective_batch"]') == "32"


def test_inputs_stay_editable_while_the_engine_loads(page: Any, base_url: str) -> None:
    calculator = next(c for c in CALCULATORS if c.slug == "gradient-accumulation-memory")
    page.goto(f"{base_url}en/{calculator.slug}/")
    page.fill('[name="accumulation_steps"]', "16")  # before Pyodide is ready
    page.wait_for_selector('[data-engine][data-state="ready"]', timeout=60_000)
    _settle(page)
    assert page.text_content('[data-output="effective_batch"]') == "64"


PLANNER = next(calculator for calculator in CALCULATORS if calculator.slug == "parallel-training-planner")


def _on_a_phone(browser: Any, base_url: str, tag: str, calculator: Calculator) -> tuple[Any, Any]:
    """Open `calculator` in `tag` on a 360 px phone in the dark theme, found clean by axe and never wider than the
    screen; return its browser context (to close) and page."""
    from .test_hardening import _axe_violations

    locale = next(locale for locale in LOCALES if locale.tag == tag)
    context = browser.new_context(bypass_csp=True, viewport={"width": 360, "height": 740}, color_scheme="dark")
    page = context.new_page()
    _open(page, base_url, locale, calculator)
    assert _axe_violations(page) == []
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    return context, page


@pytest.mark.parametrize("tag", ["en", "ar"])
def test_the_planners_search_reads_on_a_phone_and_copies(browser: Any, base_url: str, tag: str) -> None:
    # The search's table scrolls in its own box on a 360 px phone, reachable by keyboard; the copy buttons copy
    # the launch settings drawn with the latest results; an edit redraws the search live.
    context, page = _on_a_phone(browser, base_url, tag, PLANNER)
    before = page.inner_text("[data-chart] table")
    page.fill('[name="gpus"]', "1024")
    _settle(page)
    assert page.inner_text("[data-chart] table") != before
    # What the button hands the clipboard (a headless page without focus may not reach the system one).
    page.evaluate("() => { navigator.clipboard.writeText = async (text) => { window.copiedText = text; }; }")
    page.click("[data-copy-code] >> nth=0")
    copied = page.wait_for_function("() => window.copiedText").json_value()
    assert copied.startswith("--num-layers 80") and copied == page.inner_text("[data-chart] pre >> nth=0")
    context.close()


BATCH = next(calculator for calculator in CALCULATORS if calculator.slug == "batch-inference-throughput")


@pytest.mark.parametrize("tag", ["en", "ar"])
def test_the_gpu_table_and_launch_settings_follow_an_edit_on_a_phone(browser: Any, base_url: str, tag: str) -> None:
    # Every GPU of the menu has its row, live as prerendered; the launch texts follow the GPUs typed in, and copy.
    context, page = _on_a_phone(browser, base_url, tag, BATCH)
    table = "[data-chart] table >> nth=1"
    menu = page.locator("#preset-gpu option[data-values]").count()
    assert page.locator(f"{table} >> tbody tr").count() == menu == len(gpu_menu(BATCH))
    before = page.inner_text(table)
    page.fill('[name="context_tokens"]', "131072")
    _settle(page)
    assert page.inner_text(table) != before  # recomputed live on every GPU of the menu
    page.fill('[name="gpus"]', "4")
    _settle(page)
    page.wait_for_function("() => document.querySelector('[data-chart] pre').textContent.includes('parallel-size 4')")
    page.evaluate("() => { navigator.clipboard.writeText = async (text) => { window.copiedText = text; }; }")
    page.click("[data-copy-code] >> nth=0")
    copied = page.wait_for_function("() => window.copiedText").json_value()
    assert "--tensor-parallel-size 4" in copied and "--max-model-len 131072" in copied
    assert copied == page.inner_text("[data-chart] pre >> nth=0")
    context.close()


MONTHLY = next(calculator for calculator in CALCULATORS if calculator.slug == "llm-monthly-cost")
TOKEN_COST = next(calculator for calculator in CALCULATORS if calculator.slug == "token-cost")


@pytest.mark.parametrize("tag", ["ar"])  # right to left; the sort's names compare in the page's language
def test_every_model_of_the_price_list_is_compared_live_and_sorts(browser: Any, base_url: str, tag: str) -> None:
    # Every model of the site's price feed has its row, prerendered and live; an edit recomputes every row; a
    # header's button sorts by its column, each way, and says so to a screen reader.
    context, page = _on_a_phone(browser, base_url, tag, MONTHLY)
    rows = page.locator("[data-chart] table >> tbody tr")
    assert rows.count() == len(price_menu(MONTHLY)) > 500
    before = page.inner_text("[data-chart] table")
    page.fill('[name="input_tokens"]', "300000")
    _settle(page)
    assert page.inner_text("[data-chart] table") != before
    keys = "(n) => [...document.querySelectorAll('[data-chart] tbody tr')].map((r) => Number(r.cells[n].dataset.key))"
    contexts = page.evaluate(keys, 3)
    small = [context for context in contexts if 0 < context < 300_000 + 300]
    assert small and contexts[-len(small) :] == small  # the models that cannot take it come last
    header = page.locator("[data-chart] thead th >> nth=1")
    header.locator("button").click()
    assert header.get_attribute("aria-sort") == "ascending"
    assert page.evaluate(keys, 1) == sorted(page.evaluate(keys, 1))
    header.locator("button").click()
    assert header.get_attribute("aria-sort") == "descending"
    assert page.evaluate(keys, 1) == sorted(page.evaluate(keys, 1), reverse=True)
    context.close()


@pytest.mark.parametrize("tag", ["ja"])
def test_the_price_search_finds_any_model_on_a_phone(
    browser: Any, base_url: str, kits: dict[str, LocaleKit], tag: str
) -> None:
    # The menu offers our own entries; typing finds any model of the feed by vendor and name; choosing one fills
    # the inputs as the build's own menu would, and the page recomputes with them.
    from site_builder.build.presets import preset_values, read_presets

    prices = read_presets()
    context, page = _on_a_phone(browser, base_url, tag, TOKEN_COST)
    own = page.locator("#preset-price-llm option[data-values]").count()
    assert own == len([price for price in prices.prices if price.kind == "llm"])
    page.fill("[data-price-search-input]", "mistral  LARGE")
    status = page.locator("#price-search-llm-status")
    page.wait_for_function("() => document.querySelector('#price-search-llm-status').textContent !== ''")
    found = [
        price
        for price in prices.all_prices
        if price.kind == "llm" and all(word in f"{price.name} {price.id}".lower() for word in ("mistral", "large"))
    ]
    assert page.locator("#preset-price-llm option").count() == len(found) + 1
    assert str(len(found)) in status.inner_text()
    chosen = next(price for price in found if price.dataset)
    page.select_option("#preset-price-llm", chosen.id)
    expected = preset_values(TOKEN_COST, chosen)
    page.wait_for_function(
        "(value) => document.querySelector('[name=input_price]').value === value", arg=expected["input_price"]
    )
    _settle(page)
    for name, value in expected.items():
        assert page.input_value(f'[name="{name}"]') == value, name
    report = make_report(TOKEN_COST, {**TOKEN_COST.defaults(), **expected}, kits[tag])
    shown = page.inner_text('[data-output="request_cost"]')
    assert shown == next(result.value for result in report.results if result.name == "request_cost")
    # Under the menu, where the price comes from: the vendor's page, and the dataset it came through.
    source = page.locator("#preset-price-llm ~ [data-price-source]")
    assert source.is_visible() and chosen.dataset in source.inner_text()
    assert source.locator("a").get_attribute("href") == chosen.source
    ours = next(price for price in prices.prices if price.kind == "llm")
    page.fill("[data-price-search-input]", "")
    page.wait_for_function("() => document.querySelector('#price-search-llm-status').textContent === ''")
    page.select_option("#preset-price-llm", ours.id)
    page.wait_for_function("(href) => document.querySelector('[data-price-source] a')?.href === href", arg=ours.source)
    assert "genai-prices" not in source.inner_text()
    page.fill('[name="output_price"]', "7.77")  # an edit of a price the menu filled clears it, and its source
    source.wait_for(state="hidden")
    assert page.locator("#preset-price-llm option").count() == own + 1
    context.close()
