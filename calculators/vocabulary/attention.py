"""What a model keeps for each sequence while it generates, layer by layer, whatever its attention design.

An attention layer keeps a key and a value per key-value head for every token it can still attend to (Kwon et al.,
vLLM, arXiv:2309.06180, §3); a layer with a sliding window (Mistral 7B, arXiv:2310.06825, §2; Gemma 2 and 3,
gpt-oss) or with chunked attention (Llama 4's local layers, which attend within their chunk of
attention_chunk_size tokens) keeps at most that window or chunk. Multi-head latent attention (DeepSeek-V2,
arXiv:2405.04434, §2.1 and Table 1) keeps, per token and layer, one compressed latent of kv_lora_rank numbers and
one rotary key of qk_rope_head_dim, (d_c + d_h^R) · l, where standard attention would keep 2 · n_h · d_h · l.
Linear-attention and state-space layers (Qwen3-Next's Gated DeltaNet, Jamba's Mamba, Mamba-2 hybrids) keep a
state of fixed size instead of a cache that grows: a short convolution's last inputs and a recurrent state.

Engines store the same things a little differently, and the page says which convention it shows:

- Windows and chunks: vLLM keeps W tokens in a decode step (vllm/v1/kv_cache_interface.py,
  `SlidingWindowSpec` and `ChunkedLocalAttentionSpec`, whose peak is the whole chunk just before the next one
  starts), as Mistral's rolling buffer (mistral-inference 1.6.0, cache.py, `get_cache_sizes` and `BufferCache`)
  and transformers' static cache (`StaticSlidingWindowLayer`) do; transformers' dynamic cache keeps W - 1
  between steps for both (cache_utils.py, `DynamicSlidingWindowLayer`, which Llama 4's chunked layers also use).
- Latent attention: vLLM, SGLang and DeepSeek's own inference code cache the latent, and so does transformers
  5 (modeling_deepseek_v3.py caches `kv_nope` and `k_rot` before decompressing); transformers 4 cached the
  decompressed keys, n_h · (d_nope + d_rope), and values, n_h · d_v, per token and layer (4.57.1,
  modeling_deepseek_v3.py, line 421).
- States: vLLM keeps the convolution's last kernel - 1 inputs and the recurrent state in the model's precision
  unless told otherwise (--mamba-ssm-cache-dtype, or mamba_ssm_cache_dtype in config.json), both per layer
  (vllm/model_executor/layers/mamba/mamba_utils.py, `MambaStateShapeCalculator` and
  `MambaStateDtypeCalculator`); transformers keeps kernel inputs and the recurrent state in FP32
  (cache_utils.py, `LinearAttentionLayer`; measured on the meta device in the tests).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from decimal import Decimal
from types import MappingProxyType

from calculators.kernel.spec import N_, Choice, InputSpec, Kind, Message, Rule

from . import inputs, units
from .inputs import LATENT_ATTENTION_INPUTS, SLIDING_WINDOW, SLIDING_WINDOW_SHARE, WINDOW_CONVENTION

__all__ = [
    "CACHELESS_LAYERS_SHARE",
    "CACHE_INPUTS",
    "DECOMPRESSED",
    "LATENT_CACHE",
    "LAYER_SHARES_RULE",
    "RECURRENT_STATE",
    "STATE_BESIDE_ATTENTION",
    "STATE_CONV_CHANNELS",
    "STATE_CONV_WIDTH",
    "STATE_INPUTS",
    "STATE_LAYERS_SHARE",
    "STATE_PRECISION",
    "TRANSFORMERS",
    "WINDOW_INPUTS",
    "Cache",
    "cache_of",
]

TRANSFORMERS = 1.0
"""`WINDOW_CONVENTION`'s number for transformers' dynamic cache (W - 1 tokens, kernel inputs, FP32 states)."""
DECOMPRESSED = 1.0
"""`LATENT_CACHE`'s number for decompressed keys and values (transformers 4)."""

_LATENT = N_("input", "Latent attention (DeepSeek, Kimi K2)")
_LATENT_INPUTS = MappingProxyType({spec.name: replace(spec, group=_LATENT) for spec in LATENT_ATTENTION_INPUTS})
LATENT_CACHE = InputSpec(
    name="latent_cache",
    kind=Kind.CHOICE,
    group=_LATENT,
    label=N_("input", "Latent attention cache"),
    help=N_(
        "input",
        "How a model with multi-head latent attention (DeepSeek-V2 and V3, Kimi K2) is cached. Engines with "
        "latent-attention kernels (vLLM, SGLang, DeepSeek's own code, transformers 5) keep one compressed "
        "latent and one rotary key per token and layer; transformers 4 kept every head's key and value, "
        "decompressed, which takes dozens of times more. Ignored for other models.",
    ),
    default="latent",
    choices=(
        Choice("latent", N_("input", "Compressed latent (vLLM, SGLang, transformers 5)"), number="0"),
        Choice("decompressed", N_("input", "Every head's key and value (transformers 4)"), number="1"),
    ),
    fraction_digits=0,
    optional=True,
    advanced=True,
)
_STATE = N_("input", "Layers without attention")
STATE_LAYERS_SHARE = InputSpec(
    name="state_layers_share",
    kind=Kind.DECIMAL,
    group=_STATE,
    label=N_("input", "Layers with a fixed-size state"),
    help=N_(
        "input",
        "The percentage of layers that keep a state of fixed size instead of a cache that grows with the "
        "context: linear-attention layers (Qwen3-Next's Gated DeltaNet, 75) and state-space layers (Jamba's "
        "Mamba, 87.5). 0 for a transformer whose every layer has attention.",
    ),
    default="0",
    unit=units.PERCENT,
    minimum=Decimal(0),
    maximum=Decimal(100),
    fraction_digits=2,
    optional=True,
    preset="model.state_layers_share",
)

CACHELESS_LAYERS_SHARE = replace(
    STATE_LAYERS_SHARE,
    name="cacheless_layers_share",
    label=N_("input", "Layers that keep nothing"),
    help=N_(
        "input",
        "The percentage of layers with neither attention nor a state, such as the MLP and mixture-of-experts "
        "layers Nemotron-H interleaves with its Mamba-2 and attention layers (23 of the 52 in Nemotron 3 Nano). "
        "0 where every layer has one or the other.",
    ),
    preset="model.cacheless_layers_share",
)

STATE_BESIDE_ATTENTION = replace(
    inputs.choice_input(
        "state_beside_attention",
        _STATE,
        N_("input", "State layers attend too"),
        N_(
            "input",
            "Yes where each layer with a state also has attention beside it, so it keeps both a cache and a state: "
            "Falcon-H1 runs attention and Mamba-2 side by side in every layer. No where a layer has one or the "
            "other (Jamba, Qwen3-Next, Nemotron-H).",
        ),
        "0",
        units.YES_NO,
    ),
    optional=True,
    preset="model.state_beside_attention",
)


def _state_count(name: str, label: Message, help_text: Message, preset: str) -> InputSpec:
    """A size of the fixed-size state, as config.json gives it (the reader works it out per family)."""
    return InputSpec(
        name=name,
        kind=Kind.INTEGER,
        group=_STATE,
        label=label,
        help=help_text,
        default="0",
        minimum=Decimal(0),
        maximum=Decimal(1_000_000_000),
        fraction_digits=0,
        optional=True,
        advanced=True,
        preset=preset,
    )


STATE_CONV_CHANNELS = _state_count(
    "state_conv_channels",
    N_("input", "Convolution channels"),
    N_(
        "input",
        "Channels of the short convolution each such layer runs over its inputs. Gated DeltaNet: "
        "2 × linear_num_key_heads × linear_key_head_dim + linear_num_value_heads × linear_value_head_dim "
        "(8,192 for Qwen3-Next-80B-A3B); Mamba: mamba_expand × hidden_size; Mamba-2: its inner width plus "
        "2 × groups × state size.",
    ),
    "model.state_conv_channels",
)
STATE_CONV_WIDTH = _state_count(
    "state_conv_width",
    N_("input", "Convolution width"),
    N_(
        "input",
        "The convolution's kernel: linear_conv_kernel_dim or mamba_d_conv in config.json (4 in every model "
        "named here). vLLM keeps the last width − 1 inputs, transformers the last width.",  # noqa: RUF001
    ),
    "model.state_conv_width",
)
RECURRENT_STATE = _state_count(
    "recurrent_state",
    N_("input", "Recurrent state"),
    N_(
        "input",
        "Numbers in each such layer's recurrent state per sequence. Gated DeltaNet: linear_num_value_heads × "
        "linear_key_head_dim × linear_value_head_dim (524,288 for Qwen3-Next-80B-A3B); Mamba: its inner width × "
        "mamba_d_state; Mamba-2: heads × head dimension × state size.",
    ),
    "model.recurrent_state",
)
STATE_PRECISION = InputSpec(
    name="state_precision",
    kind=Kind.CHOICE,
    group=_STATE,
    label=N_("input", "Recurrent state precision"),
    help=N_(
        "input",
        "vLLM keeps the recurrent state in the model's precision unless --mamba-ssm-cache-dtype or "
        "mamba_ssm_cache_dtype in config.json asks for FP32 (Nemotron-H does). transformers always keeps it "
        "in FP32, whatever this says. The convolution's inputs stay in the model's 16 bits.",
    ),
    default="2",
    choices=(
        Choice("4", N_("input", "FP32 (4 bytes)")),
        Choice("2", N_("input", "BF16 or FP16 (2 bytes)")),
    ),
    fraction_digits=0,
    optional=True,
    advanced=True,
    preset="model.state_precision",
)


def _layer_shares_fit(values: Mapping[str, float]) -> bool:
    """Whether the windowed layers, the state layers and those that keep nothing are together no more than all."""
    windowed = values.get("sliding_window_share", 100.0) if values.get("sliding_window", 0.0) else 0.0
    apart = 0.0 if values.get("state_beside_attention", 0.0) else values.get("state_layers_share", 0.0)
    return windowed + apart + values.get("cacheless_layers_share", 0.0) <= 100


LAYER_SHARES_RULE = Rule(
    "state_layers_share",
    _layer_shares_fit,
    # Translators: {state_layers_share}, {sliding_window_share} and {cacheless_layers_share} are percentages the
    # reader typed (the % sign follows each placeholder).
    N_(
        "input",
        "The layers with a fixed-size state ({state_layers_share}%), those with the window "
        "({sliding_window_share}%) and those that keep nothing ({cacheless_layers_share}%) add up to more than all "
        "the layers: a layer is one of them at most.",
    ),
)

WINDOW_INPUTS: tuple[InputSpec, ...] = (SLIDING_WINDOW, SLIDING_WINDOW_SHARE, WINDOW_CONVENTION)
"""The window (or chunk), the layers with it, and the engine's convention."""
STATE_INPUTS: tuple[InputSpec, ...] = (
    STATE_LAYERS_SHARE,
    STATE_BESIDE_ATTENTION,
    CACHELESS_LAYERS_SHARE,
    STATE_CONV_CHANNELS,
    STATE_CONV_WIDTH,
    RECURRENT_STATE,
    STATE_PRECISION,
)
"""The layers with a fixed-size state instead of a cache, those that keep nothing, and the state's sizes."""
CACHE_INPUTS: tuple[InputSpec, ...] = (
    *WINDOW_INPUTS,
    *(_LATENT_INPUTS[name] for name in ("kv_lora_rank", "qk_rope_head_dim", "qk_nope_head_dim", "v_head_dim")),
    LATENT_CACHE,
    *STATE_INPUTS,
)
"""The inputs beyond layers, key-value heads, head dimension and cache precision that say what a model caches:
the cache pages take them all, so a preset or a pasted config loses none of its facts. The GPU memory planner takes
all but the latent ones: its activations assume standard attention, so it withholds latent-attention models
(`model_config.covers`)."""


@dataclass(frozen=True)
class Cache:
    """What one sequence keeps at a context of s tokens, in bytes."""

    per_token: float
    """What one more token adds over all the layers that cache it, before any window caps it."""
    keys_values: float
    """Keys and values (or latents) of the attention layers."""
    state: float
    """Fixed-size states of the layers without attention."""
    cached_tokens: float
    """Tokens an attention layer keeps, averaged over the attention layers."""


def cache_of(values: Mapping[str, float]) -> Cache:
    """Return what one sequence of `context_tokens` tokens keeps, layer by layer.

    Needs layers, kv_heads, head_dim, bytes_per_element and context_tokens; every other fact is optional and
    absent means 0 (no window, standard attention, no state layers) or the first choice (vLLM's convention, the
    latent cached, the state in 16 bits).

    DeepSeek-V2 (arXiv:2405.04434, Table 1): latent attention keeps (d_c + d_h^R) · l numbers per token with
    d_c = 4 · d_h and d_h^R = d_h / 2, "9/2 d_h l"; for DeepSeek-V3's 61 layers (d_c 512, d_h^R 64) that is
    61 × 576 = 35,136 numbers, 70,272 bytes in BF16, where decompressed keys and values of 128 heads take
    61 × 128 × (128 + 64 + 128) = 2,498,560 numbers:

    >>> v3 = {"layers": 61, "kv_heads": 128, "head_dim": 56, "bytes_per_element": 2, "context_tokens": 1,
    ...       "kv_lora_rank": 512, "qk_rope_head_dim": 64, "qk_nope_head_dim": 128, "v_head_dim": 128}
    >>> cache_of(v3).per_token, cache_of({**v3, "latent_cache": DECOMPRESSED}).per_token / 2
    (70272.0, 2498560.0)

    Qwen3-Next-80B-A3B: 12 of its 48 layers have attention (2 key-value heads of 256); the other 36 keep a
    Gated DeltaNet state, in vLLM 3 of the convolution's 4 inputs of 8,192 channels plus 32 × 128 × 128 numbers,
    all in BF16:

    >>> qwen = {"layers": 48, "kv_heads": 2, "head_dim": 256, "bytes_per_element": 2, "context_tokens": 1000,
    ...         "state_layers_share": 75, "state_conv_channels": 8192, "state_conv_width": 4,
    ...         "recurrent_state": 524288, "state_precision": 2}
    >>> cache = cache_of(qwen)
    >>> cache.per_token, cache.keys_values, cache.state
    (24576.0, 24576000.0, 39518208.0)
    """
    layers = values["layers"]
    context = values["context_tokens"]
    transformers = values.get("window_convention", 0.0) == TRANSFORMERS
    state_layers = layers * values.get("state_layers_share", 0.0) / 100
    # Falcon-H1's layers hold attention and a state side by side; the others hold one or the other.
    beside = values.get("state_beside_attention", 0.0)
    attention_layers = (
        layers - (0.0 if beside else state_layers) - layers * values.get("cacheless_layers_share", 0.0) / 100
    )
    window = values.get("sliding_window", 0.0)
    windowed = layers * values.get("sliding_window_share", 100.0) / 100 if window else 0.0
    windowed = min(windowed, attention_layers)
    kept = min(context, window - (1 if transformers else 0)) if window else context
    token_layers = (attention_layers - windowed) * context + windowed * kept  # tokens kept, summed over layers
    latent = values.get("kv_lora_rank", 0.0)
    if latent > 0 and values.get("latent_cache", 0.0) == DECOMPRESSED:
        per_layer = values["kv_heads"] * (
            values.get("qk_nope_head_dim", 0.0) + values.get("qk_rope_head_dim", 0.0) + values.get("v_head_dim", 0.0)
        )
    elif latent > 0:
        per_layer = latent + values.get("qk_rope_head_dim", 0.0)
    else:
        per_layer = 2 * values["kv_heads"] * values["head_dim"]
    per_layer *= values["bytes_per_element"]
    width = values.get("state_conv_width", 0.0)
    conv_inputs = width if transformers else max(width - 1, 0.0)
    recurrent_bytes = 4 if transformers else values.get("state_precision", 2.0)
    state_per_layer = 2 * values.get("state_conv_channels", 0.0) * conv_inputs
    state_per_layer += recurrent_bytes * values.get("recurrent_state", 0.0)
    return Cache(
        per_token=per_layer * attention_layers,
        keys_values=per_layer * token_layers,
        state=state_per_layer * state_layers,
        cached_tokens=token_layers / attention_layers if attention_layers else 0.0,
    )
