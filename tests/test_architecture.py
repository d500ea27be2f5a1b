"""The floors of the house: the import contracts catch a wrong-way import, and every `__all__` is true."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from site_builder.build import PROJECT

PACKAGES = ("calculators", "languages", "site_builder", "bench")
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _modules() -> list[Path]:
    """Every module of the packages, but a calculator's own (its `CALCULATOR` is its interface) and tests."""
    found = []
    for package in PACKAGES:
        for path in sorted((PROJECT / package).rglob("*.py")):
            parts = path.relative_to(PROJECT).parts
            own_calculator = package == "calculators" and len(parts) == 4
            if "__pycache__" in parts or path.name.startswith("test_") or own_calculator:
                continue
            found.append(path)
    return found


def _bound(tree: ast.Module) -> tuple[set[str], set[str], list[str] | None]:
    """Return the names a module defines, the names it imports, and its `__all__` (None if it has none)."""
    defined: set[str] = set()
    imported: set[str] = set()
    declared = None
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            defined.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                names = target.elts if isinstance(target, ast.Tuple) else [target]
                defined.update(name.id for name in names if isinstance(name, ast.Name))
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                assert node.value is not None
                declared = list(ast.literal_eval(node.value))
        elif isinstance(node, ast.Import | ast.ImportFrom):
            imported.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return defined - {"__all__"}, imported, declared


@pytest.mark.parametrize("path", _modules(), ids=lambda path: path.relative_to(PROJECT).as_posix())
def test_all_lists_exactly_the_public_names(path: Path) -> None:
    defined, imported, declared = _bound(ast.parse(path.read_text(encoding="utf-8")))
    public = {name for name in defined if not name.startswith("_")}
    if declared is None:
        # A package's __init__ that only documents its folder, or a script's entry point, exports nothing.
        assert not public or path.name == "__main__.py", f"{path.name} defines {sorted(public)} but has no __all__"
        return
    assert len(declared) == len(set(declared)), "a name listed twice"
    lazy = "__getattr__" in defined  # PEP 562: names served on first use (calculators.CALCULATORS)
    assert lazy or set(declared) <= defined | imported, f"listed but not bound: {set(declared) - defined - imported}"
    assert public <= set(declared), f"public but not listed: {sorted(public - set(declared))}"


# Wrong-way imports, each of which the contracts in pyproject.toml must refuse.
WRONG_WAY = {
    "the kernel reads the catalogue": ("calculators/kernel/spec.py", "from calculators import catalogue"),
    "the core's command line needs the builder": ("calculators/__main__.py", "import site_builder.build"),
    "a calculator's test needs the builder": (
        "calculators/cost/token_cost/test_token_cost.py",
        "import site_builder.build.presets",
    ),
    "a calculator imports another": ("calculators/cost/tts_cost/__init__.py", "import calculators.cost.token_cost"),
    "the build imports the benchmark": ("site_builder/build/recipe.py", "import bench.harness"),
    "the benchmark's parts import each other": ("bench/start.py", "import bench.harness"),
    "the product imports the tests": ("site_builder/cli.py", "import tests.helpers"),
    "the build imports the dev server": ("site_builder/build/pages.py", "import site_builder.devserver.watcher"),
}


@pytest.fixture(scope="module")
def project_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    copy = tmp_path_factory.mktemp("floors") / "project"
    ignore = shutil.ignore_patterns(".venv", "node_modules", "dist", ".git", "locales", "__pycache__", "*.html")
    shutil.copytree(PROJECT, copy, ignore=ignore)
    return copy


def _lint(project: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"], cwd=project, capture_output=True, text=True, check=False, timeout=120
    )


def test_the_contracts_hold_the_tree_as_it_is(project_copy: Path) -> None:
    run = _lint(project_copy)
    assert run.returncode == 0, run.stdout[-3000:]


@pytest.mark.parametrize("case", WRONG_WAY, ids=str)
def test_a_wrong_way_import_breaks_a_contract(project_copy: Path, case: str) -> None:
    file, line = WRONG_WAY[case]
    path = project_copy / file
    original = path.read_text(encoding="utf-8")
    path.write_text(original + f"\n{line}  # wrong way, on purpose\n", encoding="utf-8")
    try:
        run = _lint(project_copy)
    finally:
        path.write_text(original, encoding="utf-8")
    assert run.returncode != 0 and "BROKEN" in run.stdout, case


def test_no_python_hides_in_a_string_of_javascript() -> None:
    # Python that Pyodide runs lives in .py files that ruff and mypy check; the scripts read those files.
    scripts = [
        path
        for folder in (*PACKAGES, "tests")
        for pattern in ("*.js", "*.mjs")
        for path in (PROJECT / folder).rglob(pattern)
    ]
    assert len(scripts) > 10
    hiding = [str(path.relative_to(PROJECT)) for path in scripts if "runPython(`" in path.read_text(encoding="utf-8")]
    assert hiding == []
