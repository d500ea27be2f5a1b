"""Audio transcription cost: prices per minute, billed per second or per started minute."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import LocaleKit, Problem, evaluate, make_report
from calculators.cost.transcription_cost import CALCULATOR as TRANSCRIPTION_COST
from tests.helpers import results_of

_result = results_of(TRANSCRIPTION_COST)


def test_a_minute_costs_the_price_per_minute() -> None:
    # OpenAI's whisper-1 model page: "Cost / minute $0.006".
    assert _result(files="1", seconds_per_file="60", price_per_minute="0.006")["total_cost"] == pytest.approx(0.006)


def test_an_hour_costs_the_price_per_hour() -> None:
    # xAI prints $0.10 per hour of audio; the preset writes it per minute (0.001667).
    result = _result(files="1", seconds_per_file="3600", price_per_minute="0.001667")
    assert result["total_cost"] == pytest.approx(0.10, abs=1e-4)


def test_per_second_billing_is_pro_rated() -> None:
    # AssemblyAI: hourly rates "pro-rated to the exact second"; 3,725 s are 62.083 minutes.
    result = _result(files="1", seconds_per_file="3725", price_per_minute="0.006", billing="second")
    assert result["billed_minutes"] == pytest.approx(3725 / 60)
    assert result["total_cost"] == pytest.approx(0.3725)
    assert result["rounding_share"] == pytest.approx(0)


def test_per_started_minute_rounds_each_file_up() -> None:
    result = _result(files="1000", seconds_per_file="61", price_per_minute="0.006", billing="minute")
    assert result["billed_minutes"] == 2000
    assert result["total_cost"] == pytest.approx(12)
    per_second = _result(files="1000", seconds_per_file="61", price_per_minute="0.006", billing="second")
    assert per_second["total_cost"] == pytest.approx(6.1)


def test_a_fraction_of_a_second_bills_the_whole_second() -> None:
    assert _result(files="1", seconds_per_file="1.2", billing="second")["billed_minutes"] == pytest.approx(2 / 60)


def test_the_sentence_names_the_currency(kits: dict[str, LocaleKit]) -> None:
    values = {"files": "1", "seconds_per_file": "3725", "billing": "minute"}
    report = make_report(TRANSCRIPTION_COST, {**TRANSCRIPTION_COST.defaults(), **values}, kits["en"])
    assert "63 minutes of audio, which at USD\u00a00.006 per minute cost USD\u00a00.378." in report.results[0].sentence


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("files", "-1", Problem("files", "too_small", Decimal(0))),
        ("seconds_per_file", "long", Problem("seconds_per_file", "not_a_number")),
        ("billing", "hour", Problem("billing", "unknown_choice")),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    result = evaluate(TRANSCRIPTION_COST, {**TRANSCRIPTION_COST.defaults(), name: raw})
    assert result.problems == (problem,)
