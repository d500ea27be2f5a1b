"""The preset data files: their schema, their published parameter counts, and what they fill."""

from __future__ import annotations

import dataclasses
import shutil
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

import pytest

from calculators import CALCULATORS, LocaleKit, evaluate, find, make_report
from calculators.kernel.spec import GPU_FACTS, MODEL_FACTS, PRICE_FACTS
from calculators.vocabulary.model_config import covers
from site_builder.build.errors import BuildError
from site_builder.build.presets import (
    DATA,
    LONG_CONTEXT,
    PRICE_KINDS,
    ModelPreset,
    Presets,
    preset_values,
    read_presets,
    stale_prices,
    uses_presets,
)
from site_builder.build.rendering import preset_menus

from .helpers import GPT_6_2_SOL, results

PRESETS = read_presets()
TRANSFORMER_PARAMS = find("transformer-params")


def test_there_are_enough_presets_and_every_fact_has_a_value() -> None:
    assert len(PRESETS.models) >= 20 and len(PRESETS.gpus) >= 12
    for model in PRESETS.models:
        assert set(model.facts()) == set(MODEL_FACTS)
    for gpu in PRESETS.gpus:
        assert set(gpu.facts()) == set(GPU_FACTS)


@pytest.mark.parametrize("model", PRESETS.models, ids=lambda model: model.id)
def test_the_transformer_params_calculator_gives_the_published_count(model: ModelPreset) -> None:
    """The count a preset fills in is checked against the count its source publishes."""
    result = evaluate(TRANSFORMER_PARAMS, {**TRANSFORMER_PARAMS.defaults(), **preset_values(TRANSFORMER_PARAMS, model)})
    assert result.ok, result.problems
    counted = Decimal(repr(result.results["total_params_billion"])) * 10**9
    if model.params_exact:
        assert counted == model.params
    else:
        # A rounded figure such as "141B": the count must round to it at the printed precision.
        printed = Decimal(model.params_printed.rstrip("B"))
        assert round(counted / 10**9, -printed.as_tuple().exponent) == printed  # type: ignore[operator]
    if model.active_params:
        active = Decimal(repr(result.results["active_params_billion"])) * 10**9
        printed = Decimal(model.active_params_printed.rstrip("B")) if model.active_params_printed else None
        if model.active_params_exact or printed is None:
            assert active == model.active_params
        else:
            # DeepSeek counts active parameters without the input embedding; both readings must round to it.
            assert abs(active / 10**9 - printed) <= Decimal("0.6") + Decimal(10) ** printed.as_tuple().exponent


@pytest.mark.parametrize("model", PRESETS.models, ids=lambda model: model.id)
def test_both_counting_calculators_give_one_count(model: ModelPreset) -> None:
    """One model, one count: moe-active-params takes every fact transformer-params' count reads."""
    counts = []
    for calculator in (TRANSFORMER_PARAMS, find("moe-active-params")):
        result = evaluate(calculator, {**calculator.defaults(), **preset_values(calculator, model)})
        assert result.ok, result.problems
        counts.append((result.results["total_params_billion"], result.results["active_params_billion"]))
    assert counts[0] == counts[1]


@pytest.mark.parametrize("calculator", CALCULATORS, ids=lambda calculator: calculator.slug)
def test_every_preset_gives_valid_inputs(calculator) -> None:  # type: ignore[no-untyped-def]
    for family, presets in (("model", PRESETS.models), ("gpu", PRESETS.gpus), ("price", PRESETS.prices)):
        if not uses_presets(calculator, family):
            continue
        for preset in presets:
            if family != "price" and not covers(calculator, preset.facts()):  # type: ignore[arg-type]
                continue  # a model or GPU the page's formula cannot work from: not in its menu
            values = preset_values(calculator, preset)
            if family == "price" and not values:
                continue  # a price of another kind than this calculator takes: not in its menus
            assert values
            result = evaluate(calculator, {**calculator.defaults(), **values})
            assert result.ok, (preset.id, result.problems)


def test_latent_attention_models_are_kept_off_attention_shape_formulas() -> None:
    deepseek = next(model for model in PRESETS.models if model.kv_lora_rank)
    assert not covers(find("lora-parameters"), deepseek.facts())
    assert covers(find("moe-active-params"), deepseek.facts())
    assert covers(find("quantized-model-size"), deepseek.facts())
    # The cache pages take the latent's facts, so they describe it.
    assert covers(find("kv-cache-size"), deepseek.facts()) and covers(find("llm-inference-vram"), deepseek.facts())
    # The library withholds it as the page does: its head_dim of 56 is a placeholder, not an attention shape.
    assert preset_values(find("lora-parameters"), deepseek) == {}
    assert preset_values(find("moe-active-params"), deepseek)["kv_lora_rank"] == "512"


def _broken(tmp_path: Path, old: str, new: str, name: str = "models.toml") -> Path:
    for data in ("models.toml", "gpus.toml", "prices.toml", "prices_dataset.toml"):
        shutil.copy(DATA / data, tmp_path / data)
    text = (DATA / name).read_text(encoding="utf-8")
    assert old in text
    (tmp_path / name).write_text(text.replace(old, new, 1), encoding="utf-8")
    return tmp_path


def _line(folder: Path, name: str, text: str) -> int:
    """Return the line `text` first starts on in the file `name` of `folder`."""
    return (folder / name).read_text(encoding="utf-8").splitlines().index(text) + 1


@pytest.mark.parametrize(
    ("old", "new", "cause", "at"),
    [
        ("layers = 12\n", "", "missing key 'layers'", "[[model]]"),
        ("layers = 12\n", "layers = 12\nlayer = 12\n", "unknown key 'layer'", "layer = 12"),
        ("layers = 12\n", 'layers = "12"\n', "layers must be int", 'layers = "12"'),
        ("layers = 12\n", "layers = -12\n", "layers must be int", "layers = -12"),
        (
            "layers = 12\n",
            "layers = 1_000_000_000_000_000_000\n",
            "layers must be int",
            "layers = 1_000_000_000_000_000_000",
        ),
        (
            'architecture = "gpt2"',
            'architecture = "bert"',
            "architecture must be llama or gpt2",
            'architecture = "bert"',
        ),
        (
            "attention_heads = 12\n",
            "attention_heads = 13\n",
            "attention_heads must be a multiple",
            "attention_heads = 13",
        ),
        ('params_source = "https://', 'params_source = "http://', "params_source must be an https address", None),
        ("[[model]]", "[[model]]\nid = ", "not valid TOML", "id = "),
        ("[[model]]", 'title = "Models"\n[[model]]', "unknown key 'title'", 'title = "Models"'),
    ],
)
def test_a_broken_file_names_the_file_the_line_and_the_key(
    tmp_path: Path, old: str, new: str, cause: str, at: str | None
) -> None:
    folder = _broken(tmp_path, old, new)
    with pytest.raises(BuildError) as raised:
        read_presets(folder)
    assert raised.value.path.name == "models.toml" and cause in raised.value.cause
    if at is not None:
        assert raised.value.line == _line(folder, "models.toml", at)
    assert raised.value.line is not None and raised.value.line > 1


@pytest.mark.parametrize("value", ["inf", "+inf", "nan", "-1.5", "0", "1e300"])
def test_a_gpu_figure_must_be_a_finite_positive_number(tmp_path: Path, value: str) -> None:
    # `memory_gb = inf` used to pass the schema and fail later, in the form's number text, with InvalidOperation.
    folder = _broken(tmp_path, "memory_gb = 32\n", f"memory_gb = {value}\n", "gpus.toml")
    with pytest.raises(BuildError) as raised:
        read_presets(folder)
    assert raised.value.path.name == "gpus.toml" and "memory_gb must be float" in raised.value.cause
    assert raised.value.line == _line(folder, "gpus.toml", f"memory_gb = {value}")


@pytest.mark.parametrize(
    ("new", "cause"),
    [
        ("announced = 2999-01-01\n", "announced 2999-01-01 is after today"),
        ("announced = 2018-03-27\nusable_gib = 31.7\n", "usable_gib needs usable_source"),
        ('announced = 2018-03-27\nusable_source = "https://example.org/x"\n', "usable_source names a reading"),
        ('announced = 2018-03-27\nusable_gib = 31.7\nusable_source = "x"\n', "usable_source must be an https"),
        ('announced = 2018-03-27\nusable_gib = 33\nusable_source = "https://example.org/x"\n', "is above memory_gb"),
    ],
)
def test_a_gpu_is_dated_and_a_reading_of_its_memory_has_a_source(tmp_path: Path, new: str, cause: str) -> None:
    folder = _broken(tmp_path, "announced = 2018-03-27\n", new, "gpus.toml")
    with pytest.raises(BuildError) as raised:
        read_presets(folder)
    assert raised.value.path.name == "gpus.toml" and cause in raised.value.cause
    assert raised.value.line is not None and raised.value.line > 1


_SERVING = {"inference-throughput", "inference-latency", "batch-inference-throughput"}


@pytest.mark.parametrize(("figure", "taken_as_0"), [("bf16_tflops", _SERVING), ("bandwidth_gb_s", set())])
def test_a_gpu_without_a_published_figure_is_offered_only_where_its_0_is_taken(
    figure: str, taken_as_0: set[str]
) -> None:
    """The serving pages bound decoding by bandwidth alone without a peak; a page that divides by it does not offer
    the GPU, nor any page that needs its bandwidth."""
    unpublished = dataclasses.replace(PRESETS.gpus[0], id="unpublished", **{figure: 0.0})
    menus = preset_menus(CALCULATORS, dataclasses.replace(PRESETS, gpus=(*PRESETS.gpus, unpublished)))
    needs = {c.slug for c in CALCULATORS if any(spec.preset == f"gpu.{figure}" for spec in c.inputs)}
    assert "batch-inference-throughput" in needs and (figure != "bf16_tflops" or {"mfu", "training-time-cost"} <= needs)
    for calculator in CALCULATORS:
        offered = [option.id for option in menus[calculator.slug].gpus]
        assert [gpu.id for gpu in menus[calculator.slug].gpu_entries] == offered
        if uses_presets(calculator, "gpu"):
            wanted = calculator.slug not in needs or calculator.slug in taken_as_0
            assert ("unpublished" in offered) == wanted, calculator.slug
    assert unpublished.facts()[f"gpu.{figure}"] == 0


def test_a_table_header_may_carry_a_comment(tmp_path: Path) -> None:
    # `[[model]]  # comment` used to fail with "ValueError: zip() argument 2 is shorter than argument 3".
    folder = _broken(tmp_path, "[[model]]\n", "[[model]]  # the first model\n")
    assert len(read_presets(folder).models) == len(PRESETS.models)
    text = (folder / "models.toml").read_text(encoding="utf-8")
    (folder / "models.toml").write_text(text.replace("attention_heads = 12\n", "attention_heads = 13\n", 1))
    with pytest.raises(BuildError) as raised:
        read_presets(folder)
    assert raised.value.line == _line(folder, "models.toml", "attention_heads = 13")


def test_a_line_in_a_multiline_string_is_not_a_key(tmp_path: Path) -> None:
    changed = 'notes = """\n[[gpu]]\nmemory_gb = 1\n"""\nmemory_gb = inf\n'
    folder = _broken(tmp_path, "memory_gb = 32\n", changed, "gpus.toml")
    with pytest.raises(BuildError) as raised:
        read_presets(folder)
    assert raised.value.line == _line(folder, "gpus.toml", "memory_gb = inf")


def test_ids_are_unique(tmp_path: Path) -> None:
    shutil.copy(DATA / "gpus.toml", tmp_path / "gpus.toml")
    shutil.copy(DATA / "prices.toml", tmp_path / "prices.toml")
    shutil.copy(DATA / "prices_dataset.toml", tmp_path / "prices_dataset.toml")
    text = (DATA / "models.toml").read_text(encoding="utf-8")
    first = text[text.index("[[model]]") : text.index("[[model]]", text.index("[[model]]") + 1)]
    (tmp_path / "models.toml").write_text(text + "\n" + first, encoding="utf-8")
    with pytest.raises(BuildError, match="model ids must be unique: openai-community/gpt2") as raised:
        read_presets(tmp_path)
    assert (
        raised.value.line
        == len((tmp_path / "models.toml").read_text(encoding="utf-8").splitlines())
        - len(first.splitlines())
        + first.splitlines().index('id = "openai-community/gpt2"')
        + 1
    )


def test_gpu_peaks_are_dense_not_sparse() -> None:
    # NVIDIA prints 1,979 TFLOP/s for H100 SXM BF16 "with sparsity"; the dense figure is half.
    h100 = next(gpu for gpu in PRESETS.gpus if gpu.id == "h100-sxm")
    assert (h100.memory_gb, h100.bf16_tflops) == (80, 989.5)
    a100 = next(gpu for gpu in PRESETS.gpus if gpu.id.startswith("a100") and gpu.memory_gb == 80)
    assert a100.bf16_tflops == 312  # the dense peak Korthikanti et al. and Narayanan et al. use


def test_a_preset_fills_billions_of_parameters_as_a_model_card_writes_them() -> None:
    """Four significant digits, and the results are those of the figure the field shows."""
    models = {model.name: model for model in PRESETS.models}
    quantized = find("quantized-model-size")
    filled = {name: preset_values(quantized, models[name])["params_billion"] for name in models}
    assert filled["Llama 3.1 70B"] == "70.55"  # 70,553,706,496 parameters
    assert filled["Llama 3.1 8B"] == "8.03" and filled["Llama 3.1 405B"] == "405.9"
    assert filled["DeepSeek-V3 (671B MoE)"] == "671" and filled["GPT-2 small (124M)"] == "0.1244"
    assert all(len(text.replace(".", "").lstrip("0")) <= 4 for text in filled.values())
    typed = evaluate(quantized, {**quantized.defaults(), "params_billion": "70.55"})
    preset = evaluate(quantized, {**quantized.defaults(), **preset_values(quantized, models["Llama 3.1 70B"])})
    assert preset.results == typed.results


def test_every_price_states_its_kind_with_a_source_and_a_date() -> None:
    assert PRESETS.prices
    for price in PRESETS.prices:
        assert price.source.startswith("https://") and isinstance(price.read_on, date), price.id
        tier = (*LONG_CONTEXT, "flex_percent", "priority_percent", "web_search_per_k") if price.kind == "llm" else ()
        assert set(price.facts()) == {"price.currency", *(f"price.{name}" for name in PRICE_KINDS[price.kind] + tier)}
        assert set(price.facts()) <= set(PRICE_FACTS)


@pytest.mark.parametrize(
    ("old", "new", "cause"),
    [
        ('source = "https://platform.claude.com/docs/en/about-claude/pricing"\n', "", "missing key 'source'"),
        ("read_on = 2026-12-02\n", "", "missing key 'read_on'"),
        ("read_on = 2026-12-02\n", 'read_on = "2026-12-02"\n', "read_on must be a date"),
        ('source = "https://platform', 'source = "http://platform', "source must be the https address"),
        ("output_per_m = 25\n", "", "missing output_per_m"),
        ("output_per_m = 25\n", "output_per_m = 25\nper_image = 1\n", "a llm price states only"),
        ("batch_discount = 50\n", "batch_discount = 150\n", "batch_discount is a percentage"),
        ('kind = "llm"', 'kind = "tokens"', "kind must be one of"),
        # A typo of 2062 would never go stale; a date with a time is not the day the page was read.
        ("read_on = 2026-12-02\n", "read_on = 2062-12-02\n", "read_on 2062-12-02 is after today"),
        ("read_on = 2026-12-02\n", "read_on = 2026-12-02T10:00:00\n", "read_on must be a date"),
        ('source = "https://platform.claude.com/docs/en/about-claude/pricing"\n', 'source = "https://"\n', "source"),
        ("cached_input_per_m = 0.5\n", "cached_input_per_m = 50\n", "cached_input_per_m is above input_per_m"),
        # A long-context tier is whole: its threshold and its three prices, or none of them.
        ("output_per_m = 25\n", "output_per_m = 25\nlong_context_above = 200000\n", "a long-context tier states"),
        (
            "output_per_m = 25\n",
            "output_per_m = 25\nlong_context_above = 0\nlong_context_input_per_m = 10\n"
            "long_context_cached_input_per_m = 1\nlong_context_cache_write_per_m = 12.5\n"
            "long_context_output_per_m = 37.5\n",
            "long_context_above is the tier's threshold",
        ),
        # Beyond the field it fills: a price per million tokens is at most 1,000,000.
        ("input_per_m = 5\n", "input_per_m = 5000000\n", "input_per_m fills image-tokens's field input_price, which"),
    ],
)
def test_a_price_without_a_source_or_a_date_stops_the_build(tmp_path: Path, old: str, new: str, cause: str) -> None:
    folder = _broken(tmp_path, old, new, "prices.toml")
    with pytest.raises(BuildError) as raised:
        read_presets(folder, CALCULATORS)
    assert raised.value.path.name == "prices.toml" and cause in raised.value.cause, raised.value.cause
    assert raised.value.line is not None and raised.value.line > 1


def test_a_price_read_more_than_a_year_ago_is_a_warning() -> None:
    price = PRESETS.prices[0]
    one = Presets(models=(), gpus=(), prices=(price,))
    assert stale_prices(one, price.read_on + timedelta(days=365)) == ()
    (warning,) = stale_prices(one, price.read_on + timedelta(days=366))
    assert price.id in warning and price.source in warning and "prices.toml" in warning


def test_a_dataset_a_year_old_is_one_warning() -> None:
    dataset = Presets(models=(), gpus=(), dataset=PRESETS.dataset)
    day = max(price.read_on for price in PRESETS.dataset)
    assert stale_prices(dataset, day + timedelta(days=365)) == ()
    (warning,) = stale_prices(dataset, day + timedelta(days=366))
    assert "prices_dataset.toml" in warning and "snapshot_prices.py" in warning


def test_a_price_preset_fills_the_prices_and_the_currency() -> None:
    token_cost = find("token-cost")
    opus = next(price for price in PRESETS.prices if price.id == "anthropic-claude-opus-4-5")
    assert preset_values(token_cost, opus) == {
        "currency": "USD",
        "input_price": "5",
        "cached_input_price": "0.5",
        "output_price": "25",
        # No long-context tier: 0, so a tier chosen before is not left over.
        "long_context_above": "0",
        "long_context_input_price": "0",
        "long_context_cached_input_price": "0",
        "long_context_output_price": "0",
    }


def test_the_gpt_6_presets_carry_their_long_context_tier() -> None:
    sol = next(price for price in PRESETS.prices if price.id == "openai-gpt-6-2-sol")
    values = preset_values(find("token-cost"), sol)
    assert {name: values[name] for name in GPT_6_2_SOL} == GPT_6_2_SOL
    # Cache writes double too ("input and cache rates double"), where a calculator writes the cache.
    assert preset_values(find("context-cost-growth"), sol)["long_context_cache_write_price"] == "5"


def test_a_tiny_price_fills_its_field_in_full() -> None:
    # Written to nine decimals, a price of 1e-12 filled its field with 0, and the page computed with 0.
    opus = next(price for price in PRESETS.prices if price.id == "anthropic-claude-opus-4-5")
    tiny = dataclasses.replace(opus, input_per_m=1e-12, cached_input_per_m=2.5e-13)
    values = preset_values(find("token-cost"), tiny)
    assert values["input_price"] == "0.000000000001" and values["cached_input_price"] == "0.00000000000025"


BATCH = find("batch-inference-throughput")


def _batch_preset(presets: Presets, family: str, preset_id: str) -> dict[str, str]:
    chosen = next(p for p in (presets.models if family == "model" else presets.gpus) if p.id == preset_id)
    return preset_values(BATCH, chosen)


def test_llama_3_405b_needs_two_h100_machines_in_bf16_and_one_in_fp8() -> None:
    # The Llama 3 paper (arXiv:2407.21783), §6.1: in BF16 the 405B model "does not fit in the GPU memory of a single
    # machine with 8 Nvidia H100 GPUs", so Meta served it on 16 GPUs of two machines; §6.2's FP8 weights run it on
    # one machine.
    presets = read_presets(calculators=[BATCH])
    chosen = {
        **_batch_preset(presets, "model", "meta-llama/Llama-3.1-405B"),
        **_batch_preset(presets, "gpu", "h100-sxm"),
    }
    bf16, fp8 = (results(BATCH, **chosen, bits_per_weight=bits)["fewest_gpus"] for bits in ("16", "8"))
    assert 8 < bf16 <= 16 and fp8 <= 8
    assert (bf16, fp8) == (10, 5)  # the figures the article gives, on the 81,559 MiB nvidia-smi shows


def test_an_apple_chip_on_a_serving_page_decodes_at_its_bandwidth_and_says_what_it_cannot_tell(
    kits: dict[str, LocaleKit],
) -> None:
    m2_ultra = next(gpu for gpu in PRESETS.gpus if gpu.id == "apple-m2-ultra-192gb")
    latency = find("inference-latency")
    chosen = preset_values(latency, m2_ultra)
    assert chosen["peak_tflops"] == "0" and chosen["bandwidth_gb_s"] == "800"
    report = make_report(latency, {**latency.defaults(), **chosen}, kits["de"])
    assert report.ok
    written = {result.name: result for result in report.results}
    for name in ("ttft_ms", "latency_s", "request_tokens_per_second"):
        assert (written[name].value, written[name].unit) == ("Nicht bekannt", "")
        assert "Spitzenrechenleistung der GPU" in written[name].sentence
    # Each token after the first reads Llama-3.1-8B's 16.06 GB of weights and its cache at 800 GB/s: about 20 ms.
    assert written["tpot_ms"].value.startswith("20,") and "Speicherbandbreite" in written["tpot_ms"].sentence
    assert not preset_values(find("mfu"), m2_ultra)  # a page that divides by the peak does not offer the chip


def test_a_gpu_figure_a_page_refuses_is_the_builds_error_not_a_chip_left_out(tmp_path: Path) -> None:
    # Only a 0 (not published) keeps a chip off a page that cannot take it; a figure past a field's bounds is a typo.
    folder = _broken(tmp_path, "bandwidth_gb_s = 900\n", "bandwidth_gb_s = 9000000\n", "gpus.toml")
    with pytest.raises(BuildError) as raised:
        read_presets(folder, calculators=CALCULATORS)
    assert raised.value.path.name == "gpus.toml" and "bandwidth_gb_s" in raised.value.cause
    assert raised.value.line == _line(folder, "gpus.toml", "bandwidth_gb_s = 9000000")
