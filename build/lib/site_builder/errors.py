"""The one error a build stops with: which file, which line, and why."""

from __future__ import annotations

from pathlib import Path

__all__ = ["BuildError"]


class BuildError(Exception):
    """A build failure located in a source file; `str()` reads `path:line: cause`."""

    def __init__(self, path: Path | str, line: int | None, cause: str) -> None:
        self.path = Path(path)
        self.line = line
        self.cause = cause
        where = f"{self.path}:{line}" if line else str(self.path)
        super().__init__(f"{where}: {cause}")
