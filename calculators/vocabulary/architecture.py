"""A decoder-only transformer's parameters from its config.json facts, and the inputs that state them.

Shared by the calculators that count weights (transformer-params, moe-active-params) and by the
reading of a pasted config.json, so one model has one count on every page. The formulas and
their sources are in transformer-params' docstring. `SHAPE_INPUTS` declares, once, the facts of
the count beyond the shared model inputs of `inputs.py`: a calculator that counts weights takes
them all, so no preset or pasted config loses one of its facts on the way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from calculators.kernel.spec import N_, Choice, InputSpec, Kind, Rule

from .inputs import MIXTURE_OF_EXPERTS, MODEL, count_input, yes_no_input

__all__ = [
    "ARCHITECTURE",
    "ATTENTION_BIAS",
    "EXTRA_LAYER_PARAMS",
    "GPT2",
    "KV_HEADS_RULE",
    "LLAMA",
    "PHI",
    "POSITIONS",
    "SHAPE_INPUTS",
    "SHARED_EXPERT_FFN_SIZE",
    "SHARED_EXPERT_GATE",
    "ParameterCount",
    "count_parameters",
]

LLAMA = 0.0
"""The number the formula receives for a Llama-style model (RMSNorm, gated MLP, no biases, rotary)."""
GPT2 = 1.0
"""The number the formula receives for a GPT-2-style model (LayerNorm, biases, plain MLP, position table).

GPT-NeoX (Pythia) has the same modules with rotary positions (no table) and an untied head."""
PHI = 2.0
"""The number the formula receives for a Phi-style model (Phi-1, 1.5, 2): GPT-2's linear layers with their
biases, but one LayerNorm per block, shared by attention and MLP, and a bias on the output head."""

ARCHITECTURE = InputSpec(
    name="architecture",
    kind=Kind.CHOICE,
    group=MODEL,
    label=N_("input", "Architecture"),
    help=N_(
        "input",
        "Llama-style models (Llama, Mistral, Qwen, Gemma and most recent ones) use RMSNorm, no biases, a "
        "gated MLP of three matrices and rotary positions. GPT-2-style models use LayerNorm, a bias on "
        "every linear layer, a plain MLP of two matrices and a learned table of positions; GPT-NeoX and "
        "Pythia are built the same way with rotary positions (0 learned positions). Phi-1, Phi-1.5 and "
        "Phi-2 have GPT-2's layers with one LayerNorm per block and a bias on the output head.",
    ),
    default="llama",
    choices=(
        Choice("llama", N_("input", "Llama-style (RMSNorm, gated MLP, no biases)"), number="0"),
        Choice("gpt2", N_("input", "GPT-2-style (LayerNorm, biases, learned positions)"), number="1"),
        Choice("phi", N_("input", "Phi-style (one LayerNorm per block, biases, output-head bias)"), number="2"),
    ),
    fraction_digits=0,
    preset="model.architecture",
)
_DETAILS = N_("input", "Positions and biases")
POSITIONS = count_input(
    "positions",
    _DETAILS,
    N_("input", "Learned positions"),
    N_(
        "input",
        "Rows of the learned position table of a GPT-2-style model: n_positions or "
        "max_position_embeddings in config.json, 1,024 for GPT-2. Llama-style models use rotary "
        "positions, which have no parameters, so this is ignored for them.",
    ),
    "1024",
    preset="model.positions",
    minimum=0,
    maximum=10_000_000,
    advanced=True,
)
ATTENTION_BIAS = yes_no_input(
    "attention_bias",
    _DETAILS,
    N_("input", "Query, key and value biases"),
    N_(
        "input",
        "Whether a Llama-style model adds a bias to its query, key and value projections, as Qwen2 and "
        "Qwen2.5 do. GPT-2-style models always have biases, so this is ignored for them.",
    ),
    preset="model.attention_bias",
)
EXTRA_LAYER_PARAMS = count_input(
    "extra_layer_params",
    _DETAILS,
    N_("input", "Extra norm weights per layer"),
    N_(
        "input",
        "Norm weights some families add to each layer beyond the usual two norms: Qwen3 normalises "
        "queries and keys per head (2 × head_dim), OLMo 2 over their full width (query plus key-value "
        "width), and Gemma 2 adds two more norms (2 × hidden_size). 0 for most models.",
    ),
    "0",
    preset="model.extra_layer_params",
    minimum=0,
    maximum=10_000_000,
    advanced=True,
)
SHARED_EXPERT_FFN_SIZE = count_input(
    "shared_expert_ffn_size",
    MIXTURE_OF_EXPERTS,
    N_("input", "Shared expert MLP size"),
    N_(
        "input",
        "Inner width of each shared expert: shared_expert_intermediate_size in config.json for Qwen2-MoE (5,632 "
        "for Qwen1.5-MoE-A2.7B, four times its routed experts). 0 means the routed experts' width, as in DeepSeek.",
    ),
    "0",
    preset="model.shared_expert_ffn_size",
    minimum=0,
    maximum=10_000_000,
    advanced=True,
)
SHARED_EXPERT_GATE = yes_no_input(
    "shared_expert_gate",
    MIXTURE_OF_EXPERTS,
    N_("input", "Shared expert gate"),
    N_(
        "input",
        "Whether a gate of hidden size × 1 weighs the shared expert's output for each token, as Qwen2-MoE's "
        "shared_expert_gate does. DeepSeek adds its shared experts without one.",
    ),
    preset="model.shared_expert_gate",
)


def _kv_heads_divide_heads(values: Mapping[str, float]) -> bool:
    """Whether each key-value head serves the same number of query heads (a page without the query heads, or
    latent attention, which has no key-value heads, has nothing to check)."""
    heads = values.get("attention_heads", 0.0)
    return not heads or values.get("kv_lora_rank", 0.0) > 0 or heads % values["kv_heads"] == 0


KV_HEADS_RULE = Rule(
    "kv_heads",
    _kv_heads_divide_heads,
    # Translators: {attention_heads} is the number of attention heads entered.
    N_(
        "input",
        "Enter a number of key-value heads that divides the {attention_heads} attention heads evenly: with "
        "grouped-query attention each key-value head serves the same number of query heads, so there cannot "
        "be more key-value heads than attention heads.",
    ),
)
"""transformers' attention gives each key-value head attention_heads // kv_heads query heads (repeat_kv)."""
SHAPE_INPUTS: tuple[InputSpec, ...] = (POSITIONS, ATTENTION_BIAS, EXTRA_LAYER_PARAMS)
"""The count's facts beyond the shared model inputs, with `ARCHITECTURE`: both counting calculators take them all."""


@dataclass(frozen=True)
class ParameterCount:
    """A model's parameters by kind, summed over all layers."""

    embedding: float
    """Token table, the output head when untied, and a learned position table."""
    lookup_tables: float
    """The part of `embedding` a token reads by index instead of multiplying by: the token table when untied
    (a tied one is also the output head, which every token multiplies by) and a learned position table."""
    attention: float
    norms: float
    dense_mlp: float
    """The MLPs of dense layers (every layer of a dense model)."""
    routers: float
    shared_experts: float
    routed_experts: float
    """All routed experts of all mixture-of-experts layers."""
    active_routed_experts: float
    """The routed experts one token passes through (k per mixture-of-experts layer)."""

    @property
    def total(self) -> float:
        """Every parameter of the model."""
        return self.embedding + self.non_embedding

    @property
    def non_embedding(self) -> float:
        """Kaplan et al.'s N: everything but the embedding and position tables and an untied head."""
        return self.attention + self.norms + self.dense_mlp + self.routers + self.shared_experts + self.routed_experts

    @property
    def active(self) -> float:
        """The parameters one token passes through: all but the routed experts the router skips."""
        return self.total - self.routed_experts + self.active_routed_experts

    @property
    def active_without_lookup_tables(self) -> float:
        """`active` without the input embedding table (and a position table), as DeepSeek reports active counts."""
        return self.active - self.lookup_tables


def count_parameters(values: Mapping[str, float]) -> ParameterCount:
    """Count a decoder-only transformer's parameters from its config.json facts.

    Needs layers, hidden_size, attention_heads, kv_heads, head_dim, ffn_size, vocab_size and
    tied_embeddings; every other fact is optional and absent means 0 (llama architecture, no
    position table, no biases, dense, standard attention).

    Mixtral-8x7B (Jiang et al. 2024, Table 1), which Mistral announced as "46.7B total parameters"
    of which "12.9B parameters per token":

    >>> mixtral = count_parameters({"layers": 32, "hidden_size": 4096, "attention_heads": 32,
    ...     "kv_heads": 8, "head_dim": 128, "ffn_size": 14336, "vocab_size": 32000,
    ...     "tied_embeddings": 0, "experts": 8, "experts_per_token": 2, "expert_ffn_size": 14336})
    >>> int(mixtral.total), int(mixtral.active)
    (46702792704, 12879925248)
    """
    d = values["hidden_size"]
    shape = values.get("architecture", LLAMA)
    plain = shape in (GPT2, PHI)  # LayerNorm, biases on every linear layer, a two-matrix MLP
    layers = values["layers"]
    experts = values.get("experts", 0.0)
    moe_layers = layers - min(values.get("dense_layers", 0.0), layers) if experts > 0 else 0.0
    dense_layers = layers - moe_layers
    expert_width = values.get("expert_ffn_size", 0.0) or values["ffn_size"]
    expert_mlp = _mlp(d, expert_width, plain)
    # A shared expert has its own width (Qwen2-MoE) or the routed experts' (DeepSeek), and may have a gate of d × 1.
    shared_expert = _mlp(d, values.get("shared_expert_ffn_size", 0.0) or expert_width, plain)
    shared_expert += d if values.get("shared_expert_gate", 0.0) else 0
    vocab = values["vocab_size"]
    positions = values.get("positions", 0.0) * d if shape == GPT2 else 0.0
    embedding = vocab * d * (1 if values["tied_embeddings"] else 2) + positions
    if shape == PHI:
        embedding += vocab  # Phi's lm_head is a Linear with a bias
    # Two norms per layer (Phi: one, before attention and MLP side by side) and one at the end; a LayerNorm
    # has a weight and a bias, an RMSNorm a weight only.
    norm = 2 * d if plain else d
    norms_per_layer = 1 if shape == PHI else 2
    router = d * experts + (experts if values.get("router_bias", 0.0) else 0)
    return ParameterCount(
        embedding=embedding,
        lookup_tables=(0.0 if values["tied_embeddings"] else vocab * d) + positions,
        attention=layers * _attention(values, plain),
        # Some families add norm weights per layer: Qwen3 and OLMo 2 normalise queries and keys, Gemma 2 has four norms.
        norms=(norms_per_layer * layers + 1) * norm + layers * values.get("extra_layer_params", 0.0),
        dense_mlp=dense_layers * _mlp(d, values["ffn_size"], plain),
        routers=moe_layers * router,
        shared_experts=moe_layers * values.get("shared_experts", 0.0) * shared_expert,
        routed_experts=moe_layers * experts * expert_mlp,
        active_routed_experts=moe_layers * min(values.get("experts_per_token", 0.0), experts) * expert_mlp,
    )


def _mlp(d: float, ffn: float, plain: bool) -> float:
    """One MLP: up and down projections with biases (GPT-2, Phi), or gate, up and down without (Llama)."""
    return 2 * d * ffn + ffn + d if plain else 3 * d * ffn


def _attention(values: Mapping[str, float], plain: bool) -> float:
    """One layer's attention: query, key, value and output projections, or their latent form (MLA)."""
    d = values["hidden_size"]
    heads = values["attention_heads"]
    kv_lora = values.get("kv_lora_rank", 0.0)
    if kv_lora > 0:
        # DeepSeek-V2/V3 multi-head latent attention: low-rank projections with an RMSNorm on each latent.
        q_lora = values.get("q_lora_rank", 0.0)
        nope = values.get("qk_nope_head_dim", 0.0)
        rope = values.get("qk_rope_head_dim", 0.0)
        v_dim = values.get("v_head_dim", 0.0)
        query = d * q_lora + q_lora + q_lora * heads * (nope + rope) if q_lora > 0 else d * heads * (nope + rope)
        key_value = d * (kv_lora + rope) + kv_lora + kv_lora * heads * (nope + v_dim)
        return query + key_value + heads * v_dim * d
    q_width = heads * values["head_dim"]
    kv_width = values["kv_heads"] * values["head_dim"]
    weights = 2 * d * q_width + 2 * d * kv_width
    if plain:
        return weights + q_width + 2 * kv_width + d
    # Qwen2 puts biases on the query, key and value projections, not on the output.
    return weights + (q_width + 2 * kv_width if values.get("attention_bias", 0.0) else 0)
