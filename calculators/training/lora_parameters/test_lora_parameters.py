"""LoRA parameters: PEFT's printed counts, the LoRA paper's tables, training memory and validation."""

from __future__ import annotations

import pytest

from calculators import LocaleKit, evaluate, make_report
from calculators.training.lora_parameters import CALCULATOR as LORA
from site_builder.locales import LOCALE_BY_TAG, Locale

LLAMA_2_7B = {"layers": "32", "hidden_size": "4096", "attention_heads": "32", "kv_heads": "32", "head_dim": "128",
              "ffn_size": "11008", "params_billion": "6.738415616"}  # fmt: skip
LLAMA_3_8B = {"layers": "32", "hidden_size": "4096", "attention_heads": "32", "kv_heads": "8", "head_dim": "128",
              "ffn_size": "14336", "params_billion": "8.030261248"}  # fmt: skip
GPT_3 = {"layers": "96", "hidden_size": "12288", "attention_heads": "96", "kv_heads": "96", "head_dim": "128",
         "ffn_size": "49152", "params_billion": "175"}  # fmt: skip


def _run(**values: str) -> dict[str, float]:
    result = evaluate(LORA, {**LORA.defaults(), **values})
    assert result.ok, result.problems
    return dict(result.results)


def test_peft_llama_2_7b_query_value_rank_8() -> None:
    # PEFT print_trainable_parameters: "trainable params: 4,194,304 || all params: 6,742,609,920 || trainable%: 0.0622"
    result = _run(**LLAMA_2_7B, target_modules="qv", rank="8")
    assert result["lora_params"] == 4_194_304
    assert result["trainable_percent"] == pytest.approx(0.0622, abs=0.00005)
    assert result["lora_params"] / (result["trainable_percent"] / 100) == pytest.approx(6_742_609_920)


def test_peft_llama_3_8b_all_linear_rank_16() -> None:
    # PEFT: 41,943,040 trainable of 8,072,204,288, 0.5196%; k and v output 8 × 128 = 1,024 under GQA.
    result = _run(**LLAMA_3_8B, target_modules="all", rank="16")
    assert result["lora_params"] == 41_943_040
    assert result["trainable_percent"] == pytest.approx(0.5196, abs=0.00005)
    assert result["lora_params"] / (result["trainable_percent"] / 100) == pytest.approx(8_072_204_288)


def test_defaults_are_llama_3_8b_all_linear_rank_16() -> None:
    assert _run()["lora_params"] == 41_943_040


def test_peft_quicktour_mt0_large() -> None:
    # PEFT quicktour, bigscience/mt0-large with LoraConfig(r=8) on q and v: "trainable params: 2359296 ||
    # all params: 1231940608 || trainable%: 0.19151053100118282". Its 24 encoder self-attention, 24 decoder
    # self-attention and 24 cross-attention blocks are counted here as 72 layers of 1,024-wide q and v.
    mt0 = {"layers": "72", "hidden_size": "1024", "attention_heads": "16", "kv_heads": "16", "head_dim": "64",
           "params_billion": "1.229581312"}  # fmt: skip
    result = _run(**mt0, target_modules="qv", rank="8")
    assert result["lora_params"] == 2_359_296
    assert result["trainable_percent"] == pytest.approx(0.19151053100118282, rel=1e-9)


@pytest.mark.parametrize(
    ("targets", "rank", "published"),
    [
        # Hu et al., Tables 4, 5 and 15, GPT-3 175B: trainable parameters for each configuration.
        ("qv", "1", 4_718_592),  # 4.7M
        ("qv", "2", 9_437_184),  # 9.4M
        ("qkvo", "1", 9_437_184),  # 9.4M
        ("qv", "4", 18_874_368),  # 18.8M (also W_q alone at r = 8)
        ("qkvo", "2", 18_874_368),  # 18.8M
        ("qv", "8", 37_748_736),  # 37.7M
        ("qkvo", "4", 37_748_736),  # 37.7M
    ],
)
def test_lora_paper_gpt_3(targets: str, rank: str, published: int) -> None:
    assert _run(**GPT_3, target_modules=targets, rank=rank)["lora_params"] == published
    # The paper's square-matrix form: |Θ| = 2 × L̂ × d_model × r, with L̂ adapted matrices.
    matrices = {"qv": 2, "qkvo": 4}[targets] * 96
    assert published == 2 * matrices * 12288 * int(rank)


@pytest.mark.parametrize(("targets", "printed"), [("qv", 301.9e6), ("qkvo", 603.8e6)])
def test_lora_paper_gpt_3_rank_64(targets: str, printed: float) -> None:
    # Table 15 prints 301.9M and 603.8M for r = 64; the paper truncates (and the second figure is off by 0.2M).
    assert _run(**GPT_3, target_modules=targets, rank="64")["lora_params"] == pytest.approx(printed, abs=0.2e6)


@pytest.mark.parametrize(
    ("layers", "hidden", "heads", "exact", "printed"),
    [
        # Hu et al., Table 2: RoBERTa base and large with r = 8 on W_q and W_v, "0.3M" and "0.8M".
        ("12", "768", "12", 294_912, 0.3e6),
        ("24", "1024", "16", 786_432, 0.8e6),
    ],
)
def test_lora_paper_roberta(layers: str, hidden: str, heads: str, exact: int, printed: float) -> None:
    roberta = {"layers": layers, "hidden_size": hidden, "attention_heads": heads, "kv_heads": heads, "head_dim": "64"}
    count = _run(**roberta, target_modules="qv", rank="8")["lora_params"]
    assert count == exact
    assert round(count, -5) == printed


# The LoRA paper's GPT-2 medium and large (0.35M, 0.77M) and DeBERTa XXL (4.7M) rows are not tested: the
# reference sheet warns that the plain formula gives 0.39M, 0.74M and 2.36M for them.


@pytest.mark.parametrize(("rank", "expected"), [("8", 19_988_480), ("16", 39_976_960)])
def test_llama_2_7b_all_linear(rank: str, expected: int) -> None:
    # [CALC] q, k, v, o at 4,096 × 4,096 and gate, up, down at 4,096 × 11,008, over 32 layers.
    assert _run(**LLAMA_2_7B, target_modules="all", rank=rank)["lora_params"] == expected


def test_adapter_state_is_16_bytes_per_parameter() -> None:
    # Reference sheet 12l: 41,943,040 adapter parameters × 16 bytes = 671.1 MB.
    result = _run(memory_unit="gb")
    assert result["adapter_memory"] == pytest.approx(0.6711, abs=0.00005)


@pytest.mark.parametrize(
    ("precision", "base_gb"),
    [
        # [CALC] Llama-3-8B's 8,030,261,248 frozen parameters at 2, 1 and 0.5 bytes.
        ("2", 16.060522496),
        ("1", 8.030261248),
        ("0.5", 4.015130624),
    ],
)
def test_training_memory_by_base_precision(precision: str, base_gb: float) -> None:
    result = _run(base_bytes_per_param=precision)
    assert result["base_weights_memory"] == pytest.approx(base_gb)
    assert result["training_memory"] == pytest.approx(base_gb + 0.67108864)


def test_chart_parts_add_up_to_the_total() -> None:
    for unit in ("gb", "gib"):
        result = _run(memory_unit=unit)
        parts = [result[part.name] for part in LORA.chart.parts] if LORA.chart else []
        assert sum(parts) == pytest.approx(result["training_memory"])


def test_gib_switch() -> None:
    assert _run(memory_unit="gib")["adapter_memory"] == pytest.approx(41_943_040 * 16 / 2**30)


def test_rank_scales_linearly_and_ffn_only_counts_for_all_linear() -> None:
    assert _run(rank="32")["lora_params"] == 2 * _run(rank="16")["lora_params"]
    assert _run(target_modules="qkvo", ffn_size="1")["lora_params"] == _run(target_modules="qkvo")["lora_params"]


@pytest.mark.parametrize(
    ("name", "value", "code"),
    [
        ("rank", "0", "too_small"),
        ("rank", "1.5", "not_whole"),
        ("layers", "-3", "too_small"),
        ("hidden_size", "abc", "not_a_number"),
        ("params_billion", "0", "too_small"),
        ("target_modules", "qkv", "unknown_choice"),
        ("base_bytes_per_param", "3", "unknown_choice"),
        ("adapter_bytes_per_param", "100", "too_large"),
        ("layers", "", "required"),
    ],
)
def test_bad_input_is_a_problem(name: str, value: str, code: str) -> None:
    result = evaluate(LORA, {**LORA.defaults(), name: value})
    assert [(p.name, p.code) for p in result.problems] == [(name, code)]


def test_english_report_fills_every_placeholder(kits: dict[Locale, LocaleKit]) -> None:
    report = make_report(LORA, LORA.defaults(), kits[LOCALE_BY_TAG["en"]])
    assert report.ok
    for result in report.results:
        assert "{" not in result.sentence and result.value
    assert "41,943,040" in report.results[0].sentence
