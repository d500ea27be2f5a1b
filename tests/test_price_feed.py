"""The price feed: the list prices the site uses, published at a stable address with a schema that describes them,
validated by the reference implementation of JSON Schema, and linked from every table of prices."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from calculators import CALCULATORS
from site_builder.build.presets import LLM_OPTIONAL, LONG_CONTEXT, PRICE_KINDS, read_presets
from site_builder.build.rendering import preset_menus

PRESETS = read_presets()


def _read(site: Path, name: str) -> Any:
    return json.loads((site / name).read_text(encoding="utf-8"))


def test_the_feed_validates_against_its_schema(site: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = _read(site, "prices.schema.json")
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    feed = _read(site, "prices.json")
    assert list(validator.iter_errors(feed)) == []
    # The schema refuses what a reader must not find: a price missing from its kind, a date that is not one.
    broken = json.loads(json.dumps(feed))
    del broken["entries"][0]["prices"]["output_per_m"]
    broken["entries"][1]["read_on"] = "2026-13-40"
    assert len(list(validator.iter_errors(broken))) == 2


def test_every_price_the_menus_use_is_in_the_feed_with_its_source_and_date(site: Path) -> None:
    entries = {entry["id"]: entry for entry in _read(site, "prices.json")["entries"]}
    assert list(entries) == [price.id for price in PRESETS.prices + PRESETS.dataset]
    for price in PRESETS.prices + PRESETS.dataset:
        entry = entries[price.id]
        assert entry["source"] == price.source and entry["read_on"] == price.read_on.isoformat()
        stated = {name: getattr(price, name) for name in LLM_OPTIONAL if getattr(price, name)}
        assert entry["prices"] == {name: getattr(price, name) for name in PRICE_KINDS[price.kind]} | stated
        assert entry.get("context_tokens", 0) == price.context_tokens
        assert entry.get("dataset", "") == price.dataset and entry.get("genai_prices", "") == price.genai_prices
        if price.long_context_above:
            tier = {name.removeprefix("long_context_"): getattr(price, name) for name in LONG_CONTEXT[1:]}
            assert entry["long_context"] == {"above_input_tokens": price.long_context_above, **tier}
        else:
            assert "long_context" not in entry


def test_every_table_of_prices_links_to_the_feed(site: Path) -> None:
    menus = preset_menus(CALCULATORS, PRESETS)
    priced = [c for c in CALCULATORS if menus[c.slug].prices]
    assert priced
    for calculator in priced:
        html = (site / "ja" / calculator.slug / "index.html").read_text(encoding="utf-8")
        assert '<a href="../../prices.json" type="application/json">prices.json</a>' in html
        assert '<a href="../../prices.schema.json" type="application/schema+json">' in html
