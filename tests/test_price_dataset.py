"""The list prices held to pydantic's genai-prices dataset (its own price calculation as ground truth): each entry
that names its model there agrees with it, cache reads, writes and long-context tiers included, and token-cost's
bill for a request equals what genai-prices charges for the same usage."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal

import pytest

from calculators import find
from site_builder.build.presets import PricePreset, preset_values, read_presets

from .helpers import results

PRESETS = read_presets()
NAMED = [price for price in PRESETS.prices if price.genai_prices]
TOKEN_COST = find("token-cost")


def _charged(price: PricePreset, **usage: int) -> float:
    """What genai-prices charges for `usage` of this entry's model, on the day the entry was read."""
    genai_prices = pytest.importorskip("genai_prices")
    provider, model = price.genai_prices.split(":", 1)
    day = datetime(price.read_on.year, price.read_on.month, price.read_on.day, 12, tzinfo=UTC)
    usage_ = genai_prices.Usage(**usage)
    return float(genai_prices.calc_price(usage_, model, provider_id=provider, genai_request_timestamp=day).total_price)


def test_the_dataset_names_models_of_every_vendor_we_list() -> None:
    assert {price.genai_prices.split(":")[0] for price in NAMED} == {"anthropic", "openai"}
    assert {price.kind for price in NAMED} == {"llm", "embedding"}


@pytest.mark.parametrize("price", NAMED, ids=lambda price: price.id)
def test_every_price_agrees_with_the_dataset(price: PricePreset) -> None:
    million = 1_000_000
    if price.kind == "embedding":
        assert _charged(price, input_tokens=million) == pytest.approx(price.embedding_per_m)
        return
    # A request below any long-context threshold: each kind of token priced alone (genai-prices counts cached and
    # cache-written tokens inside input_tokens).
    short = 100_000
    per_million = million / short
    assert _charged(price, input_tokens=short) * per_million == pytest.approx(price.input_per_m)
    assert _charged(price, input_tokens=short, cache_read_tokens=short) * per_million == pytest.approx(
        price.cached_input_per_m
    )
    assert _charged(price, input_tokens=short, cache_write_tokens=short) * per_million == pytest.approx(
        price.cache_write_per_m
    )
    assert _charged(price, output_tokens=short) * per_million == pytest.approx(price.output_per_m)
    if price.long_context_above:
        # Above the threshold the whole request bills at the tier's prices, output too.
        long = price.long_context_above + 10_000
        assert _charged(price, input_tokens=long, output_tokens=short) == pytest.approx(
            (long * price.long_context_input_per_m + short * price.long_context_output_per_m) / million
        )


@pytest.mark.parametrize("price", [p for p in NAMED if p.kind == "llm"], ids=lambda price: price.id)
@pytest.mark.parametrize(("inputs", "cached", "output"), [(52_000, 20_000, 2_500), (300_000, 120_000, 6_000)])
def test_token_costs_bill_is_what_genai_prices_charges(
    price: PricePreset, inputs: int, cached: int, output: int
) -> None:
    values = {**preset_values(TOKEN_COST, price), "input_tokens": str(inputs), "cached_tokens": str(cached),
              "output_tokens": str(output), "requests": "1"}  # fmt: skip
    page = results(TOKEN_COST, **values)["request_cost"]
    charged = _charged(price, input_tokens=inputs, cache_read_tokens=cached, output_tokens=output)
    assert Decimal(repr(page)).quantize(Decimal("1e-9")) == Decimal(repr(charged)).quantize(Decimal("1e-9"))
