"""The memory chart: the same SVG for the same numbers, figures in text, GPU marks in place, no injected markup."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from calculators import LocaleKit, find, make_report
from calculators.drawing.chart import GPU_SIZES_GB, ChartSegment, ChartText, draw_memory_chart, smallest_fitting_gpu
from site_builder.build.presets import read_presets

from .helpers import results
from .pagetext import gpu_menu

WORDS = ChartText(title="T", total="Total", fit="Fits", note="Note", gb="GB")


def _widths(svg: str) -> list[float]:
    return [float(w) for w in re.findall(r'<rect class="chart-part-\d+" x="[\d.]+" y="8" width="([\d.]+)"', svg)]


def _marks(svg: str) -> list[float]:
    return [float(x) for x in re.findall(r'<line class="chart-mark" x1="([\d.]+)"', svg)]


def test_segments_are_proportional_and_marks_sit_at_gib() -> None:
    svg = draw_memory_chart([ChartSegment(14, "a"), ChartSegment(84, "b")], 2**30, WORDS)
    first, second = _widths(svg)
    assert second == pytest.approx(6 * first, rel=1e-3)
    marks = _marks(svg)
    assert len(marks) == len(GPU_SIZES_GB)
    # In GiB, the 80 GB mark sits at 80 on the same scale as the bars: 80 / 14 of the first segment.
    assert marks[3] == pytest.approx(first * 80 / 14, rel=1e-3)


def test_a_bar_beyond_the_largest_gpu_is_counted_in_that_gpu() -> None:
    # 1,000 GB over four fifths of 141 GiB (121.1 GB) is 8.3: nine GPUs hold it, the last line at 9 x 141 GiB.
    svg = draw_memory_chart([ChartSegment(1000, "huge")], 1e9, WORDS)
    assert max(_widths(svg)) <= 320 and max(_marks(svg)) <= 320
    assert len(_marks(svg)) == 9 and 0.8 * max(_marks(svg)) >= _widths(svg)[0] > 0.8 * _marks(svg)[-2]
    assert _labels(svg) == ["1 × 141\xa0GB", "9 × 141\xa0GB"]


@pytest.mark.parametrize("total", [3e6, 1e9, 1e14])
def test_any_total_a_calculator_allows_gets_its_marks(total: float) -> None:
    # attention-memory at a batch of 39,170 needs 3 PB (21,000 GPUs of 141 GB): marks every 2,000 of them, not a
    # crash for want of a step; up to LARGEST_RESULT, 10¹⁵ GB, the same.
    svg = draw_memory_chart([ChartSegment(total, "huge")], 1e9, WORDS)
    assert 10 <= len(_marks(svg)) <= 21 and max(_marks(svg)) <= 320


def _labels(svg: str) -> list[str]:
    return re.findall(r'<text class="chart-mark-label"[^>]*>([^<]*)</text>', svg)


@pytest.mark.parametrize("total", [1, 16, 25.8, 30, 50, 90, 132, 151.3, 152, 300, 1150, 5000, 10_000])
def test_labels_never_overlap_or_leave_the_picture_from_1_gb_to_10_tb(total: float) -> None:
    svg = draw_memory_chart([ChartSegment(total * 0.3, "a"), ChartSegment(total * 0.7, "b")], 1e9, WORDS)
    placed = [
        (float(x), int(y), label)
        for x, y, label in re.findall(r'<text class="chart-mark-label" x="([\d.]+)" y="(\d+)">([^<]*)<', svg)
    ]
    marks, labels = _marks(svg), _labels(svg)
    if total <= 0.8 * 151.39:  # every GPU size up to the first that holds it, each with its label
        assert labels == [f"{size}\xa0GB" for size in GPU_SIZES_GB if size <= (smallest_fitting_gpu(total, 1e9) or 0)]
    else:  # the count of the largest GPU that holds it labels the last line
        count = -(-total // (0.8 * 141 * 2**30 / 1e9))
        assert labels[-1] == f"{count:.0f} × 141\xa0GB" and len(marks) <= 21
    for x, y, label in placed:
        half = (len(label) * 8.1 + 8) / 2
        assert half <= x <= 320 - half and min(abs(x - m) for m in marks) <= half
        for other_x, other_y, other in placed:
            if (other_x, other) != (x, label) and other_y == y:
                assert abs(other_x - x) >= half + (len(other) * 8.1 + 8) / 2 - 1e-6, (label, other)


def test_labels_are_text_not_markup() -> None:
    svg = draw_memory_chart([ChartSegment(1, '<script>alert(1)</script> & "x"')], 1e9, WORDS)
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    HTMLParser().feed(svg)  # parses as markup


@pytest.mark.parametrize(
    ("total", "unit", "fits"),
    [(19.9, 1e9, 24), (20.6, 1e9, 24), (20.7, 1e9, 40), (64, 2**30, 80), (64.1, 2**30, 141), (121.2, 1e9, None)],
)
def test_the_smallest_gpu_that_holds_it(total: float, unit: float, fits: int | None) -> None:
    # A card sold as 24 GB gives 24 GiB = 25.77 GB, and holds what takes at most four fifths of it: 20.6 GB.
    assert smallest_fitting_gpu(total, unit) == fits


def test_training_vram_chart_lists_every_component(kits: dict[str, LocaleKit]) -> None:
    vram = find("llm-training-vram")
    report = make_report(vram, {**vram.defaults(), "activation_gb": "20"}, kits["en"])
    # A number and its unit never part at a line's end: a no-break space between them.
    for line in ("Weights: 14 GB", "Gradients: 14 GB", "Optimizer state: 84 GB", "Activations: 20 GB", "Total: 132 GB"):
        assert line.replace(" GB", "\xa0GB") in report.chart
    # 132 GB is more than four fifths of 141 GiB (121.1 GB): two of them hold it.
    assert "More than a single 141\xa0GB GPU holds: 2 × 141\xa0GB GPUs hold it, split evenly." in report.chart
    assert "four fifths of its memory" in report.chart
    # 112 GB, the seed's model state alone, is within four fifths of 141 GiB.
    assert "Fits on a single 141\xa0GB GPU." in make_report(vram, vram.defaults(), kits["en"]).chart
    # 70 B parameters at 16 bytes each and no activations: 1,120 GB, 9.2 times four fifths of 141 GiB: ten GPUs.
    large = make_report(vram, {**vram.defaults(), "params_billion": "70"}, kits["en"])
    assert "More than a single 141\xa0GB GPU holds: 10 × 141\xa0GB GPUs hold it, split evenly." in large.chart
    assert ">10 × 141\xa0GB</text>" in large.chart
    gib = make_report(vram, {**vram.defaults(), "memory_unit": "gib"}, kits["en"])
    assert "Total: 104.3\xa0GiB" in gib.chart  # 4 significant digits, as the headline


def test_invalid_inputs_draw_no_chart(kits: dict[str, LocaleKit]) -> None:
    vram = find("llm-training-vram")
    assert make_report(vram, {**vram.defaults(), "params_billion": "x"}, kits["en"]).chart == ""


def test_the_chart_speaks_the_readers_language(kits: dict[str, LocaleKit]) -> None:
    kv = find("kv-cache-size")
    english = make_report(kv, kv.defaults(), kits["en"]).chart
    german = make_report(kv, kv.defaults(), kits["de"]).chart
    assert "1.07" in english and "1,07" in german


BATCH = find("batch-inference-throughput")


def test_the_gpu_table_puts_every_gpu_of_the_menu_in_place_of_yours(kits: dict[str, LocaleKit]) -> None:
    menu = gpu_menu(BATCH)
    # every GPU whose vendor publishes the bandwidth the page needs (without a peak, decoding is bounded by it alone)
    assert len(menu) == sum(bool(gpu.bandwidth_gb_s) for gpu in read_presets().gpus) > 10
    assert any(gpu.values["peak_tflops"] == 0 for gpu in menu)
    values = {**BATCH.defaults(), "params_billion": "70.55", "active_params_billion": "70.55", "layers": "80"}
    chart = make_report(BATCH, values, kits["en"], menu).chart
    rows = re.findall(r'<tr><th scope="row">([^<]+)</th>((?:<td>[^<]*</td>)+)</tr>', chart)
    named = [name for name, _ in rows if name in {gpu.name for gpu in menu}]
    assert sorted(named) == sorted(gpu.name for gpu in menu)
    counts = []
    for name, cells in rows[-len(menu) :]:
        gpu = next(gpu for gpu in menu if gpu.name == name)
        shown = re.findall(r"<td>([^<]*)</td>", cells)
        texts = {key: str(value) for key, value in gpu.values.items()}
        fewest = results(BATCH, **{**values, **texts})["fewest_gpus"]
        # The row is the page with that GPU chosen from the menu and as many of it as hold the model.
        on_them = results(BATCH, **{**values, **texts, "gpus": str(int(fewest))})
        assert shown[0] == f"{fewest:,.0f}" and shown[2] == f"{on_them['single_tokens_per_second']:,.0f}"
        assert shown[3] == f"{on_them['max_batch']:,.0f}"
        assert shown[4] == f"{on_them['max_batch_tokens_per_second']:,.0f}"
        assert on_them["max_batch"] >= 1  # as many as hold it hold one sequence at least
        counts.append(fewest)
    assert counts == sorted(counts) and counts[0] < counts[-1]
