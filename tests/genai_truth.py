"""pydantic's genai-prices as ground truth: what the library itself charges for a usage of the model a price entry
names (its `genai_prices` key), on the day the entry holds for."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from site_builder.build.presets import PricePreset

__all__ = ["charged", "model_of"]


def model_of(price: PricePreset) -> Any:
    """This entry's model as the dataset lists it, found by its id (some ids are not ones the dataset's lookup by
    request name matches)."""
    pytest.importorskip("genai_prices")
    from genai_prices import data

    provider_id, model_id = price.genai_prices.split(":", 1)
    provider = next(p for p in data.providers if p.id == provider_id)
    return next(m for m in provider.models if m.id == model_id)


def charged(price: PricePreset, context: dict[str, str] | None = None, **usage: int) -> float:
    """What genai-prices charges for `usage` of this entry's model, on the day the entry was read (through its batch
    API with the context {"processing": "batch"}, on a service tier with {"service_tier": ...})."""
    genai_prices = pytest.importorskip("genai_prices")
    from genai_prices import data

    provider = next(p for p in data.providers if p.id == price.genai_prices.split(":")[0])
    day = datetime(price.read_on.year, price.read_on.month, price.read_on.day, 12, tzinfo=UTC)
    bill = model_of(price).calc_price(
        genai_prices.Usage(**usage), provider, genai_request_timestamp=day, price_context=context
    )
    return float(bill.total_price)
