"""pass@k: the chance that at least one of k samples solves a problem, by the unbiased estimator of the Codex paper.

Chen et al. 2021, "Evaluating Large Language Models Trained on Code" (https://arxiv.org/abs/2107.03374, §2.1):
generate n ≥ k samples of a problem, count the c that pass its unit tests, and estimate

    pass@k = 1 - C(n - c, k) / C(n, k)

which the paper computes in the numerically stable product form of its Figure 3,
1 - ∏_{i = n-c+1}^{n} (1 - k / i), and 1 when n - c < k (every draw of k then holds a correct sample). The
benchmark's pass@k is the mean of that estimate over its problems. Hugging Face's `code_eval` metric, with one
correct of two candidates, prints {'pass@1': 0.5, 'pass@2': 1.0}.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from calculators.kernel.spec import Calculator, InputSpec, Kind, OutputSpec, Rule, messages_of

N_, NP_ = messages_of(__name__)

_SAMPLES = N_("Samples of one problem")


def estimate(n: int, c: int, k: int) -> float:
    """Return the unbiased pass@k of a problem with n samples of which c are correct (the paper's Figure 3)."""
    if n - c < k:
        return 1.0
    product = 1.0
    for i in range(n - c + 1, n + 1):
        product *= 1 - k / i
    return 1 - product


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return pass@k and, for comparison, pass@1 and the biased estimate 1 - (1 - c/n)^k, in percent.

    Hugging Face's code_eval example, one correct candidate of two: pass@1 = 0.5, pass@2 = 1.

    >>> [compute({"samples": 2, "correct": 1, "k": k})["pass_at_k"] for k in (1, 2)]
    [50.0, 100.0]
    """
    n, c, k = int(values["samples"]), int(values["correct"]), int(values["k"])
    return {
        "pass_at_k": estimate(n, c, k) * 100,
        "pass_at_1": c / n * 100,
        "naive": (1 - (1 - c / n) ** k) * 100,
    }


CALCULATOR = Calculator(
    title=N_("pass@k"),
    summary=N_(
        "The chance that at least one of k generated programs passes the tests, from n samples and the c that "
        "passed: the unbiased estimator of the Codex paper, exact for large n.",
    ),
    inputs=(
        InputSpec(
            name="samples",
            kind=Kind.INTEGER,
            group=_SAMPLES,
            label=N_("Samples generated (n)"),
            help=N_(
                "How many completions were sampled for the problem. The Codex paper uses 200 to report pass@1, "
                "pass@10 and pass@100.",
            ),
            default="200",
            unit=N_("samples"),
            minimum=Decimal(1),
            maximum=Decimal(100000),
            fraction_digits=0,
        ),
        InputSpec(
            name="correct",
            kind=Kind.INTEGER,
            group=_SAMPLES,
            label=N_("Samples that pass the tests (c)"),
            help=N_("How many of those completions pass every unit test of the problem."),
            default="10",
            unit=N_("samples"),
            minimum=Decimal(0),
            maximum=Decimal(100000),
            fraction_digits=0,
        ),
        InputSpec(
            name="k",
            kind=Kind.INTEGER,
            group=_SAMPLES,
            label=N_("Attempts allowed (k)"),
            help=N_(
                "How many completions a user may try: the problem counts as solved if any of them passes. At most n.",
            ),
            default="10",
            minimum=Decimal(1),
            maximum=Decimal(100000),
            fraction_digits=0,
        ),
    ),
    outputs=(
        OutputSpec(
            name="pass_at_k",
            label=N_("pass@k"),
            unit=N_("%"),
            # Translators: {pass_at_k} is a formatted percentage (the % sign follows it); {k}, {samples} and
            # {correct} are counts as typed.
            sentence=N_(
                "With {correct} correct of {samples} samples, at least one of {k} attempts passes with "
                "probability {pass_at_k}%.",
            ),
            fraction_digits=4,
        ),
        OutputSpec(
            name="naive",
            label=N_("Biased estimate 1 - (1 - c/n)^k"),
            unit=N_("%"),
            # Translators: {naive} and {pass_at_1} are formatted percentages (the % sign follows each).
            sentence=N_(
                "Treating the success rate of {pass_at_1}% as k independent draws gives {naive}%: the Codex "
                "paper shows that shortcut underestimates pass@k.",
            ),
            fraction_digits=4,
        ),
    ),
    compute=compute,
    updated="2026-12-02",
    formulas=(
        r"\text{pass@}k = 1 - \frac{\binom{n - c}{k}}{\binom{n}{k}} = "
        r"1 - \prod_{i = n - c + 1}^{n} \left(1 - \frac{k}{i}\right)",
    ),
    related=("llm-eval-sample-size", "ab-test-significance", "perplexity"),
    rules=(
        Rule(
            "correct",
            lambda values: values["correct"] <= values["samples"],
            # Translators: {correct} and {samples} are numbers as the reader typed them.
            N_("The correct samples ({correct}) cannot outnumber the samples ({samples})."),
        ),
        Rule(
            "k",
            lambda values: values["k"] <= values["samples"],
            # Translators: {k} and {samples} are numbers as the reader typed them.
            N_("k ({k}) cannot exceed the number of samples ({samples}): draw at least k samples."),
        ),
    ),
)
