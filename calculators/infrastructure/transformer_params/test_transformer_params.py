"""Transformer parameter count: exact totals of published checkpoints, Kaplan's N, GPT-3, validation."""

from __future__ import annotations

import pytest

from calculators import LocaleKit, evaluate, make_report
from calculators.infrastructure.transformer_params import CALCULATOR
from calculators.kernel.spec import MODEL_FACTS, Kind
from tests.helpers import results_of

_result = results_of(CALCULATOR)


LLAMA_2_7B = {"layers": "32", "hidden_size": "4096", "attention_heads": "32", "kv_heads": "32", "head_dim": "128",
              "ffn_size": "11008", "vocab_size": "32000", "tied_embeddings": "0"}  # fmt: skip


def _gpt2(layers: int, hidden: int, heads: int, **extra: str) -> dict[str, float]:
    """A GPT-2-family model: 4× MLP, tied head, 50,257 tokens, 1,024 learned positions."""
    return _result(architecture="gpt2", layers=str(layers), hidden_size=str(hidden), attention_heads=str(heads),
                kv_heads=str(heads), head_dim=str(hidden // heads), ffn_size=str(4 * hidden), vocab_size="50257",
                tied_embeddings="1", **{"positions": "1024", **extra})  # fmt: skip


@pytest.mark.parametrize(
    ("layers", "hidden", "heads", "total"),
    [
        (12, 768, 12, 124_439_808),  # 22a GPT-2 small: Hugging Face's count of the released checkpoint
        (24, 1024, 16, 354_823_168),  # 22b GPT-2 medium
        (36, 1280, 20, 774_030_080),  # 22b GPT-2 large
        (48, 1600, 25, 1_557_611_200),  # 22b GPT-2 xl
    ],
)
def test_gpt2_family(layers: int, hidden: int, heads: int, total: int) -> None:
    result = _gpt2(layers, hidden, heads)
    assert result["total_params"] == total
    # The sheet's closed form: L·(12d² + 13d) + V·d + T·d + 2d.
    assert total == layers * (12 * hidden**2 + 13 * hidden) + 50257 * hidden + 1024 * hidden + 2 * hidden


def test_gpt2_without_the_position_table_is_nanogpts_count() -> None:
    # nanoGPT's get_num_params() leaves out the position table: "number of parameters: 123.65M".
    assert _gpt2(12, 768, 12, positions="0")["total_params"] == 123_653_376


def test_gpt2_embeddings_and_kaplans_n() -> None:
    result = _gpt2(12, 768, 12)
    assert result["embedding_params_billion"] * 1e9 == pytest.approx((50257 + 1024) * 768)
    # Kaplan et al. §2.1: N ≈ 12·L·d² = 84,934,656; the biases and norms add 0.14%.
    assert result["non_embedding_params_billion"] * 1e9 == pytest.approx(12 * 12 * 768**2, rel=2e-3)


def test_gpt3_175b() -> None:
    # 22c: GPT-3 (Brown et al. 2020, Table 2.1: 96 layers of 12,288, 96 heads of 128, 2,048 positions).
    # Table D.1 gives 174,600 million parameters; Kaplan's 12·L·d² is 173,946,175,488.
    result = _gpt2(96, 12288, 96, positions="2048")
    assert result["total_params_billion"] == pytest.approx(174.6, rel=1e-4)
    assert result["non_embedding_params_billion"] * 1e9 == pytest.approx(173_946_175_488, rel=1e-4)


def test_pythia_1b_is_gpt2_style_without_a_position_table() -> None:
    # Pythia's model card: 805,736,448 non-embedding parameters for Pythia-1B (16 layers of 2,048, MLP 8,192);
    # embed_in and embed_out (untied, 50,304 x 2,048, modeling_gpt_neox.py) make 1,011,781,632.
    result = _result(architecture="gpt2", layers="16", hidden_size="2048", attention_heads="8", kv_heads="8",
                  head_dim="256", ffn_size="8192", vocab_size="50304", tied_embeddings="0", positions="0")  # fmt: skip
    assert result["non_embedding_params_billion"] * 1e9 == pytest.approx(805_736_448, abs=0.5)
    assert result["total_params"] == 1_011_781_632


def test_phi_2_has_one_layernorm_per_layer_and_a_head_bias() -> None:
    # Phi-2, the modules of transformers' modeling_phi.py: q_proj, k_proj, v_proj and dense (2,560 x 2,560 with
    # biases), fc1 and fc2 (2,560 x 10,240 with biases), one input_layernorm per layer, final_layernorm, embed_tokens
    # and lm_head (51,200 x 2,560, with a bias): 2,779,683,840.
    phi2 = {"layers": "32", "hidden_size": "2560", "attention_heads": "32", "kv_heads": "32", "head_dim": "80",
            "ffn_size": "10240", "vocab_size": "51200", "tied_embeddings": "0"}  # fmt: skip
    assert _result(architecture="phi", **phi2)["total_params"] == 2_779_683_840
    # GPT-2-style would count a second LayerNorm per layer and no head bias.
    assert _result(architecture="gpt2", positions="0", **phi2)["total_params"] == 2_779_683_840 + 32 * 2 * 2560 - 51200


def test_llama_2_7b() -> None:
    # 22d: 6,738,415,616, the total of the released checkpoint.
    assert _result(**LLAMA_2_7B)["total_params"] == 6_738_415_616


@pytest.mark.parametrize(
    ("overrides", "total"),
    [
        # 22e Llama-2-13B: 40 layers of 5,120, 40 heads, MLP 13,824.
        ({"layers": "40", "hidden_size": "5120", "attention_heads": "40", "kv_heads": "40", "ffn_size": "13824"},
         13_015_864_320),
        # 22e Llama-2-70B: 80 layers of 8,192, 64 query and 8 key-value heads, MLP 28,672.
        ({"layers": "80", "hidden_size": "8192", "attention_heads": "64", "kv_heads": "8", "ffn_size": "28672"},
         68_976_648_192),
    ],
)  # fmt: skip
def test_llama_2_13b_and_70b(overrides: dict[str, str], total: int) -> None:
    assert _result(**{**LLAMA_2_7B, **overrides})["total_params"] == total


def test_default_is_llama_31_8b() -> None:
    # 22f: Llama-3.1-8B, 8,030,261,248 parameters; 16-bit weights 16.06 GB, 14.96 GiB.
    result = _result()
    assert result["total_params"] == 8_030_261_248
    assert result["total_params_billion"] == pytest.approx(8.030261248, abs=1e-12)
    assert result["active_params_billion"] == result["total_params_billion"]
    assert result["embedding_params_billion"] == pytest.approx(2 * 128256 * 4096 / 1e9, abs=1e-12)
    assert result["weights_memory"] == pytest.approx(16.060522496)
    assert _result(memory_unit="gib")["weights_memory"] == pytest.approx(14.96, abs=5e-3)


def test_mistral_7b() -> None:
    # Mistral-7B-v0.1: Llama-3.1-8B's layers with a 32,000-token vocabulary, 7,241,732,096 parameters.
    assert _result(vocab_size="32000")["total_params"] == 7_241_732_096


def test_qwen25_7b_needs_the_qkv_biases() -> None:
    # Qwen2.5-7B: 28 layers of 3,584, 28 query and 4 key-value heads, MLP 18,944, 152,064 tokens, untied,
    # with biases on the query, key and value projections: 7,615,616,512 parameters.
    qwen = {"layers": "28", "hidden_size": "3584", "attention_heads": "28", "kv_heads": "4", "ffn_size": "18944",
            "vocab_size": "152064", "tied_embeddings": "0"}  # fmt: skip
    assert _result(**qwen, attention_bias="1")["total_params"] == 7_615_616_512
    assert _result(**qwen, attention_bias="0")["total_params"] == 7_615_616_512 - 28 * (3584 + 2 * 512)


def test_mixtral_through_the_expert_inputs() -> None:
    # 16a, the same count as moe-active-params: 46,702,792,704 in all, 12,879,925,248 per token.
    result = _result(vocab_size="32000", experts="8", experts_per_token="2", expert_ffn_size="14336")
    assert result["total_params"] == 46_702_792_704
    assert result["active_params_billion"] == pytest.approx(12.879925248, abs=1e-12)
    # An expert size of 0 takes the MLP size, as Mixtral's config.json does.
    assert _result(vocab_size="32000", experts="8", experts_per_token="2")["total_params"] == 46_702_792_704


def test_tying_removes_one_vocabulary_matrix() -> None:
    assert _result(tied_embeddings="0")["total_params"] - _result(tied_embeddings="1")["total_params"] == 128256 * 4096


def test_llama_ignores_the_position_table() -> None:
    assert _result(positions="4096")["total_params"] == _result(positions="0")["total_params"]


def test_out_of_range_expert_counts_are_clamped() -> None:
    moe = {"experts": "8", "expert_ffn_size": "14336"}
    assert _result(**moe, experts_per_token="20")["active_params_billion"] == _result(**moe)["total_params_billion"]
    # More dense layers than layers: every layer is dense, as if there were no experts.
    assert _result(**moe, experts_per_token="2", dense_layers="99")["total_params"] == 8_030_261_248


@pytest.mark.parametrize(
    ("name", "value", "code"),
    [
        ("layers", "0", "too_small"),
        ("layers", "1.5", "not_whole"),
        ("hidden_size", "abc", "not_a_number"),
        ("vocab_size", "", "required"),
        ("kv_heads", "-8", "too_small"),
        ("architecture", "bert", "unknown_choice"),
        ("tied_embeddings", "2", "unknown_choice"),
        ("memory_unit", "tb", "unknown_choice"),
        ("experts", "-1", "too_small"),
    ],
)
def test_bad_input_is_a_problem(name: str, value: str, code: str) -> None:
    result = evaluate(CALCULATOR, {**CALCULATOR.defaults(), name: value})
    assert [(p.name, p.code) for p in result.problems] == [(name, code)]


@pytest.mark.parametrize("kv_heads", ["64", "5"])
def test_key_value_heads_must_divide_the_attention_heads(kits: dict[str, LocaleKit], kv_heads: str) -> None:
    # transformers' attention gives each key-value head attention_heads // kv_heads query heads (repeat_kv);
    # Llama-3.1-8B's 32 query heads share 8 key-value heads, 4 each. 64 or 5 key-value heads cannot be.
    values = {**CALCULATOR.defaults(), "kv_heads": kv_heads}
    assert [(p.name, p.code) for p in evaluate(CALCULATOR, values).problems] == [("kv_heads", "rule")]
    message = make_report(CALCULATOR, values, kits["en"]).errors[0].message
    assert "divides the 32 attention heads" in message
    # Multi-head latent attention has no key-value heads to check.
    assert evaluate(CALCULATOR, {**values, "kv_lora_rank": "512", "qk_nope_head_dim": "128"}).ok


def test_absurd_sizes_are_out_of_range() -> None:
    result = evaluate(CALCULATOR, {**CALCULATOR.defaults(), "layers": "10000", "ffn_size": "10000000"})
    # The whole calculation, and each input that, put back to its default, mends it.
    assert [(p.name, p.code) for p in result.problems] == [
        ("", "out_of_range"),
        ("layers", "out_of_range"),
        ("ffn_size", "out_of_range"),
    ]


def test_presets_name_model_facts() -> None:
    presets = {spec.name: spec.preset for spec in CALCULATOR.inputs if spec.preset}
    assert set(presets.values()) <= set(MODEL_FACTS)
    assert presets["tied_embeddings"] == "model.tied_embeddings"
    assert CALCULATOR.input("tied_embeddings").kind is Kind.CHOICE


def test_exact_count_is_written_in_full(kits: dict[str, LocaleKit]) -> None:
    report = make_report(CALCULATOR, CALCULATOR.defaults(), kits["en"])
    exact = next(r for r in report.results if r.name == "total_params")
    assert exact.value == "8,030,261,248"
    assert "8,030,261,248" in exact.sentence
    total = next(r for r in report.results if r.name == "total_params_billion")
    assert total.value == "8.03"  # the headline to 4 significant digits; the exact count above
