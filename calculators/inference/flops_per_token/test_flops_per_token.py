"""FLOPs per token: PaLM's Table 22 and Kaplan et al.'s attention ratio."""

import pytest

from calculators import evaluate, find
from tests.helpers import results_of

CALCULATOR = find("flops-per-token")
_result = results_of(CALCULATOR)


@pytest.mark.parametrize(
    ("params", "layers", "heads", "tflops"),
    [("540.35", "118", "48", 3.28), ("62.50", "64", "32", 0.388), ("8.63", "32", "16", 0.0550)],
)
def test_palm_table_22(params: str, layers: str, heads: str, tflops: float) -> None:
    # PaLM Table 22, "TFLOPs per token (non-attn + attn)", shapes of Table 1 (head size 256, 2,048 tokens).
    result = _result(
        active_params_billion=params,
        layers=layers,
        attention_heads=heads,
        head_dim="256",
        context_tokens="2048",
        convention="1",
    )
    assert float(f"{result['training_flops'] / 1e12:.3g}") == tflops


def test_kaplan_attention_share() -> None:
    # Kaplan §2.1: the context term is n_ctx / (12 d_model) of 2N; GPT-3, d_model 12,288, n_ctx 2,048.
    result = _result(
        active_params_billion="173.946175488",
        layers="96",
        attention_heads="96",
        head_dim="128",
        context_tokens="2048",
        convention="0",
    )
    assert result["forward_flops"] == pytest.approx(3.527e11, rel=1e-4)
    assert result["attention_share"] / 100 * result["forward_flops"] == pytest.approx(
        2 * 173.946175488e9 * 2048 / (12 * 12288)
    )


def test_training_is_three_forward_passes() -> None:
    result = _result()
    assert result["training_flops"] == pytest.approx(3 * result["forward_flops"])


def test_bad_input_is_a_problem() -> None:
    assert not evaluate(CALCULATOR, {**CALCULATOR.defaults(), "active_params_billion": "0"}).ok
