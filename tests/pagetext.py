"""Reading the result text out of a built page, the way the browser tests read the live DOM."""

from __future__ import annotations

from functools import cache
from html.parser import HTMLParser

from calculators import Calculator, Report, all_calculators
from calculators.report import MenuGpu, MenuPrice
from site_builder.build.feed import price_feed
from site_builder.build.presets import read_presets
from site_builder.build.rendering import PresetMenus, menu_gpus, preset_menus

ATTRIBUTES = ("data-output", "data-unit", "data-sentence", "data-error-for", "data-chart")


class _ResultText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: dict[str, str] = {}
        self.open: list[tuple[str, str] | None] = []
        self.attributes: dict[str, dict[str, str | None]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        key = next(((name, attributes[name] or "") for name in ATTRIBUTES if name in attributes), None)
        if key is None and "data-status" in attributes:
            key = ("data-status", "")
        if tag in {"input", "meta", "link", "br", "img"}:
            self.attributes.setdefault(attributes.get("name") or "", attributes)  # type: ignore[arg-type]
            return
        if key is not None:
            self.found[f"{key[0]}={key[1]}"] = ""
        self.open.append(key)

    def handle_endtag(self, tag: str) -> None:
        if self.open:
            self.open.pop()

    def handle_data(self, data: str) -> None:
        for key in self.open:
            if key is not None:
                self.found[f"{key[0]}={key[1]}"] += data


def gpu_menu(calculator: Calculator) -> tuple[MenuGpu, ...]:
    """The GPU menu the build gives `calculator`'s page, which its table of GPUs is computed on."""
    return menu_gpus(_menus()[calculator.slug])


def price_menu(calculator: Calculator) -> tuple[MenuPrice, ...]:
    """The language models the build compares on `calculator`'s page (none where it has no table of prices)."""
    return _menus()[calculator.slug].compared


@cache
def _menus() -> dict[str, PresetMenus]:
    """Every page's menus, as the build works them out: once for the test session, not once a page."""
    calculators = all_calculators()
    presets = read_presets(calculators=calculators)
    return preset_menus(calculators, presets, price_feed(presets.all_prices, "https://example.org/").decode())


def result_text(html: str) -> dict[str, str]:
    """Return the text of every result, unit, sentence, status and error element, keyed by hook."""
    parser = _ResultText()
    parser.feed(html)
    return {key: " ".join(value.split()) for key, value in parser.found.items()}


def expected_text(report: Report, input_names: list[str], *, chart: bool = False) -> dict[str, str]:
    """Return what `result_text` should read for `report` (with the text of its memory chart, if it has one)."""
    expected = {"data-status=": report.status}
    if chart:
        expected["data-chart="] = result_text(f'<figure data-chart="">{report.chart}</figure>')["data-chart="]
    for result in report.results:
        expected[f"data-output={result.name}"] = result.value
        expected[f"data-unit={result.name}"] = result.unit
        expected[f"data-sentence={result.name}"] = result.sentence
    messages = {error.name: error.message for error in report.errors}
    for name in input_names:
        expected[f"data-error-for={name}"] = messages.get(name, "")
    return {key: " ".join(value.split()) for key, value in expected.items()}


def messages(text: dict[str, str]) -> dict[str, str]:
    """Keep the status and the fields' messages of a page's or a report's text: what an invalid report changes."""
    return {key: value for key, value in text.items() if key.startswith(("data-status=", "data-error-for="))}


def kept_text(report: Report, last_valid: Report, input_names: list[str], *, chart: bool = False) -> dict[str, str]:
    """Return what `result_text` should read once `report` is invalid: its messages and the results it could still
    compute, beside `last_valid`'s other results, which an invalid field leaves on the page, greyed."""
    shown = expected_text(report, input_names, chart=chart)
    if report.ok:
        return shown
    last = expected_text(last_valid, input_names, chart=chart)
    kept = [f"{hook}={result.name}" for result in report.results if not result.value for hook in HOOKS]
    if chart and not report.chart:
        kept.append("data-chart=")
    return {**shown, **{key: last[key] for key in kept}}


HOOKS = ("data-output", "data-unit", "data-sentence")
"""The three texts of one result on the page."""
