"""Mixture-of-experts parameters: the total a model stores and the part each token uses.

Formula (Jiang et al., "Mixtral of Experts", arXiv:2401.04088, §2.1): a mixture-of-experts layer
replaces the MLP with E expert MLPs and a router, a d×E matrix that picks the top k experts for
each token. A token therefore passes through every weight outside the experts and k experts per
layer:

    total  = embeddings + Σ layers (attention + norms + router + E·P_expert + S·P_shared)
    active = the same with E replaced by k

with P_expert = 3·d·d_expert for a gated (SwiGLU) expert. Qwen2-MoE (transformers'
modeling_qwen2_moe.py) gives its shared expert a width of its own, shared_expert_intermediate_size,
and a gate of d × 1: P_shared = 3·d·d_shared + d. DeepSeek-V3 (DeepSeek-AI,
arXiv:2412.19437, §2.1 and §4.2) adds S shared experts that every token uses, keeps its first
3 layers dense, gives its router a bias per expert, and uses multi-head latent attention (MLA):
the query and the key-value input are projected down to ranks d'_c and d_c, normalized and
projected up again per head. The count itself is `core.architecture.count_parameters`, from the
same inputs as transformer-params (`SHAPE_INPUTS` too: Qwen3's query and key norms, Qwen2's
query, key and value biases), so a model has one count on both pages.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from calculators.kernel.spec import Calculator, OutputSpec, messages_of
from calculators.vocabulary import inputs
from calculators.vocabulary.architecture import (
    ARCHITECTURE,
    KV_HEADS_RULE,
    SHAPE_INPUTS,
    SHARED_EXPERT_FFN_SIZE,
    SHARED_EXPERT_GATE,
    count_parameters,
)
from calculators.vocabulary.inputs import LATENT_ATTENTION_INPUTS

N_, NP_ = messages_of(__name__)

_BYTES_16_BIT = 2
_EXPERTS = N_("Experts")
_MODEL = N_("Attention and embeddings")
_WEIGHTS = N_("Weights in memory")


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the total and active parameters (billions), the active share and the 16-bit weights' size.

    Mixtral-8x7B (Jiang et al. 2024, Table 1): Mistral's "46.7B total parameters" of which
    "12.9B parameters per token":

    >>> mixtral = {"experts": 8, "experts_per_token": 2, "expert_ffn_size": 14336, "shared_experts": 0,
    ...            "dense_layers": 0, "ffn_size": 14336, "layers": 32, "hidden_size": 4096,
    ...            "attention_heads": 32, "kv_heads": 8, "head_dim": 128, "vocab_size": 32000,
    ...            "tied_embeddings": 0, "memory_unit": 1e9}
    >>> result = compute(mixtral)
    >>> result["total_params_billion"], result["active_params_billion"]
    (46.702792704, 12.879925248)

    DeepSeek-V3 (DeepSeek-AI 2024, §4.2), "671B total parameters, of which 37B are activated for
    each token":

    >>> deepseek_v3 = {"experts": 256, "experts_per_token": 8, "expert_ffn_size": 2048, "shared_experts": 1,
    ...                "dense_layers": 3, "ffn_size": 18432, "layers": 61, "hidden_size": 7168,
    ...                "attention_heads": 128, "kv_heads": 128, "head_dim": 128, "vocab_size": 129280,
    ...                "tied_embeddings": 0, "router_bias": 1, "q_lora_rank": 1536, "kv_lora_rank": 512,
    ...                "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128, "memory_unit": 1e9}
    >>> result = compute(deepseek_v3)
    >>> result["total_params_billion"], result["active_params_billion"]
    (671.0264192, 37.552297472)

    DeepSeek's own active counts leave the input embedding table out: 36.63B, its report's 37B.

    >>> round(result["active_without_embedding_billion"], 2)
    36.63
    """
    count = count_parameters(values)
    return {
        "total_params_billion": count.total / 1e9,
        "active_params_billion": count.active / 1e9,
        "active_without_embedding_billion": count.active_without_lookup_tables / 1e9,
        "active_percent": 100 * count.active / count.total,
        "weights_memory": count.total * _BYTES_16_BIT / values["memory_unit"],
    }


CALCULATOR = Calculator(
    title=N_("MoE total and active parameters"),
    summary=N_(
        "Count the total parameters of a mixture-of-experts model and the active parameters each token uses, "
        "from the numbers in its config.json, with shared experts, dense layers and DeepSeek's latent attention.",
    ),
    inputs=(
        replace(
            inputs.EXPERTS,
            group=_EXPERTS,
            help=N_(
                "Expert MLPs in each mixture-of-experts layer: num_local_experts (Mixtral) or n_routed_experts "
                "(DeepSeek) in config.json. 0 describes a dense model.",
            ),
        ),
        replace(
            inputs.EXPERTS_PER_TOKEN,
            group=_EXPERTS,
            help=N_(
                "Routed experts the router picks for each token (top-k): num_experts_per_tok in config.json. "
                "A value above the number of experts counts as all of them.",
            ),
        ),
        replace(
            inputs.EXPERT_FFN_SIZE,
            group=_EXPERTS,
            help=N_(
                "Inner width of one expert: moe_intermediate_size in config.json, or intermediate_size for "
                "Mixtral, whose experts are full-size MLPs. 0 means the same as the dense MLP size.",
            ),
        ),
        replace(inputs.SHARED_EXPERTS, group=_EXPERTS),
        replace(SHARED_EXPERT_FFN_SIZE, group=_EXPERTS),
        replace(SHARED_EXPERT_GATE, group=_EXPERTS),
        replace(inputs.DENSE_LAYERS, group=_EXPERTS),
        replace(
            inputs.FFN_SIZE,
            group=_EXPERTS,
            label=N_("Dense MLP size"),
            help=N_(
                "Inner width of the MLP of the dense layers: intermediate_size in config.json (18,432 for "
                "DeepSeek-V3). It only counts when there are dense layers, or as the expert size when that is 0.",
            ),
        ),
        replace(
            inputs.LAYERS,
            group=_MODEL,
            help=N_(
                "Transformer blocks, dense and mixture-of-experts: num_hidden_layers in config.json.",
            ),
        ),
        replace(
            inputs.HIDDEN_SIZE,
            group=_MODEL,
            help=N_("Width of the residual stream: hidden_size in config.json."),
        ),
        replace(inputs.ATTENTION_HEADS, group=_MODEL),
        replace(
            inputs.KV_HEADS,
            group=_MODEL,
            help=N_(
                "num_key_value_heads in config.json, smaller than the attention heads with grouped-query "
                "attention. Not used with multi-head latent attention.",
            ),
        ),
        replace(
            inputs.HEAD_DIM,
            group=_MODEL,
            help=N_(
                "Size of one attention head: head_dim in config.json, or else hidden_size divided by "
                "num_attention_heads. Not used with multi-head latent attention.",
            ),
        ),
        replace(inputs.VOCAB_SIZE, group=_MODEL),
        replace(inputs.TIED_EMBEDDINGS, group=_MODEL),
        replace(ARCHITECTURE, group=_MODEL, advanced=True),
        replace(inputs.MEMORY_UNIT, group=_WEIGHTS),
        *SHAPE_INPUTS,
        *LATENT_ATTENTION_INPUTS,
    ),
    outputs=(
        OutputSpec(
            name="total_params_billion",
            label=N_("Total parameters"),
            unit=N_("billion"),
            # Translators: {total_params_billion} is a formatted number of billions of parameters.
            sentence=N_(
                "Counting every expert, the model has {total_params_billion} billion parameters, and all of "
                "them must be held in memory to serve it.",
            ),
            fraction_digits=9,
        ),
        OutputSpec(
            name="active_params_billion",
            label=N_("Active parameters per token"),
            unit=N_("billion"),
            # Translators: {active_params_billion} is a formatted number of billions of parameters;
            # {experts_per_token} and {experts} are numbers of experts.
            sentence=NP_(
                "Each token passes through {active_params_billion} billion parameters: everything outside the "
                "routed experts, plus the {experts_per_token} routed expert of {experts} that the router picks in "
                "each mixture-of-experts layer.",
                "Each token passes through {active_params_billion} billion parameters: everything outside the "
                "routed experts, plus the {experts_per_token} routed experts of {experts} that the router picks in "
                "each mixture-of-experts layer.",
                count="experts_per_token",
            ),
            fraction_digits=9,
        ),
        OutputSpec(
            name="active_without_embedding_billion",
            label=N_("Active parameters without the embedding table"),
            unit=N_("billion"),
            # Translators: {active_without_embedding_billion} and {active_params_billion} are formatted numbers of
            # billions of parameters.
            sentence=N_(
                "Without the input embedding table, which a token only looks up, {active_without_embedding_billion} "
                "billion parameters are active: the convention of DeepSeek's reports. Mistral and Qwen count the "
                "table in, as the {active_params_billion} billion above do.",
            ),
            fraction_digits=9,
        ),
        OutputSpec(
            name="active_percent",
            label=N_("Active share"),
            unit=N_("%"),
            # Translators: {active_percent} is a formatted percentage (without the % sign).
            sentence=N_(
                "A token uses {active_percent} percent of the weights, so its compute is about that share of what a "
                "dense model of the same total size would need.",
            ),
            fraction_digits=2,
        ),
        OutputSpec(
            name="weights_memory",
            label=N_("16-bit weights"),
            unit_choice="memory_unit",
            # Translators: {weights_memory} is a formatted amount of memory and {memory_unit_label} its unit
            # (GB or GiB).
            sentence=N_(
                "Stored at 16 bits (2 bytes) each, as in BF16 or FP16, all the weights take {weights_memory} "
                "{memory_unit_label}.",
            ),
        ),
    ),
    compute=compute,
    rules=(KV_HEADS_RULE,),
    updated="2026-12-02",
    formulas=(
        r"P_{\text{total}} = P_{\text{base}} + L_{\text{MoE}} \,(E\, P_{\text{expert}} + S\, P_{\text{shared}})",
        r"P_{\text{active}} = P_{\text{base}} + L_{\text{MoE}} \,(k\, P_{\text{expert}} + S\, P_{\text{shared}})",
        r"P_{\text{expert}} = 3 \cdot d \cdot f_{\text{expert}}, \quad "
        r"P_{\text{shared}} = 3 \cdot d \cdot f_{\text{shared}} + g\, d",
    ),
    related=("transformer-params", "quantized-model-size", "llm-inference-vram", "training-flops"),
)
