"""Inference latency: TTFT + TPOT × (n - 1), Databricks' and vLLM's conventions."""

import pytest

from calculators import evaluate, find
from tests.helpers import results_of

CALCULATOR = find("inference-latency")
_result = results_of(CALCULATOR)


def test_latency_adds_ttft_and_the_decode_steps() -> None:
    result = _result()
    assert result["latency_s"] == pytest.approx((result["ttft_ms"] + 199 * result["tpot_ms"]) / 1000)
    assert result["latency_s"] == pytest.approx(0.979, abs=0.0005)


def test_databricks_tpot_of_100_ms_is_10_tokens_per_second() -> None:
    # Databricks: "a TPOT of 100 milliseconds/tok would be 10 tokens per second per user". A 1,675-GB/s
    # read of 167.5 GB of weights (83.75 billion parameters in BF16) takes 100 ms; a long answer tends to 10/s.
    result = _result(
        params_billion="83.75",
        active_params_billion="0.001",
        bandwidth_gb_s="1675",
        layers="1",
        kv_heads="1",
        attention_heads="1",
        head_dim="1",
        output_tokens="1000000",
        prompt_tokens="1",
    )
    assert result["tpot_ms"] == pytest.approx(100, abs=0.01)
    assert result["request_tokens_per_second"] == pytest.approx(10, abs=0.01)


def test_prefill_is_compute_bound() -> None:
    # 1,000 tokens × 2 × 8.03 × 10⁹ FLOPs (plus attention) at 989.5 TFLOP/s.
    assert _result()["ttft_ms"] == pytest.approx(16.5, abs=0.05)


def test_bad_input_is_a_problem() -> None:
    assert not evaluate(CALCULATOR, {**CALCULATOR.defaults(), "prompt_tokens": "0"}).ok


def test_fp8_matrix_products_run_at_the_fp8_peak_where_the_gpu_has_one() -> None:
    # A long prompt is bound by compute: on an H100 SXM (989.5 dense BF16, 1,979 dense FP8 TFLOP/s) an FP8 (W8A8)
    # checkpoint reads it at twice the speed. An A100 has no FP8 tensor cores: vLLM runs the checkpoint as
    # weight-only FP8 (W8A16) and multiplies in BF16, so the prompt takes as long as in BF16.
    prompt = {"prompt_tokens": "32768", "bits_per_weight": "8"}
    bf16, fp8 = (_result(**prompt, matrix_precision=m)["ttft_ms"] for m in ("bf16", "fp8"))
    assert fp8 == pytest.approx(bf16 / 2, rel=0.01)
    a100 = {**prompt, "bandwidth_gb_s": "2039", "peak_tflops": "312", "fp8_peak_tflops": "0"}
    assert _result(**a100, matrix_precision="fp8")["ttft_ms"] == _result(**a100)["ttft_ms"]
    # a link from before these inputs keeps its result
    old = {
        spec.name: spec.default
        for spec in CALCULATOR.inputs
        if spec.name not in {"matrix_precision", "fp8_peak_tflops"}
    }
    assert evaluate(CALCULATOR, old).results == evaluate(CALCULATOR, CALCULATOR.defaults()).results
