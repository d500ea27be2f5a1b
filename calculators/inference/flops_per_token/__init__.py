"""FLOPs per token: the forward pass and the training step of a transformer, per token.

Kaplan et al., "Scaling Laws for Neural Language Models" (arXiv:2001.08361, §2.1 and Table 1): a forward
pass costs C_forward ≈ 2N + 2·n_layer·n_ctx·d_attn FLOPs per token, N the parameters, and training about
three times that, 6N. PaLM (Chowdhery et al., arXiv:2204.02311, App. B) counts the attention twice as
large, both the query-key product and the weighted sum of values: 6N + 12·L·H·Q·T per training token,
2N + 4·L·H·Q·T for the forward pass alone.

The two agree once the causal mask is counted: token i of a causal sequence attends to i tokens, 4·L·i·d_attn
FLOPs, which averages to Kaplan's 2·L·n_ctx·d_attn over n_ctx tokens. PaLM's term is what a token decoded
after n_ctx cached tokens does (Hoffmann et al., arXiv:2203.15556, Appendix F, count both products per query),
as `vocabulary/roofline.decode_flops` does for the inference calculators. The page shows Kaplan's count by
default, PaLM's when chosen, and says which.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from calculators.kernel.spec import Calculator, Choice, InputSpec, Kind, OutputSpec, messages_of
from calculators.vocabulary import inputs, roofline, units

N_, NP_ = messages_of(__name__)

_MODEL = inputs.MODEL


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the forward and training FLOPs per token and the attention term's share.

    PaLM 540B (Table 1 shapes, App. B): 540.35 billion parameters, 118 layers, 48 heads of 256, 2,048 tokens;
    Table 22 prints 3.28 TFLOPs per training token, attention included:

    >>> palm = compute({"active_params_billion": 540.35, "layers": 118, "attention_heads": 48, "head_dim": 256,
    ...                 "context_tokens": 2048, "convention": 1})
    >>> round(palm["training_flops"] / 1e12, 2)
    3.28
    """
    params = values["active_params_billion"] * 1e9
    # Kaplan: 2·L·n_ctx·d_attn per forward token, the causal average; PaLM counts QKᵀ and the weighted values
    # over the whole context, twice that, as a decoded token does.
    factor = 4 if values["convention"] else 2
    attention = factor * values["layers"] * values["context_tokens"] * values["attention_heads"] * values["head_dim"]
    forward = 2 * params + attention
    return {
        "forward_flops": forward,
        "training_flops": 3 * forward,
        "attention_share": 100 * attention / forward,
    }


CALCULATOR = Calculator(
    title=N_("FLOPs per token"),
    summary=N_(
        "Work out the floating-point operations a transformer does per token: 2N for a forward pass plus the "
        "attention over the context, and three times that for a training step.",
    ),
    inputs=(
        replace(roofline.ACTIVE_PARAMS, group=_MODEL),
        replace(inputs.LAYERS, group=_MODEL),
        replace(inputs.ATTENTION_HEADS, group=_MODEL),
        replace(inputs.HEAD_DIM, group=_MODEL),
        replace(
            inputs.CONTEXT_TOKENS,
            help=N_("Tokens each token attends to: the sequence length in training."),
            default="2048",
        ),
        InputSpec(
            name="convention",
            kind=Kind.CHOICE,
            group=inputs.WORKLOAD,
            label=N_("Attention count"),
            help=N_(
                "Kaplan et al. count 2 × layers × context × attention width per forward token, the average over "
                "a causal sequence; PaLM and Megatron-LM count twice that, the query-key product and the weighted "
                "sum of values over the whole context, as a token decoded with a full KV cache does.",
            ),
            default="0",
            choices=(
                Choice("0", N_("Kaplan et al. (2 L n d)")),
                Choice("1", N_("PaLM (4 L H Q T)")),
            ),
            fraction_digits=0,
        ),
    ),
    outputs=(
        OutputSpec(
            name="forward_flops",
            label=N_("Forward pass"),
            unit=N_("FLOPs per token"),
            # Translators: {forward_flops} is a number of FLOPs, {active_params_billion} billions of parameters;
            # {convention_label} names the attention count chosen, as the menu shows it.
            sentence=N_(
                "A forward pass costs 2 × {active_params_billion} × 10⁹ FLOPs for the weights plus the attention "
                "over the context, counted as {convention_label}: {forward_flops} FLOPs per token.",
            ),
            scientific=True,
        ),
        OutputSpec(
            name="training_flops",
            label=N_("Training step"),
            unit=N_("FLOPs per token"),
            # Translators: {training_flops} is a number of FLOPs.
            sentence=N_(
                "Training adds a backward pass that costs twice the forward one: {training_flops} FLOPs per "
                "training token.",
            ),
            scientific=True,
        ),
        OutputSpec(
            name="attention_share",
            label=N_("Attention term"),
            unit=units.PERCENT,
            # Translators: {attention_share} is a percentage (the % sign follows), {context_tokens} a number of tokens.
            sentence=N_(
                "At {context_tokens} tokens of context, the attention term's share of the total is {attention_share}%.",
            ),
        ),
    ),
    compute=compute,
    updated="2026-12-06",
    formulas=(
        r"C_{forward} = 2N + 2 \cdot n_{layer} \cdot n_{ctx} \cdot d_{attn}",
        r"C_{train} = 6N + 12 \cdot L \cdot H \cdot Q \cdot T",
    ),
    related=("mfu", "training-flops", "inference-throughput", "inference-latency", "batch-inference-throughput"),
)
