"""The written rules of calculators/ (its README), checked on the source itself."""

from __future__ import annotations

import ast
import importlib
import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import calculators
from calculators import CALCULATORS, CATEGORIES, Kind
from calculators.catalogue import CATALOGUE, POPULAR
from calculators.registry import module_name
from site_builder.build.assets import (
    CORE,
    bundle,
    bundle_calculators,
    calculator_sources,
    core_sources,
    page_only_sources,
    shared_sources,
)

# Every module of the core at any depth, as the bundle and the worker's catalog see them: the one list.
MODULES = list(core_sources())
# Standard-library modules that reach outside the process or hold global state.
FORBIDDEN = {
    "asyncio", "ctypes", "http", "locale", "multiprocessing", "os", "pathlib", "random", "secrets",
    "shutil", "signal", "socket", "subprocess", "sys", "tempfile", "threading", "time", "urllib",
}  # fmt: skip
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval", "__import__", "setattr", "globals"}


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(CORE).as_posix())
def test_imports_are_stdlib_only(path: Path) -> None:
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            if top == "calculators":
                continue  # which part may import which is import-linter's contracts' (pyproject.toml)
            assert top in sys.stdlib_module_names or top == "__future__", f"{path.name} imports {name}"
            assert top not in FORBIDDEN, f"{path.name} imports {name}, which does I/O or holds process state"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(CORE).as_posix())
def test_no_io_calls(path: Path) -> None:
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in FORBIDDEN_CALLS, f"{path.name}:{node.lineno} calls {node.func.id}()"
        assert not isinstance(node, ast.Global | ast.Nonlocal), f"{path.name}:{node.lineno} rebinds outer state"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(CORE).as_posix())
def test_no_mutable_module_state(path: Path) -> None:
    mutable = (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)
    for node in _tree(path).body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            target = ast.unparse(node.targets[0] if isinstance(node, ast.Assign) else node.target)
            if target == "__all__":
                continue
            value = node.value
            is_mutable = isinstance(value, mutable) or (
                isinstance(value, ast.Call)
                and isinstance(value.func, ast.Name)
                and value.func.id in {"list", "dict", "set"}
            )
            assert not is_mutable, f"{path.name}:{node.lineno} keeps mutable state in {target}"


def test_every_python_file_of_the_core_is_held_to_the_rules() -> None:
    # A module the shared list missed would escape the purity rules, the bundle and the worker's catalog.
    everything = {p for p in CORE.rglob("*.py") if "__pycache__" not in p.parts}
    left_out = {p.relative_to(CORE).as_posix() for p in everything - set(MODULES)}
    # Only the command line's edge (it prints, and its Hub client uses the network) and the tests.
    edge = {"__main__.py", "hub.py"}
    assert all(name in edge or name.rsplit("/", 1)[-1].startswith("test_") for name in left_out), left_out
    assert len(MODULES) > len(CATALOGUE)


def test_every_calculator_folder_is_in_the_catalogue() -> None:
    folders = {
        f"{path.parent.parent.name}/{path.parent.name.replace('_', '-')}" for path in CORE.glob("*/*/__init__.py")
    }
    assert folders == set(CATALOGUE)
    for entry in CATALOGUE:
        category, slug = entry.split("/")
        calculator = importlib.import_module(module_name(entry)).CALCULATOR
        assert (calculator.slug, calculator.category) == (slug, category)


def test_every_popular_slug_is_in_the_catalogue() -> None:
    # The hand-kept "most used" list names calculators by slug: a renamed or removed one must not vanish silently.
    slugs = [entry.split("/")[1] for entry in CATALOGUE]
    assert set(POPULAR) <= set(slugs), set(POPULAR) - set(slugs)
    assert len(set(POPULAR)) == len(POPULAR)


def test_the_bundles_hold_exactly_the_core() -> None:
    with zipfile.ZipFile(io.BytesIO(bundle_calculators())) as whole:
        names = set(whole.namelist())
    assert names == {f"calculators/{p.relative_to(CORE).as_posix()}" for p in MODULES}
    # What a page loads: the shared part (no calculator, no catalogue) plus its own calculator's package and the
    # shared modules only some calculators import.
    shared = set(shared_sources())
    own = [set(calculator_sources(calculator)) for calculator in CALCULATORS]
    page_only = set(page_only_sources())
    assert all(len(files - page_only) == 1 for files in own)
    assert shared.isdisjoint(set().union(*own)) and page_only <= set().union(*own)
    assert shared | set().union(*own) == set(MODULES) - {CORE / "catalogue.py"}
    assert CORE / "vocabulary" / "parallel.py" in page_only  # the planner's search is no other page's download


def test_every_page_runs_from_its_own_bundles(tmp_path: Path) -> None:
    """Each calculator imports and computes its defaults with only the shared core and its own bundle unpacked, as
    its page's worker unpacks them: a shared module it needs and its bundle lacks fails here."""
    core = bundle(shared_sources())
    pages = []
    for calculator in CALCULATORS:
        folder = tmp_path / calculator.slug
        for archive in (core, bundle(calculator_sources(calculator))):
            zipfile.ZipFile(io.BytesIO(archive)).extractall(folder)
        pages.append((str(folder), calculator.compute.__module__))
    code = """
import importlib, json, sys
stdlib = [path for path in sys.path if "site-packages" not in path and path]
for folder, module in json.loads(sys.argv[1]):
    sys.path[:] = [folder, *stdlib]
    for name in [name for name in sys.modules if name == "calculators" or name.startswith("calculators.")]:
        del sys.modules[name]
    importlib.invalidate_caches()
    calculator = importlib.import_module(module).CALCULATOR
    importlib.import_module("calculators.report")
    assert importlib.import_module("calculators").evaluate(calculator, calculator.defaults()).ok, module
    loaded = [sys.modules[name].__file__ or "" for name in sys.modules if name.startswith("calculators")]
    assert all(path.startswith(folder) for path in loaded), module
print(len(sys.argv[1]) and "ran")
"""
    run = subprocess.run([sys.executable, "-I", "-c", code, json.dumps(pages)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "ran"


def test_extraction_reaches_every_calculator_folder() -> None:
    from babel.messages.pofile import read_po

    with (CORE.parent / "locales" / "messages.pot").open("rb") as handle:
        files = {path for message in read_po(handle) for path, _ in message.locations}
    for entry in CATALOGUE:
        folder = module_name(entry).replace(".", "/")
        assert f"{folder}/__init__.py" in files and f"{folder}/article.html" in files, entry


def test_importing_the_package_imports_no_calculator() -> None:
    # The browser worker imports one calculator per page; the package itself must not pull in the others.
    code = (
        "import sys, calculators; print(sorted(m for m in sys.modules if m.startswith('calculators.')"
        " and m.count('.') >= 2 and m.split('.')[1] not in ('kernel', 'vocabulary', 'drawing')))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=CORE.parent)
    assert run.stdout.strip() == "[]"


def test_registry_is_consistent() -> None:
    slugs = [calculator.slug for calculator in CALCULATORS]
    assert len(slugs) == len(set(slugs))
    categories = {category.slug for category in CATEGORIES}
    for calculator in CALCULATORS:
        assert calculator.category in categories
        assert set(calculator.related) <= set(slugs) - {calculator.slug}
        names = [spec.name for spec in calculator.inputs] + [spec.name for spec in calculator.outputs]
        assert len(names) == len(set(names)), calculator.slug
        for spec in calculator.inputs:
            # An input is worded in its calculator's context, or in the shared inputs' ("input", vocabulary/inputs.py).
            assert spec.label.context in {calculator.slug, "input"}, (calculator.slug, spec.name)
            if spec.kind is Kind.CHOICE:
                assert spec.default in {choice.value for choice in spec.choices}


# Inputs that share a name but mean something else in each calculator, each with why.
_NAMED_ALIKE = {
    "attention_heads": "kv-cache-size accepts 0: attention heads are then left to the KV heads alone",
    "billing": "each vendor's billing unit is a different menu",
    "bytes_per_element": "the precision menu of a cache, labelled by what it stores",
    "caching": "a caching convention versus the cache used by a conversation",
    "context_tokens": "the inference VRAM accepts 0 tokens: the weights alone",
    "convention": "an attention-count convention versus a tool-counting one",
    "data_parallel": "effective-batch-size counts replicas, the memory pages GPUs",
    "ffn_size": "a dense MLP versus an expert's",
    "memory_unit": "model-download-time's sizes are file sizes",
    "micro_batch": "effective-batch-size counts sequences to reach tokens",
    "output_tokens": "a latency needs at least one token out",
    "peak_tflops": "the serving pages take 0, a peak the vendor does not publish: decoding is bounded by memory alone",
    "prompt_tokens": "a latency needs at least one token in; an image prompt is another thing",
    "requests": "the requests of one batch versus a total",
    "requests_per_day": "vector-db-cost's are queries",
    "seq_len": "attention-memory's blocks need at least 16 tokens",
    "tokens_per_second": "a training job's measured throughput versus one serving GPU's",
}


def test_inputs_named_alike_mean_alike() -> None:
    # Said once: an input of the same name keeps the same kind, bounds and unit in every calculator
    # (declared once in calculators/vocabulary/), or is listed above as meaning something else.
    seen: dict[str, tuple[str, object]] = {}
    drift = set()
    for calculator in CALCULATORS:
        for spec in calculator.inputs:
            shape = (spec.kind, spec.minimum, spec.minimum_exclusive, spec.maximum, spec.unit)
            first = seen.setdefault(spec.name, (calculator.slug, shape))
            if first[1] != shape and spec.name not in _NAMED_ALIKE:
                drift.add((spec.name, first[0], calculator.slug))
    assert sorted(drift) == []
    assert set(_NAMED_ALIKE) <= set(seen)


def test_public_api() -> None:
    assert set(calculators.__all__) == {
        "CALCULATORS", "CATEGORIES", "PLAIN", "Calculator", "Category", "Choice", "Evaluation", "InputSpec",
        "InvalidInputError", "Kind", "LocaleKit", "Message", "NumberFacts", "OutputSpec", "PluralMessage", "Problem",
        "Report", "compute", "describe", "evaluate", "find", "format_number", "list_calculators", "make_report",
        "parse_number", "validate",
    }  # fmt: skip
    for name in calculators.__all__:
        assert hasattr(calculators, name)


def test_every_calculator_keeps_its_value_sets() -> None:
    # The parity tests type these in: typical, edge and invalid values, beside each calculator's module.
    from tests.cases import value_sets

    for calculator in CALCULATORS:
        sets = value_sets(calculator)
        assert len(sets) >= 3, calculator.slug
        assert all(set(values) == {spec.name for spec in calculator.inputs} for values in sets), calculator.slug
        # A menu offers only its options: a value set can't choose another (an unknown choice is
        # test_evaluation.py's).
        for spec in calculator.inputs:
            options = {choice.value for choice in spec.choices}
            assert not spec.choices or all(values[spec.name] in options for values in sets), (
                calculator.slug,
                spec.name,
            )
