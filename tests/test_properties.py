"""Property tests: whatever arrives, every calculator answers with finite results or a named problem."""

from __future__ import annotations

import json
import math
import re
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import CALCULATORS, Calculator, Kind, LocaleKit, NumberFacts, evaluate, make_report
from calculators.kernel.evaluation import LARGEST_RESULT, LARGEST_SCIENTIFIC
from languages.locales import LOCALES

CODES = {
    "required", "not_a_number", "not_whole", "too_small", "too_large", "unknown_choice", "out_of_range", "rule",
    "not_a_vector_item", "vector_item_out_of_range", "decimal_comma", "too_many",
}  # fmt: skip

hostile_text = st.sampled_from(
    ["", " ", "-1", "0", "abc", "1e400", "-1e400", "NaN", "nan", "Infinity", "-inf", "0x10", "1_000", "٣", "４",
     "0,5", "1" * 10_000, "<img src=x onerror=alert(1)>", '"><script>alert(1)</script>', "javascript:alert(1)",
     "1e-400", "9" * 400, "\u202e12", "\x00", "1.5.5", "１２３４５６７８９"]
)  # fmt: skip
any_value = st.one_of(
    hostile_text,
    st.text(max_size=50),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.decimals(allow_nan=True, allow_infinity=True),
    st.none(),
    st.booleans(),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.binary(max_size=10),
)


def raw_inputs(calculator: Calculator) -> st.SearchStrategy[dict[str, Any]]:
    names = [spec.name for spec in calculator.inputs]
    known = st.fixed_dictionaries({}, optional={name: any_value for name in names})
    unknown = st.dictionaries(st.text(max_size=10).filter(lambda k: k not in names), any_value, max_size=3)
    return st.builds(lambda a, b: {**b, **a}, known, unknown)


def _check(calculator: Calculator, raw: dict[str, Any]) -> None:
    result = evaluate(calculator, raw)
    if result.ok:
        assert set(result.results) >= {spec.name for spec in calculator.outputs}
        scientific = {spec.name for spec in calculator.outputs if spec.scientific}
        # NaN only where the page has words for it: a result it writes as "Not known", saying why
        untold = {name for spec in calculator.outputs if spec.unknown is None for name in spec.reads}
        assert all(
            (math.isnan(v) and name not in untold)
            or (math.isfinite(v) and abs(v) <= (LARGEST_SCIENTIFIC if name in scientific else LARGEST_RESULT))
            for name, v in result.results.items()
        )
    else:
        assert result.results == {}
        for problem in result.problems:
            assert problem.code in CODES
            assert problem.name in {spec.name for spec in calculator.inputs} or problem.code == "out_of_range"


# Examples per calculator stay modest (each calculator adds seconds, not minutes, to the suite): the
# reading of input is shared and tested hard on its own (test_numbers, test_evaluation, test_pyodide).
@pytest.mark.parametrize("calculator", CALCULATORS, ids=lambda c: c.slug)
def test_any_input_gives_results_or_named_problems(calculator: Calculator) -> None:
    @settings(max_examples=150, deadline=None)
    @given(raw_inputs(calculator))
    def check(raw: dict[str, Any]) -> None:
        _check(calculator, raw)

    check()


@pytest.mark.parametrize("calculator", CALCULATORS, ids=lambda c: c.slug)
def test_extreme_valid_numbers_stay_finite(calculator: Calculator) -> None:
    numeric = [spec for spec in calculator.inputs if not spec.choices and spec.kind is not Kind.VECTOR]

    @settings(max_examples=100, deadline=None)
    @given(
        st.fixed_dictionaries(
            {spec.name: st.sampled_from([spec.minimum, spec.maximum, Decimal("1e-30")]) for spec in numeric}
        )
    )
    def check(extremes: dict[str, Decimal | None]) -> None:
        raw = {**calculator.defaults(), **{k: v for k, v in extremes.items() if v is not None}}
        _check(calculator, raw)

    check()


@pytest.mark.parametrize("calculator", CALCULATORS, ids=lambda c: c.slug)
def test_reports_never_show_junk(calculator: Calculator, kits: dict[Any, LocaleKit]) -> None:
    @settings(max_examples=80, deadline=None)
    @given(raw_inputs(calculator), st.sampled_from(LOCALES))
    def check(raw: dict[str, Any], locale: Any) -> None:
        report = make_report(calculator, raw, kits[locale.tag])
        # Right to left, a quoted item's Latin part is isolated ("-⁦inf⁩"): compare the text without the marks.
        text = report.to_json().replace("\u2066", "").replace("\u2069", "")
        for problem in evaluate(calculator, raw).problems:
            # A pasted vector's item that is not a number is quoted back to the reader as typed ("NaN" included).
            text = text.replace(json.dumps(problem.text, ensure_ascii=False)[1:-1], "") if problem.text else text
        for label in (choice.label for spec in calculator.inputs for choice in spec.choices):
            # An option may be called "None" (training-flops' activation recomputation), a word, not a leak.
            text = text.replace(kits[locale.tag].translations.pgettext(label.context, label.text), "")
        assert not re.search(r"\b(NaN|inf|Infinity|None|Traceback)\b", text), text
        assert "<img" not in text and "<script" not in text
        assert report.ok or report.status

    check()


def test_huge_results_are_out_of_range() -> None:
    vram = next(c for c in CALCULATORS if c.slug == "gradient-accumulation-memory")
    raw = {"micro_batch": "1000000", "accumulation_steps": "1000000", "data_parallel": "1000000",
           "activation_per_sample_gb": "100000"}  # fmt: skip
    result = evaluate(vram, raw, NumberFacts())
    assert result.problems[0].name == "" and {p.code for p in result.problems} == {"out_of_range"}
