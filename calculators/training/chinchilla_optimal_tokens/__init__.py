"""Chinchilla-optimal tokens: how many training tokens a model of a given size should see.

Rule (Hoffmann et al., "Training Compute-Optimal Large Language Models", arXiv:2203.15556):
compute-optimal training scales parameters and tokens equally, and the paper's Table 3
(Approach 1) projects about 20 tokens per parameter (1 B parameters → 20.2 B tokens; the
70 B-parameter Chinchilla itself was trained on 1.4 T tokens). So D_opt ≈ 20·N, and the
run costs C ≈ 6·N·D FLOPs (§3; Kaplan et al., arXiv:2001.08361, §2.1).

The predicted final loss uses the parametric fit of §3.3 (Eq. 2), L(N, D) = E + A/N^alpha + B/D^beta,
with the constants printed in the paper (E = 1.69, A = 406.4, B = 410.7, alpha = 0.34, beta = 0.28)
or those of Epoch AI's replication (Besiroglu et al., arXiv:2404.10102: E = 1.8172,
A = 482.01, B = 2085.43, alpha = 0.3478, beta = 0.3658).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from calculators.kernel.spec import Calculator, Choice, InputSpec, Kind, OutputSpec, messages_of
from calculators.vocabulary import inputs

N_, NP_ = messages_of(__name__)

# (E, A, B, alpha, beta) of L(N, D) = E + A/N^alpha + B/D^beta, indexed by the loss_fit choice's number.
LOSS_FITS: tuple[tuple[float, float, float, float, float], ...] = (
    (1.69, 406.4, 410.7, 0.34, 0.28),  # Hoffmann et al. 2022, §3.3 / App. D.2, as printed
    (1.8172, 482.01, 2085.43, 0.3478, 0.3658),  # Besiroglu et al. 2024 (Epoch AI), their refit
)


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the compute-optimal tokens (billions), the training FLOPs and the predicted loss.

    Chinchilla itself (Hoffmann et al. §4.1): 70 billion parameters on 1.4 trillion tokens,
    trained with about 5.9 × 10²³ FLOPs (6ND; the Gopher budget the paper plans for is 5.76 × 10²³):

    >>> result = compute({"params_billion": 70})
    >>> round(result["optimal_tokens_billion"]), f"{result['training_flops']:.2e}"
    (1400, '5.88e+23')
    >>> round(result["predicted_loss"], 4)
    1.9366
    """
    params = values["params_billion"] * 1e9
    tokens = values.get("tokens_per_param", 20.0) * params
    e, a, b, alpha, beta = LOSS_FITS[int(values.get("loss_fit", 0))]
    return {
        "optimal_tokens_billion": tokens / 1e9,
        "training_flops": 6 * params * tokens,
        "predicted_loss": e + a / params**alpha + b / tokens**beta,
    }


CALCULATOR = Calculator(
    title=N_("Chinchilla-optimal training tokens"),
    summary=N_(
        "Find how many tokens a model of a given size should be trained on to use its compute best, by the "
        "Chinchilla rule of about 20 tokens per parameter, with the training FLOPs and the predicted loss.",
    ),
    inputs=(
        replace(
            inputs.PARAMS_BILLION,
            group=N_("Model"),
            help=N_(
                "The model's size in billions of parameters, embeddings included, as Hoffmann et al. count "
                "them. The default is Chinchilla, 70 billion.",
            ),
            default="70",
        ),
        InputSpec(
            name="tokens_per_param",
            kind=Kind.DECIMAL,
            group=N_("Scaling law"),
            label=N_("Tokens per parameter"),
            help=N_(
                "20 is the usual reading of Hoffmann et al.: their Table 3 projects 20 to 22 tokens per "
                "parameter. Change it to see the cost and the predicted loss of a shorter or longer run.",
            ),
            default="20",
            minimum=Decimal(0),
            minimum_exclusive=True,
            maximum=Decimal(100_000),
            fraction_digits=2,
            advanced=True,
        ),
        InputSpec(
            name="loss_fit",
            kind=Kind.CHOICE,
            group=N_("Scaling law"),
            label=N_("Loss formula constants"),
            help=N_(
                "The constants of the fitted loss formula: as printed by Hoffmann et al., or as refitted by "
                "Epoch AI from the same experiments. They predict different losses; see the article.",
            ),
            default="hoffmann",
            choices=(
                Choice("hoffmann", N_("Hoffmann et al. (2022), as printed"), "0"),
                Choice("epoch", N_("Epoch AI replication (Besiroglu et al., 2024)"), "1"),
            ),
            fraction_digits=0,
            advanced=True,
        ),
    ),
    outputs=(
        OutputSpec(
            name="optimal_tokens_billion",
            label=N_("Training tokens"),
            unit=N_("billion tokens"),
            # Translators: {params_billion} is a formatted number of billions of parameters, {tokens_per_param}
            # a formatted ratio (20 by default), {optimal_tokens_billion} a formatted number of billions of tokens.
            sentence=N_(
                "A model of {params_billion} billion parameters is trained compute-optimally on about "
                "{tokens_per_param} tokens per parameter: {optimal_tokens_billion} billion tokens.",
            ),
            fraction_digits=1,
        ),
        OutputSpec(
            name="training_flops",
            label=N_("Training compute"),
            unit=N_("FLOPs"),
            # Translators: {training_flops} is a number of floating-point operations written like 5.88 × 10²³.
            sentence=N_(
                "At 6 FLOPs per parameter per token, that run costs about {training_flops} FLOPs.",
            ),
            fraction_digits=2,
            scientific=True,
        ),
        OutputSpec(
            name="predicted_loss",
            label=N_("Predicted loss"),
            # Translators: {loss_fit_label} names the chosen set of constants (e.g. "Hoffmann et al. (2022),
            # as printed"); {predicted_loss} is a formatted number such as 1.937.
            sentence=N_(
                "Loss formula constants: {loss_fit_label}. They predict a final training loss of {predicted_loss}, "
                "valid only for the paper's training data and tokenizer.",
            ),
            fraction_digits=3,
        ),
    ),
    compute=compute,
    updated="2026-11-30",
    formulas=(
        r"D_{opt} \approx 20 N",
        r"C \approx 6 N D_{opt}",
        r"L(N, D) = E + \frac{A}{N^{\alpha}} + \frac{B}{D^{\beta}}",
    ),
    related=("compute-optimal-model-size", "training-flops", "dataset-tokens", "compute-budget-epochs"),
)
