"""Pasting a config.json: published configs give their models' published parameter counts; bad pastes get a reason."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculators import LocaleKit, find
from calculators.report import read_config
from calculators.vocabulary.model_config import fill_values, read_model_config

# The published config.json files, trimmed to the keys that matter (plus one each family spells its own way).
LLAMA_31_8B = {
    "architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336,
    "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 8, "vocab_size": 128256,
    "max_position_embeddings": 131072, "tie_word_embeddings": False, "rope_theta": 500000.0,
}  # fmt: skip
MIXTRAL_8X7B = {
    "model_type": "mixtral", "hidden_size": 4096, "intermediate_size": 14336, "num_attention_heads": 32,
    "num_hidden_layers": 32, "num_key_value_heads": 8, "num_local_experts": 8, "num_experts_per_tok": 2,
    "vocab_size": 32000, "max_position_embeddings": 32768, "tie_word_embeddings": False,
}  # fmt: skip
GPT2 = {"model_type": "gpt2", "n_embd": 768, "n_head": 12, "n_layer": 12, "n_positions": 1024, "n_ctx": 1024,
        "vocab_size": 50257, "n_inner": None}  # fmt: skip
GEMMA_7B = {
    "model_type": "gemma", "hidden_size": 3072, "intermediate_size": 24576, "num_attention_heads": 16,
    "num_hidden_layers": 28, "num_key_value_heads": 16, "head_dim": 256, "vocab_size": 256000,
    "max_position_embeddings": 8192,
}  # fmt: skip
# Pythia-1B (GPT-NeoX: fused query_key_value, dense_h_to_4h and dense_4h_to_h, all with biases, two LayerNorms
# per layer, rotary positions, untied embed_in and embed_out) and Phi-2 (q_proj, k_proj, v_proj, dense, fc1, fc2
# with biases, one input_layernorm per layer, lm_head with a bias), as their config.json files state them.
PYTHIA_1B = {
    "model_type": "gpt_neox", "hidden_size": 2048, "intermediate_size": 8192, "num_attention_heads": 8,
    "num_hidden_layers": 16, "vocab_size": 50304, "max_position_embeddings": 2048, "rotary_pct": 0.25,
    "tie_word_embeddings": False, "use_parallel_residual": True,
}  # fmt: skip
PHI_2 = {
    "model_type": "phi", "hidden_size": 2560, "intermediate_size": 10240, "num_attention_heads": 32,
    "num_hidden_layers": 32, "num_key_value_heads": 32, "vocab_size": 51200, "max_position_embeddings": 2048,
    "partial_rotary_factor": 0.4, "qk_layernorm": False, "tie_word_embeddings": False,
}  # fmt: skip
QWEN15_MOE_A27B = {
    "model_type": "qwen2_moe", "hidden_size": 2048, "intermediate_size": 5632, "moe_intermediate_size": 1408,
    "shared_expert_intermediate_size": 5632, "num_hidden_layers": 24, "num_attention_heads": 16,
    "num_key_value_heads": 16, "num_experts": 60, "num_experts_per_tok": 4, "vocab_size": 151936,
    "max_position_embeddings": 8192, "tie_word_embeddings": False, "decoder_sparse_step": 1,
}  # fmt: skip
DEEPSEEK_V3 = {
    "model_type": "deepseek_v3", "hidden_size": 7168, "intermediate_size": 18432, "moe_intermediate_size": 2048,
    "num_hidden_layers": 61, "num_attention_heads": 128, "num_key_value_heads": 128, "n_shared_experts": 1,
    "n_routed_experts": 256, "num_experts_per_tok": 8, "first_k_dense_replace": 3, "q_lora_rank": 1536,
    "kv_lora_rank": 512, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128, "vocab_size": 129280,
    "tie_word_embeddings": False, "max_position_embeddings": 163840, "topk_method": "noaux_tc",
}  # fmt: skip


# meta-llama/Llama-4-Scout-17B-16E and Llama-4-Maverick-17B-128E-Instruct: their config.json's text_config.
LLAMA_4_SCOUT = {
    "model_type": "llama4", "text_config": {
        "model_type": "llama4_text", "num_hidden_layers": 48, "hidden_size": 5120, "num_attention_heads": 40,
        "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 8192, "intermediate_size_mlp": 16384,
        "vocab_size": 202048, "num_local_experts": 16, "num_experts_per_tok": 1, "interleave_moe_layer_step": 1,
        "tie_word_embeddings": False,
    },
}  # fmt: skip
LLAMA_4_MAVERICK = {
    "model_type": "llama4", "text_config": {
        **LLAMA_4_SCOUT["text_config"], "num_local_experts": 128, "interleave_moe_layer_step": 2,  # type: ignore[dict-item]
    },
}  # fmt: skip


@pytest.mark.parametrize(
    ("config", "active"),
    [(LLAMA_4_SCOUT, 17e9), (LLAMA_4_MAVERICK, 17e9)],  # Meta's model cards: "17B active parameters" for both
    ids=["llama-4-scout", "llama-4-maverick"],
)
def test_llama_4_is_counted_as_transformers_builds_it(config: dict[str, object], active: float) -> None:
    # Its language model built by transformers on the meta device: MoE layers every interleave_moe_layer_step (all
    # of Scout's, every other of Maverick's) with a shared expert; dense layers intermediate_size_mlp wide.
    transformers = pytest.importorskip("transformers")
    torch = pytest.importorskip("torch")
    text = transformers.Llama4TextConfig(**config["text_config"])  # type: ignore[arg-type]
    with torch.device("meta"):
        built = sum(p.numel() for p in transformers.Llama4ForCausalLM(text).parameters())
    facts = read_model_config(json.dumps(config)).facts
    assert round(facts["model.params_billion"] * 1e9) == built
    assert facts["model.active_params_billion"] * 1e9 == pytest.approx(active, rel=0.02)


@pytest.mark.parametrize(
    ("config", "total", "active"),
    [
        (LLAMA_31_8B, 8_030_261_248, 8_030_261_248),  # PEFT's "all params" minus the adapter (sheet §22f)
        (MIXTRAL_8X7B, 46_702_792_704, 12_879_925_248),  # Mistral: "46.7B total ... 12.9B per token"
        (GPT2, 124_439_808, 124_439_808),  # GPT-2 small with its tied head (sheet §22a)
        (DEEPSEEK_V3, 671_026_419_200, 37_552_297_472),  # DeepSeek-V3 report: "671B total ... 37B activated"
        # Pythia's model card: 805,736,448 non-embedding parameters, plus embed_in and embed_out of 50,304 x 2,048
        # (the Llama formula gave 1,279,854,592).
        (PYTHIA_1B, 805_736_448 + 2 * 50304 * 2048, 1_011_781_632),
        # Phi-2, the modules of modeling_phi.py: 32 x (4 x 2,560² + 4 x 2,560 + 2 x 2,560 x 10,240 + 10,240 + 2,560
        # + 2 x 2,560) + 2 x 51,200 x 2,560 + 51,200 + 2 x 2,560 (the Llama formula gave 3,617,753,600).
        (PHI_2, 2_779_683_840, 2_779_683_840),
        # Qwen1.5-MoE-A2.7B's card: "14.3B ... in total and 2.7B activated"; exact from modeling_qwen2_moe.py's
        # modules, a shared expert of shared_expert_intermediate_size and its gate (test_moe_active_params.py).
        (QWEN15_MOE_A27B, 14_315_784_192, 2_689_173_504),
    ],
    ids=["llama-3.1-8b", "mixtral-8x7b", "gpt2", "deepseek-v3", "pythia-1b", "phi-2", "qwen1.5-moe-a2.7b"],
)
def test_published_configs_give_published_counts(config: dict[str, object], total: int, active: int) -> None:
    facts = read_model_config(json.dumps(config)).facts
    assert round(facts["model.params_billion"] * 1e9) == total
    assert round(facts["model.active_params_billion"] * 1e9) == active


@pytest.mark.parametrize(
    ("config", "total"),
    [
        # Llama-3.1-8B: 8,030,261,248, KerasHub's "llama3.1_8b" (and the Hub index's 16,060,522,496 bf16 bytes / 2).
        # LlamaConfig's tie_word_embeddings defaults to False; the old tied default gave 7,504,924,672.
        (LLAMA_31_8B, 8_030_261_248),
        # Mixtral-8x7B, MixtralConfig's default is untied too: KerasHub's 46,702,792,704.
        (MIXTRAL_8X7B, 46_702_792_704),
        # Gemma-7B's config.json has no tie_word_embeddings; GemmaConfig ties: KerasHub's 8,537,680,896.
        (GEMMA_7B, 8_537_680_896),
    ],
    ids=["llama-3.1-8b", "mixtral-8x7b", "gemma-7b"],
)
def test_a_missing_tie_word_embeddings_takes_the_familys_default(config: dict[str, object], total: int) -> None:
    trimmed = {key: value for key, value in config.items() if key != "tie_word_embeddings"}
    reading = read_model_config(json.dumps(trimmed))
    assert round(reading.facts["model.params_billion"] * 1e9) == total
    assert "tie_word_embeddings" in reading.assumed


def test_an_unknown_family_is_counted_llama_style_and_the_page_says_so(kits: dict[str, LocaleKit]) -> None:
    reading = read_model_config(json.dumps({**LLAMA_31_8B, "model_type": "falcon"}))
    assert reading.unknown_family == "falcon" and reading.facts["model.architecture"] == 0
    message = read_config(find("transformer-params"), json.dumps({**LLAMA_31_8B, "model_type": "falcon"}),
                          kits["en"]).message  # fmt: skip
    assert "does not know the model family falcon" in message and "Llama-style" in message
    # The KV cache does not depend on the MLP's shape: no note there.
    kv = read_config(find("kv-cache-size"), json.dumps({**LLAMA_31_8B, "model_type": "falcon"}), kits["en"])
    assert "falcon" not in kv.message
    # Without a model_type, the Llama shape is the default taken, and said so like any other.
    assert (
        "model_type"
        in read_model_config(json.dumps({k: v for k, v in LLAMA_31_8B.items() if k != "model_type"})).assumed
    )


def test_a_gpt2_config_takes_transformers_defaults_and_says_so() -> None:
    reading = read_model_config(json.dumps(GPT2))
    assert reading.facts["model.kv_heads"] == 12 and reading.facts["model.head_dim"] == 64
    assert reading.facts["model.ffn_size"] == 4 * 768 and reading.facts["model.tied_embeddings"] == 1
    assert reading.assumed == ("num_key_value_heads", "head_dim", "intermediate_size", "tie_word_embeddings")


def test_multimodal_configs_are_read_from_their_text_config() -> None:
    wrapped = {"model_type": "llava", "vision_config": {"hidden_size": 1024}, "text_config": LLAMA_31_8B}
    assert read_model_config(json.dumps(wrapped)).facts["model.layers"] == 32


SANS_HIDDEN = ("num_hidden_layers", "num_attention_heads", "vocab_size")


@pytest.mark.parametrize(
    ("text", "problem", "keys"),
    [
        ('{"num_hidden_layers": 32,', "not_json", ()),
        ("[1, 2]", "not_object", ()),
        ('{"hidden_size": 4096}', "missing", ("num_hidden_layers", "num_attention_heads", "vocab_size")),
        ('{"num_hidden_layers": "32", "hidden_size": 4096.5}', "not_number", ("num_hidden_layers", "hidden_size")),
        ('{"num_hidden_layers": true}', "not_number", ("num_hidden_layers",)),
        ("", "not_json", ()),
        # Hostile pastes: each once raised past the reader (a blank status line) or misplaced its error.
        ("[" * 100_000 + "]" * 100_000, "too_big", ()),
        ('{"a": ' + "[" * 40 + "]" * 40 + "}", "too_big", ()),
        (" " * 100_001, "too_big", ()),
        ('{"hidden_size": ' + "9" * 4_000 + "}", "too_large", ("hidden_size",)),
        ('{"vocab_size": 1' + "0" * 300 + "}", "too_large", ("vocab_size",)),
        ('{"vocab_size": ' + "1" * 10_001 + "}", "too_large", ("vocab_size",)),
        ('{"num_hidden_layers": 1e300}', "not_number", ("num_hidden_layers",)),
        ('{"name": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", "hidden_size": 4096}', "missing", SANS_HIDDEN),
    ],
)
def test_bad_pastes_name_the_problem(text: str, problem: str, keys: tuple[str, ...]) -> None:
    reading = read_model_config(text)
    assert (reading.problem, reading.keys, dict(reading.facts)) == (problem, keys, {})


def test_the_reading_fills_only_the_calculators_own_inputs(kits: dict[str, LocaleKit]) -> None:
    outcome = read_config(find("kv-cache-size"), json.dumps(GPT2), kits["en"])
    assert outcome.ok and outcome.values == {
        "layers": "12",
        "kv_heads": "12",
        "head_dim": "64",
        "attention_heads": "12",  # to check the key-value heads against
        "sliding_window": "0",  # GPT-2 has none: every layer keeps every token
        "sliding_window_share": "100",
        # Nor latent attention or layers without attention: a page another model filled keeps none of them.
        **dict.fromkeys(("kv_lora_rank", "qk_rope_head_dim", "qk_nope_head_dim", "v_head_dim"), "0"),
        **dict.fromkeys(("state_layers_share", "state_conv_channels", "state_conv_width", "recurrent_state"), "0"),
        "cacheless_layers_share": "0",
        "state_beside_attention": "0",
    }
    # Only the assumptions that reach this calculator's inputs are mentioned.
    assert outcome.message == (
        "Filled 16 inputs from the configuration. Not in it, so the usual default was taken: num_key_value_heads, "
        "head_dim."
    )
    sized = read_config(find("quantized-model-size"), json.dumps(LLAMA_31_8B), kits["en"])
    assert sized.values == {"params_billion": "8.03"}  # as a model card writes it: 4 significant digits


@pytest.mark.parametrize("tag", ["en", "ja", "de", "ar"])
def test_problems_are_told_in_the_readers_language(kits: dict[str, LocaleKit], tag: str) -> None:
    outcome = read_config(find("kv-cache-size"), "{", kits[tag])
    assert not outcome.ok and outcome.values == {}
    assert "1" in outcome.message and outcome.message
    if tag != "en":
        english = read_config(find("kv-cache-size"), "{", kits["en"]).message
        assert outcome.message != english


def test_a_long_integer_is_not_reported_at_line_0(kits: dict[str, LocaleKit]) -> None:
    # 10,001 digits once raised Python's integer-conversion limit, which was reported as "line 0, column 0".
    outcome = read_config(find("kv-cache-size"), '{"num_hidden_layers": ' + "1" * 10_001, kits["en"])
    assert outcome.message == "This is not valid JSON: check line 1, column 10,024."


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                    max_leaves=20)
       | st.text(max_size=60))  # fmt: skip
def test_every_paste_gets_an_answer(kits: dict[str, LocaleKit], pasted: object) -> None:
    text = pasted if isinstance(pasted, str) else json.dumps(pasted)
    outcome = read_config(find("transformer-params"), text, kits["en"])
    assert outcome.message


@pytest.mark.parametrize(
    ("config", "window", "share"),
    [
        # config.json's sliding_window; Gemma 2 windows every other layer (transformers' Gemma2Config.layer_types).
        ({"model_type": "mistral", "sliding_window": 4096}, "4096", "100"),
        ({"model_type": "gemma2", "sliding_window": 4096}, "4096", "50"),
        ({"model_type": "phi3", "sliding_window": 2047}, "2047", "100"),
        ({"model_type": "qwen2", "sliding_window": 131072, "use_sliding_window": False}, "0", "100"),
        ({"model_type": "mixtral", "sliding_window": None}, "0", "100"),
        ({"model_type": "gemma3_text", "sliding_window": 1024, "layer_types": ["sliding_attention"] * 3
          + ["full_attention"]}, "1024", "75"),
    ],
)  # fmt: skip
def test_a_config_gives_its_sliding_window(config: dict[str, object], window: str, share: str) -> None:
    shape = {"num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32, "vocab_size": 32000}
    reading = read_model_config(json.dumps({**shape, **config}))
    values = fill_values(find("kv-cache-size"), reading.facts)
    assert (values["sliding_window"], values["sliding_window_share"]) == (window, share)


def test_a_pasted_config_sets_the_lora_module_layout_and_no_experts(kits: dict[str, LocaleKit]) -> None:
    # Phi-3 fuses q/k/v into qkv_proj and gate/up into gate_up_proj (modeling_phi3.py); a dense config
    # sets no experts, so a page that held Mixtral's eight before counts none.
    phi3 = {
        "model_type": "phi3", "hidden_size": 3072, "intermediate_size": 8192, "num_attention_heads": 32,
        "num_hidden_layers": 32, "num_key_value_heads": 32, "vocab_size": 32064, "tie_word_embeddings": False,
    }  # fmt: skip
    outcome = read_config(find("lora-parameters"), json.dumps(phi3), kits["en"])
    assert outcome.values["module_layout"] == "phi3" and outcome.values["experts"] == "0"
    llama = read_config(find("lora-parameters"), json.dumps(LLAMA_31_8B), kits["en"])
    assert llama.values["module_layout"] == "llama"
    mixtral = read_config(find("lora-parameters"), json.dumps(MIXTRAL_8X7B), kits["en"])
    assert mixtral.values["experts"] == "8"


def test_a_second_pasted_config_leaves_nothing_of_the_first() -> None:
    # DeepSeek-V3's config, then Llama 3.1 8B's: the latent-attention ranks stayed, and the page counted 7.938 B.
    from calculators import evaluate, find
    from calculators.vocabulary.model_config import config_values, read_model_config

    params = find("transformer-params")
    first = config_values(params, read_model_config(json.dumps(DEEPSEEK_V3)))
    second = config_values(params, read_model_config(json.dumps(LLAMA_31_8B)))
    assert set(first) <= set(second), sorted(set(first) - set(second))
    result = evaluate(params, {**params.defaults(), **first, **second})
    assert round(result.results["total_params"]) == 8_030_261_248


def test_a_config_with_absurdly_many_layers_is_read_at_once() -> None:
    # transformers derives Llama 4's, Qwen3-Next's and Jamba's layer kinds layer by layer; past DEEPEST_MODEL layers
    # they are not derived, so a billion layers never make the page build a billion-item list.
    for family in ('"attention_chunk_size": 8192', '"model_type": "qwen3_next"', '"model_type": "jamba"'):
        reading = read_model_config(
            '{"num_hidden_layers": 999999999, "hidden_size": 64, "num_attention_heads": 4, "vocab_size": 10, '
            + family
            + "}"
        )
        assert not reading.problem
        assert reading.facts["model.state_layers_share"] == 0 and reading.facts["model.sliding_window"] == 0
