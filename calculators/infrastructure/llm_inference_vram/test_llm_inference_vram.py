"""LLM inference VRAM: the 1.2 × weights rule of thumb, the KV cache, where the 20% applies, validation."""

from __future__ import annotations

import pytest

from calculators import LocaleKit, evaluate, make_report
from calculators.infrastructure.llm_inference_vram import CALCULATOR as SERVE
from calculators.kernel.spec import MemoryChart
from tests.helpers import results_of

_page = results_of(SERVE)


def _result(**values: str) -> dict[str, float]:
    """The rule of thumb's results, which these published examples use; the page counts its overhead by default."""
    return _page(**{"overhead_model": "rule-of-thumb", **values})


LLAMA_2_7B = {"params_billion": "6.738415616", "layers": "32", "kv_heads": "32", "head_dim": "128"}


def test_stoelinga_70b_in_16_bits() -> None:
    # Stoelinga: M = P × 4 B ÷ (32 ÷ Q) × 1.2; "70 * 4bytes / (32/16) * 1.2 = 168GB". No context, no cache.
    result = _result(params_billion="70", bits_per_weight="16", context_tokens="0")
    assert result["total_memory"] == pytest.approx(168)
    assert result["weights_memory"] == pytest.approx(70 * 4 / (32 / 16))


@pytest.mark.parametrize(("bits", "total_gb"), [("4", 4.2), ("16", 16.8)])
def test_7b_at_4_and_16_bits(bits: str, total_gb: float) -> None:
    # Reference sheet 21b [CALC]: the same rule for 7 B parameters.
    assert _result(params_billion="7", bits_per_weight=bits, context_tokens="0")["total_memory"] == pytest.approx(
        total_gb
    )


def test_llama_2_7b_weights_times_1_2() -> None:
    # 21c [CALC]: 13.4768 GB of FP16 weights × 1.2 = 16.17 GB.
    result = _result(**LLAMA_2_7B, context_tokens="0")
    assert result["weights_memory"] == pytest.approx(13.4768, abs=0.00005)
    assert result["total_memory"] == pytest.approx(16.17, abs=0.005)


def test_llama_2_7b_with_a_4096_token_cache() -> None:
    # 21d [CALC]: a 4,096-token cache for one sequence is 2.1475 GB; weights plus cache 15.62 GB;
    # with the 20% on both, 18.75 GB. With the 20% on the weights only (the default), 16.17 + 2.15 = 18.32 GB.
    both = _result(**LLAMA_2_7B, context_tokens="4096", overhead_applies_to="all")
    assert both["kv_cache_memory"] == pytest.approx(2.1475, abs=0.00005)
    assert both["weights_memory"] + both["kv_cache_memory"] == pytest.approx(15.62, abs=0.005)
    assert both["total_memory"] == pytest.approx(18.75, abs=0.005)
    weights_only = _result(**LLAMA_2_7B, context_tokens="4096")
    assert weights_only["total_memory"] == pytest.approx(18.32, abs=0.005)


def test_accelerate_up_to_20_percent() -> None:
    # Hugging Face Accelerate: "add up to an additional 20%" for inference; that is the default allowance.
    result = _result(context_tokens="0")
    assert result["overhead_memory"] == pytest.approx(0.2 * result["weights_memory"])


def test_defaults_llama_3_1_8b() -> None:
    # [CALC] 8,030,261,248 BF16 parameters = 16.06 GB; 128 KiB per token × 8,192 tokens = 1 GiB of cache.
    result = _result()
    assert result["weights_memory"] == pytest.approx(16.060522496)
    assert result["kv_cache_memory"] == pytest.approx(2**30 / 1e9)
    assert result["total_memory"] == pytest.approx(16.060522496 * 1.2 + 2**30 / 1e9)
    assert _result(memory_unit="gib")["kv_cache_memory"] == pytest.approx(1)


def test_chart_parts_add_up_to_the_total() -> None:
    for applies in ("weights", "all"):
        result = _result(overhead_applies_to=applies, batch_size="16")
        parts = [result[part.name] for part in SERVE.chart.parts] if isinstance(SERVE.chart, MemoryChart) else []
        assert sum(parts) == pytest.approx(result["total_memory"])


def test_overhead_can_be_switched_off() -> None:
    result = _result(overhead_percent="0")
    assert result["total_memory"] == pytest.approx(result["weights_memory"] + result["kv_cache_memory"])


def test_fp8_cache_halves_and_batch_multiplies() -> None:
    base = _result()["kv_cache_memory"]
    assert _result(bytes_per_element="1")["kv_cache_memory"] == pytest.approx(base / 2)
    assert _result(batch_size="8")["kv_cache_memory"] == pytest.approx(base * 8)


@pytest.mark.parametrize(
    ("name", "value", "code"),
    [
        ("params_billion", "0", "too_small"),
        ("bits_per_weight", "65", "too_large"),
        ("context_tokens", "-1", "too_small"),
        ("batch_size", "1.5", "not_whole"),
        ("bytes_per_element", "3", "unknown_choice"),
        ("overhead_applies_to", "kv", "unknown_choice"),
        ("overhead_percent", "-5", "too_small"),
        ("layers", "many", "not_a_number"),
        ("kv_heads", "", "required"),
    ],
)
def test_bad_input_is_a_problem(name: str, value: str, code: str) -> None:
    result = evaluate(SERVE, {**SERVE.defaults(), name: value})
    assert [(p.name, p.code) for p in result.problems] == [(name, code)]


def test_advanced_inputs_may_be_left_out() -> None:
    values = {k: v for k, v in SERVE.defaults().items() if k not in {"overhead_percent", "overhead_applies_to"}}
    assert evaluate(SERVE, values).ok


def test_english_report_fills_every_placeholder(kits: dict[str, LocaleKit]) -> None:
    report = make_report(SERVE, {**SERVE.defaults(), "overhead_model": "rule-of-thumb"}, kits["en"])
    assert report.ok
    for result in report.results:
        assert "{" not in result.sentence and result.value
    assert report.results[0].sentence.startswith("Serving needs about 20.35 GB")
    counted = make_report(SERVE, SERVE.defaults(), kits["en"])
    assert counted.results[0].sentence.startswith("Serving needs about 18.61 GB")
    assert "counted from the model and the prompt" in counted.results[3].sentence


QWEN25 = {  # config.json of Qwen2.5-0.5B-Instruct and Qwen2.5-7B-Instruct (tied and untied heads)
    "0.5B": {
        "params_billion": "0.494032768",
        "layers": "24",
        "kv_heads": "2",
        "head_dim": "64",
        "hidden_size": "896",
        "ffn_size": "4864",
        "vocab_size": "151936",
        "tied_embeddings": "1",
    },
    "7B": {
        "params_billion": "7.615616512",
        "layers": "28",
        "kv_heads": "4",
        "head_dim": "128",
        "hidden_size": "3584",
        "ffn_size": "18944",
        "vocab_size": "152064",
        "tied_embeddings": "0",
    },
}


@pytest.mark.parametrize(
    ("model", "bits", "prompt", "measured_gib"),
    [
        # Qwen2.5 speed benchmark (transformers 4.46, FlashAttention 2, 2,048 new tokens), the sum of
        # torch.cuda.max_memory_allocated in GiB: BF16 at 1 and 30,720 prompt tokens, GPTQ-Int4 and AWQ at 30,720.
        ("0.5B", "16", 1, 0.97),
        ("0.5B", "16", 30720, 2.34),
        ("7B", "16", 1, 14.38),
        ("7B", "16", 30720, 19.97),
        ("7B", "4.15625", 30720, 11.11),
    ],
)
def test_the_counted_overhead_reproduces_measured_serving(
    model: str, bits: str, prompt: int, measured_gib: float
) -> None:
    # Allocated bytes leave the CUDA context out. The rule of thumb misses the long prompts of the small and the
    # quantized model by 37% and 44% (and the short ones of 16-bit models come out 16% to 20% high).
    values = {
        **QWEN25[model],
        "bits_per_weight": bits,
        "context_tokens": str(prompt + 2048),
        "cuda_context_gb": "0",
        "memory_unit": "gib",
    }
    assert _page(**values)["total_memory"] == pytest.approx(measured_gib, rel=0.1)
    if prompt > 1 and (model == "0.5B" or bits != "16"):
        assert _result(**values)["total_memory"] / measured_gib - 1 < -0.3


def test_mistral_7b_cache_keeps_its_window() -> None:
    # Mistral 7B v0.1's config.json: 32 layers, 8 KV heads of 128, sliding_window 4096 on every layer. At 8,192
    # tokens the rolling buffer (arXiv:2310.06825, section 2) holds 4,096 per layer: 32 × 2 × 8 × 128 × 2 bytes
    # × 4,096 = 536,870,912 bytes, half the 8,192-token cache. Its 7,241,732,096 BF16 weights are 14.48 GB.
    mistral = {"params_billion": "7.241732096", "layers": "32", "kv_heads": "8", "head_dim": "128"}
    windowed = _result(**mistral, sliding_window="4096", sliding_window_share="100", context_tokens="8192")
    assert windowed["kv_cache_memory"] * 1e9 == pytest.approx(536_870_912, rel=1e-15)
    assert windowed["cached_tokens"] == 4096
    full = _result(**mistral, context_tokens="8192")
    assert full["kv_cache_memory"] == pytest.approx(2 * windowed["kv_cache_memory"])
    assert windowed["weights_memory"] == full["weights_memory"] == pytest.approx(14.483464192)
    # Gemma 2 9B windows half its 42 layers: 0.75 of the 8,192-token cache (2,113,929,216 bytes).
    gemma = {"layers": "42", "kv_heads": "8", "head_dim": "256", "context_tokens": "8192"}
    half = _result(**gemma, sliding_window="4096", sliding_window_share="50")
    assert half["kv_cache_memory"] * 1e9 == pytest.approx(2_113_929_216, rel=1e-15)


def test_old_links_leave_the_window_out() -> None:
    assert SERVE.input("sliding_window").optional and SERVE.defaults()["sliding_window"] == "0"
    old = {name: value for name, value in SERVE.defaults().items() if not name.startswith("sliding_window")}
    assert evaluate(SERVE, old).results["kv_cache_memory"] == pytest.approx(2**30 / 1e9)
