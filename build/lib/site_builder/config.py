"""The site's identity, read from site.toml: public address, repository and feedback target."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from .errors import BuildError

__all__ = ["SiteConfig", "read_site_config"]


@dataclass(frozen=True)
class SiteConfig:
    """What the pages say about the site itself."""

    base_url: str
    repository: str
    feedback: str

    @property
    def feedback_action(self) -> str:
        """Return where Send goes: a new-issue page of the repository, or a mail address."""
        return self.feedback if self.feedback.startswith("mailto:") else f"{self.repository.rstrip('/')}/issues/new"

    @property
    def content_security_policy(self) -> str:
        """Return the policy every page declares: scripts only from the site, WebAssembly for Pyodide."""
        feedback = "mailto:" if self.feedback.startswith("mailto:") else _origin(self.repository)
        return "; ".join(
            (
                "default-src 'self'",
                "script-src 'self' 'wasm-unsafe-eval'",
                "style-src 'self'",
                "img-src 'self' data:",
                "connect-src 'self'",
                "worker-src 'self'",
                "frame-src 'self'",
                "object-src 'none'",
                "base-uri 'none'",
                f"form-action 'self' {feedback}",
            )
        )

    @property
    def feedback_title_field(self) -> str:
        """Return the query key the target reads a title from."""
        return "subject" if self.feedback.startswith("mailto:") else "title"


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def read_site_config(path: Path, base_url: str | None = None) -> SiteConfig:
    """Read `path`; `base_url`, when given, replaces the file's. Errors name the file and line."""
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8"))["site"]
    except FileNotFoundError as error:
        raise BuildError(path, None, "site configuration not found") from error
    except tomllib.TOMLDecodeError as error:
        match = re.search(r"line (\d+)", str(error))
        raise BuildError(path, int(match.group(1)) if match else None, str(error)) from error
    except KeyError as error:
        raise BuildError(path, None, "missing [site] table") from error
    try:
        config = SiteConfig(
            base_url=str(base_url or table["base_url"]),
            repository=str(table["repository"]),
            feedback=str(table.get("feedback", "github")),
        )
    except KeyError as error:
        raise BuildError(path, None, f"missing key {error.args[0]!r} in [site]") from error
    if not re.fullmatch(r"https?://[^\s/]+(/[^\s]*)?", config.base_url):
        raise BuildError(path, None, f"base_url must be an http(s) URL, not {config.base_url!r}")
    if config.feedback != "github" and not config.feedback.startswith("mailto:"):
        raise BuildError(path, None, 'feedback must be "github" or a "mailto:" address')
    return SiteConfig(
        base_url=config.base_url if config.base_url.endswith("/") else config.base_url + "/",
        repository=config.repository,
        feedback=config.feedback,
    )
