"""The build: every page exists, holds its prerendered results, and the build is strict and repeatable."""

from __future__ import annotations

import ast
import io
import json
import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo

from calculators import CALCULATORS, LocaleKit, find, make_report
from calculators.live import load_kit
from calculators.report import read_config
from languages.locales import LOCALES, Locale, number_facts_json
from site_builder import folders
from site_builder.build import PROJECT, BuildConfig, assemble, build, read_catalogs
from site_builder.build.assets import RUNTIME_FILES
from site_builder.build.catalogs import CatalogCache
from site_builder.build.environment import article_path
from site_builder.build.errors import BuildError

from .pagetext import expected_text, gpu_menu, price_menu, result_text

# Tests of the build's mechanics build one calculator's pages: the whole site would only repeat the work.
ONE = (find("llm-training-vram"),)


def test_every_page_exists(site: Path) -> None:
    assert (site / "index.html").is_file()
    for locale in LOCALES:
        assert (site / locale.folder / "index.html").is_file()
        for calculator in CALCULATORS:
            assert (site / locale.folder / calculator.slug / "index.html").is_file()


def test_locale_folders_are_lower_case_and_lang_is_bcp47(site: Path) -> None:
    html = (site / "zh-tw" / "llm-training-vram" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="zh-TW" dir="ltr">' in html
    assert 'hreflang="zh-TW" href="http://localhost:8000/zh-tw/llm-training-vram/"' in html
    assert 'hreflang="en" href="http://localhost:8000/en/llm-training-vram/"' in html


@pytest.mark.parametrize("locale", LOCALES, ids=lambda locale: locale.tag)
@pytest.mark.parametrize("calculator", CALCULATORS, ids=lambda calculator: calculator.slug)
def test_pages_hold_prerendered_results(site: Path, kits: dict[str, LocaleKit], locale, calculator) -> None:  # type: ignore[no-untyped-def]
    html = (site / locale.folder / calculator.slug / "index.html").read_text(encoding="utf-8")
    report = make_report(
        calculator, calculator.defaults(), kits[locale.tag], gpu_menu(calculator), price_menu(calculator)
    )
    assert report.ok
    names = [spec.name for spec in calculator.inputs]
    assert result_text(html) == expected_text(report, names, chart=bool(calculator.chart or calculator.price_table))
    for result in report.results:
        assert result.value and result.sentence
    for spec in calculator.inputs:
        assert f'name="{spec.name}"' in html


def test_seed_numbers_are_on_the_pages(site: Path) -> None:
    grad = result_text((site / "en" / "gradient-accumulation-memory" / "index.html").read_text(encoding="utf-8"))
    assert grad["data-output=effective_batch"] == "32"
    assert grad["data-output=activation_memory_gb"] == "2"
    vram = result_text((site / "zh-tw" / "llm-training-vram" / "index.html").read_text(encoding="utf-8"))
    assert vram["data-output=total_vram_gb"] == "112"
    assert vram["data-output=model_state_gb"] == "112"


def test_pages_are_translated(site: Path) -> None:
    html = (site / "zh-tw" / "gradient-accumulation-memory" / "index.html").read_text(encoding="utf-8")
    assert "<h1 data-pagefind-body>梯度累積記憶體計算機</h1>" in html
    assert 'id="input-micro_batch"' in html and "微批次大小</label>" in html
    text = result_text(html)
    assert "樣本" in text["data-unit=effective_batch"]
    assert text["data-sentence=activation_memory_gb"].isascii() is False


@pytest.mark.parametrize(("folder", "gap"), [("en", ""), ("zh-tw", ""), ("fr", "\xa0"), ("de", "\xa0")])
def test_a_percentage_is_written_as_the_language_writes_it(site: Path, folder: str, gap: str) -> None:
    # CLDR's percent patterns: "#,##0%" in English and Chinese, "#,##0 %" in French and German. English once wrote
    # "57.1 %" in its results beside "20%" in its articles.
    html = (site / folder / "token-cost" / "index.html").read_text(encoding="utf-8")
    figure = re.search(r'data-output="output_share">([^<]+)</output>([^<]*)<span class="unit"[^>]*>%</span>', html)
    assert figure is not None and figure.group(2) == gap
    if folder == "en":
        text = re.sub(r"<[^>]+>", " ", html.split('<main id="main"', 1)[1])
        assert re.findall(r"\d[ \xa0]%", text) == []


def test_our_scripts_and_stylesheet_ship_minified(site: Path) -> None:
    # Their comments say why to whoever edits them; a reader's browser fetched them too, a third of a page.
    app = site / "_app" / "app.js"
    assert app.stat().st_size < 0.75 * (folders.BROWSER_STATIC / "app.js").stat().st_size
    assert "// The live page." not in app.read_text(encoding="utf-8")
    assert "/* Presets and config.json pasting" not in (site / "_app" / "style.css").read_text(encoding="utf-8")
    # The service worker stays as written (its cache names are read back), and so does Pyodide's own code.
    assert "const PRECACHE = " in (site / "sw.js").read_text(encoding="utf-8")


def test_runtime_is_self_hosted(site: Path) -> None:
    runtime = next((site / "_app" / "pyodide").iterdir())
    assert runtime.name.startswith("314.")
    # Pyodide's own standard library (source) and package lock stay home: the worker brings its own.
    assert {path.name for path in runtime.iterdir()} == {"pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm"}
    html = (site / "en" / "llm-training-vram" / "index.html").read_text(encoding="utf-8")
    assert f'data-runtime="../../_app/pyodide/{runtime.name}/"' in html
    assert 'data-stdlib="../../_app/stdlib.zip?v=' in html
    worker = (site / "_app" / "worker.js").read_text(encoding="utf-8")
    # snapshot.js, pinned, then the worker (minified: esbuild writes true as !0)
    assert f'snapshots:!0,version:"{runtime.name}"' in worker


def test_standard_library_is_the_core_s_modules_as_bytecode(site: Path) -> None:
    names = zipfile.ZipFile(site / "_app" / "stdlib.zip").namelist()
    assert names == sorted(names) and all(name.endswith(".pyc") for name in names)
    # What the core imports (and what they import) is there; what it never imports is not.
    assert {"json/__init__.pyc", "gettext.pyc", "decimal.pyc", "dataclasses.pyc", "_pyodide/_base.pyc"} <= set(names)
    assert not {"tkinter/__init__.pyc", "sqlite3/__init__.pyc", "doctest.pyc", "unittest/__init__.pyc"} & set(names)
    pyodide_own = zipfile.ZipFile(PROJECT / "node_modules" / "pyodide" / "python_stdlib.zip")
    assert (site / "_app" / "stdlib.zip").stat().st_size < 0.6 * sum(i.compress_size for i in pyodide_own.infolist())


def test_the_core_ships_as_bytecode_without_docstrings_or_annotations(site: Path) -> None:
    # The pages never read a docstring, and with their doctests they were a fifth of the core's bytes.
    core = zipfile.ZipFile(site / "_app" / "core.zip")
    report = core.read("calculators/report.pyc")
    assert b"The edge of the core" not in report and b"one code path for result text" not in report
    assert b"NUMBER_WITH_UNIT" in report  # the module itself is there
    # Nor a function's annotations, which only mypy reads (a dataclass's fields keep theirs).
    assert all(name.endswith(".pyc") for name in core.namelist())
    # A calculator's bundle too, with the shared arithmetic only some calculators import.
    own = zipfile.ZipFile(site / "_app" / "calculators" / "token-cost.zip")
    assert b"Mapping[str, float]" not in own.read("calculators/vocabulary/cost.pyc")
    assert b"input_price" in own.read("calculators/vocabulary/cost.pyc")


def test_plain_start_ships_pyodide_as_its_loader_wants_it(tmp_path: Path) -> None:
    out = tmp_path / "dist"
    build(BuildConfig(out=out, calculators=ONE, quick_start=False))
    runtime = next((out / "_app" / "pyodide").iterdir())
    assert {path.name for path in runtime.iterdir()} == set(RUNTIME_FILES)
    assert not (out / "_app" / "stdlib.zip").exists()
    html = (out / "en" / "llm-training-vram" / "index.html").read_text(encoding="utf-8")
    assert "data-stdlib" not in html
    assert "snapshots:!1" in (out / "_app" / "worker.js").read_text(encoding="utf-8")


def test_runtime_url_option(tmp_path: Path) -> None:
    out = tmp_path / "dist"
    build(BuildConfig(out=out, runtime_url="https://example.org/pyodide/", calculators=ONE))
    assert not (out / "_app" / "pyodide").exists()
    html = (out / "en" / "llm-training-vram" / "index.html").read_text(encoding="utf-8")
    assert 'data-runtime="https://example.org/pyodide/"' in html


def test_builds_are_byte_identical(tmp_path: Path) -> None:
    # Two calculators are enough: every file kind the site has (pages, bundles, catalogs, snapshots'
    # inputs, search index, sitemap) is written by the same code whatever the count.
    subset = (find("gradient-accumulation-memory"), find("cosine-similarity"))
    build(BuildConfig(out=tmp_path / "first", calculators=subset))
    build(BuildConfig(out=tmp_path / "again", calculators=subset))
    first = {p.relative_to(tmp_path / "first"): p.read_bytes() for p in (tmp_path / "first").rglob("*") if p.is_file()}
    second = {p.relative_to(tmp_path / "again"): p.read_bytes() for p in (tmp_path / "again").rglob("*") if p.is_file()}
    assert first.keys() == second.keys()
    assert [path for path in first if first[path] != second[path]] == []


def test_no_inline_scripts_or_handlers(site: Path) -> None:
    for page in site.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        # Scripts load from files; the only inline blocks are JSON-LD data, which never runs.
        assert not re.search(r"<script(?![^>]*\b(?:src=|type=\"application/ld\+json\"))", html), page
        assert not re.search(r"\son[a-z]+=", html), page


def _copy_project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    shutil.copytree(PROJECT / "locales", project / "locales")
    shutil.copy(PROJECT / "site.toml", project / "site.toml")
    (project / "node_modules").symlink_to(PROJECT / "node_modules")
    return project


def test_malformed_catalog_names_file_and_line(tmp_path: Path) -> None:
    project = _copy_project(tmp_path)
    po = project / "locales" / "zh_TW" / "LC_MESSAGES" / "messages.po"
    lines = po.read_text(encoding="utf-8").splitlines()
    broken_line = next(i for i, line in enumerate(lines) if line.startswith("msgid") and i > 20) + 1
    lines[broken_line - 1] = 'msgid "unterminated'
    po.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "dist"
    with pytest.raises(BuildError) as caught:
        build(BuildConfig(out=out, project=project))
    assert caught.value.path == po
    assert caught.value.line == broken_line
    assert not out.exists(), "a failed build must not leave output behind"


def test_failed_build_keeps_previous_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = _copy_project(tmp_path)
    out = tmp_path / "dist"
    build(BuildConfig(out=out, project=project, calculators=ONE))
    before = sorted(p.relative_to(out) for p in out.rglob("*"))
    (project / "locales" / "en" / "LC_MESSAGES" / "messages.po").write_text('msgid "x"\nmsgstr "y\n', encoding="utf-8")
    with pytest.raises(BuildError):
        build(BuildConfig(out=out, project=project, calculators=ONE))
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == before
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".dist")], "no staging folder left behind"


def _run_copy(tmp_path: Path, break_it: Callable[[Path], tuple[Path, int, str]]) -> None:
    """Build a broken copy of the project with the real command line; expect one located message."""
    project = _copy_project(tmp_path)
    for package in folders.PACKAGES:
        shutil.copytree(PROJECT / package, project / package, ignore=shutil.ignore_patterns("__pycache__"))
    path, line, cause = break_it(project)
    out = tmp_path / "dist"
    run = subprocess.run(
        [sys.executable, "-m", "site_builder", "build", "--out", str(out)],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 1
    assert run.stderr.startswith(f"build failed: {path}:{line}: {cause}"), run.stderr
    assert len(run.stderr.strip().splitlines()) == 1, "one clear message, no traceback"
    assert not out.exists()


def _append(path: Path, text: str) -> int:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")
    return len(path.read_text(encoding="utf-8").splitlines())


def test_cli_names_a_malformed_catalog(tmp_path: Path) -> None:
    def break_it(project: Path) -> tuple[Path, int, str]:
        po = project / "locales" / "en" / "LC_MESSAGES" / "messages.po"
        return po, _append(po, 'msgid "broken\n'), 'malformed line: msgid "broken'

    _run_copy(tmp_path, break_it)


def test_cli_names_a_template_error(tmp_path: Path) -> None:
    def break_it(project: Path) -> tuple[Path, int, str]:
        template = project / "site_builder" / "templates" / "home.html"
        lines = template.read_text(encoding="utf-8").splitlines()
        lines.insert(4, "{% if %}")
        template.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return template, 5, "Expected an expression"

    _run_copy(tmp_path, break_it)


def test_cli_names_a_template_runtime_error(tmp_path: Path) -> None:
    def break_it(project: Path) -> tuple[Path, int, str]:
        template = project / "site_builder" / "templates" / "home.html"
        lines = template.read_text(encoding="utf-8").splitlines()
        lines.insert(4, "{{ no_such_variable.attribute }}")
        template.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return template, 5, "UndefinedError"

    _run_copy(tmp_path, break_it)


def test_cli_names_an_error_in_an_article_beside_its_calculator(tmp_path: Path) -> None:
    def break_it(project: Path) -> tuple[Path, int, str]:
        article = project / "calculators" / "infrastructure" / "kv_cache_size" / "article.html"
        lines = article.read_text(encoding="utf-8").splitlines()
        lines.insert(2, "{{ no_such_variable.attribute }}")
        article.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return article, 3, "UndefinedError"

    _run_copy(tmp_path, break_it)


def test_cli_names_a_calculator_that_fails_to_import(tmp_path: Path) -> None:
    def break_it(project: Path) -> tuple[Path, int, str]:
        module = project / "calculators" / "training" / "llm_training_vram" / "__init__.py"
        return module, _append(module, "\nraise RuntimeError('broken on purpose')\n"), "RuntimeError: broken on purpose"

    _run_copy(tmp_path, break_it)


def test_cli_names_a_calculator_with_a_syntax_error(tmp_path: Path) -> None:
    def break_it(project: Path) -> tuple[Path, int, str]:
        module = project / "calculators" / "training" / "gradient_accumulation_memory" / "__init__.py"
        return module, _append(module, "\ndef broken(:\n"), "SyntaxError"

    _run_copy(tmp_path, break_it)


def test_an_edited_template_re_renders_only_the_pages_that_use_it() -> None:
    subset = (find("gradient-accumulation-memory"), find("kv-cache-size"))
    config = BuildConfig(search=False, calculators=subset)
    home = assemble(config, templates=["home.html"])
    assert home.pages == len(LOCALES)
    widget = assemble(config, templates=["_widget.html"])  # included by every calculator page and every embed
    assert widget.pages == 2 * len(subset) * len(LOCALES)
    article = assemble(config, templates=["articles/kv-cache-size.html"])
    assert article.pages == len(LOCALES)
    assert assemble(config, templates=["base.html"]).pages == assemble(config).pages


def test_the_catalog_cache_compiles_only_what_changed(tmp_path: Path) -> None:
    shutil.copytree(PROJECT / "locales", tmp_path / "locales")
    cache = CatalogCache()
    first, _ = read_catalogs(tmp_path, cache)
    german = tmp_path / "locales" / "de" / "LC_MESSAGES" / "messages.po"
    german.write_text(german.read_text(encoding="utf-8").replace("Ergebnisse", "Ergebnis", 1), encoding="utf-8")
    second, _ = read_catalogs(tmp_path, cache)
    changed = {locale.tag for locale in LOCALES if first[locale] != second[locale]}
    assert changed == {"de"}
    assert second == read_catalogs(tmp_path)[0]  # the same bytes as compiling afresh


@pytest.mark.parametrize("locale", LOCALES, ids=lambda locale: locale.tag)
def test_each_page_catalog_holds_every_word_its_worker_writes(site: Path, locale: Locale) -> None:
    """A page's worker catalog holds the core's words and its own calculator's only, and gives the very same reports."""
    full = read_catalogs(PROJECT)[0][locale]
    built = load_kit(full, number_facts_json(locale))
    for calculator in CALCULATORS:
        small = (site / "_app" / "locales" / locale.folder / f"{calculator.slug}.mo").read_bytes()
        assert len(small) < len(full) / 4 or locale == LOCALES[0]
        served = load_kit(small, number_facts_json(locale))
        # Contexts read from the catalog itself: batch-inference-throughput's ends with inference-throughput's.
        contexts = {message.context for message in read_mo(io.BytesIO(small)) if message.context}
        leaked = {c.slug for c in CALCULATORS if c.slug != calculator.slug and c.slug in contexts}
        assert calculator.slug in contexts or locale == LOCALES[0]
        assert leaked == set(), "another calculator's words are in this page's catalog"
        for values in (calculator.defaults(), dict.fromkeys(calculator.defaults(), "x"), {"memory_unit": "tb"}):
            assert make_report(calculator, values, built) == make_report(calculator, values, served)
        for text in ("{", "[]", '{"hidden_size": 1}', '{"num_hidden_layers": 2, "hidden_size": 8, "n_head": 2, '
                     '"vocab_size": 10}'):  # fmt: skip
            assert read_config(calculator, text, built) == read_config(calculator, text, served)


def test_articles_refer_to_their_calculators_formulas_instead_of_retyping_them() -> None:
    literal = re.compile(r'\{\{ ("(?:[^"\\]|\\.)*") \| mathml \}\}')
    for calculator in CALCULATORS:
        source = article_path(calculator).read_text(encoding="utf-8")
        retyped = [text for text in literal.findall(source) if ast.literal_eval(text) in calculator.formulas]
        assert retyped == [], f"{calculator.slug}: use calculator.formulas[i] | mathml"
        # Headings every article shares are worded once, in the "article" context.
        for heading in ("The formula", "Reading the result", "A worked example", "Worked examples"):
            assert f'{{% trans "{calculator.slug}" %}}{heading}{{% endtrans %}}' not in source


def test_the_offline_precache_holds_only_what_every_page_shares(site: Path) -> None:
    source = (site / "sw.js").read_text(encoding="utf-8")
    start = source.index("const PRECACHE = ") + len("const PRECACHE = ")
    precache = json.loads(source[start : source.index("];", start) + 1])
    files = {url.split("?")[0] for url in precache}
    # Nothing per calculator or per locale: a first visit stores the same whatever the catalogue holds.
    assert not [url for url in files if url.startswith(("_app/calculators/", "_app/locales/"))]
    assert {"_app/core.zip", "_app/worker.js", "_app/app.js"} <= files
    assert "_app/embed.js" not in files  # only other sites' pages load it
    assert all((site / url).is_file() for url in files)


def test_arabic_pages_keep_each_power_with_its_base(site: Path) -> None:
    # An isolate that closed before the superscript showed "10⁹" as "⁹10" and "2³⁰" as "³⁰2" (36 places, 15 pages).
    parted = [
        (path.parent.name, match[0])
        for path in sorted((site / "ar").glob("*/index.html"))
        for match in re.finditer(r".{0,12}\u2069[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+", path.read_text(encoding="utf-8"))
    ]
    assert parted == []
    flops = (site / "ar" / "training-flops" / "index.html").read_text(encoding="utf-8")
    assert re.search("\u2066[^\u2069]*10⁹[^\u2069]*\u2069", flops)
