"""Mixture-of-experts parameters: the total a model stores and the part each token uses.

Formula (Jiang et al., "Mixtral of Experts", arXiv:2401.04088, §2.1): a mixture-of-experts layer
replaces the MLP with E expert MLPs and a router, a d×E matrix that picks the top k experts for
each token. A token therefore passes through every weight outside the experts and k experts per
layer:

    total  = embeddings + Σ layers (attention + norms + router + E·P_expert + S·P_expert)
    active = the same with E replaced by k

with P_expert = 3·d·d_expert for a gated (SwiGLU) expert. DeepSeek-V3 (DeepSeek-AI,
arXiv:2412.19437, §2.1 and §4.2) adds S shared experts that every token uses, keeps its first
3 layers dense, gives its router a bias per expert, and uses multi-head latent attention (MLA):
the query and the key-value input are projected down to ranks d'_c and d_c, normalized and
projected up again per head. The count itself is `count_parameters` of the
transformer-params calculator.
"""

from __future__ import annotations

from collections.abc import Mapping

from calculators.core.architecture import LATENT_ATTENTION_INPUTS, count_input, count_parameters
from calculators.core.spec import MEMORY_UNITS, N_, NP_, Calculator, Choice, InputSpec, Kind, OutputSpec

_BYTES_16_BIT = 2
_EXPERTS = N_("moe-active-params", "Experts")
_MODEL = N_("moe-active-params", "Attention and embeddings")
_WEIGHTS = N_("moe-active-params", "Weights in memory")


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
    """
    count = count_parameters(values)
    return {
        "total_params_billion": count.total / 1e9,
        "active_params_billion": count.active / 1e9,
        "active_percent": 100 * count.active / count.total,
        "weights_memory": count.total * _BYTES_16_BIT / values["memory_unit"],
    }


CALCULATOR = Calculator(
    slug="moe-active-params",
    category="infrastructure",
    title=N_("moe-active-params", "MoE total and active parameters"),
    summary=N_(
        "moe-active-params",
        "Count the total parameters of a mixture-of-experts model and the active parameters each token uses, "
        "from the numbers in its config.json, with shared experts, dense layers and DeepSeek's latent attention.",
    ),
    inputs=(
        count_input(
            "experts",
            _EXPERTS,
            N_("moe-active-params", "Routed experts"),
            N_(
                "moe-active-params",
                "Expert MLPs in each mixture-of-experts layer: num_local_experts (Mixtral) or n_routed_experts "
                "(DeepSeek) in config.json. 0 describes a dense model.",
            ),
            "8",
            preset="model.experts",
            minimum=0,
        ),
        count_input(
            "experts_per_token",
            _EXPERTS,
            N_("moe-active-params", "Experts per token"),
            N_(
                "moe-active-params",
                "Routed experts the router picks for each token (top-k): num_experts_per_tok in config.json. "
                "A value above the number of experts counts as all of them.",
            ),
            "2",
            preset="model.experts_per_token",
            minimum=0,
        ),
        count_input(
            "expert_ffn_size",
            _EXPERTS,
            N_("moe-active-params", "Expert MLP size"),
            N_(
                "moe-active-params",
                "Inner width of one expert: moe_intermediate_size in config.json, or intermediate_size for "
                "Mixtral, whose experts are full-size MLPs. 0 means the same as the dense MLP size.",
            ),
            "14336",
            preset="model.expert_ffn_size",
            minimum=0,
            maximum=10_000_000,
        ),
        count_input(
            "shared_experts",
            _EXPERTS,
            N_("moe-active-params", "Shared experts"),
            N_(
                "moe-active-params",
                "Experts that every token uses in each mixture-of-experts layer, besides the routed ones: "
                "n_shared_experts in config.json (1 for DeepSeek-V3, none for Mixtral).",
            ),
            "0",
            preset="model.shared_experts",
            minimum=0,
            maximum=1_000,
        ),
        count_input(
            "dense_layers",
            _EXPERTS,
            N_("moe-active-params", "Leading dense layers"),
            N_(
                "moe-active-params",
                "First layers that keep an ordinary dense MLP instead of experts: first_k_dense_replace in "
                "config.json (3 for DeepSeek-V3, none for Mixtral).",
            ),
            "0",
            preset="model.dense_layers",
            minimum=0,
            maximum=10_000,
        ),
        count_input(
            "ffn_size",
            _EXPERTS,
            N_("moe-active-params", "Dense MLP size"),
            N_(
                "moe-active-params",
                "Inner width of the MLP of the dense layers: intermediate_size in config.json (18,432 for "
                "DeepSeek-V3). It only counts when there are dense layers, or as the expert size when that is 0.",
            ),
            "14336",
            preset="model.ffn_size",
            maximum=10_000_000,
        ),
        count_input(
            "layers",
            _MODEL,
            N_("moe-active-params", "Layers"),
            N_(
                "moe-active-params",
                "Transformer blocks, dense and mixture-of-experts: num_hidden_layers in config.json.",
            ),
            "32",
            preset="model.layers",
            maximum=10_000,
        ),
        count_input(
            "hidden_size",
            _MODEL,
            N_("moe-active-params", "Hidden size"),
            N_("moe-active-params", "Width of the residual stream: hidden_size in config.json."),
            "4096",
            preset="model.hidden_size",
            maximum=1_000_000,
        ),
        count_input(
            "attention_heads",
            _MODEL,
            N_("moe-active-params", "Attention heads"),
            N_("moe-active-params", "Query heads per layer: num_attention_heads in config.json."),
            "32",
            preset="model.attention_heads",
        ),
        count_input(
            "kv_heads",
            _MODEL,
            N_("moe-active-params", "Key-value heads"),
            N_(
                "moe-active-params",
                "num_key_value_heads in config.json, smaller than the attention heads with grouped-query "
                "attention. Not used with multi-head latent attention.",
            ),
            "8",
            preset="model.kv_heads",
        ),
        count_input(
            "head_dim",
            _MODEL,
            N_("moe-active-params", "Head dimension"),
            N_(
                "moe-active-params",
                "Size of one attention head: head_dim in config.json, or else hidden_size divided by "
                "num_attention_heads. Not used with multi-head latent attention.",
            ),
            "128",
            preset="model.head_dim",
        ),
        count_input(
            "vocab_size",
            _MODEL,
            N_("moe-active-params", "Vocabulary size"),
            N_("moe-active-params", "Rows of the token embedding table: vocab_size in config.json."),
            "32000",
            preset="model.vocab_size",
            maximum=10_000_000,
        ),
        InputSpec(
            name="tied_embeddings",
            kind=Kind.CHOICE,
            group=_MODEL,
            label=N_("moe-active-params", "Output head"),
            help=N_(
                "moe-active-params",
                "tie_word_embeddings in config.json: whether the output layer reuses the token embedding table "
                "or is a second vocabulary × hidden size matrix.",
            ),
            default="0",
            choices=(
                Choice("1", N_("moe-active-params", "Tied to the token embeddings")),
                Choice("0", N_("moe-active-params", "Untied (a separate matrix)")),
            ),
            fraction_digits=0,
            preset="model.tied_embeddings",
        ),
        InputSpec(
            name="memory_unit",
            kind=Kind.CHOICE,
            group=_WEIGHTS,
            label=N_("moe-active-params", "Memory unit"),
            help=N_("moe-active-params", "GB are 10⁹ bytes; GiB are 2³⁰ bytes, the binary unit PyTorch reports."),
            default="gb",
            choices=MEMORY_UNITS,
            fraction_digits=0,
        ),
        *LATENT_ATTENTION_INPUTS,
    ),
    outputs=(
        OutputSpec(
            name="total_params_billion",
            label=N_("moe-active-params", "Total parameters"),
            unit=N_("moe-active-params", "billion"),
            # Translators: {total_params_billion} is a formatted number of billions of parameters.
            sentence=N_(
                "moe-active-params",
                "Counting every expert, the model has {total_params_billion} billion parameters, and all of "
                "them must be held in memory to serve it.",
            ),
            fraction_digits=9,
        ),
        OutputSpec(
            name="active_params_billion",
            label=N_("moe-active-params", "Active parameters per token"),
            unit=N_("moe-active-params", "billion"),
            # Translators: {active_params_billion} is a formatted number of billions of parameters;
            # {experts_per_token} and {experts} are numbers of experts.
            sentence=NP_(
                "moe-active-params",
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
            name="active_percent",
            label=N_("moe-active-params", "Active share"),
            unit=N_("moe-active-params", "%"),
            # Translators: {active_percent} is a formatted percentage (without the % sign).
            sentence=N_(
                "moe-active-params",
                "A token uses {active_percent} percent of the weights, so its compute is about that share of what a "
                "dense model of the same total size would need.",
            ),
            fraction_digits=2,
        ),
        OutputSpec(
            name="weights_memory",
            label=N_("moe-active-params", "16-bit weights"),
            unit_choice="memory_unit",
            # Translators: {weights_memory} is a formatted amount of memory and {memory_unit_label} its unit
            # (GB or GiB).
            sentence=N_(
                "moe-active-params",
                "Stored at 16 bits (2 bytes) each, as in BF16 or FP16, all the weights take {weights_memory} "
                "{memory_unit_label}.",
            ),
        ),
    ),
    compute=compute,
    updated="2026-11-30",
    formulas=(
        r"P_{\text{total}} = P_{\text{base}} + L_{\text{MoE}} \,(E + S)\, P_{\text{expert}}",
        r"P_{\text{active}} = P_{\text{base}} + L_{\text{MoE}} \,(k + S)\, P_{\text{expert}}",
        r"P_{\text{expert}} = 3 \cdot d \cdot f_{\text{expert}}",
    ),
    related=("transformer-params", "quantized-model-size", "llm-inference-vram", "training-flops"),
)
