"""Data-parallel scaling: nccl-tests' ring bound, the sheet's cases 5c to 5e and Korthikanti's weak scaling."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import LocaleKit, Problem, evaluate, make_report
from calculators.training.data_parallel_scaling import CALCULATOR as DP
from tests.helpers import results_of

_result = results_of(DP)


LLAMA_2_7B = "6.738415616"  # 6,738,415,616 parameters


@pytest.mark.parametrize(("ranks", "seconds"), [("2", 0.1), ("64", 0.196875)])
def test_ring_bound_one_gigabyte(ranks: str, seconds: float) -> None:
    # Sheet case 5c: S = 1 GB, B = 10 GB/s; t = (S/B)·2(n-1)/n is 0.1 s on 2 GPUs and 0.196875 s on 64.
    result = _result(params_billion="0.5", gradient_bytes="2", bus_bandwidth_gb_s="10", data_parallel=ranks)
    assert result["gradient_gb"] == 1
    assert result["allreduce_time_s"] == pytest.approx(seconds)


def test_llama_2_7b_bf16_on_8_gpus() -> None:
    # Sheet case 5d: 13.4768 GB of BF16 gradients, n = 8, B = 100 GB/s → 0.2358 s.
    result = _result(params_billion=LLAMA_2_7B, gradient_bytes="2", data_parallel="8", bus_bandwidth_gb_s="100")
    assert result["gradient_gb"] == pytest.approx(13.4768, abs=5e-5)
    assert result["allreduce_time_s"] == pytest.approx(0.2358, abs=5e-5)


def test_fp32_gradients_double_the_time() -> None:
    assert _result(gradient_bytes="4")["allreduce_time_s"] == pytest.approx(2 * _result()["allreduce_time_s"])


def test_bus_bandwidth_from_gigabits() -> None:
    # A 400 Gbit/s port is 50 GB/s: entering 400 as GB/s would make the all-reduce 8 times too fast.
    assert _result(bus_bandwidth_gb_s="50")["allreduce_time_s"] == pytest.approx(
        8 * _result(bus_bandwidth_gb_s="400")["allreduce_time_s"]
    )


def test_efficiency_of_a_ninth_of_overhead() -> None:
    # Sheet case 5e: 500 samples/s on 1 GPU and 3,600 on 8 give η = 3600 / (8 × 500) = 0.90, a 7.2-fold
    # speed-up. Without overlap that is an all-reduce of one ninth of the compute time: S = 1 GB at 10 GB/s
    # on 8 GPUs takes 0.1 × 2 × 7/8 = 0.175 s, so the compute time is 9 × 0.175 = 1.575 s.
    result = _result(
        params_billion="0.5", gradient_bytes="2", data_parallel="8", bus_bandwidth_gb_s="10", compute_time_s="1.575"
    )
    assert result["step_time_s"] == pytest.approx(1.75)
    assert result["scaling_efficiency"] == pytest.approx(90)
    assert result["speedup"] == pytest.approx(3600 / 500)


def test_korthikanti_weak_scaling_ratio() -> None:
    # Korthikanti et al. 2022, Table 5: the 530B model takes 37.83 s per iteration on 280 GPUs and 39.15 s
    # with 8 data-parallel copies on 2,240 GPUs: weak-scaling efficiency 37.83 / 39.15 = 96.6%. The paper
    # measures the whole difference, not only the all-reduce; here S/B × 2(n-1)/n is set to those 1.32 s
    # (1.32 GB at 1 GB/s on 2 GPUs) to check that the efficiency is the paper's ratio of iteration times.
    result = _result(
        params_billion="0.66", gradient_bytes="2", data_parallel="2", bus_bandwidth_gb_s="1", compute_time_s="37.83"
    )
    assert result["step_time_s"] == pytest.approx(39.15)
    assert result["scaling_efficiency"] == pytest.approx(96.6, abs=0.05)


def test_one_gpu_has_no_all_reduce() -> None:
    result = _result(data_parallel="1")
    assert result["allreduce_time_s"] == 0
    assert result["scaling_efficiency"] == 100
    assert result["speedup"] == 1


def test_defaults_are_the_sheet_case() -> None:
    # Llama-2-7B, BF16 gradients, 8 GPUs at 100 GB/s; 1.06 s of compute is 6 × N × 4,096 tokens at 156 TFLOP/s.
    assert 6 * 6_738_415_616 * 4096 / 156e12 == pytest.approx(float(DP.defaults()["compute_time_s"]), abs=0.005)
    result = _result()
    assert result["allreduce_time_s"] == pytest.approx(0.2358, abs=5e-5)
    assert result["scaling_efficiency"] == pytest.approx(100 * 1.06 / (1.06 + 0.23584), abs=0.01)


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("params_billion", "0", Problem("params_billion", "too_small", Decimal(0), exclusive=True)),
        ("gradient_bytes", "3", Problem("gradient_bytes", "unknown_choice")),
        ("data_parallel", "0", Problem("data_parallel", "too_small", Decimal(1))),
        ("data_parallel", "2.5", Problem("data_parallel", "not_whole")),
        ("bus_bandwidth_gb_s", "0", Problem("bus_bandwidth_gb_s", "too_small", Decimal(0), exclusive=True)),
        ("bus_bandwidth_gb_s", "1e400", Problem("bus_bandwidth_gb_s", "too_large", Decimal(1_000_000))),
        ("compute_time_s", "-1", Problem("compute_time_s", "too_small", Decimal(0), exclusive=True)),
        ("compute_time_s", "abc", Problem("compute_time_s", "not_a_number")),
        ("compute_time_s", "", Problem("compute_time_s", "required")),
    ],
)
def test_validation(name: str, raw: str, problem: Problem) -> None:
    result = evaluate(DP, {**DP.defaults(), name: raw})
    assert result.problems == (problem,)
    assert result.results == {}


def test_extremes_stay_finite() -> None:
    result = evaluate(
        DP,
        {
            "params_billion": "100000",
            "gradient_bytes": "4",
            "data_parallel": "1000000",
            "bus_bandwidth_gb_s": "0.001",
            "compute_time_s": "0.0001",
        },
    )
    assert result.ok
    assert result.results["scaling_efficiency"] > 0


def test_report_sentences(kits: dict[str, LocaleKit]) -> None:
    report = make_report(DP, DP.defaults(), kits["en"])
    assert report.ok
    texts = {r.name: r for r in report.results}
    assert texts["allreduce_time_s"].value == "0.2358"
    assert "{" not in " ".join(r.sentence for r in report.results)
    assert texts["gradient_gb"].sentence.startswith("Every GPU holds 6.738415616 × 10⁹ gradients × 2 bytes")
