"""The comparison of every language model in the price list (llm-monthly-cost's table): each row is the page with
that model chosen from the price menu, the models that take the request first and cheapest first, those whose
context window is too small last and marked; and what a model found by the price search fills is what the build's
own menus fill."""

from __future__ import annotations

import json
import re
from html import unescape

from calculators import LocaleKit, find, make_report
from calculators.kernel.numbers import CURRENCIES, format_money
from calculators.live import Engine
from calculators.report import price_facts
from site_builder.build.feed import price_feed
from site_builder.build.presets import LONG_CONTEXT, PRICE_KINDS, preset_values, read_presets

from .helpers import results
from .pagetext import price_menu

MONTHLY = find("llm-monthly-cost")
TOKEN_COST = find("token-cost")
PRESETS = read_presets()
FEED = json.loads(price_feed(PRESETS.all_prices, "https://example.org/"))
ROW = re.compile(r'<tr><th scope="row">([^<]+)</th>((?:<td data-key="[^"]*">[^<]*</td>)+)</tr>')
CELL = re.compile(r'<td data-key="([^"]*)">([^<]*)</td>')


def _rows(kit: LocaleKit, **values: str) -> list[tuple[str, list[tuple[float, str]]]]:
    chart = make_report(MONTHLY, {**MONTHLY.defaults(), **values}, kit, (), price_menu(MONTHLY)).chart
    return [
        (unescape(name), [(float(key), unescape(text)) for key, text in CELL.findall(cells)])
        for name, cells in ROW.findall(chart)
    ]


def test_a_feed_entry_fills_its_own_prices() -> None:
    # The build's menus and the live search read a price the same way (`report.price_facts`, from the feed's JSON):
    # every price its kind states, a long-context tier (0 where none), the service tiers at 100 % where the vendor
    # has none, and US dollars.
    entries = {entry["id"]: entry for entry in FEED["entries"]}
    for price in PRESETS.all_prices:
        facts = price_facts(entries[price.id])
        stated = PRICE_KINDS[price.kind] + (LONG_CONTEXT if price.kind == "llm" else ())
        assert all(facts[f"price.{name}"] == getattr(price, name) for name in stated), price.id
        assert facts["price.currency"] == 0
        if price.kind == "llm":
            assert facts["price.flex_percent"] == (price.flex_percent or 100)
            assert facts["price.priority_percent"] == (price.priority_percent or 100)
            assert facts["price.web_search_per_k"] == price.web_search_per_k


def test_every_model_is_a_row_of_the_page_with_it_chosen(kits: dict[str, LocaleKit]) -> None:
    llm = [price for price in PRESETS.all_prices if price.kind == "llm"]
    usage = {"requests_per_day": "25000", "input_tokens": "3000", "output_tokens": "600", "cache_hit_share": "40",
             "batch_share": "50"}  # fmt: skip
    rows = _rows(kits["en"], **usage)
    assert len(rows) == len(llm) > 500
    by_name = {price.name: price for price in llm}
    usd = CURRENCIES[0]
    for name, cells in rows:
        page = results(MONTHLY, **{**usage, **preset_values(MONTHLY, by_name[name])})
        (monthly, monthly_text), (request, _), _context = cells
        assert monthly == page["monthly_cost"] and request == page["request_cost"]
        assert monthly_text == format_money(page["monthly_cost"], usd, kits["en"].numbers)


def test_cheapest_first_and_the_models_too_small_last_and_marked(kits: dict[str, LocaleKit]) -> None:
    # A request of 300,000 + 2,000 tokens: no 128K or 200K model can take it.
    rows = _rows(kits["de"], input_tokens="300000", output_tokens="2000")
    small = [name for name, cells in rows if 0 < cells[-1][0] < 302_000]
    assert small and rows[-len(small) :] == [row for row in rows if row[0] in small]
    for group in (rows[: -len(small)], rows[-len(small) :]):
        costs = [cells[0][0] for _, cells in group]
        assert costs == sorted(costs)
    for _, cells in rows[-len(small) :]:
        assert cells[-1][1].endswith(": zu kurz für diese Anfrage")
    unstated = [cells[-1][1] for _, cells in rows if cells[-1][0] == 0]
    assert unstated and set(unstated) == {"nicht angegeben"}
    # A long-context tier applies in its row: GPT-6 Luna bills the whole 300,000-token request at its long prices.
    luna = next(price for price in PRESETS.prices if price.id == "openai-gpt-6-luna")
    (luna_cells,) = [cells for name, cells in rows if name == luna.name]
    long = results(MONTHLY, input_tokens="300000", output_tokens="2000", **preset_values(MONTHLY, luna))
    assert luna.long_context_above < 300_000 and luna_cells[0][0] == long["monthly_cost"]


def test_a_model_the_search_finds_fills_what_a_menu_would(kits: dict[str, LocaleKit]) -> None:
    engine = Engine(kits["fr"], TOKEN_COST)
    for entry in FEED["entries"][::25]:
        price = next(price for price in PRESETS.all_prices if price.id == entry["id"])
        answer = json.loads(engine.price(json.dumps(entry)))
        assert answer["ok"] and answer["values"] == preset_values(TOKEN_COST, price), entry["id"]
