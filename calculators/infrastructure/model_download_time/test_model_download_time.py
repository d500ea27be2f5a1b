"""Model download time: the sheet's cases 18a to 18c, bits versus bytes, GB versus GiB, and efficiency."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import LocaleKit, Problem, evaluate, make_report
from calculators.infrastructure.model_download_time import CALCULATOR as DOWNLOAD
from tests.helpers import results_of

_result = results_of(DOWNLOAD)


def test_llama_31_8b_q4_k_m_at_100_mbit() -> None:
    # 18a: llama.cpp's "4.58 GiB" (4,917,737,554 bytes) at 100 Mbit/s → 393.4 s, 6.56 min. These are the defaults.
    result = _result()
    assert result["download_seconds"] == pytest.approx(393.4, abs=0.05)
    assert result["download_minutes"] == pytest.approx(6.56, abs=0.005)
    assert result["download_seconds"] == pytest.approx(4_917_737_554 * 8 / 100e6, abs=0.001)


def test_70b_in_16_bits_at_1_gbit() -> None:
    # 18b: 140 GB (70B × 2 bytes) at 1 Gbps → 1,120 s, 18.7 min.
    result = _result(model_size="140", memory_unit="gb", link_speed="1", link_unit="gbit")
    assert result["download_seconds"] == pytest.approx(1120)
    assert result["download_minutes"] == pytest.approx(18.7, abs=0.05)


def test_llama_31_8b_f16_at_1_gbit() -> None:
    # 18c: 14.96 GiB (llama.cpp's F16 size of Llama-3.1-8B) at 1 Gbps → 128.5 s.
    assert _result(model_size="14.96", link_speed="1", link_unit="gbit")["download_seconds"] == pytest.approx(
        128.5, abs=0.05
    )


def test_megabytes_are_eight_megabits() -> None:
    assert _result(link_speed="12.5", link_unit="mbyte")["download_seconds"] == pytest.approx(
        _result(link_speed="100", link_unit="mbit")["download_seconds"]
    )
    assert _result(link_speed="1000", link_unit="mbit")["download_seconds"] == pytest.approx(
        _result(link_speed="1", link_unit="gbit")["download_seconds"]
    )


def test_gib_versus_gb() -> None:
    assert _result(memory_unit="gib")["download_seconds"] / _result(memory_unit="gb")["download_seconds"] == (
        pytest.approx(2**30 / 1e9)
    )


def test_efficiency_stretches_the_time() -> None:
    assert _result(efficiency_percent="80")["download_seconds"] == pytest.approx(_result()["download_seconds"] / 0.8)


def test_units_agree() -> None:
    result = _result(model_size="140", memory_unit="gb", link_speed="1", link_unit="gbit")
    assert result["download_hours"] == pytest.approx(result["download_minutes"] / 60)
    assert result["download_minutes"] == pytest.approx(result["download_seconds"] / 60)


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("model_size", "0", Problem("model_size", "too_small", Decimal(0), exclusive=True)),
        ("model_size", "-3", Problem("model_size", "too_small", Decimal(0), exclusive=True)),
        ("link_speed", "0", Problem("link_speed", "too_small", Decimal(0), exclusive=True)),
        ("link_speed", "fast", Problem("link_speed", "not_a_number")),
        ("link_unit", "kbit", Problem("link_unit", "unknown_choice")),
        ("link_unit", "1000000", Problem("link_unit", "unknown_choice")),
        ("memory_unit", "tb", Problem("memory_unit", "unknown_choice")),
        ("efficiency_percent", "0", Problem("efficiency_percent", "too_small", Decimal(0), exclusive=True)),
        ("efficiency_percent", "120", Problem("efficiency_percent", "too_large", Decimal(100))),
    ],
)
def test_validation(name: str, raw: str, problem: Problem) -> None:
    result = evaluate(DOWNLOAD, {**DOWNLOAD.defaults(), name: raw})
    assert result.problems == (problem,)


def test_report_sentences(kits: dict[str, LocaleKit]) -> None:
    report = make_report(DOWNLOAD, DOWNLOAD.defaults(), kits["en"])
    texts = {r.name: r for r in report.results}
    assert texts["download_minutes"].sentence == (
        "4.58 GiB at 100 Mbit/s, with a link efficiency of 100%, take 6.56 minutes."
    )
    assert texts["download_seconds"].value == "393.4"
    gbit = make_report(DOWNLOAD, {**DOWNLOAD.defaults(), "link_unit": "gbit"}, kits["en"])
    assert "Gbit/s" in gbit.results[0].sentence
