"""Cosine similarity: SciPy's documented distances, exact sums, and every way a pasted vector can be wrong."""

from __future__ import annotations

import math
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import NumberFacts, Problem, evaluate
from calculators.kernel.evaluation import LONGEST_VECTOR
from calculators.tools.cosine_similarity import CALCULATOR as COSINE


def _result(a: object, b: object) -> dict[str, float]:
    result = evaluate(COSINE, {"vector_a": a, "vector_b": b})
    assert result.ok, result.problems
    return dict(result.results)


@pytest.mark.parametrize(
    ("a", "b", "distance"),
    [
        # The examples of scipy.spatial.distance.cosine's docstring (SciPy 1.x reference).
        ("[1, 0, 0]", "[0, 1, 0]", 1.0),
        ("[100, 0, 0]", "[0, 1, 0]", 1.0),
        ("[1, 1, 0]", "[0, 1, 0]", 0.29289321881345254),
    ],
)
def test_scipys_documented_cosine_distances(a: str, b: str, distance: float) -> None:
    result = _result(a, b)
    assert result["distance"] == pytest.approx(distance, rel=1e-15)
    assert result["similarity"] == pytest.approx(1 - distance, abs=1e-15)


def test_opposite_and_parallel_vectors() -> None:
    assert _result("1, 2", "-2, -4")["similarity"] == pytest.approx(-1.0, abs=1e-15)
    assert _result("1, 2", "-2, -4")["angle"] == 180
    assert _result("3 4", "6 8")["similarity"] == 1.0
    assert _result("3 4", "6 8")["angle"] == 0.0


def test_a_small_angle_keeps_its_digits() -> None:
    # 10⁻⁹ radians apart: an arccosine of the cosine would give 0 or 1.2 × 10⁻⁶ degrees, not 5.73 × 10⁻⁸.
    angle = _result([1, 0], [math.cos(1e-9), math.sin(1e-9)])["angle"]
    assert angle == pytest.approx(math.degrees(1e-9), rel=1e-6)


def test_one_two_three_against_four_five_six() -> None:
    # 32 / (√14 · √77) = 0.9746318461970762 (dot 32, lengths √14 and √77).
    result = _result("1 2 3", "4 5 6")
    assert result["dot_product"] == 32
    assert result["similarity"] == pytest.approx(32 / math.sqrt(14 * 77), rel=1e-15)
    assert result["norm_a"] == pytest.approx(math.sqrt(14))
    assert result["euclidean_distance"] == pytest.approx(math.sqrt(27))
    assert result["dimensions"] == 3


def test_unit_vectors_squared_distance_is_twice_the_cosine_distance() -> None:
    a = [math.cos(0.3), math.sin(0.3)]
    b = [math.cos(1.1), math.sin(1.1)]
    result = _result(a, b)
    assert result["euclidean_distance"] ** 2 == pytest.approx(2 * result["distance"])
    assert result["similarity"] == pytest.approx(math.cos(0.8))


def test_a_long_embedding_is_summed_exactly() -> None:
    # 3,072 alternating components: a naive running sum loses the small terms, math.fsum does not.
    a = [1e8, 1.0, -1e8] * 1024
    b = [1.0] * 3072
    assert _result(a, b)["dot_product"] == 1024


def test_pasted_python_numpy_and_json_lists_read_alike() -> None:
    forms = ["[0.25, -1e-3, 4]", "[ 0.25 -0.001  4.  ]", "0.25;-1E-3;4", "0.25\n-0.001\n4", "(0.25, -0.001, 4)"]
    results = {_result(form, "1 1 1")["similarity"] for form in forms}
    assert len(results) == 1


@pytest.mark.parametrize(
    ("a", "b", "problems"),
    [
        ("1, 2, 3", "1, 2", (Problem("vector_b", "rule"),)),
        ("0, 0", "1, 2", (Problem("vector_a", "rule"),)),
        ("1, 2", "0 0", (Problem("vector_b", "rule"),)),
        ("1, 2, x", "1 2 3", (Problem("vector_a", "not_a_vector_item", index=3, text="x"),)),
        ("1, nan", "1 2", (Problem("vector_a", "not_a_vector_item", index=2, text="nan"),)),
        ("1, 1e400", "1 2", (Problem("vector_a", "vector_item_out_of_range", index=2, text="1e400"),)),
        # A float cannot hold it: read as 0, it would change the angle without a word.
        ("1, 1e-400", "1 2", (Problem("vector_a", "vector_item_out_of_range", index=2, text="1e-400"),)),
        ("", "1 2", (Problem("vector_a", "required"),)),
        ("[ ]", "1 2", (Problem("vector_a", "required"),)),
        ("1 2", "1 " * (LONGEST_VECTOR + 1), (Problem("vector_b", "too_many", Decimal(LONGEST_VECTOR)),)),
    ],
)
def test_bad_vectors_are_problems(a: str, b: str, problems: tuple[Problem, ...]) -> None:
    assert evaluate(COSINE, {"vector_a": a, "vector_b": b}).problems == problems


def test_components_past_a_floats_range_leave_the_range_instead_of_raising() -> None:
    assert evaluate(COSINE, {"vector_a": "1e200 1e200", "vector_b": "1e200 1e200"}).problems[0] == Problem(
        "", "out_of_range"
    )


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.floats(allow_nan=False, allow_infinity=False, width=32), min_size=1, max_size=20).flatmap(
        lambda a: st.tuples(
            st.just(a),
            st.lists(st.floats(allow_nan=False, allow_infinity=False, width=32), min_size=len(a), max_size=len(a)),
        )
    )
)
def test_any_two_vectors_of_one_length_give_a_cosine_within_its_bounds_or_a_named_problem(
    pair: tuple[list[float], list[float]],
) -> None:
    a, b = pair
    result = evaluate(COSINE, {"vector_a": ", ".join(map(repr, a)), "vector_b": " ".join(map(repr, b))})
    if any(a) and any(b):
        if result.ok:
            assert -1 <= result.results["similarity"] <= 1
            assert 0 <= result.results["angle"] <= 180
        else:
            assert result.problems[0] == Problem("", "out_of_range")  # a dot product or a length past 10¹⁵
    else:
        assert {problem.code for problem in result.problems} == {"rule"}


def test_subnormal_components_give_a_cosine_that_agrees_with_the_angle() -> None:
    # 5e-324 and 1.5e-323 are (1, 3) in units of the smallest subnormal: 18.43° from (1, 1)... as (1, 3) is.
    tiny = evaluate(COSINE, {"vector_a": "5e-324, 1.5e-323", "vector_b": "1, 1"}).results
    plain = evaluate(COSINE, {"vector_a": "1, 3", "vector_b": "1, 1"}).results
    assert math.isclose(tiny["similarity"], plain["similarity"], rel_tol=1e-15)
    assert math.isclose(tiny["angle"], plain["angle"], rel_tol=1e-12)
    assert math.isclose(math.degrees(math.acos(tiny["similarity"])), tiny["angle"], rel_tol=1e-9)


def test_a_decimal_comma_is_refused_where_the_locale_writes_one() -> None:
    german = NumberFacts(decimal=",", group=".")
    result = evaluate(COSINE, {"vector_a": "0,5 0,25 0,1", "vector_b": "1 2 3"}, german)
    assert result.problems == (Problem("vector_a", "decimal_comma", index=1, text="0,5"),)
    # A list with points, or a compact JSON list of whole numbers, is read as everywhere.
    assert evaluate(COSINE, {"vector_a": "[0.5,0.25,0.1]", "vector_b": "[1,2,3]"}, german).ok
    # In English the comma separates: six numbers, as before (the lengths then differ, and a rule says so).
    assert evaluate(COSINE, {"vector_a": "0,5 0,25 0,1", "vector_b": "1 2 3"}).values["vector_a"] == 6


def test_full_width_digits_read_as_the_same_numbers() -> None:
    # A Japanese keyboard's digits: read in one pass (item by item, 100,000 of them took seconds under Pyodide).
    wide = {ord(char): chr(ord(char) + 0xFEE0) for char in "0123456789.,-"}  # the full-width forms
    text = ", ".join(f"{index % 7 - 3}.{index:03d}" for index in range(1, 1001))
    assert evaluate(COSINE, {"vector_a": text.translate(wide), "vector_b": text}).results["similarity"] == 1
