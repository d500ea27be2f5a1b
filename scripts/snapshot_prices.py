"""Write `site_builder/data/prices_dataset.toml`: the models of pydantic's genai-prices dataset that the price menus
offer beside our own entries (language models, embeddings, text to speech, transcription), from the release the
tests pin.

    .venv/bin/python scripts/snapshot_prices.py [--on 2026-12-06]

The build stays offline and reproducible: it reads the file this writes, never the dataset itself, and a test
(`tests/test_price_dataset.py`) writes it again from the pinned release and finds it unchanged. Each model's prices
are those the dataset applies on the day given (today by default), as its own `ModelInfo.get_prices` picks them:
a price announced for a later day is left out until the file is written again after it.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

from genai_prices.types import TieredPrices

FILE = Path(__file__).resolve().parent.parent / "site_builder" / "data" / "prices_dataset.toml"

VENDORS = ("openai", "anthropic", "google", "mistral", "deepseek", "x-ai", "cohere", "aws", "together", "groq",
           "fireworks", "voyageai")  # fmt: skip
"""The dataset's providers the menus offer: the vendors readers buy from directly, Amazon Bedrock (Amazon's own
models and the others it resells), the largest hosts of open-weights models, and Voyage AI's embeddings."""

_TIERS = {
    "batch": {"processing": "batch"},
    "flex_percent": {"service_tier": "flex"},
    "priority_percent": {"service_tier": "priority"},
}
"""The request contexts under which genai-prices applies a model's batch API and its flex and priority tiers."""

_TOKEN_PRICES = {
    "input_per_m": "input_mtok",
    "cached_input_per_m": "cache_read_mtok",
    "cache_write_per_m": "cache_write_mtok",
    "output_per_m": "output_mtok",
}
"""prices.toml's names for the dataset's token prices. A cache read or write it does not price bills as input, as
the dataset's own calculation does."""


@dataclass(frozen=True)
class Skipped:
    """A model of a chosen vendor that the file leaves out, and why."""

    model: str
    reason: str


def dataset_entries(providers: Any, day: date, release: str) -> tuple[list[dict[str, Any]], list[Skipped]]:
    """Every model of `VENDORS` on `day` that a price kind of prices.toml holds (per token, per character, per minute
    of audio), as prices.toml entries; and the models left out: deprecated ones, those priced in other units (pages,
    voice sessions), free ones and long-context tiers this schema cannot hold."""
    moment = datetime(day.year, day.month, day.day, 12, tzinfo=UTC)
    entries, skipped = [], []
    for provider in (p for p in providers if p.id in VENDORS):
        for model in provider.models:
            key = f"{provider.id}:{model.id}"
            if model.deprecated:
                skipped.append(Skipped(key, "deprecated"))
                continue
            standard = model.get_prices(moment)
            tiers = {name: model.get_prices(moment, context) for name, context in _TIERS.items()}
            entry, reason = _entry(model.id, standard, tiers)
            if reason:
                skipped.append(Skipped(key, reason))
                continue
            entries.append(
                {
                    "id": _slug(f"{provider.id}-{model.id}"),
                    "name": f"{provider.name} {model.name or model.id}",
                    "genai_prices": key,
                    **entry,
                    **(
                        {"context_tokens": model.context_window}
                        if model.context_window and entry["kind"] == "llm"
                        else {}
                    ),
                    "source": provider.pricing_urls[0],
                    "read_on": day,
                    "dataset": f"genai-prices {release}",
                }
            )
    # A reader tells models apart by name: where a vendor gives two the same one, each carries its id too.
    names = Counter(entry["name"] for entry in entries)
    for entry in entries:
        if names[entry["name"]] > 1:
            entry["name"] += f" ({entry['genai_prices'].split(':', 1)[1]})"
    return entries, skipped


def _entry(model: str, standard: Any, tiers: Mapping[str, Any]) -> tuple[dict[str, Any], str]:
    """A model's prices as prices.toml keys (its kind first), or why they do not fit them."""
    stated = {key for key, value in standard.__dict__.items() if value is not None}
    if "embed" in model or (stated == {"input_mtok"} and "voyage" in model):
        if "input_mtok" not in stated or isinstance(standard.input_mtok, TieredPrices):
            return {}, "other units"
        return {"kind": "embedding", "embedding_per_m": float(standard.input_mtok), "batch_discount": 0}, ""
    if stated == {"input_mchars"}:
        return {"kind": "speech", "per_million_characters": float(standard.input_mchars)}, ""
    if ("whisper" in model or "transcribe" in model) and stated <= {"audio_hours", "input_audio_hours"}:
        return {"kind": "transcription", "per_minute": float(standard.audio_hours / 60)}, ""
    if standard.input_mtok is None or standard.output_mtok is None:
        return {}, "other units"
    prices = {name: getattr(standard, key) or standard.input_mtok for name, key in _TOKEN_PRICES.items()}
    tiered = {name: price for name, price in prices.items() if not isinstance(price, Decimal)}
    starts = {tier.start for price in tiered.values() for tier in price.tiers}
    if len(starts) > 1 or any(len(price.tiers) > 1 for price in tiered.values()):
        return {}, "more than one long-context threshold"
    base = {name: price if isinstance(price, Decimal) else price.base for name, price in prices.items()}
    if not all(base.values()):
        return {}, "free"
    entry: dict[str, Any] = {"kind": "llm", **{name: float(value) for name, value in base.items()}}
    discount = 100 - (_share(standard, tiers["batch"]) or 100)
    entry["batch_discount"] = int(discount) if discount == int(discount) else 0  # prices.toml's whole percent
    for name in ("flex_percent", "priority_percent"):
        share = _share(standard, tiers[name])
        if share not in (0, 100):
            entry[name] = share
    if isinstance(standard.web_searches_kcount, Decimal):
        entry["web_search_per_k"] = float(standard.web_searches_kcount)
    one_hour = standard.cache_write_1h_mtok
    if one_hour is not None:  # below any long-context threshold: the schema has no one-hour write in its tier
        entry["cache_write_1h_per_m"] = float(one_hour if isinstance(one_hour, Decimal) else one_hour.base)
    if starts:
        entry["long_context_above"] = starts.pop()
        for name, price in prices.items():
            entry[f"long_context_{name}"] = float(price.tiers[0].price if name in tiered else price)
    return entry, ""


def _share(standard: Any, tier: Any) -> float:
    """What a service tier (batch, flex, priority) charges in percent of the standard prices, where it charges the
    same share of every token price (input, cache reads and writes, output); 100 where it is the standard price,
    and 0 where its shares differ (the calculators apply one share to a whole request)."""
    shares = set()
    for key in _TOKEN_PRICES.values():
        full, charged = getattr(standard, key), getattr(tier, key)
        if full is not None:  # below the long-context threshold, then above it (the tier's own, or flat)
            shares.add(100 * _at(charged, 0) / _at(full, 0))
            shares.update(100 * _at(charged, step.start + 1) / step.price for step in getattr(full, "tiers", ()))
    return float(shares.pop()) if len(shares) == 1 else 0.0


def _at(price: Any, tokens: int) -> Decimal:
    """A price, tiered or not, for a request of `tokens` input tokens (a tier applies above its start)."""
    applies = [step.price for step in getattr(price, "tiers", ()) if tokens > step.start]
    return applies[-1] if applies else getattr(price, "base", price)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def write_toml(entries: list[dict[str, Any]], release: str, skipped: int) -> str:
    """The file's text: a header naming the release, then one [[price]] table per entry."""
    lines = [
        f"# Generated by scripts/snapshot_prices.py from genai-prices {release} (MIT licence); do not edit. The",
        "# language, embedding, speech and transcription models of the vendors it names, with the prices the dataset",
        "# applies on read_on (a transcription's per minute is its price per hour / 60); prices.toml's",
        "# own entries replace the models they name. Keys as in prices.toml, plus cache_write_1h_per_m (a one-hour",
        "# cache write) and context_tokens (the model's context window), where the dataset states them, and dataset.",
        f"# {len(entries)} models; {skipped} left out (deprecated, other units, free, or several thresholds).",
    ]
    for entry in entries:
        lines += ["", "[[price]]"]
        lines += [f"{key} = {_toml_value(value)}" for key, value in entry.items()]
    return "\n".join(lines) + "\n"


def _toml_value(value: object) -> str:
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string, \u escapes included, is a TOML basic string
    return repr(value)


def main() -> None:
    import genai_prices
    from genai_prices import data

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--on", type=date.fromisoformat, default=date.today(), help="the day the prices hold for")
    day = parser.parse_args().on
    entries, skipped = dataset_entries(data.providers, day, genai_prices.__version__)
    FILE.write_text(write_toml(entries, genai_prices.__version__, len(skipped)))
    print(f"{FILE}: {len(entries)} models of genai-prices {genai_prices.__version__} on {day}; left out:")
    print("\n".join(f"  {count} {reason}" for reason, count in sorted(Counter(s.reason for s in skipped).items())))


if __name__ == "__main__":
    main()
