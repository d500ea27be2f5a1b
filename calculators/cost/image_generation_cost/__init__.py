"""Image generation cost: per image from a price table, or from the output tokens a token-billed model writes.

Two conventions. A price per image, by quality and size, as OpenAI's image-generation guide tabulates it
(https://developers.openai.com/api/docs/guides/image-generation, "Calculating costs"); or tokens: GPT Image models
write an image as output tokens, 4,160 for a high-quality 1024×1024 image by the guide's table, billed at the
output price per million tokens, with the prompt's tokens at the text input price:

    per image:  cost = n × price per image
    tokens:     cost = n × (output tokens × p_out + prompt tokens × p_in) / 10⁶

At gpt-image-1's 40 per million output tokens, 4,160 tokens come to 0.1664, the guide's $0.167 per image.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from calculators.kernel.spec import Calculator, Choice, InputSpec, Kind, OutputSpec, messages_of
from calculators.vocabulary import cost, units

N_, NP_ = messages_of(__name__)

_IMAGES = N_("Images")

BILLING = InputSpec(
    name="billing",
    kind=Kind.CHOICE,
    group=cost.PRICES,
    label=N_("Priced"),
    help=N_(
        "Per image, from the vendor's table of prices by quality and size; or by tokens, from the output tokens "
        "a GPT Image model writes for that quality and size and its price per million tokens.",
    ),
    default="image",
    choices=(
        Choice("image", N_("Per image (price table)"), number="0"),
        Choice("tokens", N_("By tokens (token-billed model)"), number="1"),
    ),
    fraction_digits=0,
)
IMAGES = InputSpec(
    name="images",
    kind=Kind.INTEGER,
    group=_IMAGES,
    label=N_("Number of images"),
    help=N_("How many images to generate: each image of a request with n > 1 is billed separately."),
    default="1000",
    unit=units.IMAGES,
    minimum=Decimal(0),
    maximum=Decimal(1000000000),
    fraction_digits=0,
)
PRICE_PER_IMAGE = cost.price_input(
    "price_per_image",
    N_("Price per image"),
    N_(
        "The vendor's price for one image at the quality and size you generate (per-image pricing).",
    ),
    "0.034",
    preset="price.per_image",
    unit=N_("per image"),
)
# OpenAI's image-generation guide, "Cost and latency": output tokens per image of GPT Image models.
_SIZES = (
    ("low-1024x1024", N_("Low, 1024×1024 (272 tokens)"), "272"),
    ("low-1024x1536", N_("Low, 1024×1536 (408 tokens)"), "408"),
    ("low-1536x1024", N_("Low, 1536×1024 (400 tokens)"), "400"),
    ("medium-1024x1024", N_("Medium, 1024×1024 (1,056 tokens)"), "1056"),
    ("medium-1024x1536", N_("Medium, 1024×1536 (1,584 tokens)"), "1584"),
    ("medium-1536x1024", N_("Medium, 1536×1024 (1,568 tokens)"), "1568"),
    ("high-1024x1024", N_("High, 1024×1024 (4,160 tokens)"), "4160"),
    ("high-1024x1536", N_("High, 1024×1536 (6,240 tokens)"), "6240"),
    ("high-1536x1024", N_("High, 1536×1024 (6,208 tokens)"), "6208"),
)
QUALITY_SIZE = InputSpec(
    name="quality_size",
    kind=Kind.CHOICE,
    group=_IMAGES,
    label=N_("Quality and size"),
    help=N_(
        "For token billing: the output tokens one image takes, from the table in OpenAI's image-generation "
        "guide. Streaming partial images add 100 tokens each.",
    ),
    default="high-1024x1024",
    choices=tuple(Choice(value, label, number=tokens) for value, label, tokens in _SIZES),
    fraction_digits=0,
)
PROMPT_TOKENS = InputSpec(
    name="prompt_tokens",
    kind=Kind.INTEGER,
    group=_IMAGES,
    label=N_("Prompt tokens per image"),
    help=N_("For token billing: the text tokens of the prompt, billed at the text input price."),
    default="50",
    unit=N_("tokens"),
    minimum=Decimal(0),
    maximum=Decimal(100000000),
    fraction_digits=0,
)
IMAGE_OUTPUT_PRICE = cost.price_input(
    "image_output_price",
    N_("Image output price"),
    N_(
        "For token billing: what a million image output tokens cost; 40 reproduces gpt-image-1's per-image prices.",
    ),
    "40",
    preset=None,
)
TEXT_INPUT_PRICE = cost.price_input(
    "text_input_price",
    N_("Text input price"),
    N_("For token billing: what a million prompt tokens cost, from the model's pricing page."),
    "5",
    preset=None,
)


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the cost of one image and of all of them, under the billing chosen.

    Token billing, a high-quality 1024×1024 image (4,160 tokens) at 40 per million, no prompt: 0.1664, the
    guide's $0.167:

    >>> prices = {"price_per_image": 0.167, "image_output_price": 40, "text_input_price": 5}
    >>> result = compute({"billing": 1, "images": 1000, "quality_size": 4160, "prompt_tokens": 0, **prices})
    >>> round(result["image_cost"], 6), round(result["total_cost"], 6)
    (0.1664, 166.4)
    """
    if values["billing"]:
        output = cost.per_million(values["quality_size"], values["image_output_price"])
        prompt = cost.per_million(values["prompt_tokens"], values["text_input_price"])
    else:
        output, prompt = values["price_per_image"], 0.0
    image = output + prompt
    return {"image_cost": image, "total_cost": image * values["images"], "prompt_cost": prompt}


CALCULATOR = Calculator(
    title=N_("Image generation cost"),
    summary=N_(
        "Price generated images per image from the vendor's table, or by the output tokens a token-billed model "
        "writes for each quality and size.",
    ),
    inputs=(
        IMAGES,
        BILLING,
        PRICE_PER_IMAGE,
        QUALITY_SIZE,
        PROMPT_TOKENS,
        IMAGE_OUTPUT_PRICE,
        TEXT_INPUT_PRICE,
        cost.CURRENCY,
    ),
    outputs=(
        OutputSpec(
            name="image_cost",
            label=N_("Cost per image"),
            # Translators: {image_cost} and {prompt_cost} are amounts of money with their currency code.
            sentence=N_("One image costs {image_cost}, of which {prompt_cost} for the prompt."),
            fraction_digits=6,
            currency=cost.CURRENCY.name,
        ),
        OutputSpec(
            name="total_cost",
            label=N_("Cost of all images"),
            # Translators: {images} is a formatted number of images; {total_cost} an amount of money.
            sentence=N_("{images} images cost {total_cost}."),
            currency=cost.CURRENCY.name,
        ),
    ),
    compute=compute,
    updated="2026-12-02",
    formulas=(r"C = n \cdot p_{image}", r"C = n \cdot \frac{T_{out}\,p_{out} + T_{prompt}\,p_{in}}{10^6}"),
    money=("prompt_cost",),
    related=("token-cost", "tts-cost"),
)
