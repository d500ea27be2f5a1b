"""MFU: PaLM's reported utilizations (Table 3, App. B)."""

import pytest

from calculators import evaluate, find
from tests.helpers import results_of

CALCULATOR = find("mfu")
_result = results_of(CALCULATOR)


def test_palm_540b() -> None:
    # PaLM: 238.3K tokens/s on 6,144 TPU v4 (275 TFLOP/s) is 46.2% MFU, 45.7% without the attention term.
    assert round(_result()["mfu"], 1) == 46.2
    assert round(_result(attention="0")["mfu"], 1) == 45.7


def test_megatron_turing_nlg() -> None:
    # PaLM Table 3: MT-NLG 530B on 2,240 A100s, 65.43K tokens/s (1,920 × 2,048 tokens in 60.1 s): 29.7% without
    # attention (the paper truncates 29.77), 30.2% with it (105 layers, 128 heads of 160).
    mtnlg = {
        "active_params_billion": "530",
        "tokens_per_second": "65430",
        "chips": "2240",
        "peak_tflops": "312",
        "layers": "105",
        "attention_heads": "128",
        "head_dim": "160",
        "seq_len": "2048",
    }
    assert _result(**mtnlg, attention="0")["mfu"] == pytest.approx(29.7, abs=0.1)
    assert _result(**mtnlg, attention="1")["mfu"] == pytest.approx(30.2, abs=0.1)


def test_bad_input_is_a_problem() -> None:
    result = evaluate(CALCULATOR, {**CALCULATOR.defaults(), "chips": "0"})
    assert [p.name for p in result.problems] == ["chips"]
