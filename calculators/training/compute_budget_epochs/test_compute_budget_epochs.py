"""Epochs from a compute budget: C = 6ND read backwards, on GPT-3's and Chinchilla's published budgets."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import LocaleKit, Problem, evaluate, make_report
from calculators.training.compute_budget_epochs import CALCULATOR as EPOCHS


def _run(flops: str, params: str, dataset: str) -> dict[str, float]:
    values = {"compute_flops": flops, "params_billion": params, "dataset_tokens_billion": dataset}
    result = evaluate(EPOCHS, values)
    assert result.ok, result.problems
    return dict(result.results)


def test_gpt3_budget_trains_its_300_billion_tokens() -> None:
    # GPT-3 Table D.1: 174.6B parameters, 300B tokens, 3.14E+23 FLOPs. Read backwards, the budget trains
    # 300B tokens (299.7B, from the rounded 3.14), one "epoch" of a 300B-token sample (reference sheet 9b).
    results = _run("3.14e23", "174.6", "300")
    assert results["trainable_tokens_billion"] == pytest.approx(300, abs=0.5)
    assert results["epochs"] == pytest.approx(1.0, abs=0.005)


def test_gpt3_over_its_whole_mix() -> None:
    # GPT-3 Table 2.2 lists 410 + 19 + 12 + 55 + 3 = 499B tokens in its five sources: 300B is 0.60 of them.
    results = _run("3.14e23", "174.6", str(410 + 19 + 12 + 55 + 3))
    assert results["epochs"] == pytest.approx(0.60, abs=0.005)


@pytest.mark.parametrize(
    ("flops", "params", "tokens"),
    [
        # Chinchilla Table 3 (Approach 1): FLOPs and tokens for a given size. The FLOPs are printed to three
        # significant digits, so C / 6N can differ from the printed tokens by up to half a percent.
        ("1.92e19", "0.4", 8.0),
        ("1.21e20", "1", 20.2),
        ("1.23e22", "10", 205.1),
    ],
)
def test_chinchilla_table_3_rows(flops: str, params: str, tokens: float) -> None:
    assert _run(flops, params, "1")["trainable_tokens_billion"] == pytest.approx(tokens, rel=0.005)


@pytest.mark.parametrize(
    ("flops", "params", "dataset", "epochs"),
    [
        ("1e23", "7", "1000", 2.381),  # reference sheet 9a
        ("5.76e23", "70", "1400", 0.98),  # 9c: Gopher's budget, Chinchilla's size and tokens
    ],
)
def test_sheet_epochs(flops: str, params: str, dataset: str, epochs: float) -> None:
    assert _run(flops, params, dataset)["epochs"] == pytest.approx(epochs, abs=0.0005)


def test_one_epoch_costs_six_n_d() -> None:
    # Chinchilla: 70B parameters on 1.4T tokens is 6 × 70e9 × 1.4e12 = 5.88e23 FLOPs.
    assert _run("5.76e23", "70", "1400")["epoch_flops"] == pytest.approx(5.88e23)


def test_flops_are_written_in_scientific_notation(kits: dict[str, LocaleKit]) -> None:
    report = make_report(EPOCHS, EPOCHS.defaults(), kits["en"])
    by_name = {result.name: result for result in report.results}
    assert by_name["epoch_flops"].value == "5.228 × 10²³"
    assert by_name["epochs"].value == "0.6"


def test_budget_typed_in_full_or_with_an_exponent() -> None:
    assert _run("314000000000000000000000", "174.6", "300") == _run("3.14E+23", "174.6", "300")


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("compute_flops", "0", Problem("compute_flops", "too_small", Decimal(0), exclusive=True)),
        ("compute_flops", "1e36", Problem("compute_flops", "too_large", Decimal("1e35"))),
        ("compute_flops", "3.14 × 10^", Problem("compute_flops", "not_a_number")),
        ("params_billion", "-7", Problem("params_billion", "too_small", Decimal(0), exclusive=True)),
        ("dataset_tokens_billion", "", Problem("dataset_tokens_billion", "required")),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    result = evaluate(EPOCHS, {**EPOCHS.defaults(), name: raw})
    assert result.problems == (problem,)
    assert result.results == {}


def test_absurd_budgets_are_out_of_range() -> None:
    result = evaluate(EPOCHS, {"compute_flops": "1e35", "params_billion": "0.000001", "dataset_tokens_billion": "1"})
    assert result.problems[0] == Problem("", "out_of_range")
