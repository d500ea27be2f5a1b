"""Epochs from a compute budget: how many tokens a FLOP budget trains, and how many passes over a dataset.

Formula: training costs C ≈ 6·N·D FLOPs for N parameters and D training tokens (Kaplan et al.,
"Scaling Laws for Neural Language Models", arXiv:2001.08361, §2.1; Hoffmann et al., arXiv:2203.15556,
§3 and App. F). A budget C therefore trains D = C / (6N) tokens, and over a dataset of D_ds
tokens that is C / (6·N·D_ds) epochs; one epoch costs 6·N·D_ds FLOPs.

GPT-3 175B (Brown et al., arXiv:2005.14165, Table D.1: 174.6B parameters, 300B tokens,
3.14E+23 FLOPs) is the check: its budget buys 300 billion tokens.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from calculators.kernel.spec import Calculator, InputSpec, Kind, OutputSpec, messages_of
from calculators.vocabulary import inputs

N_, NP_ = messages_of(__name__)

_FLOPS_PER_PARAM_TOKEN = 6  # forward 2, backward 4 (Kaplan et al. §2.1)


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the tokens the budget trains (billions), the epochs over the dataset and one epoch's FLOPs.

    GPT-3's 3.14e23 FLOPs at 174.6 billion parameters train its 300 billion tokens, one pass over
    a 300-billion-token sample:

    >>> gpt3 = compute({"compute_flops": 3.14e23, "params_billion": 174.6, "dataset_tokens_billion": 300})
    >>> round(gpt3["trainable_tokens_billion"], 1), round(gpt3["epochs"], 2)
    (299.7, 1.0)
    """
    params = values["params_billion"] * 1e9
    dataset = values["dataset_tokens_billion"] * 1e9
    trainable = values["compute_flops"] / (_FLOPS_PER_PARAM_TOKEN * params)
    return {
        "epochs": trainable / dataset,
        "trainable_tokens_billion": trainable / 1e9,
        "epoch_flops": _FLOPS_PER_PARAM_TOKEN * params * dataset,
    }


CALCULATOR = Calculator(
    title=N_("Epochs from a compute budget"),
    summary=N_(
        "Find how many tokens a FLOP budget can train a model of a given size on, and how many passes over "
        "your dataset that is, from C ≈ 6 × parameters × tokens.",
    ),
    inputs=(
        replace(
            inputs.COMPUTE_FLOPS,
            group=N_("Compute budget"),
            default="3.14e23",
        ),
        replace(
            inputs.PARAMS_BILLION,
            group=N_("Model and data"),
            help=N_(
                "The model's size in billions of parameters; 174.6 for GPT-3. For a mixture-of-experts model, "
                "enter the parameters active for each token, since only those are computed; a model preset "
                "fills in that number.",
            ),
            default="174.6",
            preset="model.active_params_billion",
        ),
        InputSpec(
            name="dataset_tokens_billion",
            kind=Kind.DECIMAL,
            group=N_("Model and data"),
            label=N_("Dataset size"),
            help=N_(
                "Unique tokens in your training data, in billions. The default, 499, is the sum of the five "
                "sources in GPT-3's training mix.",
            ),
            unit=N_("billion tokens"),
            default="499",
            minimum=Decimal(0),
            minimum_exclusive=True,
            maximum=Decimal(1_000_000),
            fraction_digits=3,
        ),
    ),
    outputs=(
        OutputSpec(
            name="epochs",
            label=N_("Epochs over the dataset"),
            # Translators: {epochs} is a formatted number of passes over the data (often not whole);
            # {trainable_tokens_billion} and {dataset_tokens_billion} are numbers of billions of tokens.
            sentence=N_(
                "Passes over the dataset: {trainable_tokens_billion} billion tokens trained ÷ "
                "{dataset_tokens_billion} billion tokens of data = {epochs}.",
            ),
            fraction_digits=2,
        ),
        OutputSpec(
            name="trainable_tokens_billion",
            label=N_("Tokens the budget trains"),
            unit=N_("billion tokens"),
            # Translators: {trainable_tokens_billion} is a number of billions of tokens, {params_billion} a
            # number of billions of parameters (hence × 10⁹).
            sentence=N_(
                "At 6 FLOPs per parameter per token, the budget trains {params_billion} × 10⁹ parameters on "
                "budget ÷ (6 × parameters) = {trainable_tokens_billion} billion tokens.",
            ),
            fraction_digits=1,
        ),
        OutputSpec(
            name="epoch_flops",
            label=N_("Compute for one epoch"),
            unit=N_("FLOPs"),
            # Translators: {epoch_flops} is a number of FLOPs written like 5.23 × 10²³; {params_billion} and
            # {dataset_tokens_billion} are numbers of billions (hence × 10⁹).
            sentence=N_(
                "One pass over the dataset costs 6 × {params_billion} × 10⁹ parameters × "
                "{dataset_tokens_billion} × 10⁹ tokens = {epoch_flops} FLOPs.",
            ),
            fraction_digits=3,
            scientific=True,
        ),
    ),
    compute=compute,
    updated="2026-12-02",
    formulas=(r"D = \frac{C}{6N}", r"E = \frac{C}{6 \cdot N \cdot D_{ds}}"),
    related=("training-flops", "chinchilla-optimal-tokens", "compute-optimal-model-size", "dataset-tokens"),
)
