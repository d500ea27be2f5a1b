"""Transformer parameter count: every weight of a decoder-only model, from its config.json.

Formula: Kaplan et al., "Scaling Laws for Neural Language Models", arXiv:2001.08361, §2.1 and
Table 1: a layer holds 4·d² attention weights and 2·d·d_ff MLP weights, so with d_ff = 4d the
non-embedding count is N ≈ 12·L·d². The exact count adds what Kaplan leaves out as sub-leading:

* GPT-2 (Radford et al., "Language Models are Unsupervised Multitask Learners", 2019): a bias on
  every linear layer, two LayerNorms (weight and bias) per layer and one at the end, a learned
  position table, the output head tied to the token table: L·(12d² + 13d) + V·d + T·d + 2d.
  GPT-NeoX (Biderman et al., "Pythia", arXiv:2304.01373) has the same modules with rotary
  positions and an untied head; Phi-1/1.5/2 (transformers' modeling_phi.py) one LayerNorm per
  layer, before attention and MLP side by side, and a bias on the output head.
* Llama (Touvron et al., "Llama 2", arXiv:2307.09288, §2.2): RMSNorm (a weight only), no biases,
  a gated MLP of three matrices (SwiGLU), rotary positions (no table), grouped-query attention
  with n_kv key-value heads: L·(2·d·n_h·d_h + 2·d·n_kv·d_h + 3·d·d_ff + 2d) + V·d (+ V·d untied) + d.
  Qwen2 adds biases to the query, key and value projections.
* Mixture of experts (Jiang et al., "Mixtral of Experts", arXiv:2401.04088, §2.1): each MoE layer
  has E expert MLPs and a d×E router, and a token uses the k the router picks; DeepSeek-V3
  (arXiv:2412.19437, §2.1 and §4.2) adds always-on shared experts, dense leading layers and
  multi-head latent attention (low-rank query and key-value projections).

`count_parameters` (in `core.architecture`) is shared with moe-active-params and config.json reading.
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
_MODEL = inputs.MODEL
_MOE = inputs.MIXTURE_OF_EXPERTS
_WEIGHTS = N_("Weights in memory")


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the total, embedding, non-embedding and active parameters, and the 16-bit weights' size.

    GPT-2 small (Radford et al. 2019; 12 layers of 768, vocabulary 50,257, 1,024 positions) has
    124,439,808 parameters, Hugging Face's count; Llama-2-7B has 6,738,415,616 and Llama-3.1-8B
    8,030,261,248, the totals of their published checkpoints:

    >>> from calculators.vocabulary.architecture import GPT2, LLAMA
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

    Pythia-1B (Biderman et al. 2023; GPT-NeoX: GPT-2's layers, rotary positions, untied) has the
    805,736,448 non-embedding parameters its model card prints, 1,011,781,632 in all:

    >>> pythia = {**gpt2, "layers": 16, "hidden_size": 2048, "attention_heads": 8, "kv_heads": 8,
    ...           "head_dim": 256, "ffn_size": 8192, "vocab_size": 50304, "tied_embeddings": 0, "positions": 0}
    >>> result = compute(pythia)
    >>> round(result["non_embedding_params_billion"] * 1e9), result["total_params"]
    (805736448, 1011781632.0)
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


CALCULATOR = Calculator(
    title=N_("Transformer parameter count"),
    summary=N_(
        "Count every parameter of a decoder-only language model from its config.json: the exact total, the "
        "embeddings, Kaplan's non-embedding N, the active parameters of a mixture-of-experts model, and the "
        "memory its 16-bit weights take.",
    ),
    inputs=(
        ARCHITECTURE,
        replace(
            inputs.LAYERS,
            group=_MODEL,
            help=N_(
                "Transformer blocks: num_hidden_layers in config.json (n_layer for GPT-2).",
            ),
        ),
        replace(
            inputs.HIDDEN_SIZE,
            group=_MODEL,
            help=N_(
                "Width of the residual stream: hidden_size in config.json (n_embd for GPT-2).",
            ),
        ),
        replace(
            inputs.ATTENTION_HEADS,
            group=_MODEL,
            help=N_(
                "Query heads per layer: num_attention_heads in config.json (n_head for GPT-2).",
            ),
        ),
        replace(inputs.KV_HEADS, group=_MODEL),
        replace(
            inputs.HEAD_DIM,
            group=_MODEL,
            help=N_(
                "Size of one attention head: head_dim in config.json, or else hidden_size divided by "
                "num_attention_heads.",
            ),
        ),
        replace(inputs.FFN_SIZE, group=_MODEL),
        replace(
            inputs.VOCAB_SIZE,
            group=_MODEL,
            help=N_(
                "Rows of the token embedding table: vocab_size in config.json, which can be larger than the "
                "tokenizer's vocabulary because of padding.",
            ),
            default="128256",
        ),
        replace(
            inputs.TIED_EMBEDDINGS,
            group=_MODEL,
            help=N_(
                "tie_word_embeddings in config.json. A tied head reuses the token embedding table to produce "
                "the output logits; an untied head is a second vocabulary × hidden size matrix.",
            ),
        ),
        replace(inputs.MEMORY_UNIT, group=_WEIGHTS),
        *SHAPE_INPUTS,
        replace(inputs.EXPERTS, group=_MOE, default="0", advanced=True),
        replace(inputs.EXPERTS_PER_TOKEN, group=_MOE, default="0", advanced=True),
        replace(inputs.EXPERT_FFN_SIZE, group=_MOE, default="0", advanced=True),
        replace(
            inputs.SHARED_EXPERTS,
            group=_MOE,
            help=N_(
                "Experts every token passes through in each mixture-of-experts layer, besides the routed ones: "
                "n_shared_experts in config.json (1 for DeepSeek-V3, 0 for Mixtral).",
            ),
            advanced=True,
        ),
        SHARED_EXPERT_FFN_SIZE,
        SHARED_EXPERT_GATE,
        replace(
            inputs.DENSE_LAYERS,
            group=_MOE,
            help=N_(
                "First layers that keep a dense MLP of the MLP size instead of experts: first_k_dense_replace "
                "in config.json (3 for DeepSeek-V3, 0 for Mixtral).",
            ),
            advanced=True,
        ),
        *LATENT_ATTENTION_INPUTS,
    ),
    outputs=(
        OutputSpec(
            name="total_params_billion",
            label=N_("Total parameters"),
            unit=N_("billion"),
            # Translators: {total_params_billion}, {non_embedding_params_billion} and {embedding_params_billion}
            # are formatted numbers of billions of parameters.
            sentence=N_(
                "The model has {total_params_billion} billion parameters: {non_embedding_params_billion} billion "
                "outside the embeddings and {embedding_params_billion} billion in them.",
            ),
            fraction_digits=9,
        ),
        OutputSpec(
            name="total_params",
            label=N_("Exact count"),
            unit=NP_("parameter", "parameters", count="total_params"),
            # Translators: {total_params} is a formatted whole number of parameters.
            sentence=NP_(
                "Exactly {total_params} parameter, the number to compare with the total a checkpoint reports.",
                "Exactly {total_params} parameters, the number to compare with the total a checkpoint reports.",
                count="total_params",
            ),
            fraction_digits=0,
            exact=True,
        ),
        OutputSpec(
            name="active_params_billion",
            label=N_("Active parameters per token"),
            unit=N_("billion"),
            # Translators: {active_params_billion} is a formatted number of billions of parameters.
            sentence=N_(
                "Each token passes through {active_params_billion} billion parameters. In a dense model this is "
                "the total; a mixture-of-experts model skips the routed experts the router does not pick.",
            ),
            fraction_digits=9,
        ),
        OutputSpec(
            name="embedding_params_billion",
            label=N_("Embedding parameters"),
            unit=N_("billion"),
            # Translators: {embedding_params_billion} is a formatted number of billions of parameters;
            # {vocab_size} and {hidden_size} are the inputs.
            sentence=N_(
                "The token embedding table of vocabulary × hidden size = {vocab_size} × {hidden_size}, with the "
                "output head when it is untied and a learned position table, holds {embedding_params_billion} "
                "billion parameters.",
            ),
            fraction_digits=9,
        ),
        OutputSpec(
            name="non_embedding_params_billion",
            label=N_("Non-embedding parameters (Kaplan's N)"),
            unit=N_("billion"),
            # Translators: {non_embedding_params_billion} is a formatted number of billions of parameters.
            sentence=N_(
                "The layers and the final norm hold {non_embedding_params_billion} billion parameters. This is N "
                "in Kaplan et al.'s scaling laws, close to 12 × layers × hidden size² when the MLP is 4 times the "
                "hidden size.",
            ),
            fraction_digits=9,
        ),
        OutputSpec(
            name="weights_memory",
            label=N_("16-bit weights"),
            unit_choice="memory_unit",
            # Translators: {weights_memory} is a formatted amount of memory and {memory_unit_label} its unit
            # (GB or GiB).
            sentence=N_(
                "Stored at 16 bits (2 bytes) each, as in BF16 or FP16, the weights take {weights_memory} "
                "{memory_unit_label}.",
            ),
        ),
    ),
    compute=compute,
    rules=(KV_HEADS_RULE,),
    updated="2026-12-02",
    formulas=(
        r"N \approx 12 \cdot L \cdot d^2",
        r"P_{\text{GPT-2}} = L\,(12d^2 + 13d) + V d + T d + 2d",
        r"P_{\text{Llama}} = L\,(2 d n_h d_h + 2 d n_{kv} d_h + 3 d f + 2d) + (1 + u)\,V d + d",
    ),
    related=("moe-active-params", "quantized-model-size", "llm-inference-vram", "training-flops", "kv-cache-size"),
)
