"""The one error a build stops with: which file, which line, and why.

The data files are TOML, and `tomllib` keeps no positions, so `read_toml` also notes the
line of every table and key: a fault in a file's values is then named at its file, line and key.
"""

from __future__ import annotations

import re
import tomllib
import traceback
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["BuildError", "Key", "TomlFile", "describe", "read_toml"]


class BuildError(Exception):
    """A build failure located in a source file; `str()` reads `path:line: cause`."""

    def __init__(self, path: Path | str, line: int | None, cause: str) -> None:
        self.path = Path(path)
        self.line = line
        self.cause = cause
        where = f"{self.path}:{line}" if line else str(self.path)
        super().__init__(f"{where}: {cause}")


def describe(error: Exception, project: Path) -> str:
    """Write any failure as `path:line: cause`: a BuildError as it is; another, at the last line of `project` it
    passed through (a half-typed calculator's SyntaxError at its own line)."""
    if isinstance(error, BuildError):
        return str(error)
    cause = f"{type(error).__name__}: {error}"
    if isinstance(error, SyntaxError) and error.filename:
        return f"{error.filename}:{error.lineno}: {type(error).__name__}: {error.msg}"
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename.startswith(str(project))]
    if frames:
        return f"{frames[-1].filename}:{frames[-1].lineno}: {cause}"
    return cause


Key = tuple[str | int, ...]
"""Where a value is in a TOML document: table and key names, with an entry's index in an array of tables."""


@dataclass(frozen=True)
class TomlFile:
    """A TOML file read: its document, and the line each table, array entry and key starts on."""

    path: Path
    document: Mapping[str, Any]
    lines: Mapping[Key, int]

    def line(self, *key: str | int) -> int | None:
        """Return the line of `key`, or of the nearest table or key that holds it."""
        for end in range(len(key), 0, -1):
            if key[:end] in self.lines:
                return self.lines[key[:end]]
        return None

    def fault(self, key: Sequence[str | int], cause: str) -> BuildError:
        """Return the error for a fault at `key` (its line, or its table's)."""
        return BuildError(self.path, self.line(*key), cause)


def read_toml(path: Path) -> TomlFile:
    """Read the TOML file at `path`; a missing, non-UTF-8 or invalid file raises BuildError, at its line if known."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as error:
        raise BuildError(path, None, "file not found") from error
    except UnicodeDecodeError as error:
        raise BuildError(path, None, f"not UTF-8: {error}") from error
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        # Python 3.11's TOMLDecodeError states its line only in the message: "(at line 53, column 6)".
        where = re.search(r"at line (\d+)", str(error))
        raise BuildError(path, int(where.group(1)) if where else None, f"not valid TOML: {error}") from error
    return TomlFile(path, document, _key_lines(text))


_BARE_OR_QUOTED = r"""(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')"""
_DOTTED = rf"{_BARE_OR_QUOTED}(?:\s*\.\s*{_BARE_OR_QUOTED})*"
_HEADER = re.compile(rf"\s*(\[\[?)\s*({_DOTTED})\s*\]\]?\s*(?:#.*)?")
_ASSIGNMENT = re.compile(rf"\s*({_DOTTED})\s*=")
_PART = re.compile(_BARE_OR_QUOTED)


def _key_lines(text: str) -> dict[Key, int]:
    """Note the line of each table header, array-of-tables entry and key of a valid TOML text.

    A line is read as a header or a key only outside multi-line strings and arrays; `tomllib`
    has already accepted the text, so this scan need not check it.
    """
    lines: dict[Key, int] = {}
    entries: dict[Key, int] = {}  # each array of tables: how many entries so far
    table: Key = ()
    value = _ValueScan()
    for number, line in enumerate(text.splitlines(), start=1):
        rest = line
        if value.done:
            header = _HEADER.fullmatch(line)
            assignment = None if header else _ASSIGNMENT.match(line)
            if header:
                *outer, name = _parts(header.group(2))
                table = (*_within(tuple(outer), entries), name)
                if header.group(1) == "[[":
                    lines.setdefault(table, number)
                    entries[table] = entries.get(table, 0) + 1
                    table = (*table, entries[table] - 1)
                lines.setdefault(table, number)
                continue
            if assignment:
                key = (*table, *_parts(assignment.group(1)))
                for end in range(len(table) + 1, len(key) + 1):
                    lines.setdefault(key[:end], number)
                rest = line[assignment.end() :]
        value.scan(rest)
    return lines


def _parts(dotted: str) -> tuple[str, ...]:
    return tuple(part[1:-1] if part[0] in "\"'" else part for part in _PART.findall(dotted))


def _within(names: Key, entries: Mapping[Key, int]) -> Key:
    """Resolve a header's outer names: a name that is an array of tables means its last entry."""
    path: Key = ()
    for name in names:
        path = (*path, name)
        if path in entries:
            path = (*path, entries[path] - 1)
    return path


class _ValueScan:
    """Follows a value across lines: open brackets and multi-line strings."""

    def __init__(self) -> None:
        self.depth = 0
        self.string: str | None = None  # the delimiter of an open multi-line string

    @property
    def done(self) -> bool:
        """Whether the next line starts outside any value."""
        return self.depth == 0 and self.string is None

    def scan(self, text: str) -> None:
        """Read one line of a value (or the rest of a key's line)."""
        index = 0
        while index < len(text):
            if self.string is not None:
                close = _closing(text, index, self.string)
                if close < 0:
                    return
                index, self.string = close, None
                continue
            char = text[index]
            if char == "#":
                return
            if text.startswith(('"""', "'''"), index):
                self.string, index = text[index : index + 3], index + 3
            elif char in "\"'":
                index = _closing(text, index + 1, char)
            else:
                self.depth += (char in "[{") - (char in "]}")
                index += 1


def _closing(text: str, start: int, delimiter: str) -> int:
    """Return the index just past `delimiter` closing a string opened before `start`, or -1 on a later line."""
    index = start
    while (found := text.find(delimiter, index)) >= 0:
        backslashes = len(text[:found]) - len(text[:found].rstrip("\\"))
        if delimiter.startswith("'") or backslashes % 2 == 0:
            end = found + len(delimiter)
            while len(delimiter) == 3 and text[end : end + 1] == delimiter[0] and end - found < 5:
                end += 1  # a multi-line string may end in one or two quotes before its delimiter
            return end
        index = found + 1
    return len(text) if len(delimiter) == 1 else -1
