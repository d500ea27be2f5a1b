"""KV cache size: the published per-token and per-sequence figures, grouped-query attention, GB and GiB."""

from __future__ import annotations

import pytest

from calculators import LocaleKit, evaluate, find, make_report
from tests.helpers import ModelPreset, results_of

KV = find("kv-cache-size")
_result = results_of(KV)


def test_vllm_paper_opt_13b() -> None:
    # Kwon et al. §3: OPT-13B, 2 × 5120 × 40 × 2 bytes = "800 KB" per token (800 KiB); 2,048 tokens "1.6 GB".
    opt = {"layers": "40", "kv_heads": "40", "head_dim": "128", "context_tokens": "2048", "bytes_per_element": "2"}
    assert _result(**opt)["per_token_kib"] == 800
    assert _result(**opt, memory_unit="gib")["kv_cache_memory"] == pytest.approx(1.5625)
    assert _result(**opt, memory_unit="gb")["kv_cache_memory"] == pytest.approx(1.6777216)


@pytest.mark.parametrize(
    ("layers", "kv_heads", "per_token_kib"),
    [
        ("32", "8", 128),  # Llama-3.1-8B, grouped-query attention: 131,072 bytes per token
        ("80", "8", 320),  # Llama-2-70B: 327,680 bytes per token
        ("80", "64", 2560),  # the same model if every query head had its own key-value head
        ("32", "32", 512),  # Llama-2-7B, multi-head attention: 0.5 MiB per token
    ],
)
def test_per_token_sizes(layers: str, kv_heads: str, per_token_kib: float) -> None:
    assert _result(layers=layers, kv_heads=kv_heads)["per_token_kib"] == per_token_kib


def test_llama_31_8b_full_context_is_16_gib() -> None:
    assert _result(context_tokens="131072", memory_unit="gib")["kv_cache_memory"] == 16


def test_fp8_halves_and_batch_multiplies() -> None:
    base = _result()["kv_cache_memory"]
    assert _result(bytes_per_element="1")["kv_cache_memory"] == base / 2
    assert _result(batch_size="8")["kv_cache_memory"] == base * 8


def test_unit_choice_is_read_by_name_only() -> None:
    assert evaluate(KV, {**KV.defaults(), "memory_unit": "tb"}).problems[0].code == "unknown_choice"
    assert evaluate(KV, {**KV.defaults(), "memory_unit": "1073741824"}).problems[0].code == "unknown_choice"


@pytest.mark.parametrize(("unit", "shown"), [("gb", "GB"), ("gib", "GiB")])
def test_the_unit_follows_the_switch(kits: dict[str, LocaleKit], unit: str, shown: str) -> None:
    report = make_report(KV, {**KV.defaults(), "memory_unit": unit}, kits["en"])
    memory = report.results[0]
    assert memory.unit == shown
    assert memory.sentence.endswith(f"{memory.value} {shown}.")


MISTRAL_7B = {
    "layers": "32",
    "kv_heads": "8",
    "head_dim": "128",
    "sliding_window": "4096",
    "sliding_window_share": "100",
}


def test_mistral_7b_rolling_buffer_at_8192_tokens() -> None:
    # Mistral 7B (arXiv:2310.06825, section 2): the rolling buffer cache keeps the last W = 4,096 tokens of
    # every layer. From config.json's shapes: 32 layers × 2 × 8 KV heads × 128 × 2 bytes × 4,096 tokens
    # = 536,870,912 bytes, half of the 1,073,741,824 bytes the 8,192 tokens would take without the window.
    result = _result(**MISTRAL_7B, context_tokens="8192", memory_unit="gib")
    assert result["kv_cache_memory"] * 2**30 == 32 * 2 * 8 * 128 * 2 * 4096 == 536_870_912
    assert result["cached_tokens"] == 4096
    assert _result(**{**MISTRAL_7B, "sliding_window": "0"}, context_tokens="8192")["kv_cache_memory"] * 1e9 == 2**30
    # The paper: "on a sequence length of 32k tokens, this reduces the cache memory usage by 8x".
    full = _result(**{**MISTRAL_7B, "sliding_window": "0"}, context_tokens="32768")["kv_cache_memory"]
    assert full / _result(**MISTRAL_7B, context_tokens="32768")["kv_cache_memory"] == 8
    # Within the window nothing changes: 4,096 tokens or fewer are all kept.
    assert _result(**MISTRAL_7B, context_tokens="3000")["cached_tokens"] == 3000


def test_each_engine_keeps_its_own_window() -> None:
    # transformers 5.23.0, src/transformers/cache_utils.py, DynamicSlidingWindowLayer.update, lines 244-247:
    # "Only cache the last `self.sliding_window - 1` tokens", keys = full_key_states[:, :, -self.sliding_window + 1 :,
    # :]; the next query sees itself and those W - 1 (masking_utils.py, line 95: kv_idx > q_idx - sliding_window).
    dynamic = _result(**MISTRAL_7B, window_convention="window-minus-one", context_tokens="8192", memory_unit="gib")
    assert dynamic["cached_tokens"] == 4095
    assert dynamic["kv_cache_memory"] * 2**30 == 32 * 2 * 8 * 128 * 2 * 4095
    # mistral-inference 1.6.0, cache.py: get_cache_sizes (line 17) gives each layer sliding_window slots and
    # BufferCache (lines 165-167) allocates them, token i at i mod W; transformers' StaticSlidingWindowLayer
    # allocates min(sliding_window, max_cache_len) (cache_utils.py, line 526); vLLM keeps "the last
    # `self.sliding_window-1` computed tokens plus the newly scheduled tokens" (vllm/v1/kv_cache_interface.py,
    # SlidingWindowSpec), W in a decode step. That count is the default, so links without the input keep theirs.
    old_link = {k: v for k, v in KV.defaults().items() if k != "window_convention"}
    assert KV.input("window_convention").optional
    assert evaluate(KV, {**old_link, **MISTRAL_7B, "context_tokens": "8192"}).results["cached_tokens"] == 4096
    assert _result(**MISTRAL_7B, window_convention="window", context_tokens="8192")["cached_tokens"] == 4096
    # Inside the window every engine keeps every token.
    assert _result(**MISTRAL_7B, window_convention="window-minus-one", context_tokens="4095")["cached_tokens"] == 4095


def test_gemma_2_9b_windows_every_other_layer() -> None:
    # Gemma 2 (arXiv:2408.00118, section 2): local sliding-window (4,096) and global attention alternate, so 21
    # of the 42 layers keep 4,096 tokens and 21 keep all 8,192. config.json: 8 KV heads of 256, BF16:
    # 2 × 8 × 256 × 2 × (21 × 4,096 + 21 × 8,192) = 2,113,929,216 bytes, 0.75 of the 2,818,572,288 without it.
    gemma = {"layers": "42", "kv_heads": "8", "head_dim": "256", "sliding_window": "4096", "sliding_window_share": "50"}
    result = _result(**gemma, context_tokens="8192")
    assert result["kv_cache_memory"] * 1e9 == pytest.approx(2 * 8 * 256 * 2 * (21 * 4096 + 21 * 8192), rel=1e-15)
    assert result["kv_cache_memory"] * 1e9 == pytest.approx(2_113_929_216, rel=1e-15)
    unwindowed = _result(**{**gemma, "sliding_window": "0"}, context_tokens="8192")["kv_cache_memory"]
    assert result["kv_cache_memory"] / unwindowed == pytest.approx(0.75)


def test_phi_3_mini_window_of_2047() -> None:
    # Phi-3-mini-4k-instruct's config.json: sliding_window 2047 on its 32 layers of 32 KV heads of 96. At its
    # full 4,096 tokens each layer keeps 2,047: 2 × 32 × 32 × 96 × 2 × 2,047 = 804,913,152 bytes, 2,047/4,096.
    phi = {"layers": "32", "kv_heads": "32", "head_dim": "96", "sliding_window": "2047", "sliding_window_share": "100"}
    result = _result(**phi, context_tokens="4096")
    assert result["kv_cache_memory"] * 1e9 == pytest.approx(804_913_152, rel=1e-15)


def test_old_links_without_a_window_keep_their_results() -> None:
    old = {"layers": "40", "kv_heads": "40", "head_dim": "128", "context_tokens": "2048", "bytes_per_element": "2",
           "batch_size": "1", "memory_unit": "gib"}  # fmt: skip
    result = evaluate(KV, old)
    assert result.ok and result.results["kv_cache_memory"] == pytest.approx(1.5625)
    assert KV.input("sliding_window").optional and KV.input("sliding_window_share").optional


def test_presets_fill_the_window(model_preset: ModelPreset) -> None:
    filled = {
        name: {k: v for k, v in model_preset(KV, name).items() if k.startswith("sliding_window")}
        for name in ("mistralai/Mistral-7B-v0.1", "google/gemma-2-9b", "microsoft/Phi-3-mini-4k-instruct",
                     "meta-llama/Llama-3.1-8B")
    }  # fmt: skip
    assert filled == {
        "mistralai/Mistral-7B-v0.1": {"sliding_window": "4096", "sliding_window_share": "100"},
        "google/gemma-2-9b": {"sliding_window": "4096", "sliding_window_share": "50"},
        "microsoft/Phi-3-mini-4k-instruct": {"sliding_window": "2047", "sliding_window_share": "100"},
        "meta-llama/Llama-3.1-8B": {"sliding_window": "0", "sliding_window_share": "100"},
    }


def test_more_key_value_heads_than_attention_heads_is_refused(
    kits: dict[str, LocaleKit], model_preset: ModelPreset
) -> None:
    # transformers' attention gives each key-value head attention_heads // kv_heads query heads (repeat_kv):
    # 8 key-value heads for 32 query heads (Llama-3.1-8B) serve 4 each; 64 for 32 cannot be.
    values = {**KV.defaults(), "attention_heads": "32", "kv_heads": "64"}
    assert [(p.name, p.code) for p in evaluate(KV, values).problems] == [("kv_heads", "rule")]
    errors = make_report(KV, values, kits["de"]).errors
    assert errors[0].name == "kv_heads" and "die 32 Attention-Heads ohne Rest teilt" in errors[0].message
    # The query heads do not change the cache, so an old link that leaves them out is not checked.
    assert evaluate(KV, {**KV.defaults(), "kv_heads": "64"}).ok
    # A model preset fills them (Llama-3.1-8B: 32 and 8), so a preset is checked.
    assert model_preset(KV, "meta-llama/Llama-3.1-8B")["attention_heads"] == "32"


def test_deepseek_v2_latent_cache_is_nine_halves_of_a_head_per_layer() -> None:
    # DeepSeek-V2 (arXiv:2405.04434, Table 1): MLA keeps (d_c + d_h^R) · l = 9/2 · d_h · l numbers per token, with
    # d_c = 4 d_h and d_h^R = d_h / 2; DeepSeek-V2 has 60 layers, d_h 128, d_c 512, d_h^R 64.
    v2 = {"layers": "60", "kv_heads": "128", "kv_lora_rank": "512", "qk_rope_head_dim": "64"}
    assert _result(**v2)["per_token_kib"] * 1024 == 4.5 * 128 * 60 * 2
    # The same model with standard multi-head attention would keep 2 · n_h · d_h · l: 2 × 128 × 128 × 60.
    assert _result(layers="60", kv_heads="128", head_dim="128")["per_token_kib"] * 1024 == 2 * 128 * 128 * 60 * 2


def test_vllm_keeps_the_whole_chunk_and_one_convolution_input_fewer() -> None:
    # Llama 4 Scout's local layers (36 of 48) in chunks of 8,192: vLLM's ChunkedLocalAttentionSpec holds the chunk
    # at its end, transformers' dynamic cache 8,191.
    scout = {"layers": "48", "kv_heads": "8", "sliding_window": "8192", "sliding_window_share": "75"}
    vllm = _result(**scout, context_tokens="20000")["cached_tokens"]
    hf = _result(**scout, context_tokens="20000", window_convention="window-minus-one")["cached_tokens"]
    assert (vllm, hf) == ((12 * 20000 + 36 * 8192) / 48, (12 * 20000 + 36 * 8191) / 48)
    # Qwen3-Next's Gated DeltaNet, per layer and sequence (vLLM's MambaStateShapeCalculator): a convolution state
    # of 8,192 channels × (4 - 1) inputs and a temporal state of 32 × 128 × 128, in the model's 16 bits; in
    # transformers 4 inputs and the temporal state in FP32.
    qwen = {
        "layers": "48",
        "kv_heads": "2",
        "head_dim": "256",
        "state_layers_share": "75",
        "state_conv_channels": "8192",
        "state_conv_width": "4",
        "recurrent_state": "524288",
        "memory_unit": "gib",
    }
    assert _result(**qwen)["state_memory"] * 2**30 == 36 * (8192 * 3 * 2 + 32 * 128 * 128 * 2)
    hf_state = _result(**qwen, window_convention="window-minus-one")["state_memory"] * 2**30
    assert hf_state == 36 * (8192 * 4 * 2 + 32 * 128 * 128 * 4)
    # Nemotron-H asks for an FP32 state in config.json (mamba_ssm_cache_dtype), and vLLM follows.
    assert _result(**qwen, state_precision="4")["state_memory"] * 2**30 == 36 * (8192 * 3 * 2 + 32 * 128 * 128 * 4)


def test_layers_with_a_window_and_with_a_state_cannot_outnumber_the_layers() -> None:
    evaluation = evaluate(
        KV, {**KV.defaults(), "sliding_window": "1024", "sliding_window_share": "50", "state_layers_share": "75"}
    )
    assert not evaluation.ok and [problem.name for problem in evaluation.problems] == ["state_layers_share"]


def test_deepseek_v3_preset_is_offered_and_cached_as_a_latent(model_preset: ModelPreset) -> None:
    # The page takes the latent-attention facts, so DeepSeek-V3's preset is no longer withheld from it.
    values = model_preset(KV, "deepseek-ai/DeepSeek-V3")
    assert values["kv_lora_rank"] == "512"
    assert _result(**values)["per_token_kib"] * 1024 == 61 * (512 + 64) * 2


def test_the_articles_figures() -> None:
    # Llama 4 Scout at 131,072 tokens: 36 chunked layers of 48 hold 8,192 in vLLM; 7.125 GiB instead of 24.
    scout = {"layers": "48", "kv_heads": "8", "context_tokens": "131072", "memory_unit": "gib"}
    assert _result(**scout)["kv_cache_memory"] == 24
    assert _result(**scout, sliding_window="8192", sliding_window_share="75")["kv_cache_memory"] == 7.125
    # DeepSeek-V3 at 32,768 tokens: 2.14 GiB as a latent, 152.5 GiB decompressed.
    v3 = {"layers": "61", "kv_heads": "128", "kv_lora_rank": "512", "qk_rope_head_dim": "64", "qk_nope_head_dim": "128"}
    v3 |= {"v_head_dim": "128", "context_tokens": "32768", "memory_unit": "gib"}
    assert _result(**v3)["kv_cache_memory"] == pytest.approx(2.14453125)
    assert _result(**v3, latent_cache="decompressed")["kv_cache_memory"] == 152.5
    # Qwen3-Next-80B-A3B at 262,144 tokens: 6 GiB in its 12 attention layers, 37.7 MiB of state (1.05 MiB a layer).
    qwen = {"layers": "48", "kv_heads": "2", "head_dim": "256", "state_layers_share": "75", "memory_unit": "gib"}
    qwen |= {"state_conv_channels": "8192", "state_conv_width": "4", "recurrent_state": "524288"}
    result = _result(**qwen, context_tokens="262144")
    assert result["kv_cache_memory"] == 6
    assert result["state_memory"] * 1024 == pytest.approx(37.6875)
