"""Image tokens: the input tokens an image counts, by each vendor's documented rule.

- OpenAI, tile models (GPT-4o, GPT-4.1, GPT-4.5, o1, o3, GPT-4o mini), "Images and vision", calculating costs
  (https://platform.openai.com/docs/guides/images-vision#calculating-costs): low detail is the base tokens alone;
  high detail scales the image to fit 2048 × 2048, then its shortest side down to 768 px, and adds a tile's tokens
  per 512 px square: 1024 × 1024 is 85 + 4 × 170 = 765 tokens, 2048 × 4096 is 85 + 6 × 170 = 1105.
- OpenAI, patch models (GPT-4.1 mini and nano, o4-mini), same guide: 32 px patches, at most 1536 (a larger image is
  shrunk by √(1536 × 32² ÷ (w × h)), then to whole patches across its width), times the model's multiplier:
  1024 × 1024 is 1024 patches, 1800 × 2400 is 1452.
- Anthropic, "Vision" (https://platform.claude.com/docs/en/build-with-claude/vision), "Evaluate image size" and
  "How Claude resizes and pads images": each 28 × 28 px patch is a visual token, ⌈w / 28⌉ × ⌈h / 28⌉; an image
  above the model's native resolution (1568 px on the long edge and 1568 tokens for most models, 2576 px and 4784
  tokens for Claude Opus 4.7 and later) is first resized to the largest aspect-preserving size within both, by the
  guide's reference `resized_size`, ported here. Its tables: 1092 × 1092 is 1521 tokens, 1920 × 1080 is read at
  1456 × 819, 1560 tokens (2691 on Opus 4.7). The older guide's width × height ÷ 750, with images above about
  1,600 tokens scaled down, is superseded: it gave about 1,590 for 1092 × 1092.
- Google, "Understand and count tokens" (https://ai.google.dev/gemini-api/docs/tokens): Gemini 2.0 counts 258
  tokens for an image of at most 384 px on both sides, else 258 per 768 × 768 tile it is cut into.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType

from calculators.kernel.spec import Calculator, Choice, InputSpec, Kind, OutputSpec, Rule, messages_of
from calculators.vocabulary import cost, units

N_, NP_ = messages_of(__name__)

_IMAGE = N_("Image")

# OpenAI's tile models: (base tokens, tokens per 512 px tile), by the rule's choice number.
_TILE_MODELS = MappingProxyType({0: (85, 170), 1: (75, 150), 2: (2833, 5667)})
# OpenAI's patch models: the multiplier applied to the patch count.
_PATCH_MODELS = MappingProxyType({3: 1.62, 4: 2.46, 5: 1.72})
_CLAUDE, _GEMINI, _CLAUDE_HIGH = 6, 7, 8
# Anthropic's native resolution: (longest edge in px, most visual tokens), by the rule's choice number.
_CLAUDE_LIMITS = MappingProxyType({_CLAUDE: (1568, 1568), _CLAUDE_HIGH: (2576, 4784)})
CLAUDE_PATCH = 28
CLAUDE_MAX_SIDE = 8000

RULE = InputSpec(
    name="rule",
    kind=Kind.CHOICE,
    group=_IMAGE,
    label=N_("Vendor and model"),
    help=N_(
        "Whose counting rule to apply: each vendor documents its own, and OpenAI's differ by model.",
    ),
    default="openai-gpt-4o",
    choices=(
        Choice("openai-gpt-4o", N_("OpenAI GPT-4o, GPT-4.1, GPT-4.5 (512 px tiles)"), number="0"),
        Choice("openai-o1-o3", N_("OpenAI o1, o3 (512 px tiles)"), number="1"),
        Choice("openai-gpt-4o-mini", N_("OpenAI GPT-4o mini (512 px tiles)"), number="2"),
        Choice("openai-gpt-4.1-mini", N_("OpenAI GPT-4.1 mini (32 px patches)"), number="3"),
        Choice("openai-gpt-4.1-nano", N_("OpenAI GPT-4.1 nano (32 px patches)"), number="4"),
        Choice("openai-o4-mini", N_("OpenAI o4-mini (32 px patches)"), number="5"),
        Choice("anthropic-claude", N_("Anthropic Claude, most models (28 px patches, up to 1568 px)"), number="6"),
        Choice(
            "anthropic-claude-high-resolution",
            N_("Anthropic Claude Opus 4.7 and later (28 px patches, up to 2576 px)"),
            number="8",
        ),
        Choice("google-gemini", N_("Google Gemini 2.0 (768 px tiles)"), number="7"),
    ),
    fraction_digits=0,
)
DETAIL = InputSpec(
    name="detail",
    kind=Kind.CHOICE,
    group=_IMAGE,
    label=N_("Detail (OpenAI tile models)"),
    help=N_(
        "OpenAI's detail parameter: low reads a 512 px version for the base tokens alone; high (and auto, for "
        "most images) adds the tiles. Other models ignore it.",
    ),
    default="high",
    choices=(
        Choice("high", N_("High"), number="1"),
        Choice("low", N_("Low"), number="0"),
    ),
    fraction_digits=0,
)
WIDTH = InputSpec(
    name="width",
    kind=Kind.INTEGER,
    group=_IMAGE,
    label=N_("Width"),
    help=N_("The image's width as you send it, in pixels."),
    default="1024",
    unit=N_("px"),
    minimum=Decimal(1),
    maximum=Decimal(100000),
    fraction_digits=0,
)
HEIGHT = replace(WIDTH, name="height", label=N_("Height"), help=N_("The image's height, in pixels."))
IMAGES = InputSpec(
    name="images",
    kind=Kind.INTEGER,
    group=_IMAGE,
    label=N_("Number of images"),
    help=N_("How many images of this size the requests send, for the total and its cost."),
    default="1",
    unit=units.IMAGES,
    minimum=Decimal(0),
    maximum=Decimal(1000000000),
    fraction_digits=0,
)
INPUT_PRICE = replace(cost.INPUT_PRICE, default="2.5")


def _tiles(width: int, height: int, base: int, tile: int, high: bool) -> tuple[float, float, float, float]:
    """OpenAI's tile rule: fit 2048 × 2048, shortest side down to 768 px, then count 512 px tiles."""
    if not high:
        low = min(1.0, 512 / max(width, height))  # the 512 px version low detail reads
        return base, 0, width * low, height * low
    w, h = Fraction(width), Fraction(height)
    fit = min(Fraction(1), Fraction(2048) / max(w, h))
    w, h = w * fit, h * fit
    short = min(Fraction(1), Fraction(768) / min(w, h))  # only ever scaled down
    w, h = w * short, h * short
    count = math.ceil(w / 512) * math.ceil(h / 512)
    return base + tile * count, count, float(w), float(h)


def _patches(width: int, height: int) -> tuple[int, int, int]:
    """OpenAI's patch rule: 32 px patches, at most 1536; a larger image shrinks to fit, then to whole columns."""
    count = math.ceil(width / 32) * math.ceil(height / 32)
    if count <= 1536:
        return count, width, height
    shrink = min(1.0, math.sqrt(1536 * 32 * 32 / (width * height)))
    w, h = width * shrink, height * shrink
    columns = math.floor(w / 32)
    if columns >= 1:
        # Whole patches across the width; the guide's example keeps whole pixels (1056 × 1408).
        w, h = columns * 32, math.floor(height * columns * 32 / width)
    else:
        w, h = math.floor(w), math.floor(h)
    w, h = max(w, 1), max(h, 1)
    return min(math.ceil(w / 32) * math.ceil(h / 32), 1536), w, h


def _claude_tokens(width: int, height: int) -> int:
    """Anthropic's visual tokens: one per 28 × 28 px patch, ⌈w / 28⌉ × ⌈h / 28⌉."""
    return math.ceil(width / CLAUDE_PATCH) * math.ceil(height / CLAUDE_PATCH)


def _claude_size(width: int, height: int, max_edge: int, max_tokens: int) -> tuple[int, int]:
    """The size Claude reads an image at: Anthropic's reference `resized_size`, the largest aspect-preserving fit.

    >>> _claude_size(1075, 1520, 1568, 1568)  # the guide's A4 page at 130 DPI: 2,145 tokens, too many
    (924, 1307)
    """

    def fits(w: int, h: int) -> bool:
        padded = max(math.ceil(w / CLAUDE_PATCH), math.ceil(h / CLAUDE_PATCH)) * CLAUDE_PATCH
        return padded <= max_edge and _claude_tokens(w, h) <= max_tokens

    if fits(width, height):
        return width, height
    if height > width:
        resized_height, resized_width = _claude_size(height, width, max_edge, max_tokens)
        return resized_width, resized_height
    # The guide's binary search along the long edge: lo always fits, hi never does.
    aspect_ratio = width / height
    lo, hi = 1, width
    while lo + 1 < hi:
        mid = (lo + hi) // 2
        if fits(mid, max(round(mid / aspect_ratio), 1)):
            lo = mid
        else:
            hi = mid
    return lo, max(round(lo / aspect_ratio), 1)


def _claude(width: int, height: int, max_edge: int, max_tokens: int) -> tuple[int, int, int]:
    """Anthropic's rule: the visual tokens of the image at the size Claude reads it, and that size."""
    width, height = _claude_size(width, height, max_edge, max_tokens)
    return _claude_tokens(width, height), width, height


def _gemini(width: int, height: int) -> tuple[int, int]:
    """Google's rule for Gemini 2.0: 258 tokens up to 384 × 384 px, else 258 per 768 × 768 tile."""
    if width <= 384 and height <= 384:
        return 258, 1
    count = math.ceil(width / 768) * math.ceil(height / 768)
    return 258 * count, count


def image_tokens(rule: int, width: int, height: int, high: bool) -> tuple[float, float, float, float]:
    """Return an image's tokens, its tiles or patches, and the size it is read at, under `rule`."""
    if rule in _TILE_MODELS:
        return _tiles(width, height, *_TILE_MODELS[rule], high)
    if rule in _PATCH_MODELS:
        count, w, h = _patches(width, height)
        return count * _PATCH_MODELS[rule], count, w, h
    if rule in _CLAUDE_LIMITS:
        tokens, w, h = _claude(width, height, *_CLAUDE_LIMITS[rule])
        return tokens, tokens, w, h
    tokens, count = _gemini(width, height)
    return tokens, count, width, height


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return one image's tokens, its tiles or patches, the size it is read at, and the total for all images.

    OpenAI's example: a 2048 × 4096 image in high detail is read at 768 × 1536, 6 tiles, 85 + 6 × 170 = 1105 tokens.

    >>> values = {"rule": 0, "detail": 1, "width": 2048, "height": 4096, "images": 1, "input_price": 2.5}
    >>> result = compute(values)
    >>> result["image_tokens"], result["units"], result["read_width"], result["read_height"]
    (1105, 6, 768.0, 1536.0)
    """
    width, height = round(values["width"]), round(values["height"])
    tokens, units, read_width, read_height = image_tokens(round(values["rule"]), width, height, values["detail"] == 1)
    total = tokens * values["images"]
    return {
        "image_tokens": tokens,
        "units": units,
        "read_width": read_width,
        "read_height": read_height,
        "total_tokens": total,
        "total_cost": cost.per_million(total, values["input_price"]),
    }


CALCULATOR = Calculator(
    title=N_("Multimodal image tokens"),
    summary=N_(
        "How many input tokens an image counts for GPT, Claude or Gemini, by each vendor's documented tiling rule, "
        "and what they cost.",
    ),
    inputs=(RULE, DETAIL, WIDTH, HEIGHT, IMAGES, INPUT_PRICE, cost.CURRENCY),
    outputs=(
        OutputSpec(
            name="image_tokens",
            label=N_("Tokens per image"),
            unit=N_("tokens"),
            # Translators: {rule_label} names the vendor and model chosen; {width} and {height} are sizes in pixels;
            # {image_tokens} a number of tokens.
            sentence=N_(
                "Under the rule of {rule_label}, a {width} × {height} px image counts {image_tokens} input tokens.",
            ),
            fraction_digits=0,
        ),
        OutputSpec(
            name="units",
            label=N_("Tiles or patches"),
            # Translators: {read_width} and {read_height} are sizes in pixels; {units} a number of tiles or patches.
            sentence=N_(
                "The model reads it at {read_width} × {read_height} px, as {units} tiles or patches (0 where the rule "
                "counts only the base tokens).",
            ),
            fraction_digits=0,
        ),
        OutputSpec(
            name="total_tokens",
            label=N_("Tokens for all images"),
            unit=N_("tokens"),
            # Translators: {images} is a number of images, {total_tokens} of tokens; {total_cost} an amount of money.
            sentence=N_(
                "{images} images count {total_tokens} input tokens, which cost {total_cost} at the input price.",
            ),
            fraction_digits=0,
        ),
    ),
    compute=compute,
    updated="2026-12-06",
    formulas=(
        r"T_{\text{OpenAI}} = b + t \cdot \lceil w'/512 \rceil \lceil h'/512 \rceil",
        r"T_{\text{Claude}} = \lceil w'/28 \rceil \cdot \lceil h'/28 \rceil",
        r"T_{\text{Gemini}} = 258 \cdot \lceil w/768 \rceil \lceil h/768 \rceil",
    ),
    money=("total_cost",),
    related=("token-cost", "effective-tokens-per-second", "speculative-decoding", "context-window-fit"),
    rules=(
        Rule(
            "width",
            lambda values: (
                values["rule"] not in _CLAUDE_LIMITS or max(values["width"], values["height"]) <= CLAUDE_MAX_SIDE
            ),
            # Translators: {width} and {height} are sizes in pixels as entered.
            N_("Claude refuses images above 8000 × 8000 px; this one is {width} × {height} px."),
        ),
    ),
)
