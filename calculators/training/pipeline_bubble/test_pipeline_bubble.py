"""Pipeline bubble: Megatron-LM's and GPipe's conventions, the sheet's cases 10a to 10d, and GPipe's M ≥ 4K rule."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from calculators import LocaleKit, Problem, evaluate, make_report
from calculators.training.pipeline_bubble import CALCULATOR as PIPE


def _run(stages: int, micro_batches: int, chunks: int = 1) -> dict[str, float]:
    values = {"pipeline_stages": str(stages), "micro_batches": str(micro_batches), "model_chunks": str(chunks)}
    result = evaluate(PIPE, values)
    assert result.ok, result.problems
    return dict(result.results)


@pytest.mark.parametrize(
    ("stages", "micro_batches", "chunks", "vs_compute", "share"),
    [
        (4, 8, 1, 3 / 8, 3 / 11),  # 10a: Megatron (p-1)/m = 0.375; GPipe (K-1)/(M+K-1) = 0.2727
        (4, 8, 2, 3 / 16, 3 / 19),  # 10b: interleaved, 0.1875 of ideal, 0.1579 of total
        (8, 32, 1, 7 / 32, 7 / 39),  # 10c: M = 4K, 0.21875 and 0.1795
        (8, 64, 4, 7 / 256, 7 / 263),  # 10d: 7/256 = 0.02734
    ],
)
def test_sheet_cases_exactly(stages: int, micro_batches: int, chunks: int, vs_compute: float, share: float) -> None:
    result = _run(stages, micro_batches, chunks)
    assert result["bubble_vs_compute"] == pytest.approx(100 * vs_compute, rel=1e-12)
    assert result["bubble_share"] == pytest.approx(100 * share, rel=1e-12)


@pytest.mark.parametrize(
    ("stages", "micro_batches", "chunks", "vs_compute", "share"),
    [(4, 8, 1, 37.5, 27.27), (4, 8, 2, 18.75, 15.79), (8, 32, 1, 21.875, 17.95), (8, 64, 4, 2.734, 2.66)],
)
def test_sheet_cases_as_printed(stages: int, micro_batches: int, chunks: int, vs_compute: float, share: float) -> None:
    result = _run(stages, micro_batches, chunks)
    assert result["bubble_vs_compute"] == pytest.approx(vs_compute, abs=0.0005)
    assert result["bubble_share"] == pytest.approx(share, abs=0.005)


def test_the_two_conventions_convert() -> None:
    # Share of total time = x / (1 + x), x the ratio to ideal compute time.
    for stages, micro_batches, chunks in [(2, 1, 1), (16, 3, 1), (35, 280, 3), (64, 512, 2)]:
        result = _run(stages, micro_batches, chunks)
        x = result["bubble_vs_compute"] / 100
        assert result["bubble_share"] / 100 == pytest.approx(x / (1 + x))


@pytest.mark.parametrize("stages", [2, 4, 8, 16, 64, 1000])
def test_gpipe_four_micro_batches_per_stage(stages: int) -> None:
    # GPipe §2.3: the bubble is negligible when M ≥ 4K. At M = 4K its share (K-1)/(5K-1) stays below 1/5,
    # and Megatron's ratio (K-1)/(4K) below 1/4.
    result = _run(stages, 4 * stages)
    assert result["gpipe_micro_batches"] == 4 * stages
    assert result["bubble_share"] < 20
    assert result["bubble_vs_compute"] < 25
    assert _run(stages, 8 * stages)["bubble_share"] < result["bubble_share"]


def test_megatron_ratio_can_exceed_100_percent() -> None:
    result = _run(8, 1)
    assert result["bubble_vs_compute"] == 700
    assert result["bubble_share"] == pytest.approx(87.5)


def test_one_stage_has_no_bubble() -> None:
    result = _run(1, 7)
    assert (result["bubble_vs_compute"], result["bubble_share"]) == (0, 0)


def test_interleaving_divides_by_chunks() -> None:
    assert _run(8, 32, 4)["bubble_vs_compute"] == pytest.approx(_run(8, 32)["bubble_vs_compute"] / 4)


def test_defaults() -> None:
    # 8 stages and 32 micro-batches: GPipe's M = 4K point (case 10c); the chunks are an advanced option.
    result = evaluate(PIPE, {"pipeline_stages": "8", "micro_batches": "32"})
    assert result.ok
    assert PIPE.defaults() == {"pipeline_stages": "8", "micro_batches": "32", "model_chunks": "1"}
    assert result.results["bubble_share"] == pytest.approx(100 * 7 / 39)


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("pipeline_stages", "0", Problem("pipeline_stages", "too_small", Decimal(1))),
        ("pipeline_stages", "1.5", Problem("pipeline_stages", "not_whole")),
        ("micro_batches", "0", Problem("micro_batches", "too_small", Decimal(1))),
        ("micro_batches", "1e9", Problem("micro_batches", "too_large", Decimal(1_000_000))),
        ("model_chunks", "0", Problem("model_chunks", "too_small", Decimal(1))),
        ("model_chunks", "two", Problem("model_chunks", "not_a_number")),
        ("pipeline_stages", None, Problem("pipeline_stages", "required")),
    ],
)
def test_validation(name: str, raw: str | None, problem: Problem) -> None:
    result = evaluate(PIPE, {**PIPE.defaults(), name: raw})
    assert result.problems == (problem,)


def _interleaved_1f1b_bubble(stages: int, micro_batches: int, chunks: int) -> Fraction:
    """Run Megatron-LM's interleaved 1F1B schedule in time; return its idle time over the ideal compute time.

    The order of work on each rank is Megatron's (megatron/core/pipeline_parallel/schedules.py):
    get_schedule_table takes micro-batches in groups of p, chunk 0 of the group, then chunk 1, ...;
    rank r first runs (p - r - 1) · 2 + (v - 1) · p forward passes (get_pp_rank_microbatches), then
    alternates one forward and one backward, then drains the backward passes, which visit the chunks
    in reverse. A chunk's forward pass takes 1/v and its backward 2/v (the paper's t_b = 2 t_f);
    communication is free. Each pass starts when its rank is free and its input has arrived.
    """
    p, m, v = stages, micro_batches, chunks
    table = [(mb, c) for g in range(0, m, p) for c in range(v) for mb in range(g, min(g + p, m))]
    orders = []
    for rank in range(p):
        warmup = min(m * v, (p - rank - 1) * 2 + (v - 1) * p)
        forward = [("F", *table[k]) for k in range(m * v)]
        backward = [("B", mb, v - 1 - c) for mb, c in table]
        steady = [op for pair in zip(forward[warmup:], backward, strict=False) for op in pair]
        orders.append(forward[:warmup] + steady + backward[m * v - warmup :])

    def needs(kind: str, mb: int, c: int, rank: int) -> tuple[str, int, int, int] | None:
        if kind == "F":
            return ("F", mb, c, rank - 1) if rank else ("F", mb, c - 1, p - 1) if c else None
        if rank < p - 1:
            return ("B", mb, c, rank + 1)
        return ("B", mb, c + 1, 0) if c < v - 1 else ("F", mb, c, rank)

    finished: dict[tuple[str, int, int, int], Fraction] = {}
    clock, done = [Fraction(0)] * p, [0] * p
    while any(done[rank] < len(orders[rank]) for rank in range(p)):
        moved = False
        for rank in range(p):
            while done[rank] < len(orders[rank]):
                kind, mb, c = orders[rank][done[rank]]
                before = needs(kind, mb, c, rank)
                if before is not None and before not in finished:
                    break
                start = max(clock[rank], finished[before] if before else Fraction(0))
                clock[rank] = start + Fraction(1 if kind == "F" else 2, v)
                finished[(kind, mb, c, rank)] = clock[rank]
                done[rank] += 1
                moved = True
        assert moved, "the schedule deadlocked"
    ideal = m * 3
    return (max(clock) - ideal) / ideal


@pytest.mark.parametrize(
    ("stages", "micro_batches", "chunks"), [(4, 4, 2), (4, 8, 2), (4, 12, 3), (8, 32, 4), (8, 32, 1), (2, 6, 2)]
)
def test_formula_is_the_interleaved_schedule_when_m_is_a_multiple_of_p(
    stages: int, micro_batches: int, chunks: int
) -> None:
    # Megatron's interleaved 1F1B schedule, run in time above, idles exactly (p - 1) / (v · m) of the compute.
    bubble = _interleaved_1f1b_bubble(stages, micro_batches, chunks)
    assert bubble == Fraction(stages - 1, chunks * micro_batches)
    assert _run(stages, micro_batches, chunks)["bubble_vs_compute"] == pytest.approx(100 * float(bubble))


def test_interleaving_with_fewer_micro_batches_than_stages_is_refused(kits: dict[str, LocaleKit]) -> None:
    # p = 4, m = 2, v = 2, by hand: a chunk's forward pass takes 1, its backward 2 (t_b = 2 t_f, halved by v = 2).
    # Micro-batch 2's forward leaves the 8th virtual stage (rank 4, chunk 2) at 1 + 8 = 9 at the earliest; that
    # rank still owes micro-batch 1's backward (2), so the second backward there ends at 9 + 2 + 2 = 13 and
    # 7 more virtual stages of backward (2 each) follow: the step ends at 13 + 14 = 27. The ideal compute is
    # 2 micro-batches × 2 chunks × 3 = 12, so the bubble is 15/12 = 125% (Megatron's formula says 3/4 = 75%).
    assert _interleaved_1f1b_bubble(4, 2, 2) == Fraction(5, 4)
    assert _interleaved_1f1b_bubble(4, 6, 2) > Fraction(3, 12)  # m = 6: 19/36, against the formula's 1/4
    values = {"pipeline_stages": "4", "micro_batches": "2", "model_chunks": "2"}
    assert evaluate(PIPE, values).problems == (Problem("micro_batches", "rule"),)
    report = make_report(PIPE, values, kits["en"])
    assert [error.name for error in report.errors] == ["micro_batches"]
    assert report.errors[0].message.startswith(
        "With 2 model chunks per GPU, enter a multiple of the pipeline stages (4)"
    )
    assert _run(4, 2)["bubble_vs_compute"] == 150  # without interleaving (p - 1) / m holds for any m: 3/2
    assert _interleaved_1f1b_bubble(4, 2, 1) == Fraction(3, 2)


def test_report_sentences(kits: dict[str, LocaleKit]) -> None:
    report = make_report(PIPE, {"pipeline_stages": "4", "micro_batches": "8"}, kits["en"])
    texts = {r.name: r for r in report.results}
    assert texts["bubble_share"].value == "27.27"
    assert texts["bubble_vs_compute"].value == "37.5"
    assert "(4 - 1) ÷ (1 × 8 + 4 - 1) = 27.27%, the share" in texts["bubble_share"].sentence
    one = make_report(PIPE, {"pipeline_stages": "1", "micro_batches": "8"}, kits["en"])
    assert one.results[2].sentence.endswith("for 1 stage.")
