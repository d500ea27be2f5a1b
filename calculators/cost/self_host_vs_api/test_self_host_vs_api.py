"""Self-hosting vs API break-even: printed GPU-hour and token prices, and the formula sheet's 2-GPU case."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import Problem, evaluate
from calculators.cost.self_host_vs_api import CALCULATOR as SELF_HOST
from tests.helpers import results_of

_result = results_of(SELF_HOST)


def test_two_gpus_at_two_an_hour_break_even_at_2_92_billion_tokens() -> None:
    # Formula sheet, C §19: 2 GPUs × 2.00/h × 730 h = 2,920 a month; at a blended 1.00 per million tokens the
    # API costs as much at 2.92 billion tokens a month, about 1,111 tokens a second around the clock.
    result = _result(gpus="2", gpu_hour_price="2", input_price="1", output_price="1", ops_overhead="0")
    assert result["self_host_cost"] == pytest.approx(2920)
    assert result["blended_price"] == pytest.approx(1)
    assert result["break_even_tokens"] == pytest.approx(2_920_000_000)
    assert result["break_even_rate"] == pytest.approx(1111.1, abs=0.05)


def test_an_aws_p5_month_against_claude_sonnet_4_6() -> None:
    # AWS EC2 on-demand, p5.48xlarge (8 × H100), US East (N. Virginia), Linux: 55.04 USD an instance-hour,
    # 55.04 / 8 = 6.88 a GPU-hour; 730 hours of the instance cost 55.04 × 730 = 40,179.20.
    # Anthropic's pricing page: Claude Sonnet 4.6 at 3 USD per million input tokens and 15 per million output.
    # Three quarters input: 0.75 × 3 + 0.25 × 15 = 6.00 per million, so break-even is 40,179.20 / 6.00 × 10⁶.
    result = _result(gpus="8", gpu_hour_price="6.88", input_price="3", output_price="15", input_share="75")
    assert result["self_host_cost"] == pytest.approx(40_179.20)
    assert result["blended_price"] == pytest.approx(6.00)
    assert result["break_even_tokens"] == pytest.approx(6_696_533_333, rel=1e-9)


def test_an_api_bill_for_all_input_is_the_printed_input_price() -> None:
    # All input at Sonnet 4.6's 3 USD per million: a billion tokens bill 3,000.
    result = _result(input_price="3", output_price="15", input_share="100", monthly_tokens="1000000000")
    assert result["api_cost"] == pytest.approx(3000)


def test_gpus_that_cannot_keep_up_are_sized_to_the_volume() -> None:
    # 10 billion tokens in a 730-hour month are 10¹⁰ / 2,628,000 s ≈ 3,805 tokens a second. All of them output
    # (input share 0) at 1,000 tokens/s and half the time busy, each GPU averages 500, so it takes 8 GPUs, and
    # 2 GPUs are loaded at ≈ 380.5 percent.
    result = _result(
        gpus="2",
        gpu_hour_price="2",
        tokens_per_second="1000",
        utilization="50",
        monthly_tokens="10000000000",
        input_price="1",
        output_price="1",
        input_share="0",
        ops_overhead="0",
    )
    assert result["gpus_needed"] == 8
    assert result["load_share"] == pytest.approx(380.5, abs=0.05)
    # 8 GPUs × 2.00 × 730 = 11,680 against the API's 10,000: the API is cheaper by 1,680.
    assert result["sized_cost"] == pytest.approx(11_680)
    assert result["api_saving"] == pytest.approx(1680)
    assert result["self_host_saving"] == 0


def test_input_tokens_take_less_gpu_time_than_output_tokens() -> None:
    # Prefill reads a prompt's tokens in one parallel pass; decode writes one token per step (Databricks'
    # benchmarking guide), so a GPU gets through input far faster. At 10,000 input and 1,000 output tokens a
    # second, three quarters input: 0.75 / 10,000 + 0.25 / 1,000 = 0.000325 GPU-seconds a token, 3,076.9 tokens a
    # second per GPU, 1,538.5 at half the time busy; 10¹⁰ tokens a month (3,805 a second) need 3 GPUs, not the
    # 8 that one rate for every token would give.
    result = _result(
        gpus="2",
        tokens_per_second="1000",
        input_tokens_per_second="10000",
        input_share="75",
        utilization="50",
        monthly_tokens="10000000000",
    )
    assert result["capacity_rate"] == pytest.approx(2 * 0.5 / 0.000325)
    assert result["gpus_needed"] == 3
    # An all-output mix runs at the output rate alone, whatever the input rate.
    output_only = _result(tokens_per_second="1000", input_tokens_per_second="50000", input_share="0")
    assert output_only["capacity_rate"] == pytest.approx(2 * 500)


def test_the_comparison_uses_the_gpus_the_volume_needs() -> None:
    # Two GPUs entered, but 10⁹ tokens a month (≈ 380 a second) need one: the comparison prices one GPU-month,
    # 2.00 × 730 = 1,460, against the API's 10⁹ × 1.00 / 10⁶ = 1,000. It never says "needs 1" and "enough (2)".
    result = _result(
        gpus="2", gpu_hour_price="2", input_price="1", output_price="1", monthly_tokens="1000000000", ops_overhead="0"
    )
    assert result["gpus_needed"] == 1
    assert result["sized_cost"] == pytest.approx(1460)
    assert result["api_saving"] == pytest.approx(460)
    assert result["self_host_saving"] == 0
    # The same tokens through a dearer API: one GPU-month is now the cheaper way.
    dearer = _result(gpu_hour_price="2", input_price="3", output_price="3", monthly_tokens="1000000000")
    assert dearer["self_host_saving"] == pytest.approx(3000 - 1460)
    assert dearer["api_saving"] == 0


def test_a_large_volume_on_enough_gpus_favours_self_hosting() -> None:
    # 20 billion tokens at a blended 6.00 cost 120,000 through the API. They are ≈ 7,610 tokens a second; all
    # output (input share 0 for the throughput) GPUs averaging 500 each serve them on 16: 16 × 6.88 × 730 = 80,358.40.
    result = _result(
        gpus="8",
        gpu_hour_price="6.88",
        input_price="6",
        output_price="6",
        input_share="0",
        tokens_per_second="1000",
        utilization="50",
        monthly_tokens="20000000000",
        ops_overhead="0",
    )
    assert result["gpus_needed"] == 16
    assert result["api_cost"] == pytest.approx(120_000)
    assert result["sized_cost"] == pytest.approx(80_358.40)
    assert result["self_host_saving"] == pytest.approx(39_641.60)
    assert result["api_saving"] == 0


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("gpus", "0", Problem("gpus", "too_small", Decimal(1))),
        ("tokens_per_second", "fast", Problem("tokens_per_second", "not_a_number")),
        ("utilization", "101", Problem("utilization", "too_large", Decimal(100))),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    assert evaluate(SELF_HOST, {**SELF_HOST.defaults(), name: raw}).problems == (problem,)


def test_a_free_api_is_a_problem() -> None:
    problems = evaluate(SELF_HOST, {**SELF_HOST.defaults(), "input_price": "0", "output_price": "0"}).problems
    assert [p.name for p in problems] == ["input_price"]
