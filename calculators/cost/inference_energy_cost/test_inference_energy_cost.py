"""Inference energy cost: the PaLM paper's 271.43 tCO2e, reproduced from its chip-hours, power, PUE and grid."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import Problem, evaluate
from calculators.cost.inference_energy_cost import CALCULATOR as ENERGY
from tests.helpers import results_of

_result = results_of(ENERGY)


def test_palm_s_emissions() -> None:
    # PaLM (Chowdhery et al. 2022), appendix B: 6144 TPU v4 chips for 1200 hours and 3072 for 336 hours,
    # 8,404,992 chip-hours at 378.5 W average, PUE 1.08, 0.079 tCO2e per MWh: "271.43 tCO2e".
    palm = _result(devices="8404992", hours="1", power_w="378.5", pue="1.08", carbon_intensity="0.079")
    assert palm["emissions_kg"] / 1000 == pytest.approx(271.43, abs=0.005)
    # The two phases separately give the same total.
    first = _result(devices="6144", hours="1200", power_w="378.5", pue="1.08", carbon_intensity="0.079")
    second = _result(devices="3072", hours="336", power_w="378.5", pue="1.08", carbon_intensity="0.079")
    assert (first["emissions_kg"] + second["emissions_kg"]) / 1000 == pytest.approx(271.43, abs=0.005)


def test_cost_per_million_tokens() -> None:
    result = _result(devices="1", power_w="1000", hours="1", pue="1", energy_price="0.2", tokens_million="2")
    assert result["energy_cost"] == pytest.approx(0.2)
    assert result["cost_per_million_tokens"] == pytest.approx(0.1)
    assert _result(tokens_million="0")["cost_per_million_tokens"] == 0


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("pue", "0.9", Problem("pue", "too_small", Decimal(1))),
        ("power_w", "hot", Problem("power_w", "not_a_number")),
        ("devices", "0", Problem("devices", "too_small", Decimal(1))),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    assert evaluate(ENERGY, {**ENERGY.defaults(), name: raw}).problems == (problem,)
