"""Attention memory: Korthikanti et al.'s 5as/h, the reference sheet's matrix sizes, FlashAttention's statistics."""

from __future__ import annotations

import pytest

from calculators import LocaleKit, evaluate, make_report
from calculators.infrastructure.attention_memory import CALCULATOR as ATTENTION
from calculators.kernel.spec import MemoryChart
from tests.helpers import results_of

_result = results_of(ATTENTION)


def test_korthikanti_gpt_3() -> None:
    # Korthikanti et al. §5: GPT-3 (a = 96, s = 2,048, h = 12,288) has 5as/h = 80 against 34 for the rest of
    # the layer, so recomputing the attention matrices saves 70% of the activation memory. These are the defaults.
    result = _result()
    assert result["attention_term"] == 80
    assert round(result["attention_share"]) == 70


def test_korthikanti_mt_nlg() -> None:
    # Same section: MT-NLG (a = 128, h = 20,480, s = 2,048) has 5as/h = 64, a 65% saving.
    result = _result(attention_heads="128", hidden_size="20480", seq_len="2048")
    assert result["attention_term"] == 64
    assert round(result["attention_share"]) == 65


def test_korthikanti_bytes_per_layer_match_the_term() -> None:
    # 5·a·s²·b bytes per layer is s·b·h × 5as/h: for GPT-3, 2,048 × 12,288 × 80 bytes.
    result = _result()
    assert result["naive_per_layer_mib"] * 2**20 == 2048 * 12288 * 80


@pytest.mark.parametrize(
    ("values", "mib"),
    [
        # Reference sheet 15d: b = 1, 32 heads, 4,096 tokens, 16-bit: 1,073,741,824 bytes, 1 GiB per matrix per layer.
        ({"batch_size": "1", "attention_heads": "32", "seq_len": "4096", "score_bytes": "2"}, 1024),
        # 15e: the same at 32,768 tokens: 64 GiB.
        ({"batch_size": "1", "attention_heads": "32", "seq_len": "32768", "score_bytes": "2"}, 65536),
        # 15f: b = 8, 12 heads, 1,024 tokens, FP32: 402,653,184 bytes = 384 MiB.
        ({"batch_size": "8", "attention_heads": "12", "seq_len": "1024", "score_bytes": "4"}, 384),
    ],
)
def test_one_matrix_per_layer(values: dict[str, str], mib: float) -> None:
    result = _result(**values, layers="1", memory_unit="gib")
    assert result["naive_per_layer_mib"] == mib
    assert result["naive_memory"] == mib / 1024


def test_flash_attention_log_sum_exp() -> None:
    # Reference sheet 15g: one FP32 log-sum-exp per row, b = 1, 32 heads, 4,096 tokens: 524,288 bytes.
    result = _result(batch_size="1", attention_heads="32", seq_len="4096", layers="1", memory_unit="gb")
    assert result["flash_per_layer_kib"] * 1024 == 524_288
    assert result["flash_memory"] == pytest.approx(524_288 / 1e9)


def test_quadratic_against_linear() -> None:
    short, long = _result(seq_len="2048"), _result(seq_len="4096")
    assert long["naive_memory"] == pytest.approx(4 * short["naive_memory"])
    assert long["flash_memory"] == pytest.approx(2 * short["flash_memory"])


def test_flash_attention_readme_claim_is_not_this_ratio() -> None:
    # The FlashAttention README measures "10X memory savings at sequence length 2K, and 20X at 4K" for the
    # whole attention footprint. The score matrices alone shrink far more; this calculator does not claim 10X.
    result = _result(batch_size="1", attention_heads="32", seq_len="4096", score_bytes="2", layers="1")
    assert result["naive_memory"] / result["flash_memory"] == 2048


def test_default_totals_and_chart() -> None:
    # [CALC] GPT-3 defaults: 1,920 MiB per layer, 96 layers = 193.27 GB; FlashAttention 75.5 MB.
    result = _result()
    assert result["naive_per_layer_mib"] == 1920
    assert result["naive_memory"] == pytest.approx(193.273528320)
    assert result["flash_memory"] == pytest.approx(0.075497472)
    parts = [result[part.name] for part in ATTENTION.chart.parts] if isinstance(ATTENTION.chart, MemoryChart) else []
    assert sum(parts) == pytest.approx(result["naive_memory"])


def test_shortest_sequence_keeps_the_chart_positive() -> None:
    result = _result(seq_len="16", score_bytes="2")
    assert result["saved_memory"] > 0


@pytest.mark.parametrize(
    ("name", "value", "code"),
    [
        ("seq_len", "8", "too_small"),
        ("seq_len", "2048.5", "not_whole"),
        ("batch_size", "0", "too_small"),
        ("attention_heads", "x", "not_a_number"),
        ("score_bytes", "3", "unknown_choice"),
        ("memory_unit", "mb", "unknown_choice"),
        ("hidden_size", "", "required"),
    ],
)
def test_bad_input_is_a_problem(name: str, value: str, code: str) -> None:
    result = evaluate(ATTENTION, {**ATTENTION.defaults(), name: value})
    assert [(p.name, p.code) for p in result.problems] == [(name, code)]


def test_huge_inputs_are_out_of_range() -> None:
    result = evaluate(ATTENTION, {**ATTENTION.defaults(), "seq_len": "10000000", "batch_size": "1000000"})
    # The whole result is out of range, and each of the two inputs, back at its default, mends it.
    assert [(p.name, p.code) for p in result.problems] == [
        ("", "out_of_range"),
        ("batch_size", "out_of_range"),
        ("seq_len", "out_of_range"),
    ]


def test_english_report_fills_every_placeholder(kits: dict[str, LocaleKit]) -> None:
    report = make_report(ATTENTION, ATTENTION.defaults(), kits["en"])
    assert report.ok
    for result in report.results:
        assert "{" not in result.sentence and result.value
