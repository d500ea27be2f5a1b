"""The list prices held to pydantic's genai-prices dataset (its own price calculation as ground truth): each entry
that names its model there agrees with it, cache reads, writes and long-context tiers included, and token-cost's
bill for a request equals what genai-prices charges for the same usage."""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from datetime import UTC, datetime
from decimal import Decimal
from types import ModuleType

import pytest

from calculators import all_calculators, evaluate, find
from site_builder.build import PROJECT
from site_builder.build.presets import DATA, PricePreset, preset_values, read_presets

from .genai_truth import charged, model_of
from .helpers import results

PRESETS = read_presets()
NAMED = [price for price in PRESETS.prices if price.genai_prices]
TOKEN_COST = find("token-cost")
CALCULATORS = all_calculators()


def test_the_dataset_names_models_of_every_vendor_we_list() -> None:
    assert {price.genai_prices.split(":")[0] for price in NAMED} == {"anthropic", "openai"}
    assert {price.kind for price in NAMED} == {"llm", "embedding", "speech", "transcription"}


def _disagreements(price: PricePreset) -> list[str]:
    """The prices of this entry that differ from what genai-prices charges for the same model."""
    million, short = 1_000_000, 50_000
    per_million = million / short
    if price.kind == "embedding":
        alone = {"embedding_per_m": (1, {"input_tokens": million})}
    elif price.kind == "speech":
        alone = {"per_million_characters": (1, {"input_characters": million})}
    elif price.kind == "transcription":
        alone = {"per_minute": (1, {"audio_seconds": 60})}
    else:
        # Each kind of token priced alone, below any long-context threshold (genai-prices counts cached and
        # cache-written tokens inside input_tokens).
        alone = {
            "input_per_m": (per_million, {"input_tokens": short}),
            "cached_input_per_m": (per_million, {"input_tokens": short, "cache_read_tokens": short}),
            "cache_write_per_m": (per_million, {"input_tokens": short, "cache_write_tokens": short}),
            "output_per_m": (per_million, {"output_tokens": short}),
        }
    wrong = [
        name
        for name, (scale, usage) in alone.items()
        if charged(price, **usage) * scale != pytest.approx(getattr(price, name), rel=1e-12)
    ]
    if price.long_context_above:
        # Above the threshold the whole request bills at the tier's prices, output too.
        long = price.long_context_above + 10_000
        if charged(price, input_tokens=long, output_tokens=short) != pytest.approx(
            (long * price.long_context_input_per_m + short * price.long_context_output_per_m) / million
        ):
            wrong.append("long_context")
    if price.kind == "llm":
        model = model_of(price)
        day = datetime(price.read_on.year, price.read_on.month, price.read_on.day, 12, tzinfo=UTC)
        one_hour = model.get_prices(day).cache_write_1h_mtok  # a tier's base price, if it has tiers
        if price.cache_write_1h_per_m != pytest.approx(float(getattr(one_hour, "base", one_hour) or 0)):
            wrong.append("cache_write_1h_per_m")
        if price.context_tokens != (model.context_window or 0):
            wrong.append("context_tokens")
        if charged(price, web_searches=1000) != pytest.approx(price.web_search_per_k, rel=1e-12):
            wrong.append("web_search_per_k")
        for name, tier in (("flex_percent", "flex"), ("priority_percent", "priority")):
            # A tier we state charges its share of the standard bill for any request, cache and output included.
            usage = {"input_tokens": short, "cache_read_tokens": short // 4, "output_tokens": short // 10}
            standard, on_tier = charged(price, **usage), charged(price, {"service_tier": tier}, **usage)
            if getattr(price, name) and on_tier != pytest.approx(standard * getattr(price, name) / 100, rel=1e-12):
                wrong.append(name)
    return wrong


@pytest.mark.parametrize("price", NAMED, ids=lambda price: price.id)
def test_every_price_agrees_with_the_dataset(price: PricePreset) -> None:
    assert _disagreements(price) == []


@pytest.mark.parametrize("price", [p for p in NAMED if p.kind == "llm"], ids=lambda price: price.id)
@pytest.mark.parametrize(("inputs", "cached", "output"), [(52_000, 20_000, 2_500), (300_000, 120_000, 6_000)])
def test_token_costs_bill_is_what_genai_prices_charges(
    price: PricePreset, inputs: int, cached: int, output: int
) -> None:
    values = {**preset_values(TOKEN_COST, price), "input_tokens": str(inputs), "cached_tokens": str(cached),
              "output_tokens": str(output), "requests": "1"}  # fmt: skip
    page = results(TOKEN_COST, **values)["request_cost"]
    bill = charged(price, input_tokens=inputs, cache_read_tokens=cached, output_tokens=output)
    assert Decimal(repr(page)).quantize(Decimal("1e-9")) == Decimal(repr(bill)).quantize(Decimal("1e-9"))


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("snapshot_prices", PROJECT / "scripts" / "snapshot_prices.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["snapshot_prices"] = module
    spec.loader.exec_module(module)
    return module


def test_the_dataset_file_is_the_pinned_release_on_its_day() -> None:
    genai_prices = pytest.importorskip("genai_prices")
    from genai_prices import data

    script = _script()
    (day,) = {price.read_on for price in PRESETS.dataset}
    entries, skipped = script.dataset_entries(data.providers, day, genai_prices.__version__)
    written = script.write_toml(entries, genai_prices.__version__, len(skipped))
    assert written == (DATA / "prices_dataset.toml").read_text(encoding="utf-8")
    assert len(PRESETS.dataset) > 500
    vendors = {price.genai_prices.split(":")[0] for price in PRESETS.dataset}
    assert vendors == set(script.VENDORS)


def test_every_dataset_model_bills_as_genai_prices_does() -> None:
    # Each price alone, then token-cost filled from a language model for a short request and one past its
    # long-context threshold where it has one: equal to the library's own calc_price, cache and tiers included.
    wrong = [(price.id, name) for price in PRESETS.dataset for name in _disagreements(price)]
    for price in (price for price in PRESETS.dataset if price.kind == "llm"):
        usages = [(30_000, 12_000, 1_000)]
        if price.long_context_above:
            usages.append((price.long_context_above + 20_000, 60_000, 5_000))
        for inputs, cached, output in usages:
            values = {**preset_values(TOKEN_COST, price), "input_tokens": str(inputs), "cached_tokens": str(cached),
                      "output_tokens": str(output), "requests": "1"}  # fmt: skip
            page = results(TOKEN_COST, **values)["request_cost"]
            bill = charged(price, input_tokens=inputs, cache_read_tokens=cached, output_tokens=output)
            if page != pytest.approx(bill, rel=1e-9, abs=1e-12):
                wrong.append((price.id, str(inputs)))
    assert not wrong
    assert {price.kind for price in PRESETS.dataset} == {"llm", "embedding", "speech", "transcription"}


def test_every_dataset_model_fills_every_calculator_that_takes_prices() -> None:
    # Only the two caching calculators refuse a model without a cache discount, as they should.
    refused = Counter(
        (calculator.slug, problem.name)
        for price in PRESETS.dataset
        for calculator in CALCULATORS
        if (values := preset_values(calculator, price))
        for problem in evaluate(calculator, {**calculator.defaults(), **values}).problems
    )
    no_discount = sum(
        price.kind == "llm" and price.cached_input_per_m == price.input_per_m for price in PRESETS.dataset
    )
    assert refused == {
        ("prompt-caching-savings", "cached_input_price"): no_discount,
        ("system-prompt-amortization", "cached_input_price"): no_discount,
    }


def test_every_model_has_a_name_of_its_own() -> None:
    names = [price.name for price in PRESETS.prices + PRESETS.dataset]
    assert len(set(names)) == len(names)


def test_llm_monthly_costs_request_is_what_genai_prices_charges() -> None:
    # A request with 30 % of its input read from the cache, on every tenth model of the dataset and on ours, and all
    # of them through the batch API where the model has one.
    monthly = find("llm-monthly-cost")
    llm = [price for price in PRESETS.prices + PRESETS.dataset if price.genai_prices and price.kind == "llm"]
    tiered = [price for price in llm[7:] if price.flex_percent or price.priority_percent]
    sample = llm[:7] + llm[7::10] + tiered[::3]
    for price in sample:
        for inputs in (40_000, price.long_context_above + 50_000 if price.long_context_above else 90_000):
            values = {**preset_values(monthly, price), "input_tokens": str(inputs), "output_tokens": "1500",
                      "cache_hit_share": "30"}  # fmt: skip
            usage = {"input_tokens": inputs, "cache_read_tokens": inputs * 3 // 10, "output_tokens": 1500}
            page = results(monthly, **values)["request_cost"]
            assert page == pytest.approx(charged(price, **usage), rel=1e-9), (price.id, inputs)
            if price.batch_discount:
                # Every request through the batch API, at the discount the menu fills.
                batch = results(monthly, **values, batch_share="100")["request_cost"]
                bill = charged(price, {"processing": "batch"}, **usage)
                assert batch == pytest.approx(bill, rel=1e-9), (price.id, inputs, "batch")
            for tier, stated in (("flex", price.flex_percent), ("priority", price.priority_percent)):
                if stated:
                    # Every request on the flex or priority tier, at the share the menu fills.
                    served = results(monthly, **values, service_tier=tier)["request_cost"]
                    bill = charged(price, {"service_tier": tier}, **usage)
                    assert served == pytest.approx(bill, rel=1e-9), (price.id, inputs, tier)


def test_agent_costs_web_searches_are_what_genai_prices_charges() -> None:
    # The search fee agent-cost adds for a run's searches, at the price the menu fills, on every model that states one.
    agent = find("agent-cost")
    priced = [price for price in PRESETS.prices + PRESETS.dataset if price.web_search_per_k]
    assert len(priced) > 50
    for price in priced:
        run = results(agent, **{**preset_values(agent, price), "web_searches": "37"})
        assert run["search_cost"] == pytest.approx(charged(price, web_searches=37), rel=1e-12), price.id
