"""Every cost calculator that bills tokens, characters or audio, filled from its price menu, against pydantic's
genai-prices' own calculation for the same usage (the library as ground truth): our entries and a sample of the
dataset's, with cache reads and writes (five-minute and one-hour), long-context tiers per request and the batch
API wherever the calculator has them. token-cost and llm-monthly-cost are held to it in test_price_dataset.py."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from calculators import evaluate, find
from calculators.cost.agent_cost import step_costs
from calculators.cost.context_cost_growth import turn_costs
from site_builder.build.presets import PricePreset, preset_values, read_presets

from .genai_truth import charged
from .helpers import results

PRESETS = read_presets()


def _sample(kind: str, where: Callable[[PricePreset], bool] = lambda price: True, every: int = 9) -> list[PricePreset]:
    """Our entries of `kind` that name a model of the dataset, and every `every`-th of the dataset's."""
    ours = [price for price in PRESETS.prices if price.genai_prices and price.kind == kind and where(price)]
    return ours + [price for price in PRESETS.dataset if price.kind == kind and where(price)][::every]


def _near(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-12 * max(abs(a), abs(b), 1)


def _convention(price: PricePreset) -> str:
    """The caching convention of prompt-caching-savings that bills this model's cache writes: none for a write at
    the input price, 1.25 times it for five minutes, or "" if neither."""
    if _near(price.cache_write_per_m, price.input_per_m):
        return "automatic"
    return "explicit-5m" if _near(price.cache_write_per_m, 1.25 * price.input_per_m) else ""


CACHED = _sample("llm", lambda price: price.cached_input_per_m < price.input_per_m and bool(_convention(price)))
ONE_HOUR = _sample(
    "llm", lambda p: p.cached_input_per_m < p.input_per_m and _near(p.cache_write_1h_per_m, 2 * p.input_per_m), 3
)


@pytest.mark.parametrize("price", CACHED, ids=lambda price: price.id)
def test_prompt_caching_savings(price: PricePreset) -> None:
    # The first call writes the prefix (at the input price where writes are free), the others read it.
    page = find("prompt-caching-savings")
    prefix, calls, convention = 40_000, 12, _convention(price)
    shown = results(page, **preset_values(page, price), prefix_tokens=str(prefix), calls=str(calls), caching=convention)
    written = prefix if convention != "automatic" else 0
    first = charged(price, input_tokens=prefix, cache_write_tokens=written)
    truth = first + (calls - 1) * charged(price, input_tokens=prefix, cache_read_tokens=prefix)
    assert shown["cached_cost"] == pytest.approx(truth, rel=1e-9)
    assert shown["uncached_cost"] == pytest.approx(calls * charged(price, input_tokens=prefix), rel=1e-9)


@pytest.mark.parametrize("price", ONE_HOUR, ids=lambda price: price.id)
def test_prompt_caching_savings_one_hour(price: PricePreset) -> None:
    # Anthropic's hour-long cache writes at twice the input price.
    page = find("prompt-caching-savings")
    shown = results(page, **preset_values(page, price), prefix_tokens="25000", calls="30", caching="explicit-1h")
    hour = {"cache_write_tokens": 25_000, "cache_write_1h_tokens": 25_000}  # the one-hour writes among the writes
    truth = charged(price, input_tokens=25_000, **hour) + 29 * charged(
        price, input_tokens=25_000, cache_read_tokens=25_000
    )
    assert shown["cached_cost"] == pytest.approx(truth, rel=1e-9)


@pytest.mark.parametrize("price", _sample("llm", lambda price: price.batch_discount > 0, 4), ids=lambda price: price.id)
def test_batch_api_savings(price: PricePreset) -> None:
    page = find("batch-api-savings")
    shown = results(page, **preset_values(page, price), input_tokens="3000", output_tokens="700", requests="5000")
    truth = 5000 * charged(price, {"processing": "batch"}, input_tokens=3000, output_tokens=700)
    assert shown["batch_cost"] == pytest.approx(truth, rel=1e-9)


@pytest.mark.parametrize("slug", ["context-cost-growth", "agent-cost"])
@pytest.mark.parametrize("price", _sample("llm", every=15), ids=lambda price: price.id)
def test_a_growing_context_bills_each_step_as_one_request(slug: str, price: PricePreset) -> None:
    # Without caching, each turn or step is one request of its own input and the output it gets back; past a
    # long-context threshold (the last of the 20 sends over 272K tokens) at the tier's prices for that request alone.
    page = find(slug)
    shape = (
        {"system_tokens": "150000", "user_tokens": "6000", "output_tokens": "900", "turns": "20"}
        if slug == "context-cost-growth"
        else {"base_tokens": "150000", "tool_result_tokens": "6000", "output_tokens": "900", "steps": "20"}
    )
    values = {**page.defaults(), **preset_values(page, price), **shape, "caching": "none"}
    shown = results(page, **values)
    steps = (turn_costs if slug == "context-cost-growth" else step_costs)(evaluate(page, values).values)
    truth = sum(charged(price, input_tokens=int(step.input_tokens), output_tokens=900) for step in steps)
    assert shown["total_cost"] == pytest.approx(truth, rel=1e-9)


@pytest.mark.parametrize("price", _sample("llm", every=20), ids=lambda price: price.id)
def test_tokens_per_dollar(price: PricePreset) -> None:
    page = find("tokens-per-dollar")
    shown = results(page, **preset_values(page, price), input_share="75")
    truth = 100_000 / charged(price, input_tokens=75_000, output_tokens=25_000)
    assert shown["tokens_per_unit"] == pytest.approx(truth, rel=1e-9)


@pytest.mark.parametrize("price", _sample("embedding", every=3), ids=lambda price: price.id)
def test_embedding_cost(price: PricePreset) -> None:
    page = find("embedding-cost")
    shown = results(page, **preset_values(page, price), documents="2500", tokens_per_document="800", chunking="whole")
    assert shown["total_cost"] == pytest.approx(charged(price, input_tokens=2_000_000), rel=1e-9)


@pytest.mark.parametrize("price", _sample("speech", every=1), ids=lambda price: price.id)
def test_tts_cost(price: PricePreset) -> None:
    page = find("tts-cost")
    shown = results(page, **preset_values(page, price), characters="2500000")
    assert shown["total_cost"] == pytest.approx(charged(price, input_characters=2_500_000), rel=1e-9)


@pytest.mark.parametrize("price", _sample("transcription", every=1), ids=lambda price: price.id)
def test_transcription_cost(price: PricePreset) -> None:
    # Billed by the second, as the dataset prices audio (Groq's ten-second minimum does not bind at 95 s).
    page = find("transcription-cost")
    shown = results(page, **preset_values(page, price), files="40", seconds_per_file="95", billing="second")
    assert shown["total_cost"] == pytest.approx(40 * charged(price, audio_seconds=95), rel=1e-9)
