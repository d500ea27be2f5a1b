"""Context-window fit: whether a request's input and its output limit fit the model's context window, and by how much.

A model's context window holds the prompt and everything the model writes in answer to it: OpenAI's help article puts
it as tokens "shared between prompt and completion" (https://help.openai.com/en/articles/4936856), Anthropic's
context-window page counts input, output and the current turn's thinking against it
(https://platform.claude.com/docs/en/build-with-claude/context-windows). A request fits when

    input + output limit (+ thinking budget, where the API counts it apart) ≤ context window

At Anthropic and OpenAI the thinking budget is part of the output limit (Anthropic: budget_tokens must be less than
max_tokens; OpenAI: max_completion_tokens includes the reasoning tokens), so it adds nothing on top; the reader picks
the convention.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from calculators.kernel.spec import Calculator, Choice, InputSpec, Kind, OutputSpec, Rule, messages_of
from calculators.vocabulary import cost

N_, NP_ = messages_of(__name__)

INSIDE, SEPARATE = 0, 1

CONTEXT_WINDOW = InputSpec(
    name="context_window",
    kind=Kind.INTEGER,
    group=cost.USAGE,
    label=N_("Context window"),
    help=N_(
        "The most tokens the model holds at once, input and output together, as its documentation states it. "
        "The model menu fills the max_position_embeddings of an open model's config.json.",
    ),
    default="128000",
    unit=N_("tokens"),
    minimum=Decimal(1),
    maximum=Decimal(100000000),
    fraction_digits=0,
    preset="model.context_tokens",
)
PROMPT_TOKENS = replace(
    cost.INPUT_TOKENS,
    label=N_("Input tokens"),
    help=N_(
        "Everything the request sends, counted in tokens: system prompt, history, documents, tool definitions, "
        "images as the vendor counts them, and the user's message.",
    ),
    default="100000",
)
MAX_OUTPUT = replace(
    cost.OUTPUT_TOKENS,
    name="max_output_tokens",
    label=N_("Output limit"),
    help=N_(
        "The most tokens the request lets the model write (max_tokens, max_completion_tokens, max_output_tokens). "
        "The window must hold all of them, whether the model uses them or not.",
    ),
    default="4096",
)
THINKING_BUDGET = replace(
    cost.OUTPUT_TOKENS,
    name="thinking_budget",
    label=N_("Thinking budget"),
    help=N_(
        "The tokens the model may spend reasoning before it answers. 0 for a model that does not think.",
    ),
    default="0",
    advanced=True,
)
THINKING_COUNTED = InputSpec(
    name="thinking_counted",
    kind=Kind.CHOICE,
    group=cost.USAGE,
    label=N_("The thinking budget is"),
    help=N_(
        "Part of the output limit at Anthropic (budget_tokens below max_tokens) and OpenAI (max_completion_tokens "
        "includes reasoning); on top of it for an API that counts the two apart.",
    ),
    default="inside",
    choices=(
        Choice("inside", N_("part of the output limit"), number=str(INSIDE)),
        Choice("separate", N_("on top of the output limit"), number=str(SEPARATE)),
    ),
    fraction_digits=0,
    advanced=True,
)


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the tokens the request needs, what is left of the window or how far it overruns it.

    A 128,000-token window, 100,000 input tokens and an output limit of 4,096: 23,904 tokens to spare.
    An 8,192-token window, 7,000 input and 2,000 output: 808 tokens too many.

    >>> base = {"thinking_budget": 0, "thinking_counted": INSIDE}
    >>> fit = compute({"context_window": 128000, "input_tokens": 100000, "max_output_tokens": 4096, **base})
    >>> fit["spare_tokens"], fit["overflow_tokens"]
    (23904, 0)
    >>> over = compute({"context_window": 8192, "input_tokens": 7000, "max_output_tokens": 2000, **base})
    >>> over["spare_tokens"], over["overflow_tokens"], over["largest_output"]
    (0, 808, 1192)
    """
    window = values["context_window"]
    thinking = values["thinking_budget"] if values["thinking_counted"] == SEPARATE else 0
    needed = values["input_tokens"] + values["max_output_tokens"] + thinking
    return {
        "spare_tokens": max(window - needed, 0),
        "overflow_tokens": max(needed - window, 0),
        "needed_tokens": needed,
        "window_share": 100 * needed / window,
        "largest_output": max(window - values["input_tokens"] - thinking, 0),
    }


CALCULATOR = Calculator(
    title=N_("Context window fit"),
    summary=N_(
        "Check whether a request's input, output limit and thinking budget fit a model's context window: the "
        "tokens to spare, or how many too many, and the largest output limit that fits.",
    ),
    inputs=(CONTEXT_WINDOW, PROMPT_TOKENS, MAX_OUTPUT, THINKING_BUDGET, THINKING_COUNTED),
    outputs=(
        OutputSpec(
            name="overflow_tokens",
            label=N_("Tokens over the window"),
            unit=N_("tokens"),
            # Translators: every field is a formatted token count.
            sentence=N_(
                "The request needs {needed_tokens} tokens of a {context_window}-token window. Above 0, this is how "
                "many too many: shorten the input or lower the output limit by at least {overflow_tokens} tokens, "
                "or the API refuses the request.",
            ),
            fraction_digits=0,
            exact=True,
        ),
        OutputSpec(
            name="spare_tokens",
            label=N_("Tokens to spare"),
            unit=N_("tokens"),
            # Translators: {spare_tokens} is a token count; {window_share} a percentage (the % sign follows).
            sentence=N_(
                "{spare_tokens} tokens of the window are left over; the request takes up {window_share}%.",
            ),
            fraction_digits=0,
            exact=True,
        ),
        OutputSpec(
            name="largest_output",
            label=N_("Largest output limit that fits"),
            unit=N_("tokens"),
            # Translators: {largest_output} and {input_tokens} are token counts.
            sentence=N_(
                "With {input_tokens} input tokens, an output limit of up to {largest_output} tokens fits; the "
                "model's own output cap may be lower.",
            ),
            fraction_digits=0,
            exact=True,
        ),
    ),
    compute=compute,
    updated="2026-12-02",
    formulas=(r"T_{in} + T_{out}^{max} \,(+\, T_{think}) \le W",),
    related=("kv-cache-size", "tokens-to-words", "context-cost-growth", "dataset-tokens"),
    rules=(
        Rule(
            "thinking_budget",
            lambda values: (
                values["thinking_counted"] == SEPARATE
                or values["thinking_budget"] == 0
                or values["thinking_budget"] < values["max_output_tokens"]
            ),
            # Translators: {thinking_budget} and {max_output_tokens} are numbers as the reader typed them.
            N_(
                "A thinking budget of {thinking_budget} is part of the output limit and must be smaller than it: "
                "enter less than {max_output_tokens}, or count it on top of the output limit.",
            ),
        ),
    ),
)
