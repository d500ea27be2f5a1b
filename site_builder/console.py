"""What the command line says while it works: progress on long builds, a summary, warnings; --quiet, --verbose."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from site_builder.build.recipe import BuildConfig, BuildSummary

__all__ = ["Reporter"]

_LONG_BUILD = 500  # pages: below this a build takes well under a second and needs no progress


@dataclass(frozen=True)
class Reporter:
    """Prints to the terminal at a chosen level: 0 quiet (errors only), 1 normal, 2 verbose."""

    level: int = 1

    def progress(self, done: int, total: int) -> None:
        """Show rendering progress in tenths, on long builds only."""
        if self.level and total >= _LONG_BUILD and (done == total or done % max(1, total // 10) == 0):
            print(f"  rendered {done}/{total} pages", file=sys.stderr)

    def summary(self, summary: BuildSummary, config: BuildConfig) -> None:
        """Say what the build produced, after its warnings."""
        if not self.level:
            return
        for warning in summary.warnings:
            print(f"warning: {warning}", file=sys.stderr)
        print(
            f"built {summary.pages} pages in {summary.locales} locales ({summary.files} files)"
            f" into {config.out} in {summary.seconds:.2f} s, {len(summary.warnings)} warnings"
        )
        self.detail(f"  base URL: {config.base_url or 'from site.toml'}; strict: {config.strict}")

    def info(self, message: str) -> None:
        """Say something in normal and verbose mode."""
        if self.level:
            print(message)

    def detail(self, message: str) -> None:
        """Say something in verbose mode only."""
        if self.level >= 2:
            print(message)

    def error(self, message: str) -> None:
        """Say what failed, whatever the level."""
        print(message, file=sys.stderr)
