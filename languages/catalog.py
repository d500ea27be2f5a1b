"""Where each locale's gettext catalog lives, and the plain compile the command line uses."""

from __future__ import annotations

import importlib.resources
import io
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from .locales import Locale

__all__ = ["catalog_path", "compile_catalog"]


def catalog_path(root: Path, locale: Locale) -> Path:
    """Return where the `.po` file of `locale` lives: under `root`/locales in a checkout, else in the package."""
    folder = root / "locales"
    if not folder.is_dir():
        # An installed copy carries the catalogs as package data (see pyproject.toml).
        folder = Path(str(importlib.resources.files("languages") / "catalog_files"))
    return folder / locale.catalog / "LC_MESSAGES" / "messages.po"


def compile_catalog(path: Path, locale: Locale) -> bytes:
    """Return the `.mo` bytes of the catalog at `path`; fuzzy translations are left out, as gettext does.

    The build compiles through `site_builder.build.catalogs.read_catalog`, which also drops a translation
    whose placeholders or markup differ from its source; the test suite holds every shipped catalog to that.
    """
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=locale.catalog, abort_invalid=True)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    return buffer.getvalue()
