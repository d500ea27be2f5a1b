"""Quantized model size: llama.cpp's published sizes for Llama-3.1-8B, and the formats' bits per weight."""

from __future__ import annotations

import pytest

from calculators import evaluate, find

QUANT = find("quantized-model-size")
LLAMA_31_8B = "8.030261248"  # 8,030,261,248 parameters


def _size(bits: str, unit: str = "gib", params: str = LLAMA_31_8B) -> float:
    result = evaluate(QUANT, {"params_billion": params, "bits_per_weight": bits, "memory_unit": unit})
    assert result.ok, result.problems
    return result.results["model_size"]


@pytest.mark.parametrize(
    ("bits", "published_gib"),
    [
        # llama.cpp tools/quantize/README.md, Llama-3.1-8B: effective bits per weight and file size in GiB.
        ("4.8944", 4.58),  # Q4_K_M
        ("8.5008", 7.95),  # Q8_0
        ("16.0005", 14.96),  # F16
        ("6.5633", 6.14),  # Q6_K
        ("5.7036", 5.33),  # Q5_K_M
        ("4.6672", 4.36),  # Q4_K_S
        ("3.1593", 2.95),  # Q2_K
    ],
)
def test_llama_cpp_published_sizes(bits: str, published_gib: float) -> None:
    assert _size(bits) == pytest.approx(published_gib, abs=0.005)


def test_q4_k_m_in_gb_and_gib() -> None:
    # The same file is 4.913 GB: the README's figure is GiB.
    assert _size("4.8944", "gb") == pytest.approx(4.913, abs=0.0005)
    assert _size("4.8944", "gb") / _size("4.8944", "gib") == pytest.approx(2**30 / 1e9)


@pytest.mark.parametrize(
    ("layout", "bits"),
    [
        # ggml-common.h block sizes: bytes per block × 8 / weights per block.
        ("Q4_0: 18 bytes per 32 weights", 18 * 8 / 32),
        ("Q8_0: 34 bytes per 32 weights", 34 * 8 / 32),
        ("Q4_K: 144 bytes per 256 weights", 144 * 8 / 256),
        ("Q6_K: 210 bytes per 256 weights", 210 * 8 / 256),
        # GPTQ 4-bit, groups of 128: 4 bits + a 16-bit scale and a 4-bit zero per group.
        ("GPTQ g128", 4 + 16 / 128 + 4 / 128),
    ],
)
def test_format_bits_per_weight(layout: str, bits: float) -> None:
    # The figures the help text quotes come from the formats' layouts, not from this code.
    assert bits in {4.5, 8.5, 6.5625, 4.15625}, layout
    if bits != 6.5625:
        assert f"{bits:g}" in QUANT.input("bits_per_weight").help.text


def test_llama_2_7b_at_4_bit_gptq() -> None:
    # Reference sheet 17e: 6,738,415,616 parameters × 4.15625 bits = 3.501 GB.
    assert _size("4.15625", "gb", "6.738415616") == pytest.approx(3.501, abs=0.0005)


@pytest.mark.parametrize("bits", ["0", "-4", "65", "abc"])
def test_bits_must_be_a_real_width(bits: str) -> None:
    assert not evaluate(QUANT, {**QUANT.defaults(), "bits_per_weight": bits}).ok
