"""Fine-tuning cost: what a hosted fine-tuning job bills, from the training file's tokens, the epochs and the price.

OpenAI's fine-tuning guide, "Estimate costs" (https://platform.openai.com/docs/guides/fine-tuning): "(base training
cost per 1M input tokens ÷ 1M) × number of tokens in the input file × number of epochs trained. For a training file
with 100,000 tokens trained over 3 epochs, the expected cost would be ~$0.90 USD with gpt-4o-mini-2024-07-18 …
~$2.40 USD with gpt-3.5-turbo-0125." Validation tokens, where a vendor bills them, are added the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from calculators.kernel.spec import Calculator, InputSpec, Kind, OutputSpec, messages_of
from calculators.vocabulary import cost

N_, NP_ = messages_of(__name__)

_JOB = N_("Training job")


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the job's trained tokens and its cost.

    OpenAI's example, 100,000 tokens for 3 epochs at 3 and 8 per million training tokens:

    >>> base = {"file_tokens": 100_000, "epochs": 3, "validation_tokens": 0}
    >>> [round(compute({**base, "training_price": price})["job_cost"], 6) for price in (3, 8)]
    [0.9, 2.4]
    """
    trained = values["file_tokens"] * values["epochs"]
    billed = trained + values["validation_tokens"] * values["epochs"]
    return {
        "trained_tokens": trained,
        "billed_tokens": billed,
        "job_cost": cost.per_million(billed, values["training_price"]),
    }


CALCULATOR = Calculator(
    title=N_("Fine-tuning cost"),
    summary=N_(
        "Estimate a hosted fine-tuning job's bill from the tokens in the training file, the number of epochs and "
        "the training price per million tokens, as OpenAI's guide computes it.",
    ),
    inputs=(
        InputSpec(
            name="file_tokens",
            kind=Kind.DECIMAL,
            group=_JOB,
            label=N_("Tokens in the training file"),
            help=N_(
                "Every token of the training examples, counted after the chat template is applied: roles and "
                "separators add to the text's own tokens.",
            ),
            default="100000",
            unit=N_("tokens"),
            minimum=Decimal(0),
            maximum=Decimal("1e13"),
            fraction_digits=0,
        ),
        InputSpec(
            name="epochs",
            kind=Kind.INTEGER,
            group=_JOB,
            label=N_("Epochs"),
            help=N_(
                "Passes over the training file. Vendors choose a number when you leave it to them; 3 is common.",
            ),
            default="3",
            minimum=Decimal(1),
            maximum=Decimal(1000),
            fraction_digits=0,
        ),
        InputSpec(
            name="validation_tokens",
            kind=Kind.DECIMAL,
            group=_JOB,
            label=N_("Tokens in the validation file"),
            help=N_(
                "Only where the vendor bills validation, once per epoch; 0 otherwise. OpenAI's estimate counts the "
                "training file alone.",
            ),
            default="0",
            unit=N_("tokens"),
            minimum=Decimal(0),
            maximum=Decimal("1e13"),
            fraction_digits=0,
            advanced=True,
        ),
        cost.price_input(
            "training_price",
            N_("Training price"),
            N_(
                "What the vendor charges per million training tokens: each token counts once per epoch. Using the "
                "fine-tuned model is billed separately, at its own input and output prices.",
            ),
            "3",
            preset=None,
        ),
        cost.CURRENCY,
    ),
    outputs=(
        OutputSpec(
            name="job_cost",
            label=N_("Cost of the job"),
            # Translators: {file_tokens}, {epochs} and {billed_tokens} are formatted numbers; {training_price} and
            # {job_cost} amounts of money with their currency code.
            sentence=N_(
                "{file_tokens} tokens × {epochs} epochs, validation included, bill {billed_tokens} tokens: at "
                "{training_price} per million tokens the job costs {job_cost}.",
            ),
            currency=cost.CURRENCY.name,
        ),
    ),
    compute=compute,
    updated="2026-12-02",
    formulas=(r"C = \frac{p}{10^6} \times T_{\mathrm{file}} \times E",),
    related=("lora-parameters", "dataset-tokens", "token-cost"),
)
