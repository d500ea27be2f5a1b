"""End to end in Debian's Chromium: the live page recomputes through Pyodide and agrees with the build."""

from __future__ import annotations

from typing import Any

import pytest

from calculators import CALCULATORS, Calculator, Kind, LocaleKit, make_report
from site_builder.locales import LOCALES, Locale

from .pagetext import expected_text, result_text

pytestmark = pytest.mark.browser

VALUE_SETS: dict[str, list[dict[str, str]]] = {
    "gradient-accumulation-memory": [
        {"micro_batch": "1", "accumulation_steps": "1", "data_parallel": "1", "activation_per_sample_gb": "0.333"},
        {"micro_batch": "16", "accumulation_steps": "64", "data_parallel": "512", "activation_per_sample_gb": "1.75"},
        {"micro_batch": "4", "accumulation_steps": "8", "data_parallel": "4", "activation_per_sample_gb": "0.5"},
        {"micro_batch": "abc", "accumulation_steps": "8", "data_parallel": "4", "activation_per_sample_gb": "0.5"},
        {"micro_batch": "2.5", "accumulation_steps": "0", "data_parallel": "", "activation_per_sample_gb": "NaN"},
        {
            "micro_batch": "1e400",
            "accumulation_steps": "Infinity",
            "data_parallel": "-1",
            "activation_per_sample_gb": "1",
        },
    ],
    "kv-cache-size": [
        {"layers": "40", "kv_heads": "40", "head_dim": "128", "context_tokens": "2048", "memory_unit": "gib"},
        {
            "layers": "80",
            "kv_heads": "8",
            "head_dim": "128",
            "context_tokens": "131072",
            "batch_size": "16",
            "bytes_per_element": "1",
        },
        {"layers": "0", "kv_heads": "8", "head_dim": "abc", "context_tokens": "1e400"},
    ],
    "quantized-model-size": [
        {"params_billion": "70.553706496", "bits_per_weight": "4.15625", "memory_unit": "gb"},
        {"params_billion": "8.030261248", "bits_per_weight": "16.0005", "memory_unit": "gib"},
        {"params_billion": "0", "bits_per_weight": "99"},
    ],
    "llm-training-vram": [
        {"params_billion": "70", "bytes_per_param": "12", "activation_gb": "35.5"},
        {
            "params_billion": "405",
            "bytes_per_param": "8",
            "activation_gb": "0",
            "zero_stage": "3",
            "data_parallel": "1024",
        },
        {
            "params_billion": "7.5",
            "bytes_per_param": "16",
            "activation_gb": "0",
            "zero_stage": "2",
            "data_parallel": "1",
        },
        {"params_billion": "7", "bytes_per_param": "16", "activation_gb": "20"},
        {"params_billion": "0", "bytes_per_param": "16", "activation_gb": "-3"},
        {"params_billion": "", "bytes_per_param": "16", "activation_gb": "NaN"},
        {"params_billion": "7", "memory_unit": "gib", "zero_stage": "1", "data_parallel": "8"},
    ],
    "effective-batch-size": [
        {"micro_batch": "512", "accumulation_steps": "1", "data_parallel": "1", "seq_len": "1024"},
        {"micro_batch": "4", "accumulation_steps": "2", "data_parallel": "8", "tokens_billion": "0.001"},
        {"micro_batch": "0", "seq_len": "1.5", "tokens_billion": "-2"},
    ],
    "dataset-tokens": [
        {"text_amount": "4000", "text_unit": "characters"},
        {"text_amount": "1", "text_unit": "gb", "chars_per_token": "3.2"},
        {"text_amount": "x", "chars_per_token": "0"},
    ],
    "compute-budget-epochs": [
        {"compute_flops": "1e23", "params_billion": "7", "dataset_tokens_billion": "1000"},
        {"compute_flops": "5.76e23", "params_billion": "70", "dataset_tokens_billion": "1400"},
        {"compute_flops": "1e400", "params_billion": "0"},
    ],
    "lr-warmup": [
        {"learning_rate": "0.0001", "total_steps": "1000", "warmup_steps": "100", "step": "775", "schedule": "cosine"},
        {"total_steps": "100", "warmup_steps": "0", "warmup_ratio": "0.07", "step": "3"},
        {"learning_rate": "-1", "total_steps": "0", "step": "x"},
    ],
    "training-flops": [
        {"params_billion": "70", "tokens_billion": "1400"},
        {"params_billion": "1000", "tokens_billion": "450", "activation_recompute": "1", "attention_flops": "1"},
        {"params_billion": "0", "tokens_billion": "1e400"},
    ],
    "data-parallel-scaling": [
        {"params_billion": "1", "gradient_bytes": "4", "data_parallel": "64", "bus_bandwidth_gb_s": "10"},
        {"params_billion": "70", "data_parallel": "1", "compute_time_s": "0.5"},
        {"params_billion": "-1", "data_parallel": "2.5", "bus_bandwidth_gb_s": "0"},
    ],
    "compute-optimal-model-size": [
        {"compute_flops": "1.21e20", "method": "hoffmann"},
        {"compute_flops": "5.76e23", "method": "epoch"},
        {"compute_flops": "1e400"},
        {"compute_flops": "-5"},
    ],
    "pipeline-bubble": [
        {"pipeline_stages": "4", "micro_batches": "8", "model_chunks": "2"},
        {"pipeline_stages": "1", "micro_batches": "1"},
        {"pipeline_stages": "0", "micro_batches": "x"},
    ],
    "chinchilla-optimal-tokens": [
        {"params_billion": "7", "tokens_per_param": "20", "loss_fit": "epoch"},
        {"params_billion": "0.4"},
        {"params_billion": "", "tokens_per_param": "-1"},
    ],
    "moe-active-params": [
        {
            "experts": "256", "experts_per_token": "8", "expert_ffn_size": "2048", "shared_experts": "1",
            "dense_layers": "3", "ffn_size": "18432", "layers": "61", "hidden_size": "7168",
            "attention_heads": "128", "kv_heads": "128", "vocab_size": "129280", "router_bias": "1",
            "q_lora_rank": "1536", "kv_lora_rank": "512", "qk_nope_head_dim": "128", "qk_rope_head_dim": "64",
            "v_head_dim": "128", "memory_unit": "gib",
        },
        {"experts": "0", "experts_per_token": "0"},
        {"experts": "x", "layers": "0"},
    ],
    "model-download-time": [
        {"model_size": "140", "memory_unit": "gb", "link_speed": "1", "link_unit": "gbit"},
        {"model_size": "14.96", "link_speed": "125", "link_unit": "mbyte", "efficiency_percent": "80"},
        {"model_size": "0", "link_speed": "-1"},
    ],
    "gpu-count": [
        {"required_memory_gb": "16.2", "gpu_memory_gb": "24", "attention_heads": "32", "kv_heads": "8"},
        {"required_memory_gb": "1500", "gpu_memory_gb": "80", "gpu_memory_utilization": "1"},
        {"required_memory_gb": "abc", "gpu_memory_gb": "0"},
    ],
    "lora-parameters": [
        {"target_modules": "qv", "rank": "8", "ffn_size": "11008", "kv_heads": "32", "params_billion": "6.738415616"},
        {"target_modules": "qkvo", "rank": "64", "base_bytes_per_param": "0.5", "memory_unit": "gib"},
        {"rank": "0", "layers": "x"},
    ],
    "attention-memory": [
        {"batch_size": "1", "seq_len": "4096", "score_bytes": "2", "attention_heads": "32", "layers": "1"},
        {"batch_size": "8", "seq_len": "1024", "score_bytes": "4", "attention_heads": "12", "memory_unit": "gib"},
        {"seq_len": "3", "attention_heads": "-2"},
    ],
    "llm-inference-vram": [
        {"params_billion": "70", "bits_per_weight": "4", "context_tokens": "0", "overhead_applies_to": "all"},
        {"context_tokens": "131072", "batch_size": "8", "bytes_per_element": "1", "memory_unit": "gib"},
        {"params_billion": "0", "bits_per_weight": "x"},
    ],
    "transformer-params": [
        {
            "architecture": "gpt2", "layers": "12", "hidden_size": "768", "attention_heads": "12", "kv_heads": "12",
            "head_dim": "64", "ffn_size": "3072", "vocab_size": "50257", "tied_embeddings": "1",
        },
        {"attention_bias": "1", "experts": "8", "experts_per_token": "2", "memory_unit": "gib"},
        {"layers": "0", "hidden_size": "1e400"},
    ],
}  # fmt: skip


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


@pytest.mark.parametrize("locale", LOCALES, ids=lambda locale: locale.tag)
@pytest.mark.parametrize("calculator", CALCULATORS, ids=lambda calculator: calculator.slug)
def test_live_page_agrees_with_the_build(
    page: Any, base_url: str, kits: dict[Locale, LocaleKit], locale: Locale, calculator: Calculator
) -> None:
    page.goto(f"{base_url}{locale.folder}/{calculator.slug}/")
    prerendered = result_text(page.content())
    _open(page, base_url, locale, calculator)
    kit = kits[locale]
    defaults = expected_text(
        make_report(calculator, calculator.defaults(), kit), _names(calculator), chart=bool(calculator.chart)
    )
    assert prerendered == defaults
    for partial in [*VALUE_SETS[calculator.slug], calculator.defaults()]:
        values = {**calculator.defaults(), **partial}  # what the form holds once the set is typed in
        _enter(page, calculator, values)
        expected = expected_text(make_report(calculator, values, kit), _names(calculator), chart=bool(calculator.chart))
        assert result_text(page.content()) == expected, values
    assert result_text(page.content()) == prerendered


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


@pytest.mark.parametrize("locale", LOCALES, ids=lambda locale: locale.tag)
def test_bad_input_shows_a_message_and_hides_results(page: Any, base_url: str, locale: Locale) -> None:
    calculator = next(c for c in CALCULATORS if c.slug == "gradient-accumulation-memory")
    _open(page, base_url, locale, calculator)
    page.fill('[name="micro_batch"]', "2.5")
    _settle(page)
    error = page.locator('[data-error-for="micro_batch"]')
    assert error.is_visible()
    assert error.text_content()
    assert page.get_attribute('[name="micro_batch"]', "aria-invalid") == "true"
    assert page.locator("[data-status]").is_visible()
    assert not page.locator('[data-output="effective_batch"]').is_visible()
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
