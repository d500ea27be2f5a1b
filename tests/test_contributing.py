"""docs/contributing.md's example calculator, built from the page itself in a copy of the project."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from site_builder import folders
from site_builder.build import PROJECT

from .pagetext import result_text

GUIDE = PROJECT / "docs" / "contributing.md"
# The catalogue line is fenced as text: it is a line of a tuple, which a formatter would rewrite as code.
_FENCE = re.compile(r"^( *)```(\w+) (file=(\S+)|catalogue)$")


def _blocks() -> tuple[dict[str, str], str]:
    """Return the guide's files (path: text) and its catalogue line, read from its fenced blocks."""
    files: dict[str, str] = {}
    catalogue = ""
    lines = GUIDE.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        match = _FENCE.match(lines[index])
        index += 1
        if not match:
            continue
        indent = len(match.group(1))
        body = []
        while lines[index].strip() != "```":
            body.append(lines[index][indent:])
            index += 1
        text = "\n".join(body) + "\n"
        if match.group(4):
            files[match.group(4)] = text
        else:
            catalogue = text
    return files, catalogue


def test_the_guides_example_is_a_working_calculator(tmp_path: Path) -> None:
    files, catalogue_line = _blocks()
    assert set(files) == {
        f"calculators/tools/words_from_tokens/{name}"
        for name in ("__init__.py", "article.html", "cases.toml", "test_words_from_tokens.py")
    }
    project = tmp_path / "project"
    for name in (*folders.PACKAGES, "bench", "locales", "tests", "scripts"):
        shutil.copytree(PROJECT / name, project / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("site.toml", "conftest.py", "pyproject.toml", "babel.cfg"):
        shutil.copy(PROJECT / name, project / name)
    (project / "node_modules").symlink_to(PROJECT / "node_modules")
    (project / "calculators" / "tools").mkdir(exist_ok=True)
    (project / "calculators" / "tools" / "__init__.py").write_text('"""Tools."""\n', encoding="utf-8")
    for path, text in files.items():
        (project / path).parent.mkdir(parents=True, exist_ok=True)
        (project / path).write_text(text, encoding="utf-8")
    catalogue = project / "calculators" / "catalogue.py"
    source = catalogue.read_text(encoding="utf-8")
    # The line goes at the end of the CATALOGUE tuple, whatever plain data follows it (POPULAR).
    end = source.index("\n)\n", source.index("CATALOGUE: tuple[str, ...] = (")) + 1
    catalogue.write_text(source[:end] + catalogue_line.lstrip("\n") + source[end:], encoding="utf-8")
    env = {**os.environ, "PYBABEL": str(Path(sys.executable).with_name("pybabel"))}
    subprocess.run(["bash", "scripts/update-catalogs"], cwd=project, env=env, check=True, capture_output=True)

    # Step 6 is translating; until then the default build shows English and warns, as the guide says.
    build = subprocess.run(
        [sys.executable, "-m", "site_builder", "build", "--out", str(project / "dist"), "--only", "words-from-tokens"],
        cwd=project, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert build.returncode == 0, build.stderr
    warned = re.search(r", (\d+) warnings", build.stdout)
    assert warned and int(warned.group(1)) % 9 == 0 and "untranslated" in build.stderr  # its words, in 9 locales
    page = (project / "dist" / "en" / "words-from-tokens" / "index.html").read_text(encoding="utf-8")
    assert result_text(page)["data-output=words"] == "750"
    assert "1,000 tokens hold about 750 words." in result_text(page)["data-sentence=words"]
    assert (project / "dist" / "_app" / "calculators" / "words-from-tokens.zip").is_file()

    # The guide's own tests, its doctest, and the house rules (catalogue, purity, bundles, extraction).
    checks = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "calculators/tools",
         "tests/test_core_rules.py"],
        cwd=project, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert checks.returncode == 0, checks.stdout[-3000:]
