"""The written rules of calculators/ (its README), checked on the source itself."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import calculators
from calculators import CALCULATORS, CATEGORIES, Kind

CORE = Path(calculators.__file__).parent
# __main__.py is the command-line edge (it reads catalogs and prints); it is not shipped to the browser.
MODULES = sorted(path for path in CORE.glob("*.py") if path.name != "__main__.py")
# Standard-library modules that reach outside the process or hold global state.
FORBIDDEN = {
    "asyncio", "ctypes", "http", "locale", "multiprocessing", "os", "pathlib", "random", "secrets",
    "shutil", "signal", "socket", "subprocess", "sys", "tempfile", "threading", "time", "urllib",
}  # fmt: skip
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval", "__import__", "setattr", "globals"}


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
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
            assert top in sys.stdlib_module_names or top == "__future__", f"{path.name} imports {name}"
            assert top not in FORBIDDEN, f"{path.name} imports {name}, which does I/O or holds process state"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_io_calls(path: Path) -> None:
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in FORBIDDEN_CALLS, f"{path.name}:{node.lineno} calls {node.func.id}()"
        assert not isinstance(node, ast.Global | ast.Nonlocal), f"{path.name}:{node.lineno} rebinds outer state"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
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


def test_every_module_is_registered() -> None:
    infrastructure = {
        *("__init__", "api", "spec", "numbers", "evaluation", "report", "registry", "live"),
        *("chart", "model_config"),
    }
    modules = {path.stem for path in MODULES} - infrastructure
    registered = {calculator.slug.replace("-", "_") for calculator in CALCULATORS}
    assert modules == registered


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
            # An input is worded in its calculator's context, or in that of the calculator it is shared from.
            assert spec.label.context == calculator.slug or spec.label.context in slugs
            if spec.kind is Kind.CHOICE:
                assert spec.default in {choice.value for choice in spec.choices}


def test_public_api() -> None:
    assert set(calculators.__all__) == {
        "CALCULATORS", "CATEGORIES", "PLAIN", "Calculator", "Category", "Choice", "Evaluation", "InputSpec",
        "InvalidInputError", "Kind", "LocaleKit", "Message", "NumberFacts", "OutputSpec", "PluralMessage", "Problem",
        "Report", "compute", "describe", "evaluate", "find", "format_number", "list_calculators", "make_report",
        "parse_number", "validate",
    }  # fmt: skip
    for name in calculators.__all__:
        assert hasattr(calculators, name)
