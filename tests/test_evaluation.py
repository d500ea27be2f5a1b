"""Evaluation rules, shown on the two seed calculators: every validation code, bounds, out-of-range results."""

from __future__ import annotations

import gettext
import math
from decimal import Decimal
from typing import Any

import pytest

from calculators import CALCULATORS, InputSpec, Kind, LocaleKit, Problem, evaluate, find, make_report
from calculators.kernel.evaluation import LARGEST_RESULT
from calculators.kernel.numbers import PLAIN, NumberFacts
from calculators.report import FieldMessage

from .cases import value_sets

GRAD = find("gradient-accumulation-memory")
VRAM = find("llm-training-vram")
GOOD_GRAD = {"micro_batch": "4", "accumulation_steps": "8", "data_parallel": "1", "activation_per_sample_gb": "0.5"}
KIT = LocaleKit(gettext.NullTranslations(), PLAIN)  # the source texts, English
GOOD_VRAM = {"params_billion": "7", "bytes_per_param": "16", "activation_gb": "0"}


@pytest.mark.parametrize(
    ("calculator", "good", "name", "raw", "problem"),
    [
        (GRAD, GOOD_GRAD, "micro_batch", "", Problem("micro_batch", "required")),
        (GRAD, GOOD_GRAD, "micro_batch", "   ", Problem("micro_batch", "required")),
        (GRAD, GOOD_GRAD, "micro_batch", None, Problem("micro_batch", "required")),
        (GRAD, GOOD_GRAD, "micro_batch", "abc", Problem("micro_batch", "not_a_number")),
        (GRAD, GOOD_GRAD, "micro_batch", "NaN", Problem("micro_batch", "not_a_number")),
        (GRAD, GOOD_GRAD, "micro_batch", "Infinity", Problem("micro_batch", "not_a_number")),
        (GRAD, GOOD_GRAD, "micro_batch", "-inf", Problem("micro_batch", "not_a_number")),
        (GRAD, GOOD_GRAD, "micro_batch", "0x10", Problem("micro_batch", "not_a_number")),
        (GRAD, GOOD_GRAD, "micro_batch", "1_000", Problem("micro_batch", "not_a_number")),
        (GRAD, GOOD_GRAD, "micro_batch", float("nan"), Problem("micro_batch", "not_a_number")),
        (GRAD, GOOD_GRAD, "micro_batch", True, Problem("micro_batch", "not_a_number")),
        (GRAD, GOOD_GRAD, "micro_batch", [4], Problem("micro_batch", "not_a_number")),
        (GRAD, GOOD_GRAD, "micro_batch", "2.5", Problem("micro_batch", "not_whole")),
        (GRAD, GOOD_GRAD, "micro_batch", "0", Problem("micro_batch", "too_small", Decimal(1))),
        (GRAD, GOOD_GRAD, "micro_batch", "-1", Problem("micro_batch", "too_small", Decimal(1))),
        (GRAD, GOOD_GRAD, "accumulation_steps", "0", Problem("accumulation_steps", "too_small", Decimal(1))),
        (GRAD, GOOD_GRAD, "data_parallel", "0", Problem("data_parallel", "too_small", Decimal(1))),
        (GRAD, GOOD_GRAD, "micro_batch", "1e400", Problem("micro_batch", "too_large", Decimal(1_000_000))),
        (
            GRAD,
            GOOD_GRAD,
            "activation_per_sample_gb",
            "-0.5",
            Problem("activation_per_sample_gb", "too_small", Decimal(0)),
        ),
        (VRAM, GOOD_VRAM, "params_billion", "0", Problem("params_billion", "too_small", Decimal(0), exclusive=True)),
        (VRAM, GOOD_VRAM, "params_billion", "-7", Problem("params_billion", "too_small", Decimal(0), exclusive=True)),
        (VRAM, GOOD_VRAM, "bytes_per_param", "10", Problem("bytes_per_param", "unknown_choice")),
        (VRAM, GOOD_VRAM, "bytes_per_param", "sixteen", Problem("bytes_per_param", "unknown_choice")),
        (VRAM, GOOD_VRAM, "activation_gb", "-1", Problem("activation_gb", "too_small", Decimal(0))),
    ],
)
def test_validation_rules(calculator, good, name, raw, problem) -> None:  # type: ignore[no-untyped-def]
    result = evaluate(calculator, {**good, name: raw})
    assert not result.ok
    assert result.problems == (problem,)
    assert result.results == {}


def test_zero_activation_is_allowed() -> None:
    assert evaluate(GRAD, {**GOOD_GRAD, "activation_per_sample_gb": "0"}).results["activation_memory_gb"] == 0


def test_missing_input_is_reported_and_unknown_keys_ignored() -> None:
    result = evaluate(VRAM, {"params_billion": "7", "activation_gb": "0", "surprise": "<b>"})
    assert result.problems == (Problem("bytes_per_param", "required"),)


def test_absurd_results_are_out_of_range() -> None:
    result = evaluate(VRAM, {"params_billion": "100000", "bytes_per_param": "16", "activation_gb": "1000000"})
    assert result.ok  # 1.6 million GB is large but meaningful
    product = evaluate(
        GRAD,
        {
            "micro_batch": "1000000",
            "accumulation_steps": "1000000",
            "data_parallel": "1000000",
            "activation_per_sample_gb": "1",
        },
    )
    assert product.problems[0] == Problem("", "out_of_range")
    assert 1e18 > LARGEST_RESULT


def test_every_numeric_input_is_bounded() -> None:
    # An unbounded input would let 1e400 through to the formulas as infinity. A vector's items are read as
    # finite floats, at most LONGEST_VECTOR of them (tests in calculators/tools/cosine_similarity).
    for calculator in CALCULATORS:
        for spec in calculator.inputs:
            assert spec.choices or spec.kind is Kind.VECTOR or spec.maximum is not None, (calculator.slug, spec.name)


def test_defaults_evaluate() -> None:
    for calculator in CALCULATORS:
        assert evaluate(calculator, calculator.defaults()).ok, calculator.slug


def test_a_value_a_float_cannot_hold_is_out_of_range_at_its_input() -> None:
    # 1e-400 passes "greater than 0" as a Decimal but is 0.0 as a float, which Chinchilla's loss fit
    # divides by; the reader is told at the field, never shown an exception or a frozen page.
    chinchilla = find("chinchilla-optimal-tokens")
    result = evaluate(chinchilla, {**chinchilla.defaults(), "params_billion": "1e-400"})
    assert result.problems == (Problem("params_billion", "out_of_range"),)
    gpus = find("gpu-count")
    tiny = evaluate(gpus, {**gpus.defaults(), "gpu_memory_gb": "1e-400"})
    assert tiny.problems == (Problem("gpu_memory_gb", "out_of_range"),)
    message = make_report(gpus, {**gpus.defaults(), "gpu_memory_gb": "1e-400"}, KIT).errors
    assert message == (FieldMessage("gpu_memory_gb", "This value is out of range for the calculation."),)


def test_every_input_survives_values_at_the_edges_of_a_float() -> None:
    """Every numeric input of every calculator, at values Decimal admits and floats cannot hold."""
    for calculator in CALCULATORS:
        defaults = calculator.defaults()
        for spec in calculator.inputs:
            if spec.choices:
                continue
            for text in ("1e-400", "4.9e-324", "1e-320", "-1e-400", "1e308"):
                result = evaluate(calculator, {**defaults, spec.name: text})
                report = make_report(calculator, {**defaults, spec.name: text}, KIT)
                assert result.ok == report.ok, (calculator.slug, spec.name, text)
                if result.ok:
                    assert all(math.isfinite(v) for v in result.results.values())
                else:
                    # The edited field itself, or a rule joining it to another field (a cache read dearer
                    # than an input price of 4.9e-324 is a fair complaint, shown at the rule's field).
                    unexplained = {p.name for p in result.problems if p.code != "rule"} - {"", spec.name}
                    assert report.status and not unexplained, (
                        calculator.slug,
                        spec.name,
                        text,
                        result.problems,
                    )


def test_a_result_out_of_range_names_the_inputs_that_put_it_there() -> None:
    # 10¹⁸ samples: any one of the three factors back at its default brings the result into range,
    # the activation memory alone does not.
    product = {
        "micro_batch": "1e6",
        "accumulation_steps": "1e6",
        "data_parallel": "1e6",
        "activation_per_sample_gb": "1",
    }
    assert [p.name for p in evaluate(GRAD, product).problems] == [
        "",
        "micro_batch",
        "accumulation_steps",
        "data_parallel",
    ]
    report = make_report(GRAD, product, KIT)
    assert report.status == "These values give a result too large to be meaningful. Check the inputs."
    assert [e.name for e in report.errors] == ["micro_batch", "accumulation_steps", "data_parallel"]


def test_minus_zero_is_zero() -> None:
    result = evaluate(GRAD, {**GOOD_GRAD, "activation_per_sample_gb": "-0"})
    assert math.copysign(1, result.values["activation_per_sample_gb"]) == 1
    assert all(math.copysign(1, v) == 1 for v in result.results.values() if v == 0)


def test_no_sentence_writes_minus_zero_or_a_small_value_as_zero() -> None:
    warmup = find("lr-warmup")
    step = make_report(warmup, {**warmup.defaults(), "step": "-0"}, KIT)
    assert "-0" not in " ".join(r.sentence + r.value for r in step.results)
    tiny = make_report(VRAM, {**GOOD_VRAM, "params_billion": "1e-7"}, KIT)
    total = next(r for r in tiny.results if r.name == "total_vram_gb")
    assert total.value == "0.0000016" and "about 0.0000016 GB: 0.0000016 GB of model state" in total.sentence


class _Hostile(gettext.NullTranslations):
    """A catalog no build would accept, handed to the library directly."""

    def pgettext(self, context: str, message: str) -> str:
        return {"Enter {limit} or more.": "{limit:>50000000}", "Enter a whole number.": "{0} {"}.get(message, message)


def test_a_hostile_catalog_falls_back_to_the_source_text() -> None:
    kit = LocaleKit(_Hostile(), PLAIN)
    small = make_report(GRAD, {**GOOD_GRAD, "micro_batch": "0"}, kit).errors
    assert small == (FieldMessage("micro_batch", "Enter 1 or more."),)
    whole = make_report(GRAD, {**GOOD_GRAD, "micro_batch": "1.5"}, kit).errors
    assert whole == (FieldMessage("micro_batch", "Enter a whole number."),)


DEEPSEEK_V3 = {"experts": "256", "experts_per_token": "8", "expert_ffn_size": "2048", "shared_experts": "1",
               "dense_layers": "3", "ffn_size": "18432", "layers": "61", "hidden_size": "7168",
               "attention_heads": "128", "kv_heads": "128", "head_dim": "128", "vocab_size": "129280",
               "tied_embeddings": "0", "router_bias": "1", "q_lora_rank": "1536", "kv_lora_rank": "512",
               "qk_nope_head_dim": "128", "qk_rope_head_dim": "64", "v_head_dim": "128"}  # fmt: skip


def _shown(calculator_slug: str, values: dict[str, str]) -> dict[str, tuple[str, str]]:
    calculator = find(calculator_slug)
    report = make_report(calculator, {**calculator.defaults(), **values}, KIT)
    assert report.ok, report.errors
    return {r.name: (r.value, r.sentence) for r in report.results}


def test_results_have_four_significant_digits_and_exact_counts_every_digit() -> None:
    moe = _shown("moe-active-params", DEEPSEEK_V3)
    assert moe["total_params_billion"][0] == "671"  # 671.0264192
    assert moe["active_params_billion"][0] == "37.55"  # 37.552297472
    assert "passes through 37.55 billion parameters" in moe["active_params_billion"][1]
    assert moe["weights_memory"][0] == "1,342"  # the whole part in full: 1,342.05 GB
    count = _shown("transformer-params", DEEPSEEK_V3)
    assert count["total_params_billion"][0] == "671"
    assert count["total_params"][0] == "671,026,419,200"  # exact=True: every digit
    assert count["total_params"][1].startswith("Exactly 671,026,419,200 parameters")
    vram = _shown("llm-training-vram", {"params_billion": "70", "activation_gb": "0.35"})
    assert vram["total_vram_gb"] == ("1,120", "A full fine-tune needs about 1,120 GB: 1,120 GB of model state plus "
                                    "0.35 GB of activations.")  # fmt: skip
    assert _shown("llm-training-vram", {"activation_gb": "20.35"})["total_vram_gb"][0] == "132.4"


def test_inputs_are_written_as_entered() -> None:
    vram = _shown("llm-training-vram", {"params_billion": "70.554"})
    assert "70.554 × 10⁹ parameters" in vram["model_state_gb"][1] and vram["model_state_gb"][0] == "1,129"


@pytest.mark.parametrize(
    "calculator", [c for c in CALCULATORS if "memory_unit" in c.defaults()], ids=lambda calculator: calculator.slug
)
def test_in_gib_every_memory_figure_of_a_sentence_is_in_gib(calculator) -> None:  # type: ignore[no-untyped-def]
    values = {**calculator.defaults(), "memory_unit": "gib"}
    for name in ("activation_gb", "activation_per_sample_gb"):
        if name in values:
            values[name] = "20"
    report = make_report(calculator, values, KIT)
    assert report.ok
    for result in report.results:
        assert " GB" not in result.sentence, result.sentence
        if result.unit:
            assert result.unit != "GB"


def test_gib_sentences_add_up_in_gib() -> None:
    vram = _shown("llm-training-vram", {"activation_gb": "20", "memory_unit": "gib"})
    assert vram["total_vram_gb"][1] == (
        "A full fine-tune needs about 122.9 GiB: 104.3 GiB of model state plus 18.63 GiB of activations."
    )
    grad = _shown("gradient-accumulation-memory", {**GOOD_GRAD, "memory_unit": "gib"})
    assert grad["activation_memory_gb"][1].startswith(
        "Peak activation memory on each GPU is 4 samples × 0.4657 GiB = 1.86 GiB."
    )


def test_an_invalid_input_leaves_the_results_that_do_not_depend_on_it() -> None:
    # The model state does not depend on the activations; the total adds them.
    report = make_report(VRAM, {**VRAM.defaults(), "params_billion": "70", "activation_gb": "x"}, KIT)
    assert not report.ok and report.status == "Enter valid values to see every result."
    shown = {result.name: result for result in report.results}
    assert shown["model_state_gb"] == make_report(VRAM, {**VRAM.defaults(), "params_billion": "70"}, KIT).results[1]
    assert shown["total_vram_gb"].value == shown["per_gpu_vram_gb"].value == "" and report.chart == ""
    assert report.errors == (FieldMessage("activation_gb", "Enter a number, for example 0."),)
    # Without ZeRO the GPUs' count changes no figure, but the per-GPU sentence names it: that result waits.
    report = make_report(VRAM, {**VRAM.defaults(), "data_parallel": "0"}, KIT)
    shown = {result.name: result for result in report.results}
    assert shown["total_vram_gb"].value == shown["model_state_gb"].value == "112" and report.chart
    assert shown["per_gpu_vram_gb"].value == ""
    # An input every result depends on leaves none, and says so as before.
    report = make_report(GRAD, {**GOOD_GRAD, "micro_batch": "x"}, KIT)
    assert [result.value for result in report.results] == ["", ""]
    assert report.status == "Enter valid values to see the results."


def test_rules_and_results_out_of_range_leave_no_results() -> None:
    # A rule on several inputs and a whole calculation out of range are not one input's, so nothing stands in.
    params = find("transformer-params")
    broken = make_report(params, {**params.defaults(), "kv_heads": "5"}, KIT)
    huge = make_report(GRAD, {**GOOD_GRAD, "micro_batch": "1000000", "accumulation_steps": "1000000",
                              "data_parallel": "1000000", "activation_per_sample_gb": "100000"}, KIT)  # fmt: skip
    for report in (broken, huge):
        assert not report.ok and all(result.value == "" for result in report.results) and report.chart == ""
    assert broken.status == "Enter valid values to see the results."


def _valid_values(spec: InputSpec) -> list[str]:
    """Values across an input's whole range: its bounds, round numbers from 10⁻⁶ to 10¹⁵, and their neighbours."""
    steps = [Decimal(10) ** exponent * digit for exponent in range(-6, 16) for digit in (1, 2, 5)]
    candidates = [*steps, *(-step for step in steps), Decimal(0), Decimal(spec.default) + 1, Decimal(spec.default) - 1]
    candidates += [bound for bound in (spec.minimum, spec.maximum) if bound is not None]
    return [str(value) for value in candidates if evaluate_one(spec, str(value))]


def evaluate_one(spec: InputSpec, text: str) -> bool:
    from calculators.kernel.evaluation import _read

    return not isinstance(_read(spec, text, PLAIN), Problem)


@pytest.mark.parametrize("calculator", CALCULATORS, ids=lambda calculator: calculator.slug)
def test_a_result_shown_beside_an_invalid_input_is_right_for_every_value_it_could_take(calculator: Any) -> None:
    # Thresholds (compute- or memory-bound, max(0, …), a break-even, a minimum fee) are flat at a few values and change
    # elsewhere: a result is shown as current only where the core proves it never reads the invalid input.
    for values in value_sets(calculator)[:2]:
        for spec in calculator.inputs:
            if spec.kind in (Kind.CHOICE, Kind.VECTOR):
                continue
            report = make_report(calculator, {**values, spec.name: "x"}, KIT)
            shown = {result.name: result for result in report.results if result.value}
            if not shown:
                continue
            real = make_report(calculator, values, KIT)
            assert not real.ok or {result.name: result for result in real.results if result.name in shown} == shown
            runs = [evaluate(calculator, {**values, spec.name: text}) for text in _valid_values(spec)]
            for name in shown:
                assert len({run.results[name] for run in runs if run.ok}) <= 1, (spec.name, name)


def test_a_typo_in_a_threshold_s_input_greys_what_the_threshold_decides() -> None:
    # The attacker's two: "70B" on inference-latency left time to first token at 16.5 ms "bound by compute" where
    # 70 gives 41.83 ms; "1,000$" on self-host-vs-api said the API is cheaper by USD 0.00 where 1,000 gives USD 420.
    typos = (("inference-latency", "params_billion", "70B"), ("self-host-vs-api", "ops_overhead", "1,000$"))
    for slug, name, typo in typos:
        calculator = find(slug)
        report = make_report(calculator, {**calculator.defaults(), name: typo}, KIT)
        assert not report.ok and all(result.value == result.sentence == "" for result in report.results), slug
        assert report.status == "Enter valid values to see the results."


def test_a_token_count_takes_the_magnitudes_context_lengths_are_written_in() -> None:
    # "32k" or "1M" typed into a token field was refused; vendors and readers write context lengths that way.
    token_cost = find("token-cost")
    for typed, tokens in (("32k", 32_000), ("128K", 128_000), ("1M", 1_000_000), ("1.5 k", 1_500), ("0k", 0)):
        assert evaluate(token_cost, {**token_cost.defaults(), "input_tokens": typed}).values["input_tokens"] == tokens
    facts = NumberFacts(decimal=",", group=".")
    assert evaluate(token_cost, {**token_cost.defaults(), "input_tokens": "1,5k"}, facts).values["input_tokens"] == 1500
    # Only a count of tokens: "70B" in a field of billions of parameters would be 70 × 10⁹ billion.
    latency = find("inference-latency")
    assert not evaluate(latency, {**latency.defaults(), "params_billion": "70B"}).ok
