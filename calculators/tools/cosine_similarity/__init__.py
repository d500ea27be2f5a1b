"""Cosine similarity: how closely two vectors (two embeddings) point the same way, of any length the reader pastes.

The cosine of the angle between a and b is their dot product over the product of their Euclidean lengths,
cos = a·b / (‖a‖ ‖b‖); SciPy's cosine distance is 1 - cos (`scipy.spatial.distance.cosine`,
https://docs.scipy.org/doc/scipy/reference/generated/scipy.spatial.distance.cosine.html, whose examples give
1.0 for [1, 0, 0] and [0, 1, 0] and 0.2928932 for [1, 1, 0] and [0, 1, 0]). The Euclidean distance ‖a - b‖ is
shown beside it: for vectors of length 1, as OpenAI's embeddings are
(https://platform.openai.com/docs/guides/embeddings), ‖a - b‖² = 2 (1 - cos), so both rank alike.

The cosine is summed exactly from the vectors scaled to length 1 (by a power of two first, so that subnormal
components keep their digits), so that it stays within [-1, 1] and does not overflow for large components (and is
exactly 0 for [1, 0, 0] and [0, 1, 0]). The angle is not its arccosine,
which loses half the digits near 0° and 180°, but Kahan's θ = 2 atan2(‖â - b̂‖, ‖â + b̂‖) on the scaled
vectors ("How Futile are Mindless Assessments of Roundoff in Floating-Point Computation?", §12,
https://people.eecs.berkeley.edu/~wkahan/Mindless.pdf). A vector of zeros has no direction, and a rule says so.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from calculators.kernel.spec import Calculator, InputSpec, Kind, Message, OutputSpec, Rule, messages_of

N_, NP_ = messages_of(__name__)

_VECTORS = N_("Vectors")


def reduce(vectors: Mapping[str, tuple[float, ...]]) -> dict[str, float]:
    """Return what the formula takes from the two vectors: their lengths (norms), cosine, dot product and distance.

    The products are summed exactly (`math.fsum`); vectors of different lengths give zeros, which the rule on
    their lengths refuses before anything is computed.

    >>> reduce({"vector_a": (1.0, 2.0, 3.0), "vector_b": (4.0, 5.0, 6.0)})["dot"]
    32.0
    """
    a, b = vectors["vector_a"], vectors["vector_b"]
    norm_a, norm_b = math.hypot(*a), math.hypot(*b)
    if len(a) != len(b) or not norm_a or not norm_b:
        return {"norm_a": norm_a, "norm_b": norm_b, "cosine": 0.0, "angle": 0.0, "dot": 0.0, "euclidean": 0.0}
    unit_a, unit_b = _unit(a), _unit(b)
    apart = math.hypot(*(x - y for x, y in zip(unit_a, unit_b, strict=True)))
    together = math.hypot(*(x + y for x, y in zip(unit_a, unit_b, strict=True)))
    return {
        "norm_a": norm_a,
        "norm_b": norm_b,
        "cosine": math.fsum(x * y for x, y in zip(unit_a, unit_b, strict=True)),
        "angle": 2 * math.atan2(apart, together),
        "dot": _sum_or_infinity(x * y for x, y in zip(a, b, strict=True)),
        "euclidean": math.hypot(*(x - y for x, y in zip(a, b, strict=True))),
    }


def _unit(vector: tuple[float, ...]) -> list[float]:
    """Scale `vector` to length 1, first by a power of two (exact) that brings its largest component near 1.

    Subnormal components (below 2.2 × 10⁻³⁰⁸) carry few bits: divided by their tiny length directly, they give a
    "unit" vector whose length is not 1, and a cosine of 1 beside an angle of 48°.
    """
    shift = -math.frexp(max(abs(x) for x in vector))[1]
    scaled = [math.ldexp(x, shift) for x in vector]
    length = math.hypot(*scaled)
    return [x / length for x in scaled]


def _sum_or_infinity(terms: object) -> float:
    """Sum exactly; a sum past a float's range is infinite (and so out of range), never an exception."""
    try:
        return math.fsum(terms)  # type: ignore[arg-type]
    except (OverflowError, ValueError):
        return math.inf


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the cosine similarity, the cosine distance, the angle, the dot product, the distance and the lengths.

    SciPy's example: [1, 1, 0] and [0, 1, 0] are 45° apart, a cosine of 1/√2 and a cosine distance of 0.2929.

    >>> values = {"vector_a": 3, "vector_b": 3, **reduce({"vector_a": (1.0, 1.0, 0.0), "vector_b": (0.0, 1.0, 0.0)})}
    >>> result = compute(values)
    >>> round(result["similarity"], 10), round(result["distance"], 10), round(result["angle"], 10)
    (0.7071067812, 0.2928932188, 45.0)
    """
    cosine = min(1.0, max(-1.0, values["cosine"]))  # rounding may leave it a hair past ±1
    return {
        "similarity": cosine,
        "distance": 1 - cosine,
        "angle": math.degrees(values["angle"]),
        "dot_product": values["dot"],
        "euclidean_distance": values["euclidean"],
        "norm_a": values["norm_a"],
        "norm_b": values["norm_b"],
        "dimensions": values["vector_a"],
    }


def _vector(name: str, label: Message, default: str) -> InputSpec:
    return InputSpec(
        name=name,
        kind=Kind.VECTOR,
        group=_VECTORS,
        label=label,
        help=N_(
            "Numbers separated by commas, spaces or new lines, with a point as the decimal mark. A list as Python, "
            "NumPy or JSON prints it can be pasted whole, brackets and all.",
        ),
        default=default,
        fraction_digits=0,
    )


CALCULATOR = Calculator(
    title=N_("Cosine similarity"),
    summary=N_(
        "Paste two vectors, such as two embeddings, to get their cosine similarity, cosine distance and angle, "
        "with their dot product, Euclidean distance and lengths.",
    ),
    inputs=(
        _vector("vector_a", N_("Vector A"), "1, 1, 0"),
        _vector("vector_b", N_("Vector B"), "0, 1, 0"),
    ),
    outputs=(
        OutputSpec(
            name="similarity",
            label=N_("Cosine similarity"),
            # Translators: {similarity} is a number from -1 to 1; {angle} an angle in degrees.
            sentence=N_(
                "The vectors point {angle} degrees apart: a cosine similarity of {similarity}, where 1 is the same "
                "direction, 0 a right angle and -1 opposite directions.",
            ),
            fraction_digits=6,
        ),
        OutputSpec(
            name="distance",
            label=N_("Cosine distance"),
            # Translators: {distance} is a number from 0 to 2.
            sentence=N_(
                "The cosine distance, 1 minus the similarity, is {distance}: what SciPy's cosine function and "
                "pgvector's <=> operator return.",
            ),
            fraction_digits=6,
        ),
        OutputSpec(
            name="angle",
            label=N_("Angle between the vectors"),
            unit=N_("degrees"),
            # Translators: {angle} is an angle in degrees.
            sentence=N_("The angle between the vectors is {angle} degrees."),
            fraction_digits=4,
        ),
        OutputSpec(
            name="dot_product",
            label=N_("Dot product"),
            # Translators: {dot_product} is a number.
            sentence=N_(
                "The dot product is {dot_product}; for vectors of length 1 it equals the cosine similarity.",
            ),
            fraction_digits=6,
        ),
        OutputSpec(
            name="euclidean_distance",
            label=N_("Euclidean distance"),
            # Translators: {euclidean_distance} is a number.
            sentence=N_(
                "The straight-line (Euclidean) distance between the two points is {euclidean_distance}.",
            ),
            fraction_digits=6,
        ),
        OutputSpec(
            name="norm_a",
            label=N_("Length of vector A"),
            # Translators: {norm_a} and {norm_b} are numbers, the vectors' Euclidean lengths.
            sentence=N_(
                "Vector A has a length (Euclidean norm) of {norm_a}, vector B of {norm_b}; normalized embeddings have "
                "a length of 1.",
            ),
            fraction_digits=6,
        ),
        OutputSpec(
            name="dimensions",
            label=N_("Dimensions"),
            # Translators: {dimensions} is how many numbers each vector holds.
            sentence=N_("Each vector holds {dimensions} numbers."),
            fraction_digits=0,
            exact=True,
        ),
    ),
    compute=compute,
    updated="2026-12-03",
    formulas=(
        r"\cos\theta = \frac{\mathbf{a} \cdot \mathbf{b}}{\lVert \mathbf{a} \rVert \, \lVert \mathbf{b} \rVert}"
        r" = \frac{\sum_i a_i b_i}{\sqrt{\sum_i a_i^2}\,\sqrt{\sum_i b_i^2}}",
        r"d_{\cos} = 1 - \cos\theta, \quad \lVert \mathbf{a} - \mathbf{b} \rVert^2 = 2\,(1 - \cos\theta)"
        r"\ \text{when}\ \lVert \mathbf{a} \rVert = \lVert \mathbf{b} \rVert = 1",
    ),
    related=("rag-chunking", "embedding-cost", "vector-db-size"),
    reduce=reduce,
    rules=(
        Rule(
            "vector_b",
            lambda values: values["vector_a"] == values["vector_b"],
            # Translators: {vector_a} and {vector_b} are how many numbers each vector holds.
            N_(
                "Both vectors need the same length: vector A holds {vector_a} numbers and vector B {vector_b}.",
            ),
        ),
        Rule(
            "vector_a",
            lambda values: values["norm_a"] > 0,
            N_("This vector is all zeros: it has no direction, so no angle with another."),
        ),
        Rule(
            "vector_b",
            lambda values: values["vector_a"] != values["vector_b"] or values["norm_b"] > 0,
            N_("This vector is all zeros: it has no direction, so no angle with another."),
        ),
    ),
)
