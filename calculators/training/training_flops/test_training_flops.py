"""Training FLOPs: GPT-3's Table D.1, Chinchilla's Tables 3 and A3, Megatron-LM's training times, validation."""

from __future__ import annotations

import math
from decimal import Decimal

import pytest

from calculators import LocaleKit, Problem, evaluate, make_report
from calculators.training.training_flops import CALCULATOR
from tests.helpers import results_of

_result = results_of(CALCULATOR)


DAY = 86_400


def _half_unit(printed: float, digits: int = 2) -> float:
    """Half a unit in the last place of a figure printed with `digits` decimals in scientific notation."""
    return 0.5 * 10.0 ** (math.floor(math.log10(printed)) - digits)


def test_gpt3_table_d1() -> None:
    # Brown et al. 2020, Table D.1: GPT-3 175B, 174,600M parameters, 300B tokens, "3.14E+23" FLOPs, "3.64E+03" PF-days.
    results = _result()
    assert results["training_flops"] == pytest.approx(3.14e23, abs=_half_unit(3.14e23))
    assert results["pf_days"] == pytest.approx(3.64e3, abs=_half_unit(3.64e3))


@pytest.mark.parametrize(
    ("params_billion", "tokens_billion", "tokens_half_unit", "printed_flops"),
    [
        # Hoffmann et al. 2022, Table 3 (Approach 1): parameters, tokens (rounded as printed), FLOPs.
        ("0.4", "8.0", 0.05, 1.92e19),
        ("1", "20.2", 0.05, 1.21e20),
        ("10", "205.1", 0.05, 1.23e22),
        ("175", "3700", 50, 3.85e24),
        ("280", "5900", 50, 9.90e24),
        ("520", "11000", 50, 3.43e25),
        ("1000", "21200", 50, 1.27e26),
        ("10000", "216200", 50, 1.30e28),
        # The 67B row (1.5T tokens, 5.76e23 FLOPs) is left out on purpose: 6 × 67e9 × 1.5e12 = 6.03e23, so the
        # printed tokens are not 6ND-consistent with the printed FLOPs (the sheet's "Pitfalls" line).
        # Hoffmann et al. §3.4: a 175B model "should be trained with a compute budget of 4.41 × 10^24 FLOPs and on
        # over 4.2 trillion tokens".
        ("175", "4200", 50, 4.41e24),
        # Table A3, Approach 2: 1B on 20.0B tokens, 1.20e20 FLOPs; 10B on 219.5B, 1.32e22.
        ("1", "20.0", 0.05, 1.20e20),
        ("10", "219.5", 0.05, 1.32e22),
        # Table A3, Approach 3: 1B on 27.1B tokens, 1.62e20 FLOPs; 10B on 410.1B, 2.46e22.
        ("1", "27.1", 0.05, 1.62e20),
        ("10", "410.1", 0.05, 2.46e22),
    ],
)
def test_chinchilla_tables(
    params_billion: str, tokens_billion: str, tokens_half_unit: float, printed_flops: float
) -> None:
    # Both the tokens and the FLOPs are rounded in print, so 6ND may differ from the FLOPs by the rounding of either.
    tolerance = _half_unit(printed_flops) + 6 * float(params_billion) * 1e9 * tokens_half_unit * 1e9
    flops = _result(params_billion=params_billion, tokens_billion=tokens_billion)["training_flops"]
    assert flops == pytest.approx(printed_flops, abs=tolerance)


@pytest.mark.parametrize(
    ("params_billion", "tokens_billion", "gpus", "tflops_per_gpu", "published_days"),
    [
        # Narayanan et al. 2021, §5.1: GPT-3 175B on 300B tokens, 1024 A100s at 140 TFLOP/s each: "about 34 days".
        ("175", "300", 1024, 140, 34),
        # Same section: 1T parameters on 450B tokens, 3072 A100s at 163 TFLOP/s: "about 84 days".
        ("1000", "450", 3072, 163, 84),
    ],
)
def test_megatron_training_time_with_recomputation(
    params_billion: str, tokens_billion: str, gpus: int, tflops_per_gpu: float, published_days: float
) -> None:
    # Megatron-LM recomputes activations, so its time estimate uses 8 FLOPs per parameter per token (its Eq. 4).
    flops = _result(params_billion=params_billion, tokens_billion=tokens_billion, activation_recompute="1")
    days = flops["training_flops"] / (gpus * tflops_per_gpu * 1e12) / DAY
    assert days == pytest.approx(published_days, abs=1)


def test_recomputation_adds_one_forward_pass() -> None:
    plain, recomputed = _result(), _result(activation_recompute="1")
    assert plain["flops_per_token"] == 6 * 174.6e9
    assert recomputed["flops_per_token"] == 8 * 174.6e9
    assert recomputed["training_flops"] / plain["training_flops"] == pytest.approx(8 / 6)


def test_attention_term_matches_megatron_model_flops() -> None:
    # Korthikanti et al. 2022, Eq. 7 (model FLOPs, no recomputation) for GPT-3 (l=96, h=12288, s=2048, V=51200),
    # B=64: 72·B·s·l·h²·(1 + s/(6h) + V/(12·l·h)) = 1.4109e17 per iteration, 1.0764e12 per token [CALC].
    per_token = _result(attention_flops="1")["flops_per_token"]
    assert per_token == pytest.approx(1.4109e17 / (64 * 2048), rel=1e-3)
    # The PaLM term itself: 12 · L · H · Q · T = 12 × 96 × 96 × 128 × 2048.
    assert per_token - 6 * 174.6e9 == 12 * 96 * 96 * 128 * 2048


def test_attention_and_recomputation_match_narayanan_eq_3() -> None:
    # Narayanan et al. Eq. 3 with recomputation, GPT-3 on 300B tokens: 96·T·l·h²·(1 + s/(6h) + V/(16·l·h))
    # = 4.302e23 FLOPs [CALC]; the 6N count differs only in how it counts embeddings and logits.
    flops = _result(attention_flops="1", activation_recompute="1")["training_flops"]
    assert flops == pytest.approx(4.302e23, rel=2e-3)


def test_architecture_is_ignored_without_the_attention_term() -> None:
    assert _result(layers="32", attention_heads="32", seq_len="8192") == _result()


def test_longer_sequences_cost_more_attention() -> None:
    short = _result(attention_flops="1", seq_len="2048")["flops_per_token"]
    long = _result(attention_flops="1", seq_len="8192")["flops_per_token"]
    assert long - short == 12 * 96 * 96 * 128 * (8192 - 2048)


def test_typed_scientific_tokens() -> None:
    assert _result(tokens_billion="3e2") == _result()


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("params_billion", "0", Problem("params_billion", "too_small", Decimal(0), exclusive=True)),
        ("params_billion", "-175", Problem("params_billion", "too_small", Decimal(0), exclusive=True)),
        ("params_billion", "abc", Problem("params_billion", "not_a_number")),
        ("params_billion", "", Problem("params_billion", "required")),
        ("params_billion", "1e9", Problem("params_billion", "too_large", Decimal(100_000))),
        ("tokens_billion", "0", Problem("tokens_billion", "too_small", Decimal(0), exclusive=True)),
        ("tokens_billion", "NaN", Problem("tokens_billion", "not_a_number")),
        ("activation_recompute", "2", Problem("activation_recompute", "unknown_choice")),
        ("attention_flops", "yes", Problem("attention_flops", "unknown_choice")),
        ("layers", "2.5", Problem("layers", "not_whole")),
        ("head_dim", "0", Problem("head_dim", "too_small", Decimal(1))),
        ("seq_len", "0", Problem("seq_len", "too_small", Decimal(1))),
    ],
)
def test_validation(name: str, raw: str, problem: Problem) -> None:
    result = evaluate(CALCULATOR, {**CALCULATOR.defaults(), name: raw})
    assert result.problems == (problem,)
    assert result.results == {}


def test_english_report(kits: dict[str, LocaleKit]) -> None:
    report = make_report(CALCULATOR, CALCULATOR.defaults(), kits["en"])
    flops, pf_days, per_token = report.results
    assert (flops.value, flops.unit) == ("3.14 × 10²³", "FLOPs")
    assert pf_days.value == "3.64 × 10³"
    assert per_token.sentence == (
        "Each training token costs 1.05 × 10¹² FLOPs with 174.6 billion parameters. Activation recomputation: "
        "None (6 FLOPs per parameter per token). Attention term: Left out."
    )
