"""The edge of the core: an evaluation turned into the words and numbers a reader sees.

This module is the one code path for result text. The build calls it to
prerender every page, and the browser worker calls it on every edit, with the
same compiled catalog and the same CLDR facts, so the two cannot disagree.
The translations and the locale's number facts are passed in; nothing here
looks up a "current" language.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from types import MappingProxyType
from typing import Protocol

from .evaluation import Evaluation, Problem, evaluate
from .numbers import NumberFacts, format_number
from .spec import N_, Calculator, Kind, Message, PluralMessage

__all__ = ["FieldMessage", "LocaleKit", "Report", "ResultText", "Translations", "make_report"]


class Translations(Protocol):
    """The part of `gettext.GNUTranslations` the edge uses."""

    def pgettext(self, context: str, message: str, /) -> str: ...

    def npgettext(self, context: str, singular: str, plural: str, n: int, /) -> str: ...


@dataclass(frozen=True)
class LocaleKit:
    """Everything locale-specific the edge needs: a catalog and number facts."""

    translations: Translations
    numbers: NumberFacts


@dataclass(frozen=True)
class ResultText:
    """One result as shown: its number, its unit and its sentence."""

    name: str
    value: str
    unit: str
    sentence: str


@dataclass(frozen=True)
class FieldMessage:
    """What is wrong with one input, in the reader's language."""

    name: str
    message: str


@dataclass(frozen=True)
class Report:
    """All the result text of a page: results when `ok`, otherwise a status and field messages."""

    ok: bool
    status: str
    results: tuple[ResultText, ...]
    errors: tuple[FieldMessage, ...]

    def to_json(self) -> str:
        """Return the report as JSON, the form the browser worker hands to the page."""
        return json.dumps(asdict(self), ensure_ascii=False, sort_keys=True)


# Translators: shown in place of the results while any input is invalid or empty.
ENTER_VALUES = N_("validation", "Enter valid values to see the results.")
# Translators: shown in place of the results when a result would be absurdly large.
OUT_OF_RANGE = N_("validation", "These values give a result too large to be meaningful. Check the inputs.")
_PROBLEM_TEXT = MappingProxyType(
    {
        "required": N_("validation", "Enter a value."),
        # Translators: {example} is a number written the way this language writes it, e.g. 0.5.
        "not_a_number": N_("validation", "Enter a number, for example {example}."),
        "not_whole": N_("validation", "Enter a whole number."),
        # Translators: {limit} is the smallest allowed number.
        "too_small": N_("validation", "Enter {limit} or more."),
        # Translators: {limit} is a number the value must be greater than.
        "too_small_exclusive": N_("validation", "Enter a number greater than {limit}."),
        # Translators: {limit} is the largest allowed number.
        "too_large": N_("validation", "Enter {limit} or less."),
        "unknown_choice": N_("validation", "Choose one of the listed options."),
    }
)


def make_report(calculator: Calculator, raw: Mapping[str, object], kit: LocaleKit) -> Report:
    """Evaluate `raw` with `calculator` and write every result and problem for `kit`'s locale."""
    evaluation = evaluate(calculator, raw, kit.numbers)
    if not evaluation.ok:
        return _problem_report(calculator, evaluation, kit)
    numbers = _formatted_numbers(calculator, evaluation, kit.numbers)
    labels = _choice_labels(calculator, evaluation, kit)
    words = {**numbers, **{f"{name}_label": label for name, label in labels.items()}}
    counts = {**evaluation.values, **evaluation.results}
    results = tuple(
        ResultText(
            name=spec.name,
            value=numbers[spec.name],
            unit=labels[spec.unit_choice]
            if spec.unit_choice
            else _translate(spec.unit, counts, kit)
            if spec.unit
            else "",
            sentence=_fill(spec.sentence, _translate(spec.sentence, counts, kit), words),
        )
        for spec in calculator.outputs
    )
    return Report(ok=True, status="", results=results, errors=())


def _problem_report(calculator: Calculator, evaluation: Evaluation, kit: LocaleKit) -> Report:
    errors = tuple(
        FieldMessage(problem.name, _problem_message(calculator, problem, kit))
        for problem in evaluation.problems
        if problem.name
    )
    whole = any(not problem.name for problem in evaluation.problems)
    status = _translate(OUT_OF_RANGE if whole else ENTER_VALUES, {}, kit)
    empty = tuple(ResultText(spec.name, "", "", "") for spec in calculator.outputs)
    return Report(ok=False, status=status, results=empty, errors=errors)


def _problem_message(calculator: Calculator, problem: Problem, kit: LocaleKit) -> str:
    spec = calculator.input(problem.name)
    key = "too_small_exclusive" if problem.code == "too_small" and problem.exclusive else problem.code
    message = _PROBLEM_TEXT[key]
    words = {
        "limit": format_number(float(problem.limit), kit.numbers, spec.fraction_digits)
        if problem.limit is not None
        else "",
        "example": format_number(float(spec.default), kit.numbers, spec.fraction_digits, grouping=False)
        if spec.kind is not Kind.CHOICE
        else "",
    }
    return _fill(message, _translate(message, {}, kit), words)


def _formatted_numbers(calculator: Calculator, evaluation: Evaluation, facts: NumberFacts) -> dict[str, str]:
    numbers = {
        spec.name: format_number(evaluation.values[spec.name], facts, spec.fraction_digits)
        for spec in calculator.inputs
    }
    numbers.update(
        (spec.name, format_number(evaluation.results[spec.name], facts, spec.fraction_digits))
        for spec in calculator.outputs
    )
    return numbers


def _choice_labels(calculator: Calculator, evaluation: Evaluation, kit: LocaleKit) -> dict[str, str]:
    """Name each choice input's chosen option in the reader's language (a unit, say)."""
    labels = {}
    for spec in calculator.inputs:
        chosen = next((c for c in spec.choices if float(c.numeric) == evaluation.values.get(spec.name)), None)
        if chosen is not None:
            labels[spec.name] = _translate(chosen.label, {}, kit)
    return labels


def _translate(message: Message | PluralMessage, counts: Mapping[str, float], kit: LocaleKit) -> str:
    if isinstance(message, Message):
        return kit.translations.pgettext(message.context, message.text)
    count = round(counts[message.count])
    return kit.translations.npgettext(message.context, message.singular, message.plural, count)


def _fill(message: Message | PluralMessage, translated: str, words: Mapping[str, str]) -> str:
    """Put `words` into a translated text; a translation with broken placeholders falls back to the source."""
    try:
        return translated.format_map(words)
    except (KeyError, IndexError, ValueError):
        source = message.text if isinstance(message, Message) else message.plural
        return source.format_map(words)
