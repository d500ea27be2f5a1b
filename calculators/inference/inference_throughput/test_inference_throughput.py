"""Inference throughput: Databricks' MBU example and the roofline's regimes."""

import pytest

from calculators import evaluate, find
from tests.helpers import results_of

CALCULATOR = find("inference-throughput")
_result = results_of(CALCULATOR)


def test_databricks_mbu_example() -> None:
    # Databricks: a 7B model in 16 bits moves 14 GB per token; TPOT 14 ms is 1 TB/s, MBU 50% of 2 TB/s.
    result = _result(
        params_billion="7",
        active_params_billion="7",
        bits_per_weight="16",
        bandwidth_gb_s="2000",
        efficiency="50",
        context_tokens="1",
        kv_heads="32",
        attention_heads="32",
    )
    assert result["time_per_token_ms"] == pytest.approx(14, abs=0.01)
    assert result["step_gb"] == pytest.approx(14, abs=0.001)


def test_batch_shares_the_weight_read() -> None:
    one, many = _result(batch_size="1"), _result(batch_size="8")
    assert 1 < many["batch_tokens_per_second"] / one["batch_tokens_per_second"] < 8
    assert _result()["ridge_point"] == pytest.approx(989.5e12 / 3350e9)


@pytest.mark.parametrize(("kv_heads", "intensity"), [("32", 1), ("8", 4)])
def test_attention_decodes_at_g_flops_per_cache_byte(kv_heads: str, intensity: float) -> None:
    # Austin et al., "How to Scale Your Model" (2025): a generated token's attention does 4BSTD FLOPs, the
    # query-key product and the weighted values over all S cached tokens (Part 7, "What about attention?"), and
    # its arithmetic intensity in BF16 is SG / (G + S) -> G, G query heads per key-value head (Part 4,
    # question 4): about 1 for multi-head attention, at any batch. With one parameter the step is attention alone.
    result = _result(
        params_billion="0.000000001",
        active_params_billion="0.000000001",
        attention_heads="32",
        kv_heads=kv_heads,
        context_tokens="131072",
        batch_size="8",
    )
    assert result["intensity"] == pytest.approx(intensity, rel=1e-6)


def test_kv_heads_must_divide_heads() -> None:
    assert not evaluate(CALCULATOR, {**CALCULATOR.defaults(), "kv_heads": "5"}).ok


# llama-bench runs of Llama 2 7B (6,738,415,616 parameters) on chips whose vendor publishes no BF16 peak:
# - Georgi Gerganov's M2 Ultra (800 GB/s): F16 at 40.53 tokens/s (llama.cpp PR #2891, "tg 64", that PR's column),
#   Q8_0 at 62.05 and Q4_0 at 88.54 (PR #2917, "tg 128", master);
# - an RX 7900 XTX (960 GB/s), Q4_0 at 167 to 177 tokens/s with Vulkan ("tg128", llama.cpp issue #20934; the low end).
# GGML's Q8_0 stores 34 bytes a block of 32 weights, Q4_0 18: 8.5 and 4.5 bits per weight.
_LLAMA_2_7B = {"params_billion": "6.738415616", "active_params_billion": "6.738415616", "kv_heads": "32"}
_RUNS = [("800", "16", 64, 40.53), ("800", "8.5", 128, 62.05), ("800", "4.5", 128, 88.54), ("960", "4.5", 128, 167)]


@pytest.mark.parametrize(("bandwidth", "bits", "tokens", "measured"), _RUNS)
def test_without_a_peak_decoding_is_bounded_by_bandwidth_above_what_llama_cpp_measures(
    bandwidth: str, bits: str, tokens: int, measured: float
) -> None:
    result = _result(
        **_LLAMA_2_7B, bits_per_weight=bits, context_tokens=str(tokens), bandwidth_gb_s=bandwidth, peak_tflops="0"
    )
    # A ceiling the run stays under, by the share of the bandwidth llama.cpp's kernels reach: 68 % in F16 on Metal,
    # less where dequantizing the blocks costs time.
    assert 0.4 < measured / result["sequence_tokens_per_second"] < 0.8
    assert result["ridge_point"] != result["ridge_point"]  # NaN: not known without a peak
    assert result["prefill_tokens_per_second"] != result["prefill_tokens_per_second"]
    known = _result(**_LLAMA_2_7B, bits_per_weight=bits, context_tokens=str(tokens), bandwidth_gb_s=bandwidth)
    assert known["sequence_tokens_per_second"] == result["sequence_tokens_per_second"]  # decoding is memory-bound
