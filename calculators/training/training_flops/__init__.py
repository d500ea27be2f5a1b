"""Training FLOPs: the compute a transformer needs for a training run, from parameters and tokens.

Formula (Kaplan et al., "Scaling Laws for Neural Language Models", arXiv:2001.08361, §2.1,
and Hoffmann et al., arXiv:2203.15556, §3): a forward pass costs about 2 FLOPs per
parameter per token and the backward pass twice that, so C ≈ 6·N·D for N parameters and
D training tokens. One petaflop/s-day (PF-day) is 10¹⁵ FLOP/s for 86,400 s, 8.64 × 10¹⁹ FLOPs.

Advanced refinements: full activation recomputation runs the forward pass a second time,
8 FLOPs per parameter per token instead of 6 (Narayanan et al., arXiv:2104.04473, §5.1,
"8ND"); and the attention term of PaLM (Chowdhery et al., arXiv:2204.02311, App. B),
12·L·H·Q·T FLOPs per token for L layers, H heads of size Q and sequence length T, which
the parameter count misses because attention scores have no weights.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from calculators.kernel.spec import Calculator, Choice, InputSpec, Kind, OutputSpec, messages_of
from calculators.vocabulary import inputs

N_, NP_ = messages_of(__name__)

PF_DAY = 8.64e19
"""FLOPs in one petaflop/s-day: 10¹⁵ FLOP/s × 86,400 s (Kaplan et al. §2.1)."""

_MODEL = inputs.MODEL
_TRAINING = N_("Training")
_REFINEMENTS = N_("Refinements")


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the training compute in FLOPs and PF-days, and the FLOPs per training token.

    GPT-3 175B (Brown et al., arXiv:2005.14165, Table D.1): 174.6 billion parameters on
    300 billion tokens, "3.14E+23" FLOPs or "3.64E+03" PF-days:

    >>> result = compute({"params_billion": 174.6, "tokens_billion": 300})
    >>> f"{result['training_flops']:.2e}", f"{result['pf_days']:.2e}"
    ('3.14e+23', '3.64e+03')

    Chinchilla Table 3 (Hoffmann et al.): 1 billion parameters on 20.2 billion tokens, "1.21e+20":

    >>> f"{compute({'params_billion': 1, 'tokens_billion': 20.2})['training_flops']:.2e}"
    '1.21e+20'
    """
    params = values["params_billion"] * 1e9
    # 6 FLOPs per parameter per token: forward 2, backward 4. Recomputing the activations
    # repeats the forward pass, which adds 2 more (and a third more of the attention term).
    per_param = 8.0 if values.get("activation_recompute", 0) else 6.0
    per_token = per_param * params
    if values.get("attention_flops", 0):
        # PaLM App. B: 12·L·H·Q·T for a forward and backward pass (QKᵀ and the weighted sum of values).
        attention = values["layers"] * values["attention_heads"] * values["head_dim"] * values["seq_len"]
        per_token += 2 * per_param * attention
    total = per_token * values["tokens_billion"] * 1e9
    return {"training_flops": total, "pf_days": total / PF_DAY, "flops_per_token": per_token}


CALCULATOR = Calculator(
    title=N_("Training FLOPs"),
    summary=N_(
        "Estimate the compute a transformer training run needs, in FLOPs and petaflop/s-days, from the "
        "parameter count and the number of training tokens, with the 6ND rule and optional refinements.",
    ),
    inputs=(
        replace(
            inputs.PARAMS_BILLION,
            group=_MODEL,
            help=N_(
                "The model's size in billions of parameters. For a mixture-of-experts model, enter the "
                "parameters active for each token, since only those do work. The default is GPT-3, "
                "174.6 billion.",
            ),
            default="174.6",
            preset="model.active_params_billion",
        ),
        replace(
            inputs.TOKENS_BILLION,
            group=_TRAINING,
            help=N_(
                "Tokens processed in training, in billions, repeats included: two epochs over 100 billion "
                "tokens are 200 billion. GPT-3 was trained on 300 billion.",
            ),
            default="300",
        ),
        InputSpec(
            name="activation_recompute",
            kind=Kind.CHOICE,
            group=_REFINEMENTS,
            label=N_("Activation recomputation"),
            help=N_(
                "Full activation checkpointing runs each forward pass twice, which the hardware must do "
                "but which model FLOPs utilization (MFU) does not count. Leave it off for model FLOPs.",
            ),
            default="0",
            choices=(
                Choice("0", N_("None (6 FLOPs per parameter per token)")),
                Choice("1", N_("Full (8 FLOPs per parameter per token)")),
            ),
            fraction_digits=0,
            advanced=True,
        ),
        InputSpec(
            name="attention_flops",
            kind=Kind.CHOICE,
            group=_REFINEMENTS,
            label=N_("Attention term"),
            help=N_(
                "Attention scores cost FLOPs that no parameter accounts for, growing with the sequence "
                "length. PaLM's count adds 12 × layers × heads × head dimension × sequence length per token.",
            ),
            default="0",
            choices=(
                Choice("0", N_("Left out")),
                Choice("1", N_("Included")),
            ),
            fraction_digits=0,
            advanced=True,
        ),
        replace(
            inputs.LAYERS,
            group=_REFINEMENTS,
            help=N_(
                "Transformer blocks, num_hidden_layers in config.json. Used only by the attention term.",
            ),
            default="96",
            advanced=True,
        ),
        replace(
            inputs.ATTENTION_HEADS,
            group=_REFINEMENTS,
            help=N_(
                "Query heads, num_attention_heads in config.json. Used only by the attention term.",
            ),
            default="96",
            advanced=True,
        ),
        replace(
            inputs.HEAD_DIM,
            group=_REFINEMENTS,
            help=N_(
                "Size of one attention head: head_dim, or else hidden_size divided by num_attention_heads. "
                "Used only by the attention term.",
            ),
            advanced=True,
        ),
        replace(
            inputs.SEQ_LEN,
            group=_REFINEMENTS,
            label=N_("Training sequence length"),
            help=N_(
                "Tokens in each training sequence (GPT-3 used 2,048). Used only by the attention term.",
            ),
            advanced=True,
        ),
    ),
    outputs=(
        OutputSpec(
            name="training_flops",
            label=N_("Training compute"),
            unit=N_("FLOPs"),
            # Translators: {tokens_billion} is a formatted number of billions of tokens; {flops_per_token} and
            # {training_flops} are numbers of floating-point operations written like 3.14 × 10²³.
            sentence=N_(
                "Training on {tokens_billion} billion tokens at {flops_per_token} FLOPs per token takes "
                "about {training_flops} FLOPs.",
            ),
            scientific=True,
        ),
        OutputSpec(
            name="pf_days",
            label=N_("Petaflop/s-days"),
            unit=N_("PF-days"),
            # Translators: {pf_days} is a number written like 3.64 × 10³. A petaflop/s-day is a unit of compute.
            sentence=N_(
                "That is {pf_days} petaflop/s-days: one petaflop/s-day is 10¹⁵ FLOPs per second for a day, "
                "8.64 × 10¹⁹ FLOPs.",
            ),
            scientific=True,
        ),
        OutputSpec(
            name="flops_per_token",
            label=N_("Compute per token"),
            unit=N_("FLOPs"),
            # Translators: {flops_per_token} is a number written like 1.05 × 10¹²; {params_billion} a formatted
            # number of billions of parameters; {activation_recompute_label} and {attention_flops_label} are the
            # chosen options of the "Activation recomputation" and "Attention term" inputs.
            sentence=N_(
                "Each training token costs {flops_per_token} FLOPs with {params_billion} billion parameters. "
                "Activation recomputation: {activation_recompute_label}. Attention term: {attention_flops_label}.",
            ),
            scientific=True,
        ),
    ),
    compute=compute,
    updated="2026-12-02",
    formulas=(
        r"C \approx 6 N D",
        r"C_{\text{PF-day}} = \frac{C}{8.64 \times 10^{19}}",
        r"C = \left(6N + 12 L H Q T\right) D",
        r"C_{\text{recompute}} \approx 8 N D",
    ),
    related=(
        "compute-optimal-model-size",
        "chinchilla-optimal-tokens",
        "compute-budget-epochs",
        "transformer-params",
        "moe-active-params",
    ),
)
