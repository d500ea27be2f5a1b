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


def test_kv_heads_must_divide_heads() -> None:
    assert not evaluate(CALCULATOR, {**CALCULATOR.defaults(), "kv_heads": "5"}).ok
