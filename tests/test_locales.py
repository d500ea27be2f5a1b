"""Ten locales, first class: plural forms, locale numbers, input a reader of the locale types, RTL, strictness."""

from __future__ import annotations

import gettext
import io
import shutil
from pathlib import Path
from typing import Any

import babel
import pytest

from calculators import LocaleKit, evaluate, find, make_report
from languages.locales import LOCALE_BY_TAG, LOCALES, number_facts
from site_builder.build import PROJECT, BuildConfig, build, read_catalogs
from site_builder.build.errors import BuildError

from .test_browser import _open, _settle

GRAD = find("gradient-accumulation-memory")
VRAM = find("llm-training-vram")
COUNTS = (0, 1, 2, 3, 11, 100)
CLDR_ORDER = ("zero", "one", "two", "few", "many", "other")


def _sample_unit(kit: LocaleKit, n: int) -> str:
    return kit.translations.npgettext("gradient-accumulation-memory", "sample", "samples", n)


def test_english_plurals(kits: dict[str, LocaleKit]) -> None:
    kit = kits["en"]
    assert [_sample_unit(kit, n) for n in COUNTS] == ["samples", "sample", "samples", "samples", "samples", "samples"]


def test_french_zero_and_one_are_singular(kits: dict[str, LocaleKit]) -> None:
    forms = [_sample_unit(kits["fr"], n) for n in COUNTS]
    assert forms[0] == forms[1]
    assert len({forms[0], forms[2]}) == 2
    assert forms[2] == forms[3] == forms[4] == forms[5]


@pytest.mark.parametrize("tag", ["en", "fr", "ar", "de", "ja", "zh-TW"])
def test_plural_forms_follow_cldr(tag: str) -> None:
    # The catalog's Plural-Forms formula must pick, for every count, the form CLDR's rule names.
    locale = LOCALE_BY_TAG[tag]
    catalogs, _ = read_catalogs(PROJECT)
    translations = gettext.GNUTranslations(io.BytesIO(catalogs[locale]))
    rule = babel.Locale.parse(locale.cldr).plural_form
    categories = [c for c in CLDR_ORDER if c in babel.Locale.parse(locale.cldr)._data["plural_form"].rules] + ["other"]
    for n in (*COUNTS, 5, 21, 101, 1_000_000):
        index = translations.plural(n)  # type: ignore[attr-defined]
        assert categories[index] == rule(n), (tag, n)


def test_arabic_plural_forms(kits: dict[str, LocaleKit]) -> None:
    # Six CLDR categories; for a noun after a number Arabic uses the dual for 2, the plural for 3 to 10
    # and the singular again for 11 to 99 and 100, which the catalog must reflect.
    forms = dict(zip(COUNTS, (_sample_unit(kits["ar"], n) for n in COUNTS), strict=True))
    assert forms[2] == "عينتان"
    assert forms[3] == "عينات"
    assert forms[11] == "عينة"
    assert len({forms[1], forms[2], forms[3]}) == 3


def test_arabic_sentence_uses_the_dual(kits: dict[str, LocaleKit]) -> None:
    kit = kits["ar"]
    values = {"micro_batch": "2", "accumulation_steps": "1", "data_parallel": "1", "activation_per_sample_gb": "1"}
    two = make_report(GRAD, values, kit).results[1].sentence
    three = make_report(GRAD, {**values, "micro_batch": "3"}, kit).results[1].sentence
    assert two != three.replace("3", "2")


@pytest.mark.parametrize(
    ("tag", "text", "expected"),
    [
        ("de", "0,5", 0.5),
        ("de", "0.5", 0.5),
        ("fr", "0,5", 0.5),
        ("es", "0,25", 0.25),
        ("pt-BR", "1,5", 1.5),
        ("en", "0.5", 0.5),
        ("ja", "０．５", 0.5),
        ("zh-CN", "0.5", 0.5),
        ("ar", "٠٫٥", 0.5),  # the Arabic decimal separator, as an Arabic keyboard types it (CLDR's ar uses ".")
    ],
)
def test_decimal_input_per_locale(tag: str, text: str, expected: float | None) -> None:
    facts = number_facts(LOCALE_BY_TAG[tag])
    result = evaluate(GRAD, {**GRAD.defaults(), "activation_per_sample_gb": text}, facts)
    if expected is None:
        assert not result.ok
    else:
        assert result.values["activation_per_sample_gb"] == expected


@pytest.mark.parametrize(("tag", "text"), [("ja", "４"), ("zh-TW", "４"), ("ko", "４"), ("ar", "٤"), ("fr", "4")])
def test_integer_input_per_locale(tag: str, text: str) -> None:
    facts = number_facts(LOCALE_BY_TAG[tag])
    assert evaluate(GRAD, {**GRAD.defaults(), "micro_batch": text}, facts).values["micro_batch"] == 4


def test_english_reader_gets_a_message_for_a_decimal_comma(kits: dict[str, LocaleKit]) -> None:
    report = make_report(GRAD, {**GRAD.defaults(), "activation_per_sample_gb": "0,5"}, kits["en"])
    assert not report.ok
    assert report.errors[0].message == "Enter a number, for example 0.5."


@pytest.mark.parametrize(
    ("tag", "expected"),
    [("en", "1,024"), ("de", "1.024"), ("fr", "1\u202f024"), ("es", "1.024"), ("pt-BR", "1.024"), ("ar", "1,024")],
)
def test_numbers_in_results_follow_the_locale(kits: dict[str, LocaleKit], tag: str, expected: str) -> None:
    values = {"micro_batch": "16", "accumulation_steps": "8", "data_parallel": "8", "activation_per_sample_gb": "0.5"}
    report = make_report(GRAD, values, kits[tag])
    assert report.results[0].value == expected
    assert expected in report.results[0].sentence


def _project_with(tmp_path: Path, tag: str, edit: Any) -> Path:
    project = tmp_path / "project"
    shutil.copytree(PROJECT / "locales", project / "locales")
    shutil.copy(PROJECT / "site.toml", project / "site.toml")
    (project / "node_modules").symlink_to(PROJECT / "node_modules")
    po = project / "locales" / LOCALE_BY_TAG[tag].catalog / "LC_MESSAGES" / "messages.po"
    po.write_text(edit(po.read_text(encoding="utf-8")), encoding="utf-8")
    return project


def _break_placeholder(text: str) -> str:
    return _replace_translation(text, "Enter {limit} or more.", "{limit}", "{limt}")


def _replace_translation(text: str, msgid: str, old: str, new: str) -> str:
    head, tail = text.split(f'msgid "{msgid}"\nmsgstr "', 1)
    translation, rest = tail.split('"\n', 1)
    assert old in translation
    return f'{head}msgid "{msgid}"\nmsgstr "{translation.replace(old, new)}"\n{rest}'


def test_strict_build_names_catalog_message_and_reason(tmp_path: Path) -> None:
    project = _project_with(tmp_path, "de", _break_placeholder)
    with pytest.raises(BuildError) as caught:
        build(BuildConfig(out=tmp_path / "dist", project=project, strict=True))
    assert caught.value.path.name == "messages.po" and caught.value.path.parent.parent.name == "de"
    assert caught.value.line
    assert "placeholders differ" in caught.value.cause and "'Enter {limit} or more.'" in caught.value.cause
    assert not (tmp_path / "dist").exists()


def test_default_build_falls_back_to_english_and_warns(tmp_path: Path) -> None:
    def make_fuzzy(text: str) -> str:
        return text.replace(
            'msgctxt "validation"\nmsgid "Enter a whole number."',
            '#, fuzzy\nmsgctxt "validation"\nmsgid "Enter a whole number."',
        )

    project = _project_with(tmp_path, "de", lambda text: _break_placeholder(make_fuzzy(text)))
    summary = build(BuildConfig(out=tmp_path / "dist", project=project, calculators=(find("lr-warmup"),)))
    assert len(summary.warnings) == 2
    assert any("fuzzy: 'Enter a whole number.'" in w for w in summary.warnings)
    catalogs, problems = read_catalogs(project)
    kit_text = gettext.GNUTranslations(io.BytesIO(catalogs[LOCALE_BY_TAG["de"]]))
    assert kit_text.pgettext("validation", "Enter a whole number.") == "Enter a whole number."
    assert kit_text.pgettext("validation", "Enter {limit} or more.") == "Enter {limit} or more."
    assert len(problems) == 2


def test_every_locale_is_complete_in_strict_mode(site: Path) -> None:
    # The session's `site` is a strict build; reaching here means every catalog passed.
    assert sorted(p.name for p in site.iterdir() if p.is_dir() and p.name not in {"_app", "pagefind"}) == sorted(
        locale.folder for locale in LOCALES
    )


# ---- in the browser ----


@pytest.mark.browser
@pytest.mark.parametrize(
    ("tag", "typed", "shown"), [("de", "0,5", "0,5"), ("fr", "0,75", "0,75"), ("ja", "０.５", "0.5")]
)
def test_page_reads_what_the_reader_types(page: Any, base_url: str, tag: str, typed: str, shown: str) -> None:
    _open(page, base_url, LOCALE_BY_TAG[tag], GRAD)
    page.fill('[name="activation_per_sample_gb"]', typed)
    _settle(page)
    assert page.get_attribute(".results", "data-state") == "ok"
    sentence = page.text_content('[data-sentence="activation_memory_gb"]').replace("\u00a0", " ")
    assert f"× {shown} GB" in sentence


@pytest.mark.browser
def test_english_page_explains_a_decimal_comma(page: Any, base_url: str) -> None:
    _open(page, base_url, LOCALE_BY_TAG["en"], GRAD)
    page.fill('[name="activation_per_sample_gb"]', "0,5")
    _settle(page)
    assert page.text_content('[data-error-for="activation_per_sample_gb"]') == "Enter a number, for example 0.5."


@pytest.mark.browser
def test_arabic_page_is_right_to_left(page: Any, base_url: str, tmp_path: Path) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    _open(page, base_url, LOCALE_BY_TAG["ar"], VRAM)
    assert page.get_attribute("html", "dir") == "rtl"
    screenshot = Path("test-results") / "ar-llm-training-vram.png"
    screenshot.parent.mkdir(exist_ok=True)
    page.screenshot(path=str(screenshot), full_page=False)
    inputs = page.locator("form.inputs").bounding_box()
    results = page.locator(".results").bounding_box()
    assert inputs["x"] > results["x"], "the first column (inputs) sits on the right"
    heading = page.locator("h1").bounding_box()
    main = page.locator("main").bounding_box()
    assert abs((heading["x"] + heading["width"]) - (main["x"] + main["width"])) < 40, "the heading starts at the right"
    label = page.locator('label[for="input-params_billion"]').bounding_box()
    field = page.locator('[name="params_billion"]').bounding_box()
    assert label["x"] + label["width"] > field["x"] + field["width"] - 2
    # Numbers and formulas still read left to right.
    assert page.evaluate("getComputedStyle(document.querySelector('math')).direction") == "ltr"
    assert page.evaluate("getComputedStyle(document.querySelector('[name=params_billion]')).direction") == "ltr"


@pytest.mark.browser
@pytest.mark.parametrize(
    ("languages", "folder"),
    [("de-DE", "de"), ("zh-HK", "zh-tw"), ("zh", "zh-cn"), ("pt-PT", "pt-br"), ("ar-EG", "ar"), ("en-GB", "en")],
)
def test_root_sends_the_reader_to_their_language(browser: Any, base_url: str, languages: str, folder: str) -> None:
    context = browser.new_context(locale=languages)
    tab = context.new_page()
    tab.goto(base_url)
    tab.wait_for_url(f"{base_url}{folder}/")
    context.close()


@pytest.mark.browser
def test_root_keeps_the_list_for_an_unknown_language_and_remembers_a_choice(browser: Any, base_url: str) -> None:
    context = browser.new_context(locale="sw-KE")
    tab = context.new_page()
    tab.goto(base_url)
    tab.wait_for_load_state("load")
    assert tab.url == base_url
    assert tab.locator("[data-locale-chooser] a").count() == len(LOCALES)
    tab.click('[data-locale-chooser] a[hreflang="ko"]')
    tab.wait_for_url(f"{base_url}ko/")
    tab.goto(base_url)
    tab.wait_for_url(f"{base_url}ko/")
    context.close()


@pytest.mark.browser
def test_root_without_javascript_is_a_plain_list(browser: Any, base_url: str) -> None:
    context = browser.new_context(java_script_enabled=False, locale="de-DE")
    tab = context.new_page()
    tab.goto(base_url)
    assert tab.url == base_url
    assert tab.locator('[data-locale-chooser] a[hreflang="de"]').get_attribute("href") == "de/"
    context.close()
