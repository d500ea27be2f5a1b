"""Compute-optimal model size: how to split a FLOP budget between parameters and training tokens.

Hoffmann et al., "Training Compute-Optimal Large Language Models" (arXiv:2203.15556), with
C ≈ 6·N·D FLOPs for N parameters and D tokens. Three ways to read their results:

* The rule of thumb D ≈ 20·N (their Table 3; Chinchilla, 70 B on 1.4 T tokens), which with
  C = 6ND gives N_opt = √(C/120) and D_opt = 20·N_opt.
* Approach 3 (§3.3): minimise the fitted loss L(N, D) = E + A/N^alpha + B/D^beta under
  C = 6ND. Eq. 4: N_opt = G·(C/6)^a and D_opt = G⁻¹·(C/6)^b, with a = beta/(alpha + beta),
  b = alpha/(alpha + beta) and G = (alpha·A/(beta·B))^(1/(alpha + beta)); A = 406.4,
  B = 410.7, and either the printed exponents alpha = 0.34, beta = 0.28 or the unrounded
  ones of the paper's TeX source, alpha = 0.3392, beta = 0.2849, which reproduce the
  "40B parameters" Fig. 4 projects for the Gopher budget.
* Epoch AI's refit of Approach 3 (Besiroglu et al., arXiv:2404.10102): A = 482.01,
  B = 2085.43, alpha = 0.3478, beta = 0.3658, which agrees with Hoffmann's Approaches 1 and 2.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace

from calculators.kernel.spec import Calculator, Choice, InputSpec, Kind, OutputSpec, messages_of
from calculators.vocabulary import inputs

N_, NP_ = messages_of(__name__)

TOKENS_PER_PARAM = 20.0
"""The Chinchilla rule of thumb (Hoffmann et al. Table 3; 70 B parameters on 1.4 T tokens)."""

# (A, B, alpha, beta) of L = E + A/N^alpha + B/D^beta for methods 1 to 3 (E does not move the optimum).
FITS: tuple[tuple[float, float, float, float], ...] = (
    (406.4, 410.7, 0.34, 0.28),  # 1: Hoffmann et al. §3.3 / App. D.2, as printed
    (406.4, 410.7, 0.3392, 0.2849),  # 2: the same with the exponents of the paper's TeX source
    (482.01, 2085.43, 0.3478, 0.3658),  # 3: Besiroglu et al. 2024 (Epoch AI)
)


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the compute-optimal parameters and tokens (in billions) and their ratio.

    For the Gopher budget of 5.76 × 10²³ FLOPs (Hoffmann et al. Table 3), the 20:1 rule gives
    about Chinchilla's 70 B parameters and 1.4 T tokens:

    >>> result = compute({"compute_flops": 5.76e23, "method": 0})
    >>> round(result["optimal_params_billion"], 2), round(result["optimal_tokens_billion"])
    (69.28, 1386)

    and Approach 3 with the unrounded exponents reproduces Fig. 4's "40B parameters":

    >>> round(compute({"compute_flops": 5.76e23, "method": 2})["optimal_params_billion"], 1)
    40.3
    """
    budget = values["compute_flops"]
    method = int(values["method"])
    if method == 0:
        params = math.sqrt(budget / (6 * TOKENS_PER_PARAM))
    else:
        a_coef, b_coef, alpha, beta = FITS[method - 1]
        g = (alpha * a_coef / (beta * b_coef)) ** (1 / (alpha + beta))
        params = g * (budget / 6) ** (beta / (alpha + beta))
    # Tokens follow from the budget, C = 6ND: the same as Eq. 4's G⁻¹·(C/6)^b.
    tokens = budget / (6 * params)
    return {
        "optimal_params_billion": params / 1e9,
        "optimal_tokens_billion": tokens / 1e9,
        "tokens_per_param": tokens / params,
    }


CALCULATOR = Calculator(
    title=N_("Compute-optimal model size"),
    summary=N_(
        "Split a training compute budget in FLOPs between model size and training tokens the Chinchilla way: "
        "by the 20-tokens-per-parameter rule, by Hoffmann et al.'s fitted scaling law, or by Epoch AI's refit.",
    ),
    inputs=(
        replace(
            inputs.COMPUTE_FLOPS,
            group=N_("Budget"),
            help=N_(
                "Training compute in FLOPs, which you can type like 5.76e23. The default, 5.76 × 10²³, is the "
                "budget of Gopher and Chinchilla.",
            ),
        ),
        InputSpec(
            name="method",
            kind=Kind.CHOICE,
            group=N_("Budget"),
            label=N_("Scaling law"),
            help=N_(
                "The readings of Hoffmann et al.'s results disagree by more than a factor of two in model "
                "size and of five in tokens per parameter; the article explains why.",
            ),
            default="tokens20",
            choices=(
                Choice("tokens20", N_("20 tokens per parameter (rule of thumb)"), "0"),
                Choice("hoffmann", N_("Hoffmann et al. Approach 3, printed constants"), "1"),
                Choice(
                    "hoffmann_unrounded",
                    N_("Hoffmann et al. Approach 3, unrounded exponents"),
                    "2",
                ),
                Choice("epoch", N_("Epoch AI replication (Besiroglu et al., 2024)"), "3"),
            ),
            fraction_digits=0,
        ),
    ),
    outputs=(
        OutputSpec(
            name="optimal_params_billion",
            label=N_("Model size"),
            unit=N_("billion parameters"),
            # Translators: {method_label} names the chosen scaling law (e.g. "20 tokens per parameter (rule of
            # thumb)"); {optimal_params_billion} is a formatted number of billions of parameters.
            sentence=N_(
                "Scaling law: {method_label}. The budget is best spent on a model of about "
                "{optimal_params_billion} billion parameters.",
            ),
            fraction_digits=2,
        ),
        OutputSpec(
            name="optimal_tokens_billion",
            label=N_("Training tokens"),
            unit=N_("billion tokens"),
            # Translators: {optimal_tokens_billion} is a formatted number of billions of tokens.
            sentence=N_(
                "Train it on about {optimal_tokens_billion} billion tokens, so that 6 × parameters × tokens "
                "equals the budget.",
            ),
            fraction_digits=1,
        ),
        OutputSpec(
            name="tokens_per_param",
            label=N_("Tokens per parameter"),
            # Translators: {tokens_per_param} is a formatted ratio such as 20 or 92.6.
            sentence=N_(
                "That is {tokens_per_param} training tokens per parameter; the scaling laws differ most in this ratio.",
            ),
            fraction_digits=1,
        ),
    ),
    compute=compute,
    updated="2026-11-30",
    formulas=(
        r"N_{opt} = \sqrt{\frac{C}{120}}, \quad D_{opt} = 20 N_{opt}",
        r"N_{opt} = G \left(\frac{C}{6}\right)^{\frac{\beta}{\alpha+\beta}}, \quad "
        r"D_{opt} = G^{-1} \left(\frac{C}{6}\right)^{\frac{\alpha}{\alpha+\beta}}",
        r"G = \left(\frac{\alpha A}{\beta B}\right)^{\frac{1}{\alpha+\beta}}",
    ),
    related=("chinchilla-optimal-tokens", "training-flops", "compute-budget-epochs", "transformer-params"),
)
