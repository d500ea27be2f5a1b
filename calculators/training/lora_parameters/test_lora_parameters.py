"""LoRA parameters: PEFT's printed counts, the LoRA paper's tables, training memory and validation."""

from __future__ import annotations

import pytest

from calculators import LocaleKit, evaluate, make_report
from calculators.kernel.spec import MemoryChart
from calculators.training.lora_parameters import CALCULATOR as LORA
from tests.helpers import ModelPreset, results_of

_result = results_of(LORA)


LLAMA_2_7B = {"layers": "32", "hidden_size": "4096", "attention_heads": "32", "kv_heads": "32", "head_dim": "128",
              "ffn_size": "11008", "params_billion": "6.738415616"}  # fmt: skip
LLAMA_3_8B = {"layers": "32", "hidden_size": "4096", "attention_heads": "32", "kv_heads": "8", "head_dim": "128",
              "ffn_size": "14336", "params_billion": "8.030261248"}  # fmt: skip
GPT_3 = {"layers": "96", "hidden_size": "12288", "attention_heads": "96", "kv_heads": "96", "head_dim": "128",
         "ffn_size": "49152", "params_billion": "175"}  # fmt: skip


def test_peft_llama_2_7b_query_value_rank_8() -> None:
    # PEFT print_trainable_parameters: "trainable params: 4,194,304 || all params: 6,742,609,920 || trainable%: 0.0622"
    result = _result(**LLAMA_2_7B, target_modules="qv", rank="8")
    assert result["lora_params"] == 4_194_304
    assert result["trainable_percent"] == pytest.approx(0.0622, abs=0.00005)
    assert result["lora_params"] / (result["trainable_percent"] / 100) == pytest.approx(6_742_609_920)


def test_peft_llama_3_8b_all_linear_rank_16() -> None:
    # PEFT: 41,943,040 trainable of 8,072,204,288, 0.5196%; k and v output 8 × 128 = 1,024 under GQA.
    result = _result(**LLAMA_3_8B, target_modules="all", rank="16")
    assert result["lora_params"] == 41_943_040
    assert result["trainable_percent"] == pytest.approx(0.5196, abs=0.00005)
    assert result["lora_params"] / (result["trainable_percent"] / 100) == pytest.approx(8_072_204_288)


def test_defaults_are_llama_3_8b_all_linear_rank_16() -> None:
    assert _result()["lora_params"] == 41_943_040


def test_peft_quicktour_mt0_large() -> None:
    # PEFT quicktour, bigscience/mt0-large with LoraConfig(r=8) on q and v: "trainable params: 2359296 ||
    # all params: 1231940608 || trainable%: 0.19151053100118282". Its 24 encoder self-attention, 24 decoder
    # self-attention and 24 cross-attention blocks are counted here as 72 layers of 1,024-wide q and v.
    mt0 = {"layers": "72", "hidden_size": "1024", "attention_heads": "16", "kv_heads": "16", "head_dim": "64",
           "params_billion": "1.229581312"}  # fmt: skip
    result = _result(**mt0, target_modules="qv", rank="8")
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
    assert _result(**GPT_3, target_modules=targets, rank=rank)["lora_params"] == published
    # The paper's square-matrix form: |Θ| = 2 × L̂ × d_model × r, with L̂ adapted matrices.
    matrices = {"qv": 2, "qkvo": 4}[targets] * 96
    assert published == 2 * matrices * 12288 * int(rank)


@pytest.mark.parametrize(("targets", "printed"), [("qv", 301.9e6), ("qkvo", 603.8e6)])
def test_lora_paper_gpt_3_rank_64(targets: str, printed: float) -> None:
    # Table 15 prints 301.9M and 603.8M for r = 64; the paper truncates (and the second figure is off by 0.2M).
    assert _result(**GPT_3, target_modules=targets, rank="64")["lora_params"] == pytest.approx(printed, abs=0.2e6)


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
    count = _result(**roberta, target_modules="qv", rank="8")["lora_params"]
    assert count == exact
    assert round(count, -5) == printed


# The LoRA paper's GPT-2 medium and large (0.35M, 0.77M) and DeBERTa XXL (4.7M) rows are not tested: the
# reference sheet warns that the plain formula gives 0.39M, 0.74M and 2.36M for them.


@pytest.mark.parametrize(("rank", "expected"), [("8", 19_988_480), ("16", 39_976_960)])
def test_llama_2_7b_all_linear(rank: str, expected: int) -> None:
    # [CALC] q, k, v, o at 4,096 × 4,096 and gate, up, down at 4,096 × 11,008, over 32 layers.
    assert _result(**LLAMA_2_7B, target_modules="all", rank=rank)["lora_params"] == expected


def test_adapter_state_is_16_bytes_per_parameter() -> None:
    # Reference sheet 12l: 41,943,040 adapter parameters × 16 bytes = 671.1 MB.
    result = _result(memory_unit="gb")
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
    result = _result(base_bytes_per_param=precision)
    assert result["base_weights_memory"] == pytest.approx(base_gb)
    assert result["training_memory"] == pytest.approx(base_gb + 0.67108864)


def test_chart_parts_add_up_to_the_total() -> None:
    for unit in ("gb", "gib"):
        result = _result(memory_unit=unit)
        parts = [result[part.name] for part in LORA.chart.parts] if isinstance(LORA.chart, MemoryChart) else []
        assert sum(parts) == pytest.approx(result["peak_training_memory"])


def test_gib_switch() -> None:
    assert _result(memory_unit="gib")["adapter_memory"] == pytest.approx(41_943_040 * 16 / 2**30)


def test_rank_scales_linearly_and_ffn_only_counts_for_all_linear() -> None:
    assert _result(rank="32")["lora_params"] == 2 * _result(rank="16")["lora_params"]
    assert _result(target_modules="qkvo", ffn_size="1")["lora_params"] == _result(target_modules="qkvo")["lora_params"]


@pytest.mark.parametrize(
    ("name", "value", "code"),
    [
        ("rank", "0", "too_small"),
        ("rank", "1.5", "not_whole"),
        ("layers", "-3", "too_small"),
        ("hidden_size", "abc", "not_a_number"),
        ("params_billion", "0", "too_small"),
        ("target_modules", "qkv", "unknown_choice"),
        ("module_layout", "falcon", "unknown_choice"),
        ("expert_weights", "v4", "unknown_choice"),
        ("experts", "-1", "too_small"),
        ("base_bytes_per_param", "3", "unknown_choice"),
        ("adapter_bytes_per_param", "100", "too_large"),
        ("layers", "", "required"),
    ],
)
def test_bad_input_is_a_problem(name: str, value: str, code: str) -> None:
    result = evaluate(LORA, {**LORA.defaults(), name: value})
    assert [(p.name, p.code) for p in result.problems] == [(name, code)]


def test_english_report_fills_every_placeholder(kits: dict[str, LocaleKit]) -> None:
    report = make_report(LORA, LORA.defaults(), kits["en"])
    assert report.ok
    for result in report.results:
        assert "{" not in result.sentence and result.value
    assert "41,943,040" in report.results[0].sentence


# ---- Module layouts and experts (issue 15, findings 6 and 7) ----
# Each expected count is r × Σ (in_features + out_features) over the modules PEFT adapts, written out from
# the Linear/Conv1D shapes in transformers' modeling files. PEFT gives every targeted module
# lora_A = Linear(in, r) and lora_B = Linear(r, out) (LoraLayer.update_layer in peft/tuners/lora/layer.py),
# and "all-linear" takes every nn.Linear and Conv1D but the output head (_maybe_include_all_linear_layers in
# peft/tuners/tuners_utils.py). Every count below was also printed by get_nb_trainable_parameters() on
# models built from these configs on the meta device: PEFT 0.21.2 with transformers 5.24.0, and, for the
# "modules" expert rows, PEFT 0.17.1 with transformers 4.57.6.

GPT2_SMALL = {"module_layout": "gpt2", "layers": "12", "hidden_size": "768", "attention_heads": "12", "kv_heads": "12",
              "head_dim": "64", "ffn_size": "3072", "params_billion": "0.124439808"}  # fmt: skip
PHI3_MINI = {"module_layout": "phi3", "layers": "32", "hidden_size": "3072", "attention_heads": "32", "kv_heads": "32",
             "head_dim": "96", "ffn_size": "8192", "params_billion": "3.821079552"}  # fmt: skip
PHI2 = {"module_layout": "phi", "layers": "32", "hidden_size": "2560", "attention_heads": "32", "kv_heads": "32",
        "head_dim": "80", "ffn_size": "10240", "params_billion": "2.77968384"}  # fmt: skip
MIXTRAL_8X7B = {"layers": "32", "hidden_size": "4096", "attention_heads": "32", "kv_heads": "8", "head_dim": "128",
                "ffn_size": "14336", "experts": "8", "params_billion": "46.702792704"}  # fmt: skip
QWEN3_30B_A3B = {"layers": "48", "hidden_size": "2048", "attention_heads": "32", "kv_heads": "4", "head_dim": "128",
                 "ffn_size": "6144", "experts": "128", "expert_ffn_size": "768",
                 "params_billion": "30.532122624"}  # fmt: skip


def test_peft_gpt2_default_config_adapts_the_fused_c_attn() -> None:
    # LoraConfig() on GPT-2 small: r = 8 on c_attn, PEFT's default target for gpt2 (peft/utils/constants.py).
    # modeling_gpt2.py: c_attn = Conv1D(3 * embed_dim, embed_dim), weight 768 × 2,304, one adapter for q, k and v.
    # Printed: "trainable params: 294,912 || all params: 124,734,720 || trainable%: 0.23643136409814364".
    result = _result(**GPT2_SMALL, target_modules="qv", rank="8")
    assert result["lora_params"] == 12 * 8 * (768 + 2304) == 294_912
    assert result["trainable_percent"] == pytest.approx(0.23643136409814364, rel=1e-9)
    assert result["lora_params"] / (result["trainable_percent"] / 100) == pytest.approx(124_734_720)


@pytest.mark.parametrize(
    ("targets", "rank", "expected"),
    [
        # modeling_gpt2.py: attn.c_attn 768 → 2,304 and attn.c_proj 768 → 768 (Conv1D).
        ("qkvo", "8", 12 * 8 * ((768 + 2304) + (768 + 768))),
        # ... plus mlp.c_fc = Conv1D(intermediate_size, embed_dim), 768 → 3,072, and mlp.c_proj 3,072 → 768.
        ("all", "16", 12 * 16 * ((768 + 2304) + (768 + 768) + (768 + 3072) + (3072 + 768))),
    ],
)
def test_gpt2_fused_attention_and_two_matrix_mlp(targets: str, rank: str, expected: int) -> None:
    assert _result(**GPT2_SMALL, target_modules=targets, rank=rank)["lora_params"] == expected
    assert expected in (442_368, 2_359_296)


def test_gpt2_all_linear_was_overcounted_by_44_percent_as_separate_projections() -> None:
    fused = _result(**GPT2_SMALL, target_modules="all")["lora_params"]
    separate = _result(**{**GPT2_SMALL, "module_layout": "llama"}, target_modules="all")["lora_params"]
    assert separate / fused == pytest.approx(1.4375)


@pytest.mark.parametrize(
    ("targets", "rank", "expected"),
    [
        # modeling_phi3.py: qkv_proj = Linear(hidden_size, (heads + 2 × kv_heads) × head_dim) = 3,072 → 9,216.
        ("qv", "8", 32 * 8 * (3072 + 9216)),
        # ... o_proj = Linear(heads × head_dim, hidden_size), 3,072 → 3,072.
        ("qkvo", "16", 32 * 16 * ((3072 + 9216) + (3072 + 3072))),
        # ... gate_up_proj = Linear(hidden_size, 2 × intermediate_size), 3,072 → 16,384, down_proj 8,192 → 3,072.
        ("all", "16", 32 * 16 * ((3072 + 9216) + (3072 + 3072) + (3072 + 16384) + (8192 + 3072))),
    ],
)
def test_phi3_fused_qkv_and_gate_up(targets: str, rank: str, expected: int) -> None:
    assert _result(**PHI3_MINI, target_modules=targets, rank=rank)["lora_params"] == expected
    assert expected in (3_145_728, 9_437_184, 25_165_824)


def test_phi2_separate_attention_and_two_matrix_mlp() -> None:
    # modeling_phi.py: q_proj, k_proj, v_proj and dense 2,560 → 2,560; mlp.fc1 2,560 → 10,240, fc2 10,240 → 2,560.
    expected = 32 * 16 * (4 * (2560 + 2560) + (2560 + 10240) + (10240 + 2560))
    assert _result(**PHI2, target_modules="all", rank="16")["lora_params"] == expected == 23_592_960


@pytest.mark.parametrize(
    ("weights", "expected"),
    [
        # transformers 4.x modeling_mixtral.py: each of the 8 MixtralBlockSparseTop2MLP has w1, w3 = Linear(4,096,
        # 14,336) and w2 = Linear(14,336, 4,096); the router gate = Linear(4,096, 8). Attention: q_proj and o_proj
        # 4,096 ↔ 4,096, k_proj and v_proj 4,096 → 1,024.
        ("modules", 32 * 16 * ((4096 + 4096) * 2 + (4096 + 1024) * 2 + 8 * 3 * (4096 + 14336) + (4096 + 8))),
        # transformers 5.x: MixtralExperts.gate_up_proj is one (8, 2 × 14,336, 4,096) tensor and down_proj
        # (8, 4,096, 14,336); PEFT ≥ 0.20 adapts them through target_parameters, gate_up_proj at rank 2r
        # (rank_pattern in peft/utils/transformers_weight_conversion.py), with r × 8 rows of A per expert block.
        (
            "fused",
            32 * 16 * ((4096 + 4096) * 2 + (4096 + 1024) * 2 + 8 * (2 * (4096 + 28672) + (14336 + 4096)) + (4096 + 8)),
        ),
    ],
)
def test_mixtral_all_linear_adapts_every_expert_and_the_router(weights: str, expected: int) -> None:
    result = _result(**MIXTRAL_8X7B, target_modules="all", rank="16", expert_weights=weights)
    assert result["lora_params"] == expected
    assert expected in (242_225_152, 359_665_664)
    # The dense-MLP count this page gave before: 41,943,040, 5.8 and 8.6 times less.
    assert expected / 41_943_040 == pytest.approx({"modules": 5.775, "fused": 8.575}[weights], abs=0.001)


@pytest.mark.parametrize(
    ("weights", "expected"),
    [
        # modeling_qwen3_moe.py (4.x): 128 Qwen3MoeMLP experts of gate_proj, up_proj 2,048 → 768 and down_proj
        # 768 → 2,048; gate = Linear(2,048, 128); q_proj 2,048 → 4,096, k_proj, v_proj 2,048 → 512,
        # o_proj 4,096 → 2,048.
        ("modules", 48 * 16 * ((2048 + 4096) * 2 + (2048 + 512) * 2 + 128 * 3 * (2048 + 768) + (2048 + 128))),
        # 5.x: gate_up_proj (128, 1,536, 2,048) at rank 2r and down_proj (128, 2,048, 768) at rank r.
        ("fused", 48 * 16 * ((2048 + 4096) * 2 + (2048 + 512) * 2 + 128 * (2 * (2048 + 1536) + (768 + 2048)) + 2176)),
    ],
)
def test_qwen3_moe_all_linear(weights: str, expected: int) -> None:
    assert _result(**QWEN3_30B_A3B, target_modules="all", rank="16", expert_weights=weights)["lora_params"] == expected
    assert expected in (845_512_704, 996_507_648)


def test_attention_targets_ignore_the_experts() -> None:
    # PEFT 0.21.2 and 0.17.1 alike print 6,815,744 for Mixtral with r = 16 on q_proj and v_proj.
    result = _result(**MIXTRAL_8X7B, target_modules="qv", rank="16")
    assert result["lora_params"] == 32 * 16 * ((4096 + 4096) + (4096 + 1024)) == 6_815_744


def test_leading_dense_layers_and_shared_experts() -> None:
    # Every layer dense: the experts no longer count. A shared expert is one more MLP of n × the expert width.
    dense = _result(**{**MIXTRAL_8X7B, "experts": "0"}, target_modules="all")["lora_params"]
    assert _result(**MIXTRAL_8X7B, dense_layers="32", target_modules="all")["lora_params"] == dense
    plain = _result(**MIXTRAL_8X7B, target_modules="all", expert_weights="modules")["lora_params"]
    shared = _result(**MIXTRAL_8X7B, shared_experts="2", target_modules="all", expert_weights="modules")["lora_params"]
    assert shared - plain == 32 * 16 * 3 * (4096 + 2 * 14336)


QWEN15_MOE_A2_7B = {"layers": "24", "hidden_size": "2048", "attention_heads": "16", "kv_heads": "16", "head_dim": "128",
                    "ffn_size": "5632", "experts": "60", "expert_ffn_size": "1408", "shared_experts": "1",
                    "shared_expert_ffn_size": "5632", "shared_expert_gate": "1",
                    "params_billion": "14.315784192"}  # fmt: skip


def test_qwen2_moe_shared_expert_and_its_gate() -> None:
    # Qwen1.5-MoE-A2.7B, transformers 4.x modeling_qwen2_moe.py: q, k, v, o_proj 2,048 ↔ 2,048; 60 experts of
    # gate_proj, up_proj 2,048 → 1,408 and down_proj 1,408 → 2,048; gate = Linear(2,048, 60); shared_expert
    # gate_proj, up_proj 2,048 → 5,632, down_proj 5,632 → 2,048; shared_expert_gate = Linear(2,048, 1).
    # PEFT 0.17.1 with transformers 4.57.6 prints 255,613,824.
    expected = 24 * 16 * (4 * (2048 + 2048) + 60 * 3 * (2048 + 1408) + (2048 + 60) + 3 * (2048 + 5632) + (2048 + 1))
    assert _result(**QWEN15_MOE_A2_7B, target_modules="all", rank="16")["lora_params"] == expected == 255_613_824


# ---- transformers 5: which stacked experts PEFT adapts (this page's Qwen1.5-MoE count was 20 × PEFT's) ----
# transformers, tag v5.24.0, src/transformers/models/qwen2_moe/modeling_qwen2_moe.py:
#   L122-130  Qwen2MoeMLP: gate_proj, up_proj = nn.Linear(hidden, width), down_proj = nn.Linear(width, hidden)
#   L222-225  Qwen2MoeAttention: q_proj, k_proj, v_proj, o_proj are nn.Linear
#   L271-281  Qwen2MoeExperts: gate_up_proj = nn.Parameter((E, 2 × moe_width, hidden)), down_proj = nn.Parameter(...)
#   L311-318  Qwen2MoeTopKRouter: weight = nn.Parameter((E, hidden)), a plain nn.Module, no nn.Linear
#   L335-338  Qwen2MoeSparseMoeBlock: gate (the router), experts, shared_expert = Qwen2MoeMLP(shared width),
#             shared_expert_gate = nn.Linear(hidden, 1)
# "all-linear" takes only nn.Linear and Conv1D (peft v0.21.2 src/peft/tuners/tuners_utils.py L2445-2450,
# _maybe_include_all_linear_layers). PEFT rewrites it only for the model types in transformers'
# _MODEL_TO_CONVERSION_PATTERN (src/transformers/conversion_mapping.py L48-78 at v5.24.0, the same in 5.25.0:
# qwen3_moe, deepseek_v3, olmoe, glm4_moe, ... → "qwen2_moe"; minimax → "mixtral") plus "mixtral"
# (peft v0.21.2 src/peft/utils/transformers_weight_conversion.py L44-45); "qwen2_moe" is no key of it, so
# _convert_peft_config_moe returns at once (L413-416) and Qwen2-MoE keeps plain "all-linear".


def test_qwen2_moe_under_transformers_5_adapts_no_routed_expert_and_no_router() -> None:
    # Per layer: q, k, v, o_proj 2,048 → 2,048; shared_expert gate_proj, up_proj 2,048 → 5,632 and down_proj
    # 5,632 → 2,048; shared_expert_gate 2,048 → 1. Not the 60 stacked experts, not the router's parameter.
    # PEFT 0.21.2 with transformers 5.24.0, on the model built from Qwen1.5-MoE-A2.7B's config.json on the meta
    # device, prints "trainable params: 15,925,632 || all params: 14,331,709,824".
    result = _result(**QWEN15_MOE_A2_7B, target_modules="all", rank="16", expert_weights="skipped")
    expected = 24 * 16 * (4 * (2048 + 2048) + 3 * (2048 + 5632) + (2048 + 1))
    assert result["lora_params"] == expected == 15_925_632
    assert result["lora_params"] / (result["trainable_percent"] / 100) == pytest.approx(14_331_709_824)


def test_qwen2_moe_under_transformers_5_keeps_its_dense_layers() -> None:
    # Qwen2-MoE with mlp_only_layers = [0, 1] in 4 layers: the two dense Qwen2MoeMLP (intermediate_size 5,632) are
    # nn.Linear and keep their adapters. PEFT 0.21.2 with transformers 5.24.0 prints 2,588,704 trainable parameters.
    small = {**QWEN15_MOE_A2_7B, "layers": "4", "dense_layers": "2"}
    expected = 16 * (4 * 4 * (2048 + 2048) + 2 * 3 * (2048 + 5632) + 2 * (3 * (2048 + 5632) + (2048 + 1)))
    result = _result(**small, target_modules="all", rank="16", expert_weights="skipped")
    assert result["lora_params"] == expected == 2_588_704


def test_qwen2_moe_query_value_ignores_the_experts() -> None:
    # PEFT 0.21.2 with transformers 5.24.0: "trainable params: 3,145,728 || all params: 14,318,929,920".
    result = _result(**QWEN15_MOE_A2_7B, target_modules="qv", rank="16", expert_weights="skipped")
    assert result["lora_params"] == 24 * 16 * 2 * (2048 + 2048) == 3_145_728
    assert result["lora_params"] / (result["trainable_percent"] / 100) == pytest.approx(14_318_929_920)


def test_converted_families_lose_their_shared_experts_and_dense_layers() -> None:
    # DeepSeek-V3 (config.json: hidden_size 7,168, 61 layers, first_k_dense_replace 3, n_routed_experts 256,
    # moe_intermediate_size 2,048, n_shared_experts 1, intermediate_size 18,432); deepseek_v3 → "qwen2_moe" in
    # _MODEL_TO_CONVERSION_PATTERN (conversion_mapping.py L56 at v5.24.0). PEFT's conversion (peft v0.21.2
    # transformers_weight_conversion.py L332-352, L443-482) moves gate_proj, up_proj and down_proj from
    # target_modules to target_parameters, with rank 2r for gate_up_proj (L474), and a target parameter only
    # matches a "<module>.<parameter>" key ending in ".gate_up_proj", ".down_proj" or ".gate.weight"
    # (tuners_utils.py L1248-1250), never "mlp.shared_experts.down_proj.weight" or a dense layer's
    # "mlp.down_proj.weight" (DeepseekV3MLP, modeling_deepseek_v3.py L211 and L496 at v5.24.0). So the 58 sparse
    # layers' MLP adapters are the 256 stacked experts (gate_up_proj (256, 4,096, 7,168) at 2r, down_proj
    # (256, 7,168, 2,048) at r, r × 256 rows of A each: lora/layer.py L2455-2456) and the router (256, 7,168).
    # PEFT 0.21.2 with transformers 5.24.0 prints 7,548,248,064 adapter parameters under ".mlp." for this config.
    deepseek = {"layers": "61", "hidden_size": "7168", "attention_heads": "128", "kv_heads": "128", "head_dim": "56",
                "ffn_size": "18432", "experts": "256", "expert_ffn_size": "2048", "shared_experts": "1",
                "dense_layers": "3", "params_billion": "671.0264192"}  # fmt: skip
    all_linear = _result(**deepseek, target_modules="all", rank="16", expert_weights="fused")["lora_params"]
    attention = _result(**deepseek, target_modules="qkvo", rank="16", expert_weights="fused")["lora_params"]
    expected = 58 * (256 * (2 * 16 * (7168 + 4096) + 16 * (2048 + 7168)) + 16 * (7168 + 256))
    assert all_linear - attention == expected == 7_548_248_064


def test_old_links_without_the_new_inputs_keep_their_counts() -> None:
    old = {name: value for name, value in LORA.defaults().items()
           if name not in {"module_layout", "experts", "expert_ffn_size", "shared_experts", "dense_layers",
                           "expert_weights"}}  # fmt: skip
    result = evaluate(LORA, {**old, **LLAMA_2_7B, "target_modules": "qv", "rank": "8"})
    assert result.ok and result.results["lora_params"] == 4_194_304


def test_presets_fill_the_layout_and_the_experts(model_preset: ModelPreset) -> None:
    expected = {
        "openai-community/gpt2": ("gpt2", "0", 2_359_296),
        "microsoft/Phi-3-mini-4k-instruct": ("phi3", "0", 25_165_824),
        "mistralai/Mixtral-8x7B-v0.1": ("llama", "8", 242_225_152),
        "Qwen/Qwen3-30B-A3B": ("llama", "128", 845_512_704),
        "Qwen/Qwen1.5-MoE-A2.7B": ("llama", "60", 255_613_824),
        "meta-llama/Llama-3.1-8B": ("llama", "0", 41_943_040),
    }
    for model_id, (layout, experts, count) in expected.items():
        values = model_preset(LORA, model_id)
        assert (values["module_layout"], values["experts"]) == (layout, experts), model_id
        assert _result(**values, target_modules="all", rank="16")["lora_params"] == count, model_id


def test_qwen15_moe_preset_under_transformers_5(model_preset: ModelPreset) -> None:
    # The preset fills the shared expert's width and its gate: PEFT 0.21.2 with transformers 5.24.0 prints 15,925,632.
    values = model_preset(LORA, "Qwen/Qwen1.5-MoE-A2.7B")
    assert _result(**values, target_modules="all", rank="16", expert_weights="skipped")["lora_params"] == 15_925_632
