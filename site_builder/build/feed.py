"""The list prices the site uses, published beside its pages: `prices.json`, and `prices.schema.json` describing it.

Anyone may read the feed at a stable address (`<base URL>prices.json`) instead of scraping the tables under the
articles. Each entry carries what the price menus fill (`presets.PRICE_KINDS`, plus a language model's long-context
tier where it has one), its vendor's page and the day that page was read; the schema (JSON Schema 2020-12) states
every field, its unit and what it means.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from .presets import LLM_OPTIONAL, LONG_CONTEXT, PRICE_KINDS, PricePreset

__all__ = ["FEED", "SCHEMA", "price_feed", "price_schema"]

FEED = "prices.json"
SCHEMA = "prices.schema.json"

_UNITS = {
    "input_per_m": "US dollars per million input tokens",
    "cached_input_per_m": "US dollars per million input tokens read from the prompt cache",
    "cache_write_per_m": "US dollars per million input tokens written to the prompt cache",
    "output_per_m": "US dollars per million output tokens",
    "cache_write_1h_per_m": "US dollars per million input tokens written to a one-hour prompt cache",
    "flex_percent": "what a request on the vendor's flex service tier costs, in percent of these prices",
    "priority_percent": "what a request on the vendor's priority service tier costs, in percent of these prices",
    "web_search_per_k": "US dollars per 1,000 searches of the model's built-in web search tool, beside the tokens",
    "batch_discount": "percent the vendor's batch API takes off every token price (input, cache, output)",
    "embedding_per_m": "US dollars per million embedded tokens",
    "per_million_characters": "US dollars per million characters of text spoken",
    "per_minute": "US dollars per minute of audio transcribed",
    "per_image": "US dollars per image generated",
    "gpu_hour": "US dollars per GPU per hour, on demand",
}
"""What each price means, as the schema states it (the keys are `presets.PRICE_KINDS`' names)."""
_OPTIONAL = {"llm": LLM_OPTIONAL}
"""Prices a kind states only where the vendor has them."""


def price_feed(prices: Sequence[PricePreset], base_url: str) -> bytes:
    """Every list price, in the files' order, as the feed's JSON."""
    entries = [price.entry() for price in prices]
    feed = {"$schema": base_url + SCHEMA, "version": 1, "entries": entries}
    return (json.dumps(feed, indent=1, ensure_ascii=False) + "\n").encode()


def price_schema(base_url: str) -> bytes:
    """The feed's JSON Schema: every field, its unit and what it means."""
    number = {"type": "number", "minimum": 0}
    prices = {name: {**number, "description": unit} for name, unit in _UNITS.items()}
    long_context = {
        "type": "object",
        "description": "A request with more input tokens than above_input_tokens is billed whole at these prices.",
        "properties": {
            "above_input_tokens": {"type": "integer", "minimum": 1},
            **{
                name.removeprefix("long_context_"): prices[name.removeprefix("long_context_")]
                for name in LONG_CONTEXT[1:]
            },
        },
        "required": ["above_input_tokens", *(name.removeprefix("long_context_") for name in LONG_CONTEXT[1:])],
        "additionalProperties": False,
    }
    kinds = [
        {
            "if": {"properties": {"kind": {"const": kind}}},
            "then": {
                "properties": {
                    "prices": {
                        "type": "object",
                        "properties": {name: prices[name] for name in names + _OPTIONAL.get(kind, ())},
                        "required": list(names),
                        "additionalProperties": False,
                    }
                }
            },
        }
        for kind, names in PRICE_KINDS.items()
    ]
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": base_url + SCHEMA,
        "title": "List prices of AI and LLM services",
        "description": (
            "The list prices the site's calculators use, each as its vendor's pricing page printed it on read_on, "
            "in US dollars. version changes only when a field changes meaning."
        ),
        "type": "object",
        "properties": {
            "$schema": {"type": "string"},
            "version": {"const": 1},
            "entries": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string", "description": "Stable: the price menus' value for this entry."},
                        "name": {"type": "string", "description": "The vendor and the product."},
                        "kind": {"enum": list(PRICE_KINDS), "description": "What is priced."},
                        "currency": {"const": "USD"},
                        "prices": {"type": "object"},
                        "long_context": long_context,
                        "source": {"type": "string", "pattern": "^https://", "description": "The vendor's page."},
                        "read_on": {
                            "type": "string",
                            "format": "date",
                            "pattern": r"^\d{4}-\d{2}-\d{2}$",
                            "description": "The day the source was read (ISO 8601).",
                        },
                        "context_tokens": {
                            "type": "integer",
                            "minimum": 1,
                            "description": "A language model's context window, in tokens.",
                        },
                        "genai_prices": {
                            "type": "string",
                            "description": "The same model in pydantic's genai-prices dataset, as provider:model.",
                        },
                        "dataset": {
                            "type": "string",
                            "description": "The open dataset and release these prices were taken from, which took "
                            "them from source; absent where the site read source itself.",
                        },
                        "gpu": {"type": "string", "description": "For a GPU-hour: the accelerator's id."},
                        "notes": {"type": "string"},
                    },
                    "required": ["id", "name", "kind", "currency", "prices", "source", "read_on"],
                    "additionalProperties": False,
                    "allOf": kinds,
                },
            },
        },
        "required": ["version", "entries"],
        "additionalProperties": False,
    }
    return (json.dumps(schema, indent=1) + "\n").encode()
