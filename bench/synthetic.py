"""A synthetic catalogue for the benchmark: the real site plus made-up calculators, each its own.

Every synthetic calculator is a real package under `calculators/tools/` in a copy of the project,
with its own inputs, messages and article, listed in the copy's catalogue and translated in every
catalog of the copy, so catalogs, bundles and the worker grow as real calculators make them grow.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from languages.locales import LOCALES
from site_builder import folders
from site_builder.build import PROJECT

__all__ = ["make_synthetic_project", "synthetic_slug"]

_INPUTS = 6
_MODULE = '''"""Synthetic calculator {index}: made up by the benchmark, never published."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from calculators.kernel.spec import Calculator, InputSpec, Kind, OutputSpec, messages_of

N_, NP_ = messages_of(__name__)
_GROUP = N_("Inputs of synthetic calculator {index}")


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the sum and the product of the inputs."""
    numbers = [values[name] for name in ({names})]
    product = 1.0
    for number in numbers:
        product *= number
    return {{"total_{index}": sum(numbers), "product_{index}": product}}


CALCULATOR = Calculator(
    title=N_("Synthetic calculator number {index}"),
    summary=N_("A made-up calculator, number {index}, that adds and multiplies {count} numbers."),
    inputs=(
{inputs}    ),
    outputs=(
        OutputSpec(
            name="total_{index}",
            label=N_("Sum for calculator {index}"),
            sentence=N_("Calculator {index} adds its inputs to {{total_{index}}}."),
        ),
        OutputSpec(
            name="product_{index}",
            label=N_("Product for calculator {index}"),
            sentence=N_("Calculator {index} multiplies its inputs to {{product_{index}}}."),
        ),
    ),
    compute=compute,
    updated="2026-12-01",
)
'''
_INPUT = """        InputSpec(
            name="{name}",
            kind=Kind.DECIMAL,
            group=_GROUP,
            label=N_("Number {k} of calculator {index}"),
            help=N_("The {k}th number that synthetic calculator {index} adds and multiplies."),
            default="{k}",
            minimum=Decimal(0),
            maximum=Decimal(1000),
        ),
"""
_ARTICLE = """{{% extends "calculator.html" %}}
{{% block article %}}
<h2>{{% trans %}}What synthetic calculator {index} does{{% endtrans %}}</h2>
<p>{{% trans %}}It adds and multiplies {count} numbers. Its text is made up for the benchmark, so that
every synthetic calculator has words of its own to translate, as a real one does.{{% endtrans %}}</p>
{{% endblock %}}
"""


def synthetic_slug(index: int) -> str:
    """Return the slug of synthetic calculator `index`."""
    return f"synthetic-{index:04d}"


def _messages(index: int) -> list[str]:
    """Return every message text synthetic calculator `index` declares (in its module and article)."""
    texts = [
        f"Inputs of synthetic calculator {index}",
        f"Synthetic calculator number {index}",
        f"A made-up calculator, number {index}, that adds and multiplies {_INPUTS} numbers.",
        f"Sum for calculator {index}",
        f"Calculator {index} adds its inputs to {{total_{index}}}.",
        f"Product for calculator {index}",
        f"Calculator {index} multiplies its inputs to {{product_{index}}}.",
        f"What synthetic calculator {index} does",
        f"It adds and multiplies {_INPUTS} numbers. Its text is made up for the benchmark, so that every synthetic "
        "calculator has words of its own to translate, as a real one does.",
    ]
    for k in range(1, _INPUTS + 1):
        texts += [f"Number {k} of calculator {index}", f"The {k}th number that synthetic calculator {index} adds "
                  "and multiplies."]  # fmt: skip
    return texts


def _po_entry(context: str, text: str, translation: str) -> str:
    def quoted(value: str) -> str:
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'

    return f"\nmsgctxt {quoted(context)}\nmsgid {quoted(text)}\nmsgstr {quoted(translation)}\n"


def make_synthetic_project(work: Path, extra: int) -> Path:
    """Copy the project into `work` and add `extra` synthetic calculators; return the copy's root."""
    project = work / f"project-{extra}"
    ignore = shutil.ignore_patterns("__pycache__")
    for name in (*folders.PACKAGES, "locales"):
        shutil.copytree(PROJECT / name, project / name, ignore=ignore)
    shutil.copy(PROJECT / "site.toml", project / "site.toml")
    (project / "node_modules").symlink_to(PROJECT / "node_modules")
    tools = project / "calculators" / "tools"
    tools.mkdir(exist_ok=True)
    (tools / "__init__.py").write_text('"""Synthetic calculators for the benchmark."""\n', encoding="utf-8")
    entries = []
    po_entries: dict[str, list[str]] = {locale.catalog: [] for locale in LOCALES[1:]}
    for index in range(1, extra + 1):
        slug = synthetic_slug(index)
        folder = tools / slug.replace("-", "_")
        folder.mkdir()
        names = [f"number_{k}_of_{index}" for k in range(1, _INPUTS + 1)]
        inputs = "".join(_INPUT.format(name=name, k=k, index=index) for k, name in enumerate(names, start=1))
        module = _MODULE.format(index=index, names=", ".join(f'"{n}"' for n in names), inputs=inputs, count=_INPUTS)
        (folder / "__init__.py").write_text(module, encoding="utf-8")
        (folder / "article.html").write_text(_ARTICLE.format(index=index, count=_INPUTS), encoding="utf-8")
        entries.append(f'    "tools/{slug}",\n')
        for catalog, found in po_entries.items():
            found.extend(_po_entry(slug, text, f"[{catalog}] {text}") for text in _messages(index))
    catalogue = project / "calculators" / "catalogue.py"
    source = catalogue.read_text(encoding="utf-8")
    # The new lines go at the end of the CATALOGUE tuple, whatever plain data follows it (POPULAR).
    end = source.index("\n)\n", source.index("CATALOGUE: tuple[str, ...] = (")) + 1
    catalogue.write_text(source[:end] + "".join(entries) + source[end:], encoding="utf-8")
    for catalog, found in po_entries.items():
        po = project / "locales" / catalog / "LC_MESSAGES" / "messages.po"
        po.write_text(po.read_text(encoding="utf-8") + "".join(found), encoding="utf-8")
    return project
