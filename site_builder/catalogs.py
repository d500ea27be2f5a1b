"""Reading the gettext catalogs under locales/ and compiling them in memory."""

from __future__ import annotations

import io
import re
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import PoFileError, read_po

from .errors import BuildError
from .locales import Locale

__all__ = ["catalog_path", "compile_catalog"]


def catalog_path(root: Path, locale: Locale) -> Path:
    """Return where the `.po` file of `locale` lives."""
    return root / "locales" / locale.catalog / "LC_MESSAGES" / "messages.po"


def compile_catalog(path: Path, locale: Locale) -> bytes:
    """Compile the `.po` file at `path` to `.mo` bytes; a malformed file raises a located BuildError."""
    if not path.is_file():
        raise BuildError(path, None, f"no catalog for locale {locale.tag}")
    _check_syntax(path)
    try:
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=locale.catalog, abort_invalid=True)
    except PoFileError as error:
        raise BuildError(path, _line_of(error), str(error)) from error
    except (ValueError, UnicodeDecodeError) as error:
        raise BuildError(path, None, str(error)) from error
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    return buffer.getvalue()


_LITERAL = r'"(?:[^"\\]|\\.)*"'
_LINE = re.compile(rf"(?:(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+)?{_LITERAL}\s*")


def _check_syntax(path: Path) -> None:
    """Reject what Babel's lenient reader would accept silently: a line that is neither comment nor keyword string."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as error:
        raise BuildError(path, None, f"not UTF-8: {error}") from error
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if text and not text.startswith("#") and not _LINE.fullmatch(text):
            raise BuildError(path, number, f"malformed line: {text[:60]}")


def _line_of(error: PoFileError) -> int | None:
    match = re.search(r"line (\d+)|on (\d+)", str(error))
    return int(next(g for g in match.groups() if g)) if match else None
