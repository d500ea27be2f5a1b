"""Speculative decoding: the tokens each target-model run yields, and the walltime it saves.

Leviathan, Kalman and Matias, "Fast Inference from Transformers via Speculative Decoding" (ICML 2023,
https://arxiv.org/abs/2211.17192). A draft model proposes g tokens; the target model checks them in one run and
keeps each with probability a (the acceptance rate), plus one token of its own. Equation (1) and Theorem 3.8:

    E = (1 - a^(g + 1)) / (1 - a)                 tokens per run of the target model
    S = (1 - a^(g + 1)) / ((1 - a)(g c + 1))      walltime improvement, c = draft run ÷ target run
    ops = (1 - a)(g c' + g + 1) / (1 - a^(g + 1)) arithmetic operations factor (Theorem 3.11)

E is summed as 1 + a + ... + a^g, the same number, finite at a = 1 (where it is g + 1).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from calculators.kernel.spec import Calculator, InputSpec, Kind, OutputSpec, messages_of

N_, NP_ = messages_of(__name__)

_DRAFT = N_("Draft and target models")
# The optimal draft length is searched over 1 to this many tokens (the improvement keeps growing when c = 0).
MAX_SEARCHED_GAMMA = 100

ACCEPTANCE = InputSpec(
    name="acceptance_rate",
    kind=Kind.DECIMAL,
    group=_DRAFT,
    label=N_("Acceptance rate α"),  # noqa: RUF001
    help=N_(
        "The chance that the target model accepts a drafted token, from 0 to 1: the paper measures 0.5 to 0.9 "
        "for T5 drafts of T5-XXL. Speculative decoding engines report it as the accepted share of drafted tokens.",
    ),
    default="0.8",
    minimum=Decimal(0),
    maximum=Decimal(1),
    fraction_digits=4,
)
DRAFT_TOKENS = InputSpec(
    name="draft_tokens",
    kind=Kind.INTEGER,
    group=_DRAFT,
    label=N_("Draft tokens γ"),  # noqa: RUF001
    help=N_("How many tokens the draft model proposes before each run of the target model."),
    default="5",
    unit=N_("tokens"),
    minimum=Decimal(1),
    maximum=Decimal(1000),
    fraction_digits=0,
)
COST_RATIO = InputSpec(
    name="cost_ratio",
    kind=Kind.DECIMAL,
    group=_DRAFT,
    label=N_("Cost coefficient c"),
    help=N_(
        "The time of one draft-model run divided by the time of one target-model run: 0 for a free draft (an n-gram "
        "table), about 0.02 to 0.05 for T5-small drafting for T5-XXL in the paper.",
    ),
    default="0.05",
    minimum=Decimal(0),
    maximum=Decimal(100),
    fraction_digits=4,
)
OPS_RATIO = InputSpec(
    name="ops_ratio",
    kind=Kind.DECIMAL,
    group=_DRAFT,
    label=N_("Arithmetic cost coefficient ĉ"),
    help=N_(
        "The arithmetic operations of a draft-model token divided by those of a target-model token, for the "
        "operations factor; roughly the ratio of the two models' parameter counts.",
    ),
    default="0",
    minimum=Decimal(0),
    maximum=Decimal(100),
    fraction_digits=4,
    advanced=True,
)


def expected_tokens(alpha: float, gamma: int) -> float:
    """Return E = 1 + alpha + ... + alpha^gamma, the tokens one target-model run yields (gamma + 1 at alpha = 1)."""
    # Products rather than pow(): IEEE multiplication gives the same digits in CPython and in Pyodide.
    total, term = 0.0, 1.0
    for _ in range(gamma + 1):
        total += term
        term *= alpha
    return total


def speedup(alpha: float, gamma: int, c: float) -> float:
    """Return the walltime improvement factor of Theorem 3.8."""
    return expected_tokens(alpha, gamma) / (gamma * c + 1)


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the expected tokens per target run, the walltime and operations factors, and the best draft length.

    The paper's Table 1, alpha = 0.8 and gamma = 5 with c = c_ops = 0: 3.69 times faster, 1.63 times the operations.

    >>> result = compute({"acceptance_rate": 0.8, "draft_tokens": 5, "cost_ratio": 0, "ops_ratio": 0})
    >>> round(result["speedup"], 2), round(result["operations_factor"], 2)
    (3.69, 1.63)
    """
    alpha, gamma = values["acceptance_rate"], round(values["draft_tokens"])
    c, c_ops = values["cost_ratio"], values["ops_ratio"]
    tokens = expected_tokens(alpha, gamma)
    best = max(range(1, MAX_SEARCHED_GAMMA + 1), key=lambda g: (speedup(alpha, g, c), -g))
    return {
        "expected_tokens": tokens,
        "speedup": tokens / (gamma * c + 1),
        "operations_factor": (gamma * c_ops + gamma + 1) / tokens,
        "best_draft_tokens": best,
        "best_speedup": speedup(alpha, best, c),
        "max_draft_tokens": MAX_SEARCHED_GAMMA,
    }


CALCULATOR = Calculator(
    title=N_("Speculative decoding speedup"),
    summary=N_(
        "How much faster speculative decoding generates, from the draft's acceptance rate, its length and its cost, "
        "with the paper's formulas and the best draft length.",
    ),
    inputs=(ACCEPTANCE, DRAFT_TOKENS, COST_RATIO, OPS_RATIO),
    outputs=(
        OutputSpec(
            name="speedup",
            label=N_("Walltime improvement"),
            unit=N_("×"),
            # Translators: {speedup} is a factor such as 3.69; {draft_tokens} a number of tokens; {cost_ratio} a ratio.
            sentence=N_(
                "Drafting {draft_tokens} tokens at a cost coefficient of {cost_ratio} makes generation {speedup} "
                "times as fast as the target model alone (below 1, slower).",
            ),
        ),
        OutputSpec(
            name="expected_tokens",
            label=N_("Tokens per target-model run"),
            unit=N_("tokens"),
            # Translators: {expected_tokens} is an average number of tokens; {acceptance_rate} a rate from 0 to 1.
            sentence=N_(
                "At an acceptance rate of {acceptance_rate}, each run of the target model yields {expected_tokens} "
                "tokens on average, against 1 without a draft.",
            ),
        ),
        OutputSpec(
            name="operations_factor",
            label=N_("Arithmetic operations factor"),
            unit=N_("×"),
            # Translators: {operations_factor} is a factor such as 1.63.
            sentence=N_(
                "It performs {operations_factor} times the arithmetic operations: rejected draft tokens are computed "
                "for nothing.",
            ),
        ),
        OutputSpec(
            name="best_draft_tokens",
            label=N_("Best draft length"),
            unit=N_("tokens"),
            # Translators: {best_draft_tokens} and {max_draft_tokens} are numbers of tokens; {best_speedup} a factor.
            sentence=N_(
                "Of drafts of 1 to {max_draft_tokens} tokens, {best_draft_tokens} gives the largest improvement, "
                "{best_speedup} times as fast.",
            ),
            fraction_digits=0,
        ),
    ),
    compute=compute,
    updated="2026-12-02",
    formulas=(
        r"E = \frac{1 - \alpha^{\gamma + 1}}{1 - \alpha}",
        r"S = \frac{1 - \alpha^{\gamma + 1}}{(1 - \alpha)(\gamma c + 1)}",
        r"\text{ops} = \frac{(1 - \alpha)(\gamma \hat{c} + \gamma + 1)}{1 - \alpha^{\gamma + 1}}",
    ),
    related=("effective-tokens-per-second", "image-tokens", "kv-cache-size", "llm-inference-vram"),
)
