"""Learning-rate warmup: the rate at a given optimizer step under a linear or cosine schedule.

Formulas (Hugging Face transformers, `optimization.py`, `get_linear_schedule_with_warmup` and
`get_cosine_schedule_with_warmup`; https://huggingface.co/docs/transformers/main_classes/optimizer_schedules):
lr(t) = η·λ(t) with peak rate η, W warmup steps and T training steps, steps counted from 0.
Warmup: λ = t / max(1, W) while t < W. Then linear decay λ = max(0, (T - t) / max(1, T - W)),
or cosine decay λ = max(0, ½(1 + cos(π·p))) with p = (t - W) / max(1, T - W) (the default
half cycle). The Trainer's warmup length (`TrainingArguments.get_warmup_steps`) is
`warmup_steps` if it is above 0, else ceil(T × `warmup_ratio`), computed in floating point.
BERT (Devlin et al., arXiv:1810.04805, App. A.2) trained with exactly this linear schedule:
peak 1e-4, 10,000 warmup steps, 1,000,000 steps.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from decimal import Decimal

from calculators.kernel.spec import Calculator, Choice, InputSpec, Kind, OutputSpec, messages_of

N_, NP_ = messages_of(__name__)

_COSINE = 1.0
_OPTIMIZER = N_("Optimizer")
_STEPS = N_("Steps")


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the warmup length, the learning rate at `step` and its share of the peak.

    Peak 1e-4, 100 warmup steps, 1,000 steps: halfway through warmup the rate is half the peak;
    at step 775 the linear schedule gives 2.5e-5 and the cosine one 1.46447e-5:

    >>> base = {"learning_rate": 1e-4, "total_steps": 1000, "warmup_steps": 100, "warmup_ratio": 0}
    >>> compute({**base, "schedule": 0, "step": 50})["lr_at_step"]
    5e-05
    >>> round(compute({**base, "schedule": 0, "step": 775})["lr_at_step"], 12)
    2.5e-05
    >>> round(compute({**base, "schedule": 1, "step": 775})["lr_at_step"], 10)
    1.46447e-05

    A warmup ratio of 0.07 over 100 steps is 8 warmup steps in the Trainer, not 7, because
    100 × 0.07 is 7.000000000000001 in floating point before it is rounded up:

    >>> compute({**base, "warmup_steps": 0, "total_steps": 100, "warmup_ratio": 0.07, "schedule": 0,
    ...          "step": 0})["effective_warmup_steps"]
    8
    """
    total = values["total_steps"]
    warmup = values["warmup_steps"] if values["warmup_steps"] > 0 else math.ceil(total * values["warmup_ratio"])
    step = min(values["step"], total)  # training stops at the last step
    if step < warmup:
        factor = step / max(1, warmup)
    elif values["schedule"] == _COSINE:
        progress = (step - warmup) / max(1, total - warmup)
        factor = max(0.0, 0.5 * (1 + math.cos(math.pi * progress)))  # π · 0.5 cycles · 2 · progress
    else:
        factor = max(0.0, (total - step) / max(1, total - warmup))
    return {
        "lr_at_step": values["learning_rate"] * factor,
        "lr_percent_of_peak": 100 * factor,
        "effective_warmup_steps": warmup,
    }


CALCULATOR = Calculator(
    title=N_("Learning-rate warmup"),
    summary=N_(
        "Find the learning rate at any optimizer step of a linear or cosine schedule with warmup, exactly as "
        "the Hugging Face Trainer computes it, and how many steps the warmup lasts when given as a ratio.",
    ),
    inputs=(
        InputSpec(
            name="learning_rate",
            kind=Kind.DECIMAL,
            group=_OPTIMIZER,
            label=N_("Peak learning rate"),
            help=N_(
                "The rate the schedule rises to at the end of warmup: learning_rate in the Trainer. "
                "It can be typed with an exponent, as 1e-4.",
            ),
            default="0.0001",
            minimum=Decimal(0),
            minimum_exclusive=True,
            maximum=Decimal(100),
            fraction_digits=10,
        ),
        InputSpec(
            name="schedule",
            kind=Kind.CHOICE,
            group=_OPTIMIZER,
            label=N_("Decay after warmup"),
            help=N_(
                "lr_scheduler_type in the Trainer. Both fall to 0 at the last step: linear in a straight line, "
                "cosine along half a cosine wave, which stays higher early and lower late.",
            ),
            default="linear",
            choices=(
                Choice("linear", N_("Linear"), number="0"),
                Choice("cosine", N_("Cosine"), number="1"),
            ),
            fraction_digits=0,
        ),
        InputSpec(
            name="total_steps",
            kind=Kind.INTEGER,
            group=_STEPS,
            label=N_("Total training steps"),
            help=N_(
                "Optimizer steps of the whole run (max_steps, or the steps the Trainer derives from the epochs). "
                "With gradient accumulation, one step is one update, not one micro-batch.",
            ),
            unit=N_("steps"),
            default="1000000",
            minimum=Decimal(1),
            maximum=Decimal(1_000_000_000),
            fraction_digits=0,
        ),
        InputSpec(
            name="warmup_steps",
            kind=Kind.INTEGER,
            group=_STEPS,
            label=N_("Warmup steps"),
            help=N_(
                "Steps over which the rate climbs from 0 to the peak. Enter 0 to use the warmup ratio "
                "under the advanced options instead, as the Trainer does.",
            ),
            unit=N_("steps"),
            default="10000",
            minimum=Decimal(0),
            maximum=Decimal(1_000_000_000),
            fraction_digits=0,
        ),
        InputSpec(
            name="step",
            kind=Kind.INTEGER,
            group=_STEPS,
            label=N_("Optimizer step"),
            help=N_(
                "The step to read the rate at, counted from 0 as the scheduler counts it: the first update "
                "uses step 0. A step past the end of training is read as the last step.",
            ),
            default="5000",
            minimum=Decimal(0),
            maximum=Decimal(1_000_000_000),
            fraction_digits=0,
        ),
        InputSpec(
            name="warmup_ratio",
            kind=Kind.DECIMAL,
            group=N_("Warmup as a share of training"),
            label=N_("Warmup ratio"),
            help=N_(
                "Used only when the warmup steps are 0: the Trainer then warms up for the total steps × this "
                "ratio, rounded up. The LoRA paper's RoBERTa fine-tuning runs used 0.06.",
            ),
            default="0",
            minimum=Decimal(0),
            maximum=Decimal(1),
            fraction_digits=6,
            advanced=True,
        ),
    ),
    outputs=(
        OutputSpec(
            name="lr_at_step",
            label=N_("Learning rate at this step"),
            # Translators: {step} is a step number, {lr_at_step} a learning rate written like 5 × 10⁻⁵,
            # {learning_rate} the peak rate typed, {schedule_label} the decay's name (Linear or Cosine).
            sentence=N_(
                "At optimizer step {step}, the learning rate is {lr_at_step} (peak {learning_rate}, "
                "decay: {schedule_label}).",
            ),
            fraction_digits=4,
            scientific=True,
        ),
        OutputSpec(
            name="lr_percent_of_peak",
            label=N_("Share of the peak rate"),
            unit=N_("%"),
            # Translators: {lr_percent_of_peak} is a formatted percentage, {step} a step number,
            # {effective_warmup_steps} and {total_steps} numbers of steps.
            sentence=N_(
                "Step {step} runs at {lr_percent_of_peak} percent of the peak rate: the rate climbs over the first "
                "{effective_warmup_steps} steps and falls to 0 at step {total_steps}.",
            ),
            fraction_digits=2,
        ),
        OutputSpec(
            name="effective_warmup_steps",
            label=N_("Warmup length"),
            unit=NP_("step", "steps", count="effective_warmup_steps"),
            # Translators: {effective_warmup_steps}, {warmup_steps} and {total_steps} are numbers of steps,
            # {warmup_ratio} a ratio such as 0.03. "ceil" means rounding up to a whole number.
            sentence=NP_(
                "Warmup lasts {effective_warmup_steps} step: the warmup steps ({warmup_steps}) if above 0, "
                "otherwise ceil(total steps × warmup ratio) = ceil({total_steps} × {warmup_ratio}).",
                "Warmup lasts {effective_warmup_steps} steps: the warmup steps ({warmup_steps}) if above 0, "
                "otherwise ceil(total steps × warmup ratio) = ceil({total_steps} × {warmup_ratio}).",
                count="effective_warmup_steps",
            ),
            fraction_digits=0,
        ),
    ),
    compute=compute,
    updated="2026-11-30",
    formulas=(
        r"\eta_t = \eta \cdot \frac{t}{W} \quad (t < W)",
        r"\eta_t^{\mathrm{lin}} = \eta \cdot \frac{T - t}{T - W}",
        r"\eta_t^{\cos} = \eta \cdot \frac{1}{2}\left(1 + \cos\left(\pi \frac{t - W}{T - W}\right)\right)",
        r"W = \lceil T \cdot r \rceil",
    ),
    related=("effective-batch-size", "gradient-accumulation-memory", "llm-training-vram"),
)
