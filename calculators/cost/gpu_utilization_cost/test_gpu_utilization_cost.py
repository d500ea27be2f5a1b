"""GPU utilization cost: idle hours raise the price of the useful ones."""

from __future__ import annotations

import pytest

from calculators import evaluate
from calculators.cost.gpu_utilization_cost import CALCULATOR as UTILIZATION
from tests.helpers import results_of

_result = results_of(UTILIZATION)


def test_a_fully_used_gpu_costs_its_list_price() -> None:
    # AWS Capacity Blocks: 4.916 USD per H100 accelerator-hour; fully used, a useful hour costs just that.
    result = _result(gpu_hour_price="4.916", utilization="100", tokens_per_second="1000")
    assert result["useful_hour_cost"] == pytest.approx(4.916)
    assert result["idle_cost"] == pytest.approx(0)
    assert result["million_tokens_cost"] == pytest.approx(4.916 / 3.6)


def test_idle_time_divides_the_work() -> None:
    result = _result(gpu_hour_price="2", utilization="40")
    assert result["useful_hour_cost"] == pytest.approx(5)
    assert result["idle_cost"] == pytest.approx(1.2)


@pytest.mark.parametrize(
    ("name", "raw", "code"),
    [
        ("utilization", "0", "too_small"),
        ("utilization", "101", "too_large"),
        ("tokens_per_second", "x", "not_a_number"),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, code: str) -> None:
    problems = evaluate(UTILIZATION, {**UTILIZATION.defaults(), name: raw}).problems
    assert [(p.name, p.code) for p in problems] == [(name, code)]
