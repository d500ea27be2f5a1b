"""The table of every language model of the site's price list, each in place of the reader's prices (a calculator's
`PriceTable`), drawn through a `Writer`: the same Python writes it at build time and live. Only the pages that
compare models import it, so it travels in their bundles and not in the shared core.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from calculators.kernel.spec import N_, MenuPrice, PriceTable, Writer

__all__ = ["draw_price_table"]

# Translators: the header of a table's first column, which names a language model of the site's price list.
_MODEL_COLUMN = N_("chart", "Model")
# Translators: the header of a column giving each language model's context window, in tokens.
_CONTEXT_COLUMN = N_("chart", "Context window")
# Translators: in a table of language models, beside one whose context window is too small; {context} is its
# size in tokens.
_TOO_SHORT = N_("chart", "{context}: too short for this request")
# Translators: in a table of language models, where the price list does not state a model's context window.
_CONTEXT_UNKNOWN = N_("chart", "not stated")


def draw_price_table(
    table: PriceTable, values: Mapping[str, float], models: Sequence[MenuPrice], writer: Writer
) -> str:
    """Draw `table`: the calculator on every model of the price list, the models that can take the request first,
    each group in the table's order; every cell carries its number, so the page's script can sort by any column."""
    needed = table.context(values)
    rows = sorted(
        ((model, table.row({**values, **model.values})) for model in models),
        key=lambda pair: (0 < pair[0].context_tokens < needed, *table.order(pair[1]), pair[0].name),
    )
    # Hundreds of models share a few dozen context windows: each is written once.
    contexts = {0: writer.text(_CONTEXT_UNKNOWN, {}, {})}
    for tokens in {model.context_tokens for model in models} - {0}:
        written = writer.number(tokens, 0)
        contexts[tokens] = writer.text(_TOO_SHORT, {"context": written}, {}) if tokens < needed else written
    figures, keys = [], []
    for model, row in rows:
        cells = [
            writer.money(row[c.key]) if c.money else writer.number(row[c.key], c.fraction_digits) for c in table.columns
        ]
        figures.append([model.name, *cells, contexts[model.context_tokens]])
        keys.append([*(row[c.key] for c in table.columns), float(model.context_tokens)])
    headers = [
        writer.text(_MODEL_COLUMN, {}, {}),
        *(writer.text(column.header, {}, {}) for column in table.columns),
        writer.text(_CONTEXT_COLUMN, {}, {}),
    ]
    note = writer.text(table.note, {}, {})
    return (
        writer.table(writer.text(table.title, {}, {}), headers, figures, keys)
        + f'<p class="chart-note">{escape(note)}</p>'
    )
