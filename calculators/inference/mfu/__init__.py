"""Model FLOPs utilization (MFU): the share of the hardware's peak a training run spends on the model's FLOPs.

PaLM (Chowdhery et al., arXiv:2204.02311, §4.1 and App. B): MFU is the observed throughput in tokens per
second divided by the theoretical maximum of the system at peak FLOPs, R = P ÷ (6N + 12·L·H·Q·T). The
model FLOPs leave out rematerialization, which hardware FLOPs utilization (HFU) counts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from calculators.kernel.spec import Calculator, Choice, InputSpec, Kind, OutputSpec, messages_of
from calculators.vocabulary import inputs, roofline, units

N_, NP_ = messages_of(__name__)

_MODEL = inputs.MODEL
_RUN = inputs.TRAINING_RUN


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the MFU (percent), the model FLOPs per token, the FLOP/s per chip and the peak's throughput.

    PaLM 540B on 6,144 TPU v4 chips (275 TFLOP/s each) at 238.3 thousand tokens per second: 46.2 percent
    with the attention term and 45.7 percent without (PaLM Table 3 and App. B):

    >>> palm = {"active_params_billion": 540.35, "layers": 118, "attention_heads": 48, "head_dim": 256,
    ...         "seq_len": 2048, "tokens_per_second": 238300, "chips": 6144, "peak_tflops": 275, "attention": 1}
    >>> round(compute(palm)["mfu"], 1), round(compute({**palm, "attention": 0})["mfu"], 1)
    (46.2, 45.7)
    """
    per_token = 6 * values["active_params_billion"] * 1e9
    if values["attention"]:
        per_token += 12 * values["layers"] * values["attention_heads"] * values["head_dim"] * values["seq_len"]
    peak = values["chips"] * values["peak_tflops"] * 1e12
    achieved = values["tokens_per_second"] * per_token
    return {
        "mfu": 100 * achieved / peak,
        "model_flops_per_token": per_token,
        "achieved_tflops": achieved / values["chips"] / 1e12,
        "peak_tokens_per_second": peak / per_token,
    }


CALCULATOR = Calculator(
    title=N_("Model FLOPs utilization"),
    summary=N_(
        "Work out the model FLOPs utilization (MFU) of a training run from its measured tokens per second, "
        "the model's size and shape and the accelerators' peak, as the PaLM paper defines it.",
    ),
    inputs=(
        replace(roofline.ACTIVE_PARAMS, group=_MODEL, default="540.35"),
        replace(inputs.LAYERS, group=_MODEL, default="118"),
        replace(inputs.ATTENTION_HEADS, group=_MODEL, default="48"),
        replace(inputs.HEAD_DIM, group=_MODEL, default="256"),
        InputSpec(
            name="attention",
            kind=Kind.CHOICE,
            group=_MODEL,
            label=N_("Attention FLOPs"),
            help=N_(
                "PaLM counts 12 × layers × heads × head dimension × sequence length per token for the attention "
                "scores, which no parameter accounts for; some reports leave it out.",
            ),
            default="1",
            choices=(
                Choice("1", N_("Counted (6N + 12 L H Q T)")),
                Choice("0", N_("Left out (6N)")),
            ),
            fraction_digits=0,
        ),
        replace(inputs.SEQ_LEN, group=_RUN),
        InputSpec(
            name="tokens_per_second",
            kind=Kind.DECIMAL,
            group=_RUN,
            label=N_("Measured throughput"),
            help=N_(
                "Training tokens the whole run processes per second, measured: PaLM 540B reached 238,300.",
            ),
            default="238300",
            unit=roofline.TOKENS_PER_SECOND,
            minimum=Decimal(0),
            minimum_exclusive=True,
            maximum=Decimal(1_000_000_000_000),
            fraction_digits=3,
        ),
        InputSpec(
            name="chips",
            kind=Kind.INTEGER,
            group=roofline.GPU,
            label=N_("Accelerators"),
            help=N_("GPUs or TPU chips the run uses: 6,144 TPU v4 chips for PaLM 540B."),
            default="6144",
            unit=units.GPUS,
            minimum=Decimal(1),
            maximum=Decimal(10_000_000),
            fraction_digits=0,
        ),
        replace(roofline.PEAK_TFLOPS, default="275"),
    ),
    outputs=(
        OutputSpec(
            name="mfu",
            label=N_("MFU"),
            unit=units.PERCENT,
            # Translators: {mfu} is a percentage (the % sign follows); {tokens_per_second} and
            # {peak_tokens_per_second} are numbers of tokens per second.
            sentence=N_(
                "The run reaches {tokens_per_second} tokens/s, against {peak_tokens_per_second} tokens/s if every "
                "accelerator ran at its peak on the model's FLOPs alone: an MFU of {mfu}%.",
            ),
        ),
        OutputSpec(
            name="model_flops_per_token",
            label=N_("Model FLOPs per token"),
            unit=N_("FLOPs"),
            # Translators: {model_flops_per_token} is a number of FLOPs.
            sentence=N_(
                "Each training token costs {model_flops_per_token} model FLOPs: the forward and backward passes, "
                "without recomputation.",
            ),
            scientific=True,
        ),
        OutputSpec(
            name="achieved_tflops",
            label=N_("Model FLOP/s per accelerator"),
            unit=units.TFLOP_S,
            # Translators: {achieved_tflops} and {peak_tflops} are TFLOP/s.
            sentence=N_(
                "Each accelerator does {achieved_tflops} TFLOP/s of model FLOPs out of its peak of {peak_tflops}.",
            ),
        ),
        OutputSpec(
            name="peak_tokens_per_second",
            label=N_("Throughput at peak"),
            unit=roofline.TOKENS_PER_SECOND,
            # Translators: {peak_tokens_per_second} is a number of tokens per second.
            sentence=N_(
                "At 100 percent MFU the run would process {peak_tokens_per_second} tokens/s.",
            ),
            fraction_digits=0,
        ),
    ),
    compute=compute,
    updated="2026-12-02",
    formulas=(
        r"\mathrm{MFU} = \frac{R_{observed} \cdot (6N + 12 \cdot L \cdot H \cdot Q \cdot T)}{n_{chips} \cdot P_{peak}}",
    ),
    related=("flops-per-token", "training-flops", "inference-throughput", "parallel-training-planner"),
)
