"""`python -m calculators`: the calculators on the command line, with the web page's numbers and sentences.

    python -m calculators --list
    python -m calculators llm-training-vram --params_billion 70 --bytes_per_param 12 [--json] [--lang de]
    python -m calculators cosine-similarity --vector_a @a.txt --vector_b @-   (a file, and standard input)
    python -m calculators kv-cache-size --model google/gemma-3-27b-it --context_tokens 131072

--model ORG/NAME reads that model's config.json and safetensors headers from the Hugging Face Hub (HF_ENDPOINT
names another endpoint; --revision a branch, tag or commit) and fills the inputs they state, as the page's
"Fetch from the Hub" does; options given beside it win.

A value written @PATH is read from that file, and @- from standard input, as curl does: a vector of a
hundred thousand numbers is longer than a command line takes.

This module is the core's command-line edge, and the one exception to the rules
in README.md: it reads the catalogs from disk and prints. It is not shipped to
the browser. Inputs left out take their defaults. English needs nothing but the
standard library; other languages use the site builder's catalogs and Babel's
CLDR data, so their text is exactly the web page's.
"""

from __future__ import annotations

import argparse
import gettext
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from .hub import HubError, inputs_from_hub
from .kernel.numbers import PLAIN
from .kernel.spec import Calculator
from .registry import all_calculators, find
from .report import LocaleKit, Report, hub_problem, make_report


def main(argv: Sequence[str] | None = None) -> int:
    """Compute one calculator from command-line options; return the exit status (2 for unusable input)."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if not arguments or arguments[0] in {"--list", "-l"}:
        try:
            for calculator in all_calculators():
                print(f"{calculator.slug}\t{calculator.title.text}")
            sys.stdout.flush()
        except BrokenPipeError:  # `| head` stopped reading: not an error (Python's documented way out)
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    if arguments[0] in {"-h", "--help"}:
        print(__doc__)
        return 0
    slug = arguments[0]
    try:
        calculator = find(slug)
    except KeyError:
        print(f"unknown calculator {slug!r}; see python -m calculators --list", file=sys.stderr)
        return 2
    parser = argparse.ArgumentParser(prog=f"python -m calculators {slug}", description=calculator.summary.text)
    for spec in calculator.inputs:
        unit = f" ({spec.unit.text})" if spec.unit else ""
        choices = f"; one of {', '.join(c.value for c in spec.choices)}" if spec.choices else ""
        parser.add_argument(
            f"--{spec.name}",
            f"--{spec.name.replace('_', '-')}",
            dest=spec.name,
            default=None,
            metavar="VALUE",
            help=f"{spec.label.text}{unit}, default {spec.default}{choices}; @FILE or @- to read it".replace("%", "%%"),
        )
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.add_argument("--lang", default="en", help="language of the text, e.g. de, zh-TW (default en)")
    parser.add_argument("--model", metavar="ORG/NAME", help="fill the inputs from this model on the Hugging Face Hub")
    parser.add_argument("--revision", default="main", help="the model's branch, tag or commit (default main)")
    args = parser.parse_args(arguments[1:])
    kit = _kit(args.lang)
    values = calculator.defaults()
    if args.model:
        filled = _from_hub(calculator, args.model, args.revision, kit)
        if filled is None:
            return 2
        values.update(filled)
    try:
        given = {spec.name: getattr(args, spec.name) for spec in calculator.inputs}
        values.update({name: _read_value(text) for name, text in given.items() if text is not None})
    except OSError as error:
        print(f"cannot read {error.filename or 'standard input'}: {error.strerror or error}", file=sys.stderr)
        return 2
    report = make_report(calculator, values, kit)
    if args.json:
        print(json.dumps({"calculator": slug, "lang": args.lang, "inputs": values, **json.loads(report.to_json())},
                         ensure_ascii=False, indent=2))  # fmt: skip
    else:
        print(_text(calculator.outputs, report, kit))
    return 0 if report.ok else 2


def _from_hub(calculator: Calculator, repo_id: str, revision: str, kit: LocaleKit) -> dict[str, str] | None:
    """The inputs `repo_id`'s files fill, with what was read said on standard error; None, said there, if nothing."""
    try:
        outcome = inputs_from_hub(calculator.slug, repo_id, revision, kit)
    except HubError as problem:
        print(hub_problem(problem.code, problem.number, kit), file=sys.stderr)
        return None
    print(outcome.message, file=sys.stderr)
    return dict(outcome.values) if outcome.ok else None


def _read_value(text: str) -> str:
    """Return `text`, or, for @PATH, that file's text and, for @-, standard input's (no number starts with @)."""
    if not text.startswith("@"):
        return text
    if text == "@-":
        return sys.stdin.read()
    return Path(text[1:]).read_text(encoding="utf-8")


def _kit(lang: str) -> LocaleKit:
    if lang.lower() == "en":
        return LocaleKit(translations=gettext.NullTranslations(), numbers=PLAIN)
    # Other languages: the site's catalogs and CLDR facts (Babel), read as the build reads them.
    from languages.catalog import catalog_path, compile_catalog
    from languages.locales import LOCALES, number_facts_json

    from .live import load_kit

    locale = next((locale for locale in LOCALES if locale.tag.lower() == lang.lower()), None)
    if locale is None:
        raise SystemExit(f"unknown language {lang!r}; one of {', '.join(locale.tag for locale in LOCALES)}")
    project = Path(__file__).resolve().parent.parent
    return load_kit(compile_catalog(catalog_path(project, locale), locale), number_facts_json(locale))


def _text(outputs: Sequence[object], report: Report, kit: LocaleKit) -> str:
    if not report.ok:
        lines = [report.status]
        lines += [f"  --{error.name}: {error.message}" for error in report.errors]
        return "\n".join(lines)
    lines = []
    for spec, result in zip(outputs, report.results, strict=True):
        label = kit.translations.pgettext(spec.label.context, spec.label.text)  # type: ignore[attr-defined]
        lines.append(f"{label}: {result.value} {result.unit}".rstrip())
        lines.append(f"  {result.sentence}")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
