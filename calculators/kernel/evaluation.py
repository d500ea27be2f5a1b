"""Reading raw inputs, checking them against their specs, and running a calculator.

`evaluate` never raises on what a user typed: every problem comes back as a
`Problem` naming the input and a machine-readable code, and the words for it
are chosen at the edge.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from types import MappingProxyType
from typing import cast

from .numbers import PLAIN, NumberFacts, parse_number
from .spec import Calculator, InputSpec, Kind, Message
from .unknown import Undecided, Unknown

__all__ = [
    "LARGEST_RESULT",
    "LARGEST_SCIENTIFIC",
    "LONGEST_VECTOR",
    "Evaluation",
    "Known",
    "Problem",
    "evaluate",
    "known_results",
    "read_vector",
]

LARGEST_RESULT = 1e15
"""Results above this magnitude are reported as out of range rather than shown."""

LARGEST_SCIENTIFIC = 1e60
"""The same limit for results written in scientific notation (FLOP counts reach 10²⁸)."""

LONGEST_VECTOR = 100_000
"""The most numbers a vector input takes: far more than any embedding has (3,072 for OpenAI's largest model), few
enough that a page recomputes at once."""


@dataclass(frozen=True)
class Problem:
    """Why one input (or, with `name` "", the whole calculation) cannot be used.

    Codes: required, not_a_number, not_whole, too_small, too_large,
    unknown_choice, out_of_range (a value a float cannot hold, or one that, with the others, breaks
    the formula; the whole calculation's out_of_range has `name` ""), rule (the values break one of
    the calculator's `rules`, the one that names this input), and for vectors not_a_vector_item (the
    `index`-th item, `text`, is not a number), vector_item_out_of_range (a float cannot hold it), decimal_comma
    (it is written with a decimal comma, in a locale that writes one) and too_many (more numbers than `limit`).
    `limit` is the bound a too_small, too_large or too_many value broke; `exclusive` says whether the bound itself
    is allowed.
    """

    name: str
    code: str
    limit: Decimal | None = None
    exclusive: bool = False
    index: int = field(default=0, repr=False)
    text: str = field(default="", repr=False)


@dataclass(frozen=True)
class Evaluation:
    """The inputs as read, the results, and any problems that stopped them."""

    values: Mapping[str, float] = field(default_factory=dict)
    results: Mapping[str, float] = field(default_factory=dict)
    problems: tuple[Problem, ...] = ()
    vectors: Mapping[str, tuple[float, ...]] = field(default_factory=dict)
    """The numbers of each vector input (whose entry in `values` is their count)."""

    @property
    def ok(self) -> bool:
        """Whether the results can be shown."""
        return not self.problems


def evaluate(calculator: Calculator, raw: Mapping[str, object], facts: NumberFacts = PLAIN) -> Evaluation:
    """Read every input of `calculator` from `raw`, check it, and compute.

    Text is read with the locale's `facts`; numbers are taken as they are.
    Keys that name no input are ignored; a missing advanced or optional input takes its default.
    A vector input's value is the count of its numbers; the calculator's `reduce` adds what it takes from them.
    """
    values: dict[str, float] = {}
    vectors: dict[str, tuple[float, ...]] = {}
    problems: list[Problem] = []
    for spec in calculator.inputs:
        given = raw.get(spec.name, spec.default if spec.advanced or spec.optional else None)
        value = read_vector(spec.name, given, facts) if spec.kind is Kind.VECTOR else _read(spec, given, facts)
        if isinstance(value, Problem):
            problems.append(value)
        elif isinstance(value, tuple):
            values[spec.name], vectors[spec.name] = float(len(value)), value
        else:
            values[spec.name] = value
    if problems:
        return Evaluation(values=values, problems=tuple(problems), vectors=vectors)
    if calculator.reduce is not None:
        values.update(calculator.reduce(vectors))
    broken = tuple(Problem(rule.name, "rule") for rule in calculator.rules if not rule.holds(values))
    if broken:
        return Evaluation(values=values, problems=broken, vectors=vectors)
    results = _compute(calculator, values)
    if results is None:
        # A value that passed its bounds can still break a formula or give an absurd result: the
        # reader is told which inputs, when putting one back to its default mends it (a vector has
        # no single value to put back).
        culprits = tuple(
            Problem(spec.name, "out_of_range")
            for spec in calculator.inputs
            if spec.kind not in (Kind.CHOICE, Kind.VECTOR)
            and _compute(calculator, {**values, spec.name: _default(spec)}) is not None
        )
        return Evaluation(values=values, problems=(Problem("", "out_of_range"), *culprits), vectors=vectors)
    return Evaluation(values=values, results=results, vectors=vectors)


@dataclass(frozen=True)
class Known:
    """What is known of the results while some inputs are invalid.

    `values` holds every input, the invalid ones at their defaults, and `results` every result, the unknown ones at
    0: both only so that the known ones can be written. `unknown` names the invalid inputs and every result that
    may depend on them.
    """

    values: Mapping[str, float]
    results: Mapping[str, float]
    unknown: frozenset[str]


def known_results(calculator: Calculator, evaluation: Evaluation) -> Known | None:
    """Run the formula with each invalid input as an `Unknown`, and keep the results that provably do not read it.

    A result that comes out as a plain number was computed without the invalid inputs, so it is exact whatever they
    turn out to be. None (nothing known) when a problem is not one input's own (a rule, or a whole calculation out
    of range), when an invalid input is a vector (`reduce` needs its numbers), when the formula decides on an
    unknown value (a threshold, `max`, a branch: any result could then depend on it), or when a rule that does not
    read the invalid inputs fails or a known result is out of range (the valid inputs are then wrong too).

    >>> from calculators import find
    >>> grad = find("gradient-accumulation-memory")
    >>> known = known_results(grad, evaluate(grad, {**grad.defaults(), "activation_per_sample_gb": "x"}))
    >>> known.results["effective_batch"], "activation_memory_gb" in known.unknown  # type: ignore[union-attr]
    (32.0, True)
    """
    invalid = {problem.name for problem in evaluation.problems}
    if not invalid or any(not problem.name or problem.code == "rule" for problem in evaluation.problems):
        return None
    if any(calculator.input(name).kind is Kind.VECTOR for name in invalid):
        return None
    values: dict[str, float | Unknown] = {**evaluation.values, **{name: Unknown() for name in invalid}}
    if calculator.reduce is not None:
        values.update(calculator.reduce(evaluation.vectors))
    try:
        for rule in calculator.rules:
            try:
                if not rule.holds(cast(Mapping[str, float], values)):
                    return None
            except Undecided:  # the rule reads an invalid input: it is checked once that input is mended
                continue
        results = calculator.compute(cast(Mapping[str, float], values))
    except (Undecided, ArithmeticError, ValueError, TypeError):  # TypeError: an Unknown where a float must be
        return None
    # The formula's type says float; what an Unknown reached is an Unknown all the same.
    known = {name: value + 0.0 for name, value in results.items() if not isinstance(cast(object, value), Unknown)}
    if not _within_range(calculator, known):
        return None
    unknown = {name for name in results if name not in known}
    return Known(
        values={**evaluation.values, **{name: _default(calculator.input(name)) for name in invalid}},
        results={**known, **dict.fromkeys(unknown, 0.0)},
        unknown=frozenset(invalid | unknown),
    )


_VECTOR_SEPARATORS = re.compile(r"[\s,;\[\](){}]+")
_PLAIN_NUMBER = re.compile(r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_LONGEST_VECTOR_TEXT = LONGEST_VECTOR * 40  # characters: 100,000 numbers of full float precision and their commas


def read_vector(name: str, raw: object, facts: NumberFacts = PLAIN) -> tuple[float, ...] | Problem:
    """Read the vector input `name`: numbers separated by commas, spaces, semicolons or new lines.

    Brackets are ignored, so a list as Python, NumPy or JSON prints it can be pasted whole. The numbers are read in
    that notation in every locale (a point as the decimal mark, 1e-3 for an exponent): a comma always separates two
    numbers. Where the reader's locale writes a decimal comma (`facts`) and the list has no point, "0,5" is refused
    rather than read as 0 and 5. A number a float cannot hold (1e-400, 1e400) is refused, never read as 0 or
    infinity. A sequence of numbers (from the library) is taken as it is.

    >>> read_vector("a", "[0.25, -1e-3,\\n4]")
    (0.25, -0.001, 4.0)
    >>> problem = read_vector("a", "0.5 0,5 x")
    >>> problem.code, problem.index, problem.text  # type: ignore[union-attr]
    ('not_a_vector_item', 4, 'x')
    >>> problem = read_vector("a", "0,5 0,25", NumberFacts(decimal=",", group="."))
    >>> problem.code, problem.index, problem.text  # type: ignore[union-attr]
    ('decimal_comma', 1, '0,5')
    >>> read_vector("a", "[1,2,3]", NumberFacts(decimal=",", group="."))  # two commas: a list, not a decimal
    (1.0, 2.0, 3.0)
    """
    if isinstance(raw, str):
        if len(raw) > _LONGEST_VECTOR_TEXT:
            return Problem(name, "too_many", Decimal(LONGEST_VECTOR))
        if not raw.isascii():  # full-width digits (a Japanese keyboard), read at once instead of item by item
            raw = raw.translate(_to_ascii(raw))
        if facts.decimal == "," and "." not in raw:
            comma = _decimal_comma(name, raw)
            if comma is not None:
                return comma
        items: Sequence[object] = [item for item in _VECTOR_SEPARATORS.split(raw) if item]
    elif isinstance(raw, list | tuple):
        items = raw
    else:
        items = []
    if not items:
        return Problem(name, "required")
    if len(items) > LONGEST_VECTOR:
        return Problem(name, "too_many", Decimal(LONGEST_VECTOR))
    numbers = []
    for index, item in enumerate(items, start=1):
        if isinstance(item, str) and _PLAIN_NUMBER.fullmatch(item):
            exact: Decimal | Problem = Decimal(item)
            number = float(item)  # the common case, read at once
        else:
            exact = _to_decimal(item, PLAIN)
            number = float(exact) if not isinstance(exact, Problem) else math.nan
        if isinstance(exact, Problem):
            return Problem(name, "not_a_vector_item", index=index, text=str(item)[:24])
        if not math.isfinite(number) or (number == 0) != exact.is_zero():
            return Problem(name, "vector_item_out_of_range", index=index, text=str(item)[:24])
        numbers.append(number + 0.0)
    return tuple(numbers)


# Full-width stop, comma, hyphen-minus, plus, e, E, space and semicolon, and the minus sign.
_FULL_WIDTH = MappingProxyType(
    {
        "\uff0e": ".", "\uff0c": ",", "\uff0d": "-", "\uff0b": "+", "\uff45": "e", "\uff25": "E",
        "\u3000": " ", "\uff1b": ";", "\u2212": "-",
    }
)  # fmt: skip


def _to_ascii(text: str) -> dict[int, str]:
    """A table that writes `text`'s digits of any script, and full-width punctuation, in ASCII."""
    table = {ord(char): str(int(char)) for char in set(text) if char.isdecimal() and not char.isascii()}
    return {**table, **{ord(wide): plain for wide, plain in _FULL_WIDTH.items()}}


_DIGITS_AND_COMMAS = re.compile(r"[0-9,]+")


def _decimal_comma(name: str, raw: str) -> Problem | None:
    """The first item written with a decimal comma ("0,5": one comma between digits), where a locale writes those."""
    for run in _DIGITS_AND_COMMAS.finditer(raw):
        text = run[0].strip(",")
        if text.count(",") == 1 and not text.startswith(",") and not text.endswith(","):
            before = raw[: run.start() + run[0].index(text)]
            index = 1 + len([item for item in _VECTOR_SEPARATORS.split(before) if item])
            return Problem(name, "decimal_comma", index=index, text=text[:24])
    return None


def _compute(calculator: Calculator, values: Mapping[str, float]) -> dict[str, float] | None:
    """Run the formula; None when it breaks (division by an underflowed zero, say) or leaves the range."""
    try:
        results = {name: value + 0.0 for name, value in calculator.compute(values).items()}  # + 0.0: no "-0"
    except (ArithmeticError, ValueError):
        return None
    return results if _within_range(calculator, results) else None


def _within_range(calculator: Calculator, results: Mapping[str, float]) -> bool:
    """Whether every result is finite and within the site's limit (a larger one for results in scientific form).

    NaN is a result the inputs cannot tell, allowed where the writer has words for it: in an output with an `unknown`
    sentence, and in a figure only such outputs read.
    """
    scientific = {spec.name for spec in calculator.outputs if spec.scientific}
    untold = {name for spec in calculator.outputs if spec.unknown is None for name in spec.reads}
    return all(
        (math.isnan(value) and name not in untold)
        or (math.isfinite(value) and abs(value) <= (LARGEST_SCIENTIFIC if name in scientific else LARGEST_RESULT))
        for name, value in results.items()
    )


def _default(spec: InputSpec) -> float:
    value = _read(spec, spec.default, PLAIN)
    assert not isinstance(value, Problem), f"{spec.name}: its default is not valid"
    return value


def _read(spec: InputSpec, raw: object, facts: NumberFacts) -> float | Problem:
    if spec.kind is Kind.CHOICE:
        return _choose(spec, raw, facts)
    number = _to_decimal(raw, facts)
    if isinstance(number, Problem) and isinstance(raw, str) and _counts_tokens(spec):
        number = magnitude if (magnitude := _with_magnitude(raw, facts)) is not None else number
    if isinstance(number, Problem):
        return Problem(spec.name, number.code)
    if spec.kind is Kind.INTEGER and number != number.to_integral_value():
        return Problem(spec.name, "not_whole")
    if spec.minimum is not None and (number < spec.minimum or (spec.minimum_exclusive and number == spec.minimum)):
        return Problem(spec.name, "too_small", spec.minimum, spec.minimum_exclusive)
    if spec.maximum is not None and number > spec.maximum:
        return Problem(spec.name, "too_large", spec.maximum)
    value = float(number) + 0.0  # + 0.0 turns "-0" into 0
    if not math.isfinite(value) or (value == 0) != number.is_zero():
        return Problem(spec.name, "out_of_range")  # 1e-400 is above 0 but is 0.0 as a float; 1e400 is inf
    return value


# A count of tokens is written as readers and vendors write context lengths: "32k", "128K", "1M", "1.5B".
_MAGNITUDE = re.compile(r"(.*\S)\s?([kKmMbB])")
_MAGNITUDES = MappingProxyType({"k": 3, "m": 6, "b": 9})


def _counts_tokens(spec: InputSpec) -> bool:
    return isinstance(spec.unit, Message) and spec.unit.text == "tokens"


def _with_magnitude(raw: str, facts: NumberFacts) -> Decimal | None:
    """Read "32k" as 32,000, "1M" as a million, "1.5B" as 1.5 billion (the number in the locale's notation).

    >>> german = NumberFacts(decimal=",", group=".")
    >>> _with_magnitude("32k", PLAIN), _with_magnitude("1,5 M", german), _with_magnitude("k", PLAIN)
    (Decimal('3.2E+4'), Decimal('1.5E+6'), None)
    """
    found = _MAGNITUDE.fullmatch(raw.strip())
    number = _to_decimal(found[1], facts) if found else None
    if found is None or number is None or isinstance(number, Problem):
        return None
    return number.scaleb(_MAGNITUDES[found[2].lower()])


def _choose(spec: InputSpec, raw: object, facts: NumberFacts) -> float | Problem:
    """Find the choice `raw` names: by its value, or, for numeric values, by the number written."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return Problem(spec.name, "required")
    text = raw.strip() if isinstance(raw, str) else None
    for choice in spec.choices:
        if text == choice.value:
            return float(choice.numeric)
    number = _to_decimal(raw, facts)
    if not isinstance(number, Problem):
        for choice in spec.choices:
            if choice.number is None and Decimal(choice.value) == number:
                return float(choice.numeric)
    return Problem(spec.name, "unknown_choice")


def _to_decimal(raw: object, facts: NumberFacts) -> Decimal | Problem:
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return Problem("", "required")
    if isinstance(raw, bool):
        return Problem("", "not_a_number")
    if isinstance(raw, int | Decimal):
        number = Decimal(raw)
    elif isinstance(raw, float):
        number = Decimal(repr(raw)) if math.isfinite(raw) else Decimal("NaN")
    elif isinstance(raw, str):
        parsed = parse_number(raw, facts)
        number = parsed if parsed is not None else Decimal("NaN")
    else:
        return Problem("", "not_a_number")
    return number if number.is_finite() else Problem("", "not_a_number")
