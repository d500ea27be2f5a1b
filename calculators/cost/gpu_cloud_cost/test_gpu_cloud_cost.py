"""GPU cloud cost: AWS's instance-hour and accelerator-hour prices, and the month of 730 or 720 hours."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import Problem, evaluate
from calculators.cost.gpu_cloud_cost import CALCULATOR as GPU_CLOUD_COST
from tests.helpers import results_of

_result = results_of(GPU_CLOUD_COST)


@pytest.mark.parametrize(
    ("gpus", "per_gpu", "per_instance"),
    [
        # AWS, EC2 Capacity Blocks for ML pricing: p5.48xlarge (8 x H100) "$39.33 USD" effective instance hourly
        # rate, "$4.916 USD" effective accelerator hourly rate; p4d.24xlarge (8 x A100) $14.75 and $1.844.
        ("8", "4.916", 39.33),
        ("8", "1.844", 14.75),
    ],
)
def test_an_instance_hour_is_its_gpus_hours(gpus: str, per_gpu: str, per_instance: float) -> None:
    assert _result(gpus=gpus, gpu_hour_price=per_gpu)["hourly_cost"] == pytest.approx(per_instance, abs=0.005)


def test_a_month_is_730_or_720_hours() -> None:
    # A year of 8,760 hours over twelve months, or 30 days.
    assert _result(gpus="1", gpu_hour_price="1")["monthly_gpu_hours"] == pytest.approx(730)
    assert _result(gpus="1", gpu_hour_price="1", month_hours="720")["monthly_cost"] == pytest.approx(720)
    assert _result(gpus="2", gpu_hour_price="1", hours_per_day="12")["monthly_gpu_hours"] == pytest.approx(730)


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("gpus", "0", Problem("gpus", "too_small", Decimal(1))),
        ("gpu_hour_price", "cheap", Problem("gpu_hour_price", "not_a_number")),
        ("hours_per_day", "25", Problem("hours_per_day", "too_large", Decimal(24))),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    assert evaluate(GPU_CLOUD_COST, {**GPU_CLOUD_COST.defaults(), name: raw}).problems == (problem,)
