"""Presets and config pasting in Chromium: the fields they fill, the results that follow, the words they show."""

from __future__ import annotations

import json
from typing import Any

import pytest

from calculators import LocaleKit, find, make_report
from calculators.report import read_config
from languages.locales import LOCALE_BY_TAG

from .pagetext import expected_text, result_text
from .test_browser import _names, _open, _settle
from .test_model_config import GPT2, MIXTRAL_8X7B

pytestmark = pytest.mark.browser

KV = find("kv-cache-size")


def _form_values(page: Any) -> dict[str, str]:
    script = "() => Object.fromEntries([...new FormData(document.querySelector('form[data-calculator]'))])"
    return dict(page.evaluate(script))


def test_a_model_preset_fills_the_fields_and_the_results_follow(
    page: Any, base_url: str, kits: dict[str, LocaleKit]
) -> None:
    locale = LOCALE_BY_TAG["fr"]
    _open(page, base_url, locale, KV, "?context_tokens=32768")
    options = page.locator("#preset-model option[data-values]")
    assert options.count() >= 20
    chosen = options.nth(3)
    filled = json.loads(chosen.get_attribute("data-values"))
    window = {"sliding_window", "sliding_window_share"}
    # A model without latent attention or state layers says so, so that another model's facts do not linger.
    latent = {"kv_lora_rank", "qk_rope_head_dim", "qk_nope_head_dim", "v_head_dim"}
    state = {
        "state_layers_share",
        "cacheless_layers_share",
        "state_beside_attention",
        "state_conv_channels",
        "state_conv_width",
        "recurrent_state",
    }
    assert set(filled) == {"layers", "attention_heads", "kv_heads", "head_dim", *window, *latent, *state}
    page.select_option("#preset-model", chosen.get_attribute("value"))
    _settle(page)
    values = _form_values(page)
    assert {name: values[name] for name in filled} == filled
    assert values["context_tokens"] == "32768"  # a preset leaves the workload alone
    report = make_report(KV, values, kits[locale.tag])
    assert result_text(page.content()) == expected_text(report, _names(KV), chart=True)
    # Editing a field the preset filled means the menu no longer names the model.
    page.fill('[name="layers"]', "7")
    _settle(page)
    assert page.input_value("#preset-model") == ""


def test_a_pasted_config_fills_the_fields_and_says_what_it_assumed(
    page: Any, base_url: str, kits: dict[str, LocaleKit]
) -> None:
    locale = LOCALE_BY_TAG["ja"]
    _open(page, base_url, locale, KV)
    page.click("details.config-paste summary")
    page.fill("[data-config-text]", json.dumps(MIXTRAL_8X7B, indent=2))
    page.click("[data-config-apply]")
    page.wait_for_function("() => document.querySelector('[data-config-status]').textContent !== ''")
    _settle(page)
    values = _form_values(page)
    assert (values["layers"], values["kv_heads"], values["head_dim"]) == ("32", "8", "128")
    outcome = read_config(KV, json.dumps(MIXTRAL_8X7B), kits[locale.tag])
    assert page.text_content("[data-config-status]") == outcome.message
    assert result_text(page.content()) == expected_text(
        make_report(KV, values, kits[locale.tag]), _names(KV), chart=True
    )

    # GPT-2 has no num_key_value_heads or head_dim: the defaults are used and named.
    page.fill("[data-config-text]", json.dumps(GPT2))
    page.click("[data-config-apply]")
    page.wait_for_function("() => document.querySelector('[name=layers]').value === '12'")
    assert "num_key_value_heads, head_dim" in page.text_content("[data-config-status]")


def test_a_broken_config_changes_nothing_and_says_why(page: Any, base_url: str, kits: dict[str, LocaleKit]) -> None:
    locale = LOCALE_BY_TAG["de"]
    _open(page, base_url, locale, KV)
    before = _form_values(page)
    page.click("details.config-paste summary")
    for text in ('{"num_hidden_layers": 32,\n "hidden_size": }', '{"hidden_size": 4096}', "<script>alert(1)</script>"):
        page.fill("[data-config-text]", text)
        page.click("[data-config-apply]")
        expected = read_config(KV, text, kits[locale.tag]).message
        page.wait_for_function(
            "(expected) => document.querySelector('[data-config-status]').textContent === expected", arg=expected
        )
        assert _form_values(page) == before


def test_gpu_and_model_menus_appear_only_where_they_fill_something(page: Any, base_url: str) -> None:
    _open(page, base_url, LOCALE_BY_TAG["en"], find("effective-batch-size"))
    assert page.locator("[data-presets]").count() == 0
    _open(page, base_url, LOCALE_BY_TAG["en"], find("gpu-count"))
    assert page.locator("#preset-gpu option[data-values]").count() >= 12
    assert page.locator("#preset-gpu").is_visible()


def test_a_list_price_fills_the_prices_and_names_its_date_and_source(
    page: Any, base_url: str, kits: dict[str, LocaleKit]
) -> None:
    locale = LOCALE_BY_TAG["de"]
    token_cost = find("token-cost")
    _open(page, base_url, locale, token_cost, "?currency=EUR&input_tokens=2000")
    menu = page.locator("#preset-price-llm")
    chosen = menu.locator("option[data-values]").first
    assert "2. Dezember 2026" in chosen.inner_text()  # the day its page was read, in the reader's language
    filled = json.loads(chosen.get_attribute("data-values"))
    long_context = {"long_context_above", "long_context_input_price", "long_context_cached_input_price"}
    assert set(filled) == {"input_price", "cached_input_price", "output_price", "currency", *long_context,
                           "long_context_output_price"}  # fmt: skip
    page.select_option("#preset-price-llm", chosen.get_attribute("value"))
    _settle(page)
    values = _form_values(page)
    assert {name: values[name] for name in filled} == filled
    assert values["currency"] == "USD" and values["input_tokens"] == "2000"  # list prices are in US dollars
    report = make_report(token_cost, values, kits[locale.tag])
    assert result_text(page.content()) == expected_text(report, _names(token_cost))
    # The table under the article names every list price with its source and date, prerendered.
    rows = page.locator(".price-sources tbody tr")
    assert rows.count() == menu.locator("option[data-values]").count()
    link = rows.first.locator("th a")
    assert link.get_attribute("href").startswith("https://") and "USD" in rows.first.inner_text()


def test_a_gpu_fills_the_memory_a_framework_sees_and_its_figures_are_sourced(
    page: Any, base_url: str, kits: dict[str, LocaleKit]
) -> None:
    # An A10G sold as 24 GB shows CUDA 22.49 GiB; the plan is made on that, and the table under the article gives
    # each GPU of the menu with its sources, a figure its vendor does not publish said so.
    locale, planner = LOCALE_BY_TAG["de"], find("gpu-memory-planner")
    _open(page, base_url, locale, planner)
    page.select_option("#preset-gpu", "a10g")
    _settle(page)
    values = _form_values(page)
    assert (values["gpu_memory_gb"], values["usable_memory_gib"]) == ("24", "22.49")
    report = make_report(planner, values, kits[locale.tag])
    assert result_text(page.content()) == expected_text(report, _names(planner), chart=True)
    assert "22,49 GiB" in page.inner_text('[data-sentence="capacity_gib"]')
    rows = page.locator(".gpu-sources tbody tr")
    assert rows.count() == page.locator("#preset-gpu option[data-values]").count() > 30
    a10g = rows.filter(has_text="A10G")
    assert a10g.locator("a").nth(1).get_attribute("href").startswith("https://github.com/")
    assert "Nicht veröffentlicht" in a10g.inner_text()  # AWS publishes no bandwidth or peak for it
    assert "November 2021" in a10g.inner_text()  # the day it was announced, in the reader's language
    assert "1.979" in rows.filter(has_text="H100 SXM").inner_text()  # its dense FP8 peak, beside the BF16 one
