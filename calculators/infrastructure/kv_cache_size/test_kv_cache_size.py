"""KV cache size: the published per-token and per-sequence figures, grouped-query attention, GB and GiB."""

from __future__ import annotations

import pytest

from calculators import LocaleKit, evaluate, find, make_report
from site_builder.locales import LOCALE_BY_TAG, Locale

KV = find("kv-cache-size")


def _run(**values: str) -> dict[str, float]:
    result = evaluate(KV, {**KV.defaults(), **values})
    assert result.ok, result.problems
    return dict(result.results)


def test_vllm_paper_opt_13b() -> None:
    # Kwon et al. §3: OPT-13B, 2 × 5120 × 40 × 2 bytes = "800 KB" per token (800 KiB); 2,048 tokens "1.6 GB".
    opt = {"layers": "40", "kv_heads": "40", "head_dim": "128", "context_tokens": "2048", "bytes_per_element": "2"}
    assert _run(**opt)["per_token_kib"] == 800
    assert _run(**opt, memory_unit="gib")["kv_cache_memory"] == pytest.approx(1.5625)
    assert _run(**opt, memory_unit="gb")["kv_cache_memory"] == pytest.approx(1.6777216)


@pytest.mark.parametrize(
    ("layers", "kv_heads", "per_token_kib"),
    [
        ("32", "8", 128),  # Llama-3.1-8B, grouped-query attention: 131,072 bytes per token
        ("80", "8", 320),  # Llama-2-70B: 327,680 bytes per token
        ("80", "64", 2560),  # the same model if every query head had its own key-value head
        ("32", "32", 512),  # Llama-2-7B, multi-head attention: 0.5 MiB per token
    ],
)
def test_per_token_sizes(layers: str, kv_heads: str, per_token_kib: float) -> None:
    assert _run(layers=layers, kv_heads=kv_heads)["per_token_kib"] == per_token_kib


def test_llama_31_8b_full_context_is_16_gib() -> None:
    assert _run(context_tokens="131072", memory_unit="gib")["kv_cache_memory"] == 16


def test_fp8_halves_and_batch_multiplies() -> None:
    base = _run()["kv_cache_memory"]
    assert _run(bytes_per_element="1")["kv_cache_memory"] == base / 2
    assert _run(batch_size="8")["kv_cache_memory"] == base * 8


def test_unit_choice_is_read_by_name_only() -> None:
    assert evaluate(KV, {**KV.defaults(), "memory_unit": "tb"}).problems[0].code == "unknown_choice"
    assert evaluate(KV, {**KV.defaults(), "memory_unit": "1073741824"}).problems[0].code == "unknown_choice"


@pytest.mark.parametrize(("unit", "shown"), [("gb", "GB"), ("gib", "GiB")])
def test_the_unit_follows_the_switch(kits: dict[Locale, LocaleKit], unit: str, shown: str) -> None:
    report = make_report(KV, {**KV.defaults(), "memory_unit": unit}, kits[LOCALE_BY_TAG["en"]])
    memory = report.results[0]
    assert memory.unit == shown
    assert memory.sentence.endswith(f"{memory.value} {shown}.")
