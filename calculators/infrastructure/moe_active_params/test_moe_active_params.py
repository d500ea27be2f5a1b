"""MoE total and active parameters: Mixtral, DeepSeek-V3 with latent attention, validation."""

from __future__ import annotations

import pytest

from calculators import LocaleKit, evaluate, find, make_report
from calculators.infrastructure.moe_active_params import CALCULATOR
from calculators.kernel.evaluation import LARGEST_RESULT
from calculators.kernel.spec import MODEL_FACTS
from tests.helpers import results_of

_result = results_of(CALCULATOR)


DEEPSEEK_V3 = {"experts": "256", "experts_per_token": "8", "expert_ffn_size": "2048", "shared_experts": "1",
               "dense_layers": "3", "ffn_size": "18432", "layers": "61", "hidden_size": "7168",
               "attention_heads": "128", "kv_heads": "128", "head_dim": "128", "vocab_size": "129280",
               "tied_embeddings": "0", "router_bias": "1", "q_lora_rank": "1536", "kv_lora_rank": "512",
               "qk_nope_head_dim": "128", "qk_rope_head_dim": "64", "v_head_dim": "128"}  # fmt: skip


def test_default_is_mixtral_8x7b() -> None:
    # 16a: Mistral, "46.7B total parameters but only uses 12.9B parameters per token"; exactly
    # 46,702,792,704 and 12,879,925,248.
    result = _result()
    assert result["total_params_billion"] * 1e9 == 46_702_792_704
    assert result["active_params_billion"] * 1e9 == 12_879_925_248
    assert round(result["total_params_billion"], 1) == 46.7
    assert round(result["active_params_billion"], 1) == 12.9
    assert result["active_percent"] == pytest.approx(100 * 12_879_925_248 / 46_702_792_704)


def test_eight_times_seven_is_not_the_total() -> None:
    # Only the MLPs are replicated: 8 × 7.24B would be 57.9B.
    assert _result()["total_params_billion"] < 8 * 7.241732096 - 10


def test_deepseek_v3() -> None:
    # 16b: DeepSeek-V3 §4.2, "671B total parameters, of which 37B are activated for each token":
    # 671,026,419,200 exactly, and 37.55B active counting the embeddings (36.63B without the input table).
    result = _result(**DEEPSEEK_V3)
    assert result["total_params_billion"] * 1e9 == pytest.approx(671_026_419_200, abs=0.5)
    assert result["active_params_billion"] == pytest.approx(37.552297472, abs=1e-9)
    assert int(result["total_params_billion"]) == 671
    assert int(result["active_params_billion"]) == 37
    without_input_table = result["active_params_billion"] - 129280 * 7168 / 1e9
    assert result["active_without_embedding_billion"] == pytest.approx(without_input_table, abs=1e-9)
    assert round(result["active_without_embedding_billion"]) == 37  # the report's 37B, rounded


def test_deepseek_v3_router_bias_is_256_per_moe_layer() -> None:
    with_bias = _result(**DEEPSEEK_V3)["total_params_billion"]
    without = _result(**{**DEEPSEEK_V3, "router_bias": "0"})["total_params_billion"]
    assert (with_bias - without) * 1e9 == pytest.approx(58 * 256, abs=0.01)


def test_deepseek_v2_and_v2_lite_totals() -> None:
    # DeepSeek-V2 (arXiv:2405.04434): "236B total parameters, of which 21B are activated"; 60 layers of 5,120,
    # 160 routed and 2 shared experts of 1,536, top 6, first layer dense (12,288), vocabulary 102,400.
    v2 = {**DEEPSEEK_V3, "experts": "160", "experts_per_token": "6", "expert_ffn_size": "1536",
          "shared_experts": "2", "dense_layers": "1", "ffn_size": "12288", "layers": "60", "hidden_size": "5120",
          "vocab_size": "102400", "router_bias": "0"}  # fmt: skip
    result = _result(**v2)
    assert round(result["total_params_billion"]) == 236
    assert round(result["active_params_billion"]) == 21
    # DeepSeek-V2-Lite, "15.7B total parameters": no query compression (q_lora_rank 0), 27 layers of 2,048,
    # 16 heads, 64 routed and 2 shared experts of 1,408, first layer dense (10,944).
    lite = {**v2, "q_lora_rank": "0", "layers": "27", "hidden_size": "2048", "attention_heads": "16",
            "experts": "64", "expert_ffn_size": "1408", "ffn_size": "10944"}  # fmt: skip
    assert round(_result(**lite)["total_params_billion"], 1) == 15.7


def test_deepseek_counts_active_parameters_without_the_input_embedding_table() -> None:
    # DeepSeek-V2 (arXiv:2405.04434): V2-Lite has "2.4B" activated, V2 "21B"; DeepSeek-V3 "37B". Counted with the
    # input embedding table, V2-Lite has 2.66B; without it, 2.45B: DeepSeek's figures are those without the table.
    v2 = {**DEEPSEEK_V3, "experts": "160", "experts_per_token": "6", "expert_ffn_size": "1536",
          "shared_experts": "2", "dense_layers": "1", "ffn_size": "12288", "layers": "60", "hidden_size": "5120",
          "vocab_size": "102400", "router_bias": "0"}  # fmt: skip
    lite = _result(**{**v2, "q_lora_rank": "0", "layers": "27", "hidden_size": "2048", "attention_heads": "16",
                   "experts": "64", "expert_ffn_size": "1408", "ffn_size": "10944"})  # fmt: skip
    assert round(lite["active_params_billion"], 2) == 2.66
    assert round(lite["active_without_embedding_billion"], 2) == 2.45
    assert lite["active_params_billion"] - lite["active_without_embedding_billion"] == pytest.approx(
        102400 * 2048 / 1e9
    )
    assert round(_result(**v2)["active_without_embedding_billion"]) == 21
    # Mistral counts the table in: Mixtral's "12.9B parameters per token" is the count with it (12.75B without).
    mixtral = _result()
    assert round(mixtral["active_params_billion"], 1) == 12.9
    assert round(mixtral["active_without_embedding_billion"], 2) == 12.75


def test_a_tied_table_is_the_output_head_and_stays_active() -> None:
    # Tied, the token table is also the head every token multiplies by: nothing is a mere lookup.
    result = _result(tied_embeddings="1")
    assert result["active_without_embedding_billion"] == result["active_params_billion"]


def test_mixtral_8x22b() -> None:
    # 16d: 56 layers of 6,144, 48 query and 8 key-value heads, experts of 16,384, vocabulary 32,768.
    # Mistral announced "141B" parameters with "39B" active; the count gives 140.63B and 39.16B.
    result = _result(layers="56", hidden_size="6144", attention_heads="48", ffn_size="16384",
                  expert_ffn_size="16384", vocab_size="32768")  # fmt: skip
    assert round(result["total_params_billion"]) == 141
    assert round(result["active_params_billion"]) == 39
    assert result["total_params_billion"] == pytest.approx(140.63, abs=0.005)


def test_qwen3_30b_a3b_counts_its_query_and_key_norms() -> None:
    # KerasHub's preset metadata "qwen3_moe_30b_a3b_en": 30,532,122,624 parameters. Active, from the shapes of
    # transformers' modeling_qwen3_moe.py (q_norm and k_norm are RMSNorm(head_dim) in each of the 48 layers,
    # 8 of 128 experts of 3 x 2,048 x 768): 3,353,032,704, Qwen's "3.3B activated".
    qwen3 = {"experts": "128", "experts_per_token": "8", "expert_ffn_size": "768", "ffn_size": "6144", "layers": "48",
             "hidden_size": "2048", "attention_heads": "32", "kv_heads": "4", "vocab_size": "151936"}  # fmt: skip
    result = _result(**qwen3, extra_layer_params="256")
    assert result["total_params_billion"] * 1e9 == pytest.approx(30_532_122_624, abs=0.5)
    assert result["active_params_billion"] * 1e9 == pytest.approx(3_353_032_704, abs=0.5)
    # Without the norms (the old page): 48 layers x 256 weights fewer.
    assert _result(**qwen3)["total_params_billion"] * 1e9 == pytest.approx(30_532_122_624 - 48 * 256, abs=0.5)


def test_qwen15_moe_a27b_has_a_wider_gated_shared_expert() -> None:
    # Qwen1.5-MoE-A2.7B's model card: "14.3B parameters in total and 2.7B activated parameters during runtime".
    # The exact counts follow modeling_qwen2_moe.py's modules per layer: q, k, v (with biases) and o of 2,048 x 2,048,
    # 2 RMSNorms, a router of 2,048 x 60, 60 experts of 3 x 2,048 x 1,408 (4 active), one shared_expert of
    # 3 x 2,048 x 5,632 and a shared_expert_gate of 2,048 x 1; 24 layers, untied 151,936-token table and head.
    qwen = {"experts": "60", "experts_per_token": "4", "expert_ffn_size": "1408", "shared_experts": "1",
            "ffn_size": "5632", "layers": "24", "hidden_size": "2048", "attention_heads": "16", "kv_heads": "16",
            "vocab_size": "151936", "attention_bias": "1"}  # fmt: skip
    result = _result(**qwen, shared_expert_ffn_size="5632", shared_expert_gate="1")
    layer = 4 * 2048**2 + 3 * 2048 + 2 * 2048 + 2048 * 60 + 3 * 2048 * 5632 + 2048
    assert result["total_params_billion"] * 1e9 == pytest.approx(
        24 * (layer + 60 * 3 * 2048 * 1408) + 2 * 151936 * 2048 + 2048, abs=0.5
    )
    assert result["total_params_billion"] * 1e9 == pytest.approx(14_315_784_192, abs=0.5)
    assert result["active_params_billion"] * 1e9 == pytest.approx(2_689_173_504, abs=0.5)
    assert round(result["total_params_billion"], 1) == 14.3 and round(result["active_params_billion"], 1) == 2.7
    # Without the shared expert, which its config.json states only as shared_expert_intermediate_size, the old
    # page's 13.49 B and 1.86 B.
    narrow = _result(**{**qwen, "shared_experts": "0"})
    assert round(narrow["total_params_billion"], 2) == 13.49 and round(narrow["active_params_billion"], 2) == 1.86


def test_shared_experts_count_in_both() -> None:
    base = _result()
    shared = _result(shared_experts="1")
    expert = 32 * 3 * 4096 * 14336 / 1e9
    assert shared["total_params_billion"] - base["total_params_billion"] == pytest.approx(expert)
    assert shared["active_params_billion"] - base["active_params_billion"] == pytest.approx(expert)


def test_a_dense_model_is_all_active() -> None:
    # Mistral-7B-v0.1: 7,241,732,096 parameters, all of them used by every token.
    result = _result(experts="0", experts_per_token="0")
    assert result["total_params_billion"] * 1e9 == 7_241_732_096
    assert result["active_params_billion"] == result["total_params_billion"]
    assert result["active_percent"] == 100


def test_more_experts_per_token_than_experts_uses_them_all() -> None:
    result = _result(experts_per_token="50")
    assert result["active_params_billion"] == result["total_params_billion"]


def test_weights_memory() -> None:
    assert _result()["weights_memory"] == pytest.approx(93.405585408)
    assert _result(memory_unit="gib")["weights_memory"] == pytest.approx(46_702_792_704 * 2 / 2**30)


@pytest.mark.parametrize(
    ("name", "value", "code"),
    [
        ("experts", "-1", "too_small"),
        ("experts_per_token", "2.5", "not_whole"),
        ("hidden_size", "0", "too_small"),
        ("layers", "x", "not_a_number"),
        ("router_bias", "maybe", "unknown_choice"),
        ("kv_lora_rank", "-512", "too_small"),
        ("tied_embeddings", "", "required"),
    ],
)
def test_bad_input_is_a_problem(name: str, value: str, code: str) -> None:
    result = evaluate(CALCULATOR, {**CALCULATOR.defaults(), name: value})
    assert [(p.name, p.code) for p in result.problems] == [(name, code)]


def test_the_largest_inputs_still_give_results() -> None:
    # Every output is in billions, a share or GB, so even 3 × 10²² parameters stay within range.
    largest = {"layers": "10000", "hidden_size": "1000000", "experts": "100000", "expert_ffn_size": "10000000"}
    result = _result(**largest)
    assert result["total_params_billion"] == pytest.approx(3e13, rel=1e-3)


@pytest.mark.parametrize("architecture", ["llama", "gpt2", "phi"])
@pytest.mark.parametrize("memory_unit", ["gb", "gib"])
def test_every_input_at_its_largest_gives_results(architecture: str, memory_unit: str) -> None:
    # The page shows no exact count (a float holds whole numbers exactly only up to 2⁵³, and 10⁵ experts of
    # 10⁷ × 10⁶ in 10⁴ layers are 3 × 10²² parameters): its figures in billions and GB stay far below
    # LARGEST_RESULT, so no allowed input, every one at its maximum and every layer a mixture of experts, is
    # out of range.
    largest = {spec.name: str(spec.maximum) for spec in CALCULATOR.inputs if spec.maximum is not None}
    switches = {"tied_embeddings": "0", "shared_expert_gate": "1", "router_bias": "1", "attention_bias": "1"}
    values = {**largest, **switches, "dense_layers": "0", "architecture": architecture, "memory_unit": memory_unit}
    result = _result(**values)
    assert set(result) == {spec.name for spec in CALCULATOR.outputs}
    assert max(result.values()) < LARGEST_RESULT / 10
    assert result["total_params_billion"] > 2e13  # GPT-2 and Phi experts are two matrices, Llama three


def test_presets_name_model_facts() -> None:
    presets = {spec.preset for spec in CALCULATOR.inputs if spec.preset}
    assert presets <= set(MODEL_FACTS)
    assert {"model.experts", "model.experts_per_token", "model.expert_ffn_size", "model.shared_experts",
            "model.dense_layers"} <= presets  # fmt: skip
    # Every fact transformer-params counts with, so the two pages give one model one count.
    counted = {spec.preset for spec in find("transformer-params").inputs if spec.preset}
    assert counted <= presets


def test_sentence_names_the_experts(kits: dict[str, LocaleKit]) -> None:
    report = make_report(CALCULATOR, CALCULATOR.defaults(), kits["en"])
    active = next(r for r in report.results if r.name == "active_params_billion")
    assert "the 2 routed experts of 8" in active.sentence
