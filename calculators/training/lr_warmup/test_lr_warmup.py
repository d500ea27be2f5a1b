"""Learning-rate warmup: Hugging Face's linear and cosine schedules, the warmup-ratio rule and BERT's schedule."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import LocaleKit, Problem, evaluate, make_report
from calculators.training.lr_warmup import CALCULATOR as WARMUP
from tests.helpers import results_of

_result = results_of(WARMUP)


SHEET = {"learning_rate": "1e-4", "total_steps": "1000", "warmup_steps": "100", "warmup_ratio": "0"}


@pytest.mark.parametrize("schedule", ["linear", "cosine"])
@pytest.mark.parametrize(
    ("step", "expected"),
    [
        # Reference sheet 11a: warmup is the same for both schedules, step / W from step 0.
        ("0", 0.0),
        ("50", 5e-5),
        ("99", 9.9e-5),
        ("100", 1e-4),
        # 11b: halfway through the decay both give half the peak.
        ("550", 5e-5),
        # 11d: both reach 0 at the last step.
        ("1000", 0.0),
    ],
)
def test_warmup_and_the_ends_of_the_decay(schedule: str, step: str, expected: float) -> None:
    assert _result(**SHEET, schedule=schedule, step=step)["lr_at_step"] == pytest.approx(expected, abs=1e-15)


def test_three_quarters_through_the_decay() -> None:
    # Reference sheet 11c: step 775 of 1000 with 100 warmup steps; linear 2.5e-5, cosine 1.46447e-5.
    assert _result(**SHEET, schedule="linear", step="775")["lr_at_step"] == pytest.approx(2.5e-5)
    assert _result(**SHEET, schedule="cosine", step="775")["lr_at_step"] == pytest.approx(1.46447e-5, rel=1e-5)


@pytest.mark.parametrize(
    ("total_steps", "ratio", "warmup"),
    [
        # Reference sheet 11e: TrainingArguments.get_warmup_steps = ceil(T × warmup_ratio).
        ("1000", "0.03", 30),
        ("1234", "0.03", 38),  # 37.02, rounded up
        ("100", "0.07", 8),  # 100 × 0.07 is 7.000000000000001 in floating point, so ceil gives 8
    ],
)
def test_warmup_ratio_is_rounded_up_as_the_trainer_does(total_steps: str, ratio: str, warmup: int) -> None:
    results = _result(total_steps=total_steps, warmup_steps="0", warmup_ratio=ratio, step="0")
    assert results["effective_warmup_steps"] == warmup


def test_warmup_steps_win_over_the_ratio() -> None:
    assert _result(total_steps="1000", warmup_steps="50", warmup_ratio="0.5")["effective_warmup_steps"] == 50


def test_bert_schedule() -> None:
    # BERT (Devlin et al. 2018, App. A.2): peak 1e-4, warmup over the first 10,000 of 1,000,000 steps,
    # then linear decay. The defaults: halfway through warmup, then at the peak and halfway through the decay.
    assert _result()["lr_at_step"] == pytest.approx(5e-5)
    assert _result(step="10000")["lr_at_step"] == pytest.approx(1e-4)
    assert _result(step="505000")["lr_at_step"] == pytest.approx(5e-5)
    assert _result(step="505000")["lr_percent_of_peak"] == pytest.approx(50)


def test_no_warmup_starts_at_the_peak() -> None:
    for schedule in ("linear", "cosine"):
        assert _result(**{**SHEET, "warmup_steps": "0"}, schedule=schedule, step="0")["lr_at_step"] == pytest.approx(
            1e-4
        )


@pytest.mark.parametrize("schedule", ["linear", "cosine"])
def test_steps_past_the_end_read_as_the_last_step(schedule: str) -> None:
    # Hugging Face's cosine lambda would rise again past T; training has stopped there, so the rate stays 0.
    assert _result(**SHEET, schedule=schedule, step="1500")["lr_at_step"] == 0


def test_rates_are_written_in_scientific_notation(kits: dict[str, LocaleKit]) -> None:
    report = make_report(WARMUP, {**WARMUP.defaults(), **SHEET, "step": "775"}, kits["en"])
    assert report.results[0].value == "2.5 × 10⁻⁵"
    report = make_report(WARMUP, {**WARMUP.defaults(), **SHEET, "schedule": "cosine", "step": "775"}, kits["en"])
    assert report.results[0].value == "1.4645 × 10⁻⁵"


def test_goyal_linear_scaling_rule_is_not_applied() -> None:
    # The peak rate is taken as typed: Goyal et al.'s η = 0.1 · kn/256 (3.2 for kn = 8192) is the reader's choice.
    assert _result(learning_rate="3.2", step="10000")["lr_at_step"] == pytest.approx(0.1 * 8192 / 256)


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("learning_rate", "0", Problem("learning_rate", "too_small", Decimal(0), exclusive=True)),
        ("learning_rate", "fast", Problem("learning_rate", "not_a_number")),
        ("schedule", "constant", Problem("schedule", "unknown_choice")),
        ("total_steps", "0", Problem("total_steps", "too_small", Decimal(1))),
        ("warmup_steps", "-1", Problem("warmup_steps", "too_small", Decimal(0))),
        ("warmup_steps", "10.5", Problem("warmup_steps", "not_whole")),
        ("step", "", Problem("step", "required")),
        ("warmup_ratio", "1.5", Problem("warmup_ratio", "too_large", Decimal(1))),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    result = evaluate(WARMUP, {**WARMUP.defaults(), name: raw})
    assert result.problems == (problem,)
    assert result.results == {}
