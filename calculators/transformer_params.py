"""Transformer parameter count: every weight of a decoder-only model, from its config.json.

Formula: Kaplan et al., "Scaling Laws for Neural Language Models", arXiv:2001.08361, §2.1 and
Table 1: a layer holds 4·d² attention weights and 2·d·d_ff MLP weights, so with d_ff = 4d the
non-embedding count is N ≈ 12·L·d². The exact count adds what Kaplan leaves out as sub-leading:

* GPT-2 (Radford et al., "Language Models are Unsupervised Multitask Learners", 2019): a bias on
  every linear layer, two LayerNorms (weight and bias) per layer and one at the end, a learned
  position table, the output head tied to the token table: L·(12d² + 13d) + V·d + T·d + 2d.
* Llama (Touvron et al., "Llama 2", arXiv:2307.09288, §2.2): RMSNorm (a weight only), no biases,
  a gated MLP of three matrices (SwiGLU), rotary positions (no table), grouped-query attention
  with n_kv key-value heads: L·(2·d·n_h·d_h + 2·d·n_kv·d_h + 3·d·d_ff + 2d) + V·d (+ V·d untied) + d.
  Qwen2 adds biases to the query, key and value projections.
* Mixture of experts (Jiang et al., "Mixtral of Experts", arXiv:2401.04088, §2.1): each MoE layer
  has E expert MLPs and a d×E router, and a token uses the k the router picks; DeepSeek-V3
  (arXiv:2412.19437, §2.1 and §4.2) adds always-on shared experts, dense leading layers and
  multi-head latent attention (low-rank query and key-value projections).

`count_parameters` is shared with the moe-active-params calculator.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from .spec import MEMORY_UNITS, N_, NP_, Calculator, Choice, InputSpec, Kind, Message, OutputSpec

LLAMA = 0.0
"""The number the formula receives for a Llama-style model (RMSNorm, gated MLP, no biases, rotary)."""
GPT2 = 1.0
"""The number the formula receives for a GPT-2-style model (LayerNorm, biases, plain MLP, position table)."""

_BYTES_16_BIT = 2
_MODEL = N_("transformer-params", "Model")
_MOE = N_("transformer-params", "Mixture of experts")
_WEIGHTS = N_("transformer-params", "Weights in memory")
_DETAILS = N_("transformer-params", "Positions and biases")


@dataclass(frozen=True)
class ParameterCount:
    """A model's parameters by kind, summed over all layers."""

    embedding: float
    """Token table, the output head when untied, and a learned position table."""
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
    gpt2 = values.get("architecture", LLAMA) == GPT2
    layers = values["layers"]
    experts = values.get("experts", 0.0)
    moe_layers = layers - min(values.get("dense_layers", 0.0), layers) if experts > 0 else 0.0
    dense_layers = layers - moe_layers
    expert_mlp = _mlp(d, values.get("expert_ffn_size", 0.0) or values["ffn_size"], gpt2)
    vocab = values["vocab_size"]
    embedding = vocab * d * (1 if values["tied_embeddings"] else 2)
    if gpt2:
        embedding += values.get("positions", 0.0) * d
    # Two norms per layer and one at the end; a LayerNorm has a weight and a bias, an RMSNorm a weight only.
    norm = 2 * d if gpt2 else d
    router = d * experts + (experts if values.get("router_bias", 0.0) else 0)
    return ParameterCount(
        embedding=embedding,
        attention=layers * _attention(values, gpt2),
        # Some families add norm weights per layer: Qwen3 and OLMo 2 normalise queries and keys, Gemma 2 has four norms.
        norms=(2 * layers + 1) * norm + layers * values.get("extra_layer_params", 0.0),
        dense_mlp=dense_layers * _mlp(d, values["ffn_size"], gpt2),
        routers=moe_layers * router,
        shared_experts=moe_layers * values.get("shared_experts", 0.0) * expert_mlp,
        routed_experts=moe_layers * experts * expert_mlp,
        active_routed_experts=moe_layers * min(values.get("experts_per_token", 0.0), experts) * expert_mlp,
    )


def _mlp(d: float, ffn: float, gpt2: bool) -> float:
    """One MLP: up and down projections with biases (GPT-2), or gate, up and down without (Llama)."""
    return 2 * d * ffn + ffn + d if gpt2 else 3 * d * ffn


def _attention(values: Mapping[str, float], gpt2: bool) -> float:
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
    if gpt2:
        return weights + q_width + 2 * kv_width + d
    # Qwen2 puts biases on the query, key and value projections, not on the output.
    return weights + (q_width + 2 * kv_width if values.get("attention_bias", 0.0) else 0)


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the total, embedding, non-embedding and active parameters, and the 16-bit weights' size.

    GPT-2 small (Radford et al. 2019; 12 layers of 768, vocabulary 50,257, 1,024 positions) has
    124,439,808 parameters, Hugging Face's count; Llama-2-7B has 6,738,415,616 and Llama-3.1-8B
    8,030,261,248, the totals of their published checkpoints:

    >>> gpt2 = {"architecture": GPT2, "layers": 12, "hidden_size": 768, "attention_heads": 12,
    ...         "kv_heads": 12, "head_dim": 64, "ffn_size": 3072, "vocab_size": 50257,
    ...         "tied_embeddings": 1, "positions": 1024, "memory_unit": 1e9}
    >>> compute(gpt2)["total_params"]
    124439808.0
    >>> llama_2 = {"architecture": LLAMA, "layers": 32, "hidden_size": 4096, "attention_heads": 32,
    ...            "kv_heads": 32, "head_dim": 128, "ffn_size": 11008, "vocab_size": 32000,
    ...            "tied_embeddings": 0, "memory_unit": 1e9}
    >>> compute(llama_2)["total_params"]
    6738415616.0
    >>> result = compute({**llama_2, "kv_heads": 8, "ffn_size": 14336, "vocab_size": 128256})
    >>> result["total_params"], result["weights_memory"]
    (8030261248.0, 16.060522496)
    """
    count = count_parameters(values)
    return {
        "total_params_billion": count.total / 1e9,
        "total_params": count.total,
        "active_params_billion": count.active / 1e9,
        "embedding_params_billion": count.embedding / 1e9,
        "non_embedding_params_billion": count.non_embedding / 1e9,
        "weights_memory": count.total * _BYTES_16_BIT / values["memory_unit"],
    }


def count_input(
    name: str,
    group: Message,
    label: Message,
    help_text: Message,
    default: str,
    *,
    preset: str | None = None,
    minimum: int = 1,
    maximum: int = 100_000,
    advanced: bool = False,
) -> InputSpec:
    """A whole-number architecture fact, as config.json states it."""
    return InputSpec(
        name=name,
        kind=Kind.INTEGER,
        group=group,
        label=label,
        help=help_text,
        default=default,
        minimum=Decimal(minimum),
        maximum=Decimal(maximum),
        fraction_digits=0,
        advanced=advanced,
        preset=preset,
    )


_LATENT = N_("transformer-params", "Router bias and latent attention (DeepSeek)")
LATENT_ATTENTION_INPUTS: tuple[InputSpec, ...] = (
    InputSpec(
        name="router_bias",
        kind=Kind.CHOICE,
        group=_LATENT,
        label=N_("transformer-params", "Router bias"),
        help=N_(
            "transformer-params",
            "Whether the router keeps one bias per routed expert, as DeepSeek-V3 does to balance the load "
            "between experts (e_score_correction_bias). Mixtral's router has none.",
        ),
        default="0",
        choices=(
            Choice("1", N_("transformer-params", "Yes")),
            Choice("0", N_("transformer-params", "No")),
        ),
        fraction_digits=0,
        advanced=True,
        preset="model.router_bias",
    ),
    count_input(
        "q_lora_rank",
        _LATENT,
        N_("transformer-params", "Query compression rank"),
        N_(
            "transformer-params",
            "q_lora_rank in config.json (1,536 for DeepSeek-V3). 0 projects the queries directly, as "
            "DeepSeek-V2-Lite does.",
        ),
        "0",
        minimum=0,
        advanced=True,
        preset="model.q_lora_rank",
    ),
    count_input(
        "kv_lora_rank",
        _LATENT,
        N_("transformer-params", "Key-value compression rank"),
        N_(
            "transformer-params",
            "kv_lora_rank in config.json (512 for DeepSeek-V3). 0 means standard attention with the "
            "key-value heads and head dimension above; anything else switches to multi-head latent attention.",
        ),
        "0",
        minimum=0,
        advanced=True,
        preset="model.kv_lora_rank",
    ),
    count_input(
        "qk_nope_head_dim",
        _LATENT,
        N_("transformer-params", "Query-key dimension without rotary positions"),
        N_("transformer-params", "qk_nope_head_dim in config.json (128 for DeepSeek-V3)."),
        "0",
        minimum=0,
        advanced=True,
        preset="model.qk_nope_head_dim",
    ),
    count_input(
        "qk_rope_head_dim",
        _LATENT,
        N_("transformer-params", "Query-key dimension with rotary positions"),
        N_("transformer-params", "qk_rope_head_dim in config.json (64 for DeepSeek-V3)."),
        "0",
        minimum=0,
        advanced=True,
        preset="model.qk_rope_head_dim",
    ),
    count_input(
        "v_head_dim",
        _LATENT,
        N_("transformer-params", "Value head dimension"),
        N_("transformer-params", "v_head_dim in config.json (128 for DeepSeek-V3)."),
        "0",
        minimum=0,
        advanced=True,
        preset="model.v_head_dim",
    ),
)
"""DeepSeek-V2/V3's details, shared with the MoE calculator: a router bias and multi-head latent attention."""


CALCULATOR = Calculator(
    slug="transformer-params",
    category="infrastructure",
    title=N_("transformer-params", "Transformer parameter count"),
    summary=N_(
        "transformer-params",
        "Count every parameter of a decoder-only language model from its config.json: the exact total, the "
        "embeddings, Kaplan's non-embedding N, the active parameters of a mixture-of-experts model, and the "
        "memory its 16-bit weights take.",
    ),
    inputs=(
        InputSpec(
            name="architecture",
            kind=Kind.CHOICE,
            group=_MODEL,
            label=N_("transformer-params", "Architecture"),
            help=N_(
                "transformer-params",
                "Llama-style models (Llama, Mistral, Qwen, Gemma and most recent ones) use RMSNorm, no biases, a "
                "gated MLP of three matrices and rotary positions. GPT-2-style models use LayerNorm, a bias on "
                "every linear layer, a plain MLP of two matrices and a learned table of positions.",
            ),
            default="llama",
            choices=(
                Choice("llama", N_("transformer-params", "Llama-style (RMSNorm, gated MLP, no biases)"), number="0"),
                Choice(
                    "gpt2", N_("transformer-params", "GPT-2-style (LayerNorm, biases, learned positions)"), number="1"
                ),
            ),
            fraction_digits=0,
            preset="model.architecture",
        ),
        count_input(
            "layers",
            _MODEL,
            N_("transformer-params", "Layers"),
            N_(
                "transformer-params",
                "Transformer blocks: num_hidden_layers in config.json (n_layer for GPT-2).",
            ),
            "32",
            preset="model.layers",
            maximum=10_000,
        ),
        count_input(
            "hidden_size",
            _MODEL,
            N_("transformer-params", "Hidden size"),
            N_(
                "transformer-params",
                "Width of the residual stream: hidden_size in config.json (n_embd for GPT-2).",
            ),
            "4096",
            preset="model.hidden_size",
            maximum=1_000_000,
        ),
        count_input(
            "attention_heads",
            _MODEL,
            N_("transformer-params", "Attention heads"),
            N_(
                "transformer-params",
                "Query heads per layer: num_attention_heads in config.json (n_head for GPT-2).",
            ),
            "32",
            preset="model.attention_heads",
        ),
        count_input(
            "kv_heads",
            _MODEL,
            N_("transformer-params", "Key-value heads"),
            N_(
                "transformer-params",
                "num_key_value_heads in config.json. With grouped-query attention it is smaller than the number "
                "of attention heads; without it (GPT-2, Llama-2-7B) the two are equal.",
            ),
            "8",
            preset="model.kv_heads",
        ),
        count_input(
            "head_dim",
            _MODEL,
            N_("transformer-params", "Head dimension"),
            N_(
                "transformer-params",
                "Size of one attention head: head_dim in config.json, or else hidden_size divided by "
                "num_attention_heads.",
            ),
            "128",
            preset="model.head_dim",
        ),
        count_input(
            "ffn_size",
            _MODEL,
            N_("transformer-params", "MLP size"),
            N_(
                "transformer-params",
                "Inner width of the MLP: intermediate_size in config.json; for GPT-2, n_inner or else 4 × the "
                "hidden size.",
            ),
            "14336",
            preset="model.ffn_size",
            maximum=10_000_000,
        ),
        count_input(
            "vocab_size",
            _MODEL,
            N_("transformer-params", "Vocabulary size"),
            N_(
                "transformer-params",
                "Rows of the token embedding table: vocab_size in config.json, which can be larger than the "
                "tokenizer's vocabulary because of padding.",
            ),
            "128256",
            preset="model.vocab_size",
            maximum=10_000_000,
        ),
        InputSpec(
            name="tied_embeddings",
            kind=Kind.CHOICE,
            group=_MODEL,
            label=N_("transformer-params", "Output head"),
            help=N_(
                "transformer-params",
                "tie_word_embeddings in config.json. A tied head reuses the token embedding table to produce "
                "the output logits; an untied head is a second vocabulary × hidden size matrix.",
            ),
            default="0",
            choices=(
                Choice("1", N_("transformer-params", "Tied to the token embeddings")),
                Choice("0", N_("transformer-params", "Untied (a separate matrix)")),
            ),
            fraction_digits=0,
            preset="model.tied_embeddings",
        ),
        InputSpec(
            name="memory_unit",
            kind=Kind.CHOICE,
            group=_WEIGHTS,
            label=N_("transformer-params", "Memory unit"),
            help=N_(
                "transformer-params",
                "GB are 10⁹ bytes; GiB are 2³⁰ bytes, the binary unit PyTorch reports.",
            ),
            default="gb",
            choices=MEMORY_UNITS,
            fraction_digits=0,
        ),
        InputSpec(
            name="positions",
            kind=Kind.INTEGER,
            group=_DETAILS,
            label=N_("transformer-params", "Learned positions"),
            help=N_(
                "transformer-params",
                "Rows of the learned position table of a GPT-2-style model: n_positions or "
                "max_position_embeddings in config.json, 1,024 for GPT-2. Llama-style models use rotary "
                "positions, which have no parameters, so this is ignored for them.",
            ),
            default="1024",
            minimum=Decimal(0),
            maximum=Decimal(10_000_000),
            fraction_digits=0,
            advanced=True,
            preset="model.positions",
        ),
        InputSpec(
            name="attention_bias",
            kind=Kind.CHOICE,
            group=_DETAILS,
            label=N_("transformer-params", "Query, key and value biases"),
            help=N_(
                "transformer-params",
                "Whether a Llama-style model adds a bias to its query, key and value projections, as Qwen2 and "
                "Qwen2.5 do. GPT-2-style models always have biases, so this is ignored for them.",
            ),
            default="0",
            choices=(
                Choice("1", N_("transformer-params", "Yes")),
                Choice("0", N_("transformer-params", "No")),
            ),
            fraction_digits=0,
            advanced=True,
            preset="model.attention_bias",
        ),
        InputSpec(
            name="extra_layer_params",
            kind=Kind.INTEGER,
            group=_DETAILS,
            label=N_("transformer-params", "Extra norm weights per layer"),
            help=N_(
                "transformer-params",
                "Norm weights some families add to each layer beyond the usual two norms: Qwen3 normalises "
                "queries and keys per head (2 × head_dim), OLMo 2 over their full width (query plus key-value "
                "width), and Gemma 2 adds two more norms (2 × hidden_size). 0 for most models.",
            ),
            default="0",
            minimum=Decimal(0),
            maximum=Decimal(10_000_000),
            fraction_digits=0,
            advanced=True,
            preset="model.extra_layer_params",
        ),
        InputSpec(
            name="experts",
            kind=Kind.INTEGER,
            group=_MOE,
            label=N_("transformer-params", "Routed experts"),
            help=N_(
                "transformer-params",
                "Expert MLPs per mixture-of-experts layer: num_local_experts (Mixtral) or n_routed_experts "
                "(DeepSeek) in config.json. 0 for a dense model.",
            ),
            default="0",
            minimum=Decimal(0),
            maximum=Decimal(100_000),
            fraction_digits=0,
            advanced=True,
            preset="model.experts",
        ),
        InputSpec(
            name="experts_per_token",
            kind=Kind.INTEGER,
            group=_MOE,
            label=N_("transformer-params", "Experts per token"),
            help=N_(
                "transformer-params",
                "Routed experts the router picks for each token: num_experts_per_tok in config.json. A value "
                "above the number of experts counts as all of them.",
            ),
            default="0",
            minimum=Decimal(0),
            maximum=Decimal(100_000),
            fraction_digits=0,
            advanced=True,
            preset="model.experts_per_token",
        ),
        InputSpec(
            name="expert_ffn_size",
            kind=Kind.INTEGER,
            group=_MOE,
            label=N_("transformer-params", "Expert MLP size"),
            help=N_(
                "transformer-params",
                "Inner width of one expert: moe_intermediate_size in config.json. Mixtral has none and uses "
                "intermediate_size; 0 here also means the MLP size above.",
            ),
            default="0",
            minimum=Decimal(0),
            maximum=Decimal(10_000_000),
            fraction_digits=0,
            advanced=True,
            preset="model.expert_ffn_size",
        ),
        InputSpec(
            name="shared_experts",
            kind=Kind.INTEGER,
            group=_MOE,
            label=N_("transformer-params", "Shared experts"),
            help=N_(
                "transformer-params",
                "Experts every token passes through in each mixture-of-experts layer, besides the routed ones: "
                "n_shared_experts in config.json (1 for DeepSeek-V3, 0 for Mixtral).",
            ),
            default="0",
            minimum=Decimal(0),
            maximum=Decimal(1_000),
            fraction_digits=0,
            advanced=True,
            preset="model.shared_experts",
        ),
        InputSpec(
            name="dense_layers",
            kind=Kind.INTEGER,
            group=_MOE,
            label=N_("transformer-params", "Leading dense layers"),
            help=N_(
                "transformer-params",
                "First layers that keep a dense MLP of the MLP size instead of experts: first_k_dense_replace "
                "in config.json (3 for DeepSeek-V3, 0 for Mixtral).",
            ),
            default="0",
            minimum=Decimal(0),
            maximum=Decimal(10_000),
            fraction_digits=0,
            advanced=True,
            preset="model.dense_layers",
        ),
        *LATENT_ATTENTION_INPUTS,
    ),
    outputs=(
        OutputSpec(
            name="total_params_billion",
            label=N_("transformer-params", "Total parameters"),
            unit=N_("transformer-params", "billion"),
            # Translators: {total_params_billion}, {non_embedding_params_billion} and {embedding_params_billion}
            # are formatted numbers of billions of parameters.
            sentence=N_(
                "transformer-params",
                "The model has {total_params_billion} billion parameters: {non_embedding_params_billion} billion "
                "outside the embeddings and {embedding_params_billion} billion in them.",
            ),
            fraction_digits=9,
        ),
        OutputSpec(
            name="total_params",
            label=N_("transformer-params", "Exact count"),
            unit=NP_("transformer-params", "parameter", "parameters", count="total_params"),
            # Translators: {total_params} is a formatted whole number of parameters.
            sentence=NP_(
                "transformer-params",
                "Exactly {total_params} parameter, the number to compare with the total a checkpoint reports.",
                "Exactly {total_params} parameters, the number to compare with the total a checkpoint reports.",
                count="total_params",
            ),
            fraction_digits=0,
        ),
        OutputSpec(
            name="active_params_billion",
            label=N_("transformer-params", "Active parameters per token"),
            unit=N_("transformer-params", "billion"),
            # Translators: {active_params_billion} is a formatted number of billions of parameters.
            sentence=N_(
                "transformer-params",
                "Each token passes through {active_params_billion} billion parameters. In a dense model this is "
                "the total; a mixture-of-experts model skips the routed experts the router does not pick.",
            ),
            fraction_digits=9,
        ),
        OutputSpec(
            name="embedding_params_billion",
            label=N_("transformer-params", "Embedding parameters"),
            unit=N_("transformer-params", "billion"),
            # Translators: {embedding_params_billion} is a formatted number of billions of parameters;
            # {vocab_size} and {hidden_size} are the inputs.
            sentence=N_(
                "transformer-params",
                "The token embedding table of vocabulary × hidden size = {vocab_size} × {hidden_size}, with the "
                "output head when it is untied and a learned position table, holds {embedding_params_billion} "
                "billion parameters.",
            ),
            fraction_digits=9,
        ),
        OutputSpec(
            name="non_embedding_params_billion",
            label=N_("transformer-params", "Non-embedding parameters (Kaplan's N)"),
            unit=N_("transformer-params", "billion"),
            # Translators: {non_embedding_params_billion} is a formatted number of billions of parameters.
            sentence=N_(
                "transformer-params",
                "The layers and the final norm hold {non_embedding_params_billion} billion parameters. This is N "
                "in Kaplan et al.'s scaling laws, close to 12 × layers × hidden size² when the MLP is 4 times the "
                "hidden size.",
            ),
            fraction_digits=9,
        ),
        OutputSpec(
            name="weights_memory",
            label=N_("transformer-params", "16-bit weights"),
            unit_choice="memory_unit",
            # Translators: {weights_memory} is a formatted amount of memory and {memory_unit_label} its unit
            # (GB or GiB).
            sentence=N_(
                "transformer-params",
                "Stored at 16 bits (2 bytes) each, as in BF16 or FP16, the weights take {weights_memory} "
                "{memory_unit_label}.",
            ),
        ),
    ),
    compute=compute,
    updated="2026-11-30",
    formulas=(
        r"N \approx 12 \cdot L \cdot d^2",
        r"P_{\text{GPT-2}} = L\,(12d^2 + 13d) + V d + T d + 2d",
        r"P_{\text{Llama}} = L\,(2 d n_h d_h + 2 d n_{kv} d_h + 3 d f + 2d) + (1 + u)\,V d + d",
    ),
    related=("moe-active-params", "quantized-model-size", "llm-inference-vram", "training-flops", "kv-cache-size"),
)
