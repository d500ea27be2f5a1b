"""Reading a pasted Hugging Face `config.json` into the model facts a preset would give.

Runs in the browser worker on the text the reader pasted: nothing is fetched, nothing leaves
the page. Different model families spell the same fact differently (GPT-2's `n_layer` is
Llama's `num_hidden_layers`), so each fact lists the keys that may hold it, first match wins.
A fact a family leaves out takes the value transformers itself assumes, and the reader is told.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from types import MappingProxyType

from calculators.kernel.numbers import PLAIN, format_number, readable_fraction_digits
from calculators.kernel.spec import GPU_FACTS, Calculator, InputSpec

from .architecture import GPT2, LLAMA, PHI, count_parameters
from .quantization import Quantization, read_quantization, stored_bits

__all__ = [
    "DEEPEST_CONFIG",
    "DEEPEST_MODEL",
    "FAMILIES",
    "LARGEST_FACT",
    "LONGEST_CONFIG",
    "ConfigReading",
    "assumptions_for",
    "config_values",
    "covers",
    "fill_values",
    "read_model_config",
    "unknown_family_for",
]

_KEYS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "layers": ("num_hidden_layers", "n_layer", "num_layers"),
        "hidden_size": ("hidden_size", "n_embd", "d_model"),
        "attention_heads": ("num_attention_heads", "n_head"),
        "kv_heads": ("num_key_value_heads",),
        "head_dim": ("head_dim",),
        "ffn_size": ("intermediate_size", "n_inner", "ffn_dim"),
        "vocab_size": ("vocab_size",),
        "context_tokens": ("max_position_embeddings", "n_positions", "n_ctx", "seq_length"),
        "experts": ("num_local_experts", "n_routed_experts", "num_experts"),
        "experts_per_token": ("num_experts_per_tok", "moe_topk"),
        "expert_ffn_size": ("moe_intermediate_size",),
        "shared_experts": ("n_shared_experts",),
        "shared_expert_ffn_size": ("shared_expert_intermediate_size",),
        "dense_layers": ("first_k_dense_replace",),
        "q_lora_rank": ("q_lora_rank",),
        "kv_lora_rank": ("kv_lora_rank",),
        "qk_nope_head_dim": ("qk_nope_head_dim",),
        "qk_rope_head_dim": ("qk_rope_head_dim",),
        "v_head_dim": ("v_head_dim",),
    }
)
LONGEST_CONFIG = 100_000
"""Characters: a real config.json has a few thousand (DeepSeek-V3's, among the longest, about 1,600)."""
DEEPEST_CONFIG = 32
"""Nesting levels: real configs nest three or four deep; a deeper text is refused before parsing, since a
parser's recursion would exhaust the interpreter's stack (in Pyodide, the browser's)."""
DEEPEST_MODEL = 100_000
"""Layers: the deepest models have a few hundred; the layer kinds of a deeper one are not derived."""
LARGEST_FACT = 10**9
"""No model fact (layers, widths, vocabulary, context, experts) comes near a billion."""


class _LongInteger:
    """An integer in the text with more digits than any fact has, left unconverted."""


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')

_REQUIRED = ("layers", "hidden_size", "attention_heads", "vocab_size")
_WITH_QKV_BIAS = frozenset({"qwen2", "qwen2_moe"})  # Qwen2's attention has q, k, v biases and no config flag
FAMILIES: Mapping[str, float] = MappingProxyType(
    {
        # The model_types whose modules the count describes (transformers' modeling_<model_type>.py), and the shape.
        "gpt2": GPT2,
        "gpt_neox": GPT2,  # GPT-2's modules (fused query_key_value, dense_h_to_4h, dense_4h_to_h) with rotary positions
        "phi": PHI,  # q_proj, k_proj, v_proj, dense, fc1, fc2 with biases; one input_layernorm; lm_head with a bias
        **dict.fromkeys(
            ("llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "gemma", "gemma2", "phi3"),
            LLAMA,
        ),
        **dict.fromkeys(("olmo2", "deepseek_v2", "deepseek_v3", "llama4_text"), LLAMA),
    }
)
"""Each model family the count describes: its `model_type` and the shape (`architecture.LLAMA`, `GPT2`, `PHI`).
Phi-3's fused qkv_proj and gate_up_proj hold as many weights as Llama's separate matrices."""
_TIED_BY_DEFAULT: Mapping[str, bool] = MappingProxyType(
    # tie_word_embeddings' default in each family's configuration_<model_type>.py in transformers: untied for the
    # Llama family, GPT-NeoX and Phi, tied for GPT-2 (PretrainedConfig's default, which GPT2Config keeps) and Gemma.
    {family: family in {"gpt2", "gemma", "gemma2"} for family in FAMILIES}
)


@dataclass(frozen=True)
class ConfigReading:
    """What a pasted config gave: facts (keys of `spec.MODEL_FACTS`) or a problem code.

    Problem codes: not_json (with `line`, `column`), not_object, missing (with `keys`), not_number and
    too_large (with `keys`), too_big (longer or more deeply nested than any config.json).
    `assumed` names the config keys that were absent and took transformers' defaults (an absent model_type
    takes the Llama shape); `unknown_family` is a model_type outside `FAMILIES`, counted with the Llama shape.
    """

    facts: Mapping[str, float]
    problem: str = ""
    keys: tuple[str, ...] = ()
    assumed: tuple[str, ...] = ()
    line: int = 0
    column: int = 0
    unknown_family: str = ""
    quantization: Quantization | None = None
    """The checkpoint's `quantization_config`, where it has one."""
    stored_bits: float = 0.0
    """The bits its files store per parameter by that quantization (0: not quantized, or a layout not known)."""


def read_model_config(text: str) -> ConfigReading:
    """Read the model facts in a config.json's text.

    >>> reading = read_model_config('{"model_type": "llama", "num_hidden_layers": 32, "hidden_size": 4096,'
    ...     ' "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,'
    ...     ' "vocab_size": 128256, "tie_word_embeddings": false, "max_position_embeddings": 131072}')
    >>> reading.facts["model.params_billion"], reading.facts["model.head_dim"], reading.assumed
    (8.030261248, 128.0, ('head_dim',))
    >>> read_model_config('{"n_layer": 12').problem
    'not_json'
    """
    if len(text) > LONGEST_CONFIG or _nesting(text) > DEEPEST_CONFIG:
        return ConfigReading({}, "too_big")
    try:
        # Integers too long for a fact stay text: int() would refuse 4,300 digits, float() overflow.
        document = json.loads(text, parse_int=lambda digits: int(digits) if len(digits) <= 18 else _LongInteger())
    except json.JSONDecodeError as error:
        return ConfigReading({}, "not_json", line=error.lineno, column=error.colno)
    if not isinstance(document, dict):
        return ConfigReading({}, "not_object")
    if isinstance(document.get("text_config"), dict):  # multimodal models keep the language model's facts here
        document = {**document, **document["text_config"]}
    found: dict[str, float] = {}
    wrong: list[str] = []
    huge: list[str] = []
    for fact, keys in _KEYS.items():
        key = next((k for k in keys if document.get(k) is not None), None)
        if key is None:
            continue
        value = document[key]
        if isinstance(value, _LongInteger) or (isinstance(value, int) and value > LARGEST_FACT):
            huge.append(key)
        elif isinstance(value, bool) or not isinstance(value, int) or value < 0:
            wrong.append(key)
        else:
            found[fact] = float(value)
    if wrong:
        return ConfigReading({}, "not_number", keys=tuple(wrong))
    if huge:
        return ConfigReading({}, "too_large", keys=tuple(huge))
    missing = [_KEYS[fact][0] for fact in _REQUIRED if not found.get(fact)]
    if missing:
        return ConfigReading({}, "missing", keys=tuple(missing))
    return _completed(document, found)


def _nesting(text: str) -> int:
    """How deep brackets nest in `text`, outside strings."""
    depth = deepest = 0
    for bracket in re.findall(r"[\[\]{}]", _STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _completed(document: Mapping[str, object], found: dict[str, float]) -> ConfigReading:
    """Fill the facts a family leaves out with transformers' defaults, then count the parameters."""
    assumed: list[str] = []
    model_type = str(document.get("model_type", ""))
    if not model_type:
        assumed.append("model_type")
    shape = FAMILIES.get(model_type, LLAMA)
    if "kv_heads" not in found:
        found["kv_heads"] = 1.0 if document.get("multi_query") else found["attention_heads"]
        assumed.append("num_key_value_heads")
    if "head_dim" not in found:
        found["head_dim"] = found["hidden_size"] / found["attention_heads"]
        assumed.append("head_dim")
    if "ffn_size" not in found:
        found["ffn_size"] = 4 * found["hidden_size"]  # GPT-2's n_inner = None means 4 × n_embd
        assumed.append("intermediate_size")
    if not found.get("experts"):
        # A dense model says so: a page a mixture-of-experts preset filled before keeps none of its experts.
        found.update(
            dict.fromkeys(("experts", "experts_per_token", "expert_ffn_size", "shared_experts", "dense_layers"), 0.0)
        )
    if not found.get("kv_lora_rank"):
        # Nor latent attention: a page DeepSeek-V3's config filled before keeps none of its ranks (a Llama pasted
        # after it counted 7.938 B instead of 8.03 B).
        latent = ("q_lora_rank", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim")
        found.update(dict.fromkeys(latent, 0.0))
    if model_type == "llama4_text":
        _llama4(document, found)
    if found.get("experts") and "expert_ffn_size" not in found:
        found["expert_ffn_size"] = found["ffn_size"]  # Mixtral's experts are intermediate_size wide
    if model_type == "qwen2_moe":
        # modeling_qwen2_moe.py: one shared_expert MLP of shared_expert_intermediate_size (Qwen2MoeConfig's default
        # 5,632) and a shared_expert_gate, Linear(hidden_size, 1), in every sparse layer.
        if "shared_expert_ffn_size" not in found:
            found["shared_expert_ffn_size"] = 5632.0
            assumed.append("shared_expert_intermediate_size")
        found["shared_experts"] = 1.0 if found["shared_expert_ffn_size"] else 0.0
    found.setdefault("shared_expert_ffn_size", 0.0)  # the others have none, whatever a page held before
    # The family's default, or PretrainedConfig's (tied) for a family not listed.
    tied = document.get("tie_word_embeddings", _TIED_BY_DEFAULT.get(model_type, True))
    if "tie_word_embeddings" not in document:
        assumed.append("tie_word_embeddings")
    bias = document.get("attention_bias", model_type in _WITH_QKV_BIAS)
    # DeepSeek-V3's auxiliary-loss-free routing adds a bias per expert to every router.
    router_bias = document.get("topk_method") == "noaux_tc"
    facts = {
        **found,
        "extra_layer_params": _extra_norms(model_type, found, document),
        "architecture": shape,
        # The linear modules LoRA adapts: the architecture's, but Phi-3 fuses q/k/v and gate/up (modeling_phi3.py).
        "module_layout": 3.0 if model_type == "phi3" else shape,
        "tied_embeddings": 1.0 if tied else 0.0,
        "attention_bias": 1.0 if bias else 0.0,
        "router_bias": 1.0 if router_bias else 0.0,
        "shared_expert_gate": 1.0 if model_type == "qwen2_moe" else 0.0,
        "positions": found.get("context_tokens", 0.0) if model_type == "gpt2" else 0.0,  # the others are rotary
    }
    count = count_parameters(facts)
    model_facts = {f"model.{name}": value for name, value in facts.items()}
    model_facts["model.params_billion"] = count.total / 1e9
    model_facts["model.active_params_billion"] = count.active / 1e9
    model_facts.update(_layer_kinds(document, model_type, int(found["layers"])))
    unknown = model_type if model_type and model_type not in FAMILIES else ""
    quantization = read_quantization(document, found["hidden_size"])
    # What is not quantized stays in the checkpoint's dtype: BF16 or FP16 unless the config says float32.
    dtype_bits = 32.0 if str(document.get("torch_dtype", document.get("dtype", ""))) == "float32" else 16.0
    bits = stored_bits(quantization, count, dtype_bits) if quantization and quantization.bits else 0.0
    return ConfigReading(
        model_facts, assumed=tuple(assumed), unknown_family=unknown, quantization=quantization, stored_bits=bits
    )


def _llama4(document: Mapping[str, object], found: dict[str, float]) -> None:
    """Llama 4's layers as the count takes them (modeling_llama4.py): every `interleave_moe_layer_step`-th layer (or
    those `moe_layers` lists) is a mixture of `num_local_experts` experts and one shared expert, all
    `intermediate_size` wide; the others are dense MLPs `intermediate_size_mlp` wide. The count depends only on how
    many layers are dense, so they are counted as DeepSeek's first dense layers are."""
    layers = int(found["layers"])
    listed = document.get("moe_layers")
    step = document.get("interleave_moe_layer_step", 1)
    step = step if isinstance(step, int) and not isinstance(step, bool) and step > 0 else 1
    moe = len(listed) if isinstance(listed, list) else len(range(step - 1, layers, step))
    width = document.get("intermediate_size_mlp", 16384)  # Llama4TextConfig's default
    dense_width = float(width) if isinstance(width, int) and not isinstance(width, bool) and width > 0 else 16384.0
    found.update(
        expert_ffn_size=found["ffn_size"],
        shared_experts=1.0,
        shared_expert_ffn_size=found["ffn_size"],
        dense_layers=float(layers - min(moe, layers)),
        ffn_size=dense_width,
    )


_ASSUMED_FACTS: Mapping[str, str] = MappingProxyType(
    {
        "num_key_value_heads": "model.kv_heads",
        "head_dim": "model.head_dim",
        "intermediate_size": "model.ffn_size",
        "tie_word_embeddings": "model.tied_embeddings",
        "model_type": "model.architecture",
        "shared_expert_intermediate_size": "model.shared_expert_ffn_size",
    }
)
_COUNTS = frozenset({"model.params_billion", "model.active_params_billion"})


def _extra_norms(model_type: str, found: Mapping[str, float], document: Mapping[str, object]) -> float:
    """Norm weights a family adds to each layer, which no config key announces (or only a switch does)."""
    if model_type == "phi" and document.get("qk_layernorm"):
        return 4 * found["head_dim"]  # q_layernorm and k_layernorm: LayerNorms (weight and bias) over one head
    if model_type in {"qwen3", "qwen3_moe"}:
        return 2 * found["head_dim"]  # q_norm and k_norm over one head
    if model_type == "olmo2":
        return (found["attention_heads"] + found["kv_heads"]) * found["head_dim"]  # over the full q and k widths
    if model_type == "gemma2":
        return 2 * found["hidden_size"]  # post-attention and post-feedforward norms
    return 0.0


_DEFINED_BY_OTHERS = frozenset({"head_dim", "num_key_value_heads"})
"""Absent, these are what every family's configuration defines them as (hidden_size / num_attention_heads, one
key-value head per attention head): not a guess, so only a page with that input names them."""


def assumptions_for(calculator: Calculator, reading: ConfigReading) -> tuple[str, ...]:
    """Return the assumed config keys that reach `calculator`'s inputs, naming only what the page has.

    A page that takes a parameter count hears of every default its count rests on (the MLP width, tied
    embeddings, the shape), but not of `_DEFINED_BY_OTHERS` unless it has those inputs too.
    """
    taken = {spec.preset for spec in calculator.inputs if spec.preset}
    counted = bool(taken & _COUNTS)
    return tuple(
        key for key in reading.assumed if _ASSUMED_FACTS[key] in taken or (counted and key not in _DEFINED_BY_OTHERS)
    )


def unknown_family_for(calculator: Calculator, reading: ConfigReading) -> str:
    """Return the model_type counted with an assumed Llama shape, if `calculator` takes a count or the shape."""
    taken = {spec.preset for spec in calculator.inputs if spec.preset}
    return reading.unknown_family if taken & (_COUNTS | {"model.architecture"}) else ""


_ATTENTION_SHAPE = frozenset({"model.kv_heads", "model.head_dim", "model.attention_heads"})


def covers(calculator: Calculator, facts: Mapping[str, float]) -> bool:
    """Whether `calculator`'s formula describes this model or GPU: attention-shape formulas (KV cache, LoRA...)
    assume standard attention, which a model with multi-head latent attention (DeepSeek-V3) does not have; and a
    GPU's figures, 0 where its vendor publishes none, must each be a value its input takes: the serving pages take a
    peak of 0 (Apple's), the training pages, which divide by it, do not.
    """
    if any(key.startswith("gpu.") for key in facts):
        return all(
            spec.preset in facts and (facts[spec.preset] != 0 or _takes_zero(spec))
            for spec in calculator.inputs
            if spec.preset in GPU_FACTS
        )
    taken = {spec.preset for spec in calculator.inputs if spec.preset}
    latent = facts.get("model.kv_lora_rank", 0.0) > 0
    return not latent or "model.kv_lora_rank" in taken or not taken & _ATTENTION_SHAPE


def _takes_zero(spec: InputSpec) -> bool:
    """Whether a number input takes 0, a GPU figure its vendor does not publish (a page that divides by it does not).

    Any other value out of range stays the build's error (`presets._refused_by`), not a GPU silently left out.
    """
    return spec.minimum is None or spec.minimum < 0 or (spec.minimum == 0 and not spec.minimum_exclusive)


def config_values(calculator: Calculator, reading: ConfigReading) -> dict[str, str]:
    """Map a reading's facts onto `calculator`'s inputs: input name → the text its field takes."""
    return fill_values(calculator, reading.facts)


def fill_values(calculator: Calculator, facts: Mapping[str, float]) -> dict[str, str]:
    """Map model or GPU facts onto `calculator`'s inputs: input name → the text its field takes.

    A number input gets plain digits; a choice input the choice whose number the fact equals. A count in
    billions is written as a model card writes it, to 4 significant digits (70.55 for Llama 3.1 70B's
    70,553,706,496 parameters, 8.03 for Llama 3.1 8B's), and the calculator computes from exactly what its
    field then holds; every other fact is a whole number and is written in full. A model the
    calculator's formula does not describe (`covers`) fills nothing, as its page withholds it: DeepSeek-V3's
    head_dim of hidden_size / heads is a placeholder, not the shape of its latent attention.
    """
    if not covers(calculator, facts):
        return {}
    values: dict[str, str] = {}
    for spec in calculator.inputs:
        if spec.preset is None or spec.preset not in facts:
            continue
        fact = facts[spec.preset]
        if spec.choices:
            chosen = next((c.value for c in spec.choices if float(c.numeric) == fact), None)
            if chosen is not None:
                values[spec.name] = chosen
        else:
            # Every other fact in full: a price of 1e-12 per token must not fill its field with 0.
            exact = Decimal(repr(fact)).as_tuple().exponent
            digits = readable_fraction_digits(fact, 9) if spec.preset.endswith("_billion") else max(0, -int(exact))
            values[spec.name] = format_number(fact, PLAIN, digits, grouping=False)
    return values


def _positive_int(value: object) -> int:
    """`value` if it is a whole number of a sensible size, else 0 (booleans, text and absurd sizes included)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 < value < 100_000_000 else 0


def _layer_kinds(document: Mapping[str, object], model_type: str, layers: int) -> dict[str, float]:
    """What each layer caches, as transformers reads the config: the window (or chunk) and the percentage of
    layers with it, and the percentage that keep a fixed-size state with that state's sizes."""
    # Nemotron-H's config.json names them layers_block_type (transformers maps layer_types to it).
    listed = document.get("layer_types") or document.get("layers_block_type")
    types = [str(kind) for kind in listed] if isinstance(listed, list) and listed else _implied(document, layers)
    window = _positive_int(document.get("sliding_window"))
    chunk = _positive_int(document.get("attention_chunk_size"))
    if document.get("use_sliding_window") is False:  # Qwen2 states a window it does not use
        window = 0

    def share(*kinds: str) -> float:
        return 100 * sum(kind in kinds for kind in types) / len(types) if types else 0.0

    facts = {"model.sliding_window": 0.0, "model.sliding_window_share": 100.0, **_state(document, model_type)}
    if window:
        windowed = share("sliding_attention") if types else 100 * _windowed(document, model_type, layers) / layers
        facts.update({"model.sliding_window": float(window), "model.sliding_window_share": windowed})
    elif chunk and "chunked_attention" in types:
        # Llama 4: the layers with rotary positions attend within their chunk, every fourth layer to everything.
        facts.update({"model.sliding_window": float(chunk), "model.sliding_window_share": share("chunked_attention")})
    facts["model.state_layers_share"] = share("linear_attention", "mamba", "hybrid")
    facts["model.state_beside_attention"] = 1.0 if "hybrid" in types else 0.0  # Falcon-H1: both in every layer
    # Nemotron-H's MLP and mixture-of-experts layers have neither attention nor a state.
    facts["model.cacheless_layers_share"] = share("mlp", "moe")
    if not facts["model.state_layers_share"]:
        facts.update(dict.fromkeys(_STATE_FACTS, 0.0))
    return facts


def _implied(document: Mapping[str, object], layers: int) -> list[str]:
    """The layer_types transformers derives when config.json leaves them out, for the families that derive any.

    None past `DEEPEST_MODEL` layers: a list that long would take the page's memory, and no model has one."""
    if layers > DEEPEST_MODEL:
        return []
    no_rope = document.get("no_rope_layers")
    if _positive_int(document.get("attention_chunk_size")):
        # Llama4TextConfig: no_rope_layers, or one layer without rotary positions every no_rope_layer_interval (4).
        interval = _positive_int(document.get("no_rope_layer_interval")) or 4
        flags = no_rope if isinstance(no_rope, list) and no_rope else [(i + 1) % interval != 0 for i in range(layers)]
        return ["chunked_attention" if flag else "full_attention" for flag in flags]
    family = document.get("model_type")
    if interval := _positive_int(document.get("full_attention_interval")) or (4 if family == "qwen3_next" else 0):
        # Qwen3NextConfig: every full_attention_interval-th layer has attention, the others Gated DeltaNet.
        return ["full_attention" if (i + 1) % interval == 0 else "linear_attention" for i in range(layers)]
    if period := _positive_int(document.get("attn_layer_period")) or (8 if family == "jamba" else 0):
        # JambaConfig: attention where i % attn_layer_period == attn_layer_offset (8 and 4), Mamba elsewhere.
        offset = document.get("attn_layer_offset", 4 if family == "jamba" else 0)
        return ["full_attention" if i % period == offset else "mamba" for i in range(layers)]
    indices = document.get("attn_layer_indices")
    if isinstance(indices, list) and family == "bamba":
        return ["full_attention" if i in indices else "mamba" for i in range(layers)]
    if family == "falcon_h1":
        return ["hybrid"] * layers  # FalconH1Config: attention and Mamba-2 side by side in every layer
    pattern = document.get("hybrid_override_pattern")
    if isinstance(pattern, str) and family == "nemotron_h":
        # NemotronHConfig: M a Mamba-2 layer, * attention, - an MLP, E a mixture of experts.
        kinds = {"M": "mamba", "*": "full_attention", "-": "mlp", "E": "moe"}
        return [kinds.get(letter, "full_attention") for letter in pattern[:layers]]
    return []


def _windowed(document: Mapping[str, object], model_type: str, layers: int) -> float:
    """How many layers use the window when config.json names no layer_types."""
    pattern = document.get("sliding_window_pattern")
    if model_type == "gemma2":
        return (layers + 1) // 2  # Gemma 2 windows layers 0, 2, 4...
    if isinstance(pattern, int) and pattern > 0:
        return layers - layers // pattern  # Gemma 3: every pattern-th layer is global
    if isinstance(first := document.get("max_window_layers"), int) and document.get("use_sliding_window"):
        return max(0, layers - first)  # Qwen2: the layers from that index on
    return layers


_STATE_FACTS = ("model.state_conv_channels", "model.state_conv_width", "model.recurrent_state", "model.state_precision")


def _state(document: Mapping[str, object], model_type: str) -> dict[str, float]:
    """The fixed-size state of a layer without attention, with each family's config defaults (transformers 5.25).

    Gated DeltaNet (Qwen3-Next, modeling_qwen3_next.py): a convolution over the keys, queries and values,
    2 · key heads · key dimension + value heads · value dimension channels, and a recurrent state of value
    heads × key dimension × value dimension. Mamba (Jamba): expand · hidden channels, a state of expand · hidden ×
    d_state. Mamba-2 (Bamba, Nemotron-H): heads · head dimension + 2 · groups · d_state channels, a state of heads ×
    head dimension × d_state. vLLM's `MambaStateShapeCalculator` gives the same shapes.
    """

    def number(key: str, default: float) -> float:
        return float(_positive_int(document.get(key)) or default)

    hidden = number("hidden_size", 0)
    if model_type == "qwen3_next":
        key_heads, key_dim = number("linear_num_key_heads", 16), number("linear_key_head_dim", 128)
        value_heads, value_dim = number("linear_num_value_heads", 32), number("linear_value_head_dim", 128)
        channels = 2 * key_heads * key_dim + value_heads * value_dim
        recurrent, width = value_heads * key_dim * value_dim, number("linear_conv_kernel_dim", 4)
    elif model_type == "jamba":
        inner = number("mamba_expand", 2) * hidden
        channels, recurrent, width = inner, inner * number("mamba_d_state", 16), number("mamba_d_conv", 4)
    elif model_type == "bamba":
        heads, state = number("mamba_n_heads", 128), number("mamba_d_state", 256)
        head_dim = number("mamba_d_head", number("mamba_expand", 2) * hidden / heads)
        channels = heads * head_dim + 2 * number("mamba_n_groups", 1) * state
        recurrent, width = heads * head_dim * state, number("mamba_d_conv", 4)
    elif model_type == "falcon_h1":
        heads, state = number("mamba_n_heads", 128), number("mamba_d_state", 256)
        inner = number("mamba_d_ssm", number("mamba_expand", 2) * hidden)
        head_dim = number("mamba_d_head", inner / heads)
        channels = inner + 2 * number("mamba_n_groups", 1) * state
        recurrent, width = heads * head_dim * state, number("mamba_d_conv", 4)
    elif model_type == "nemotron_h":
        heads, head_dim = number("mamba_num_heads", 128), number("mamba_head_dim", 64)
        state = number("ssm_state_size", 128)
        channels = heads * head_dim + 2 * number("n_groups", 8) * state
        recurrent, width = heads * head_dim * state, number("conv_kernel", 4)
    else:
        return dict.fromkeys(_STATE_FACTS, 0.0)
    precision = 4.0 if document.get("mamba_ssm_cache_dtype") == "float32" else 2.0
    return dict(zip(_STATE_FACTS, (channels, width, recurrent, precision), strict=True))
