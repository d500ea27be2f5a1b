"""The site's identity, read from site.toml: public address, repository and feedback target.

Every value is checked where it is read: `base_url` and `repository` are plain http(s)
addresses (no query, fragment or user name, nothing but the characters of a URL), and a
"mailto:" feedback target is split into its addresses and its own header fields, so the
form can add the subject and body to them instead of after them. The templates escape
each value where they print it, and the sitemap is written by an XML writer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any
from urllib.parse import parse_qsl, quote, unquote, urlsplit

from .errors import BuildError, read_toml

__all__ = ["HUB", "SiteConfig", "read_site_config"]

_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_HTTP_URL = re.compile(
    rf"https?://(?:{_LABEL}(?:\.{_LABEL})*|\[[0-9A-Fa-f:.]+\])(?::[0-9]{{1,5}})?"
    r"(?:/(?:[A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})*)*"
)
"""An http(s) address: host, optional port, a path of URL characters; no user name, query or fragment."""
_MAILBOX = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@" + _LABEL + r"(?:\." + _LABEL + r")*")
_ADDRESS_FIELDS = ("to", "cc", "bcc")
"""The header fields a configured mailto: address may carry; the form writes the subject and body."""
_KEYS = ("base_url", "repository", "feedback", "hub_url")
HUB = "https://huggingface.co"
"""Where a page fetches a model by its id, when the reader asks: the Hugging Face Hub."""
_HUB_STORAGE = MappingProxyType({HUB: "https://*.hf.co"})
"""Where the Hub redirects a safetensors file's bytes (cas-bridge.xethub.hf.co, cdn-lfs*.hf.co): the page reads its
header there."""


@dataclass(frozen=True)
class SiteConfig:
    """What the pages say about the site itself."""

    base_url: str
    repository: str
    feedback: str
    hub_url: str = HUB
    """The Hub the "Fetch from the Hub" box reads models from: site.toml's hub_url, the Hugging Face Hub by default."""

    @property
    def by_mail(self) -> bool:
        """Whether feedback opens the reader's mail program instead of a new issue."""
        return self.feedback.startswith("mailto:")

    @property
    def feedback_action(self) -> str:
        """Return where Send goes: a new-issue page of the repository, or the mail addresses alone."""
        if not self.by_mail:
            return f"{self.repository.rstrip('/')}/issues/new"
        addresses, _ = _mailto_parts(self.feedback)
        return "mailto:" + ",".join(quote(address, safe="@!$'*+=^_`{|}~.-") for address in addresses)

    @property
    def feedback_fields(self) -> tuple[tuple[str, str], ...]:
        """Return the header fields the mailto: address carries (cc, bcc, to), as the form's own fields.

        The form sends them with its subject and body as one query, each value URL-encoded,
        so an address's `?cc=` no longer swallows the rest.
        """
        return _mailto_parts(self.feedback)[1] if self.by_mail else ()

    @property
    def content_security_policy(self) -> str:
        """Return the policy every page declares: scripts only from the site, WebAssembly for Pyodide."""
        return self._policy("'self'")

    @property
    def hub_content_security_policy(self) -> str:
        """Return the policy of a page that can fetch a model from the Hub: it may also read from the Hub and from
        the storage the Hub redirects a file's bytes to, and from nowhere else."""
        hub = _origin(self.hub_url)
        return self._policy(" ".join(filter(None, ("'self'", hub, _HUB_STORAGE.get(hub, "")))))

    def _policy(self, connect: str) -> str:
        feedback = "mailto:" if self.by_mail else _origin(self.repository)
        return "; ".join(
            (
                "default-src 'self'",
                "script-src 'self' 'wasm-unsafe-eval'",
                "style-src 'self'",
                "img-src 'self' data:",
                f"connect-src {connect}",
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
        return "subject" if self.by_mail else "title"


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _mailto_parts(address: str) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """Split a mailto: URL into its addresses and its header fields, each decoded, repeated fields merged.

    Raise ValueError naming what is not an address or not a field the form can keep.
    """
    parts = urlsplit(address)
    if parts.scheme != "mailto" or parts.netloc or parts.fragment:
        raise ValueError("must be a mailto: URL with no // and no #fragment")
    fields: dict[str, list[str]] = {}
    for name, value in parse_qsl(parts.query, keep_blank_values=True, strict_parsing=bool(parts.query)):
        if name.lower() not in _ADDRESS_FIELDS:
            raise ValueError(f"{name!r} is not a field it may carry (only {', '.join(_ADDRESS_FIELDS)})")
        fields.setdefault(name.lower(), []).extend(_mailboxes(value))
    addresses = _mailboxes(parts.path)
    if not addresses and "to" not in fields:
        raise ValueError("names no address")
    return tuple(addresses), tuple((name, ",".join(values)) for name, values in fields.items())


def _mailboxes(text: str) -> list[str]:
    """Return the comma-separated addresses in a decoded mailto: part; raise ValueError at one that is not."""
    addresses = [item.strip() for item in unquote(text).split(",") if item.strip()]
    for address in addresses:
        if not _MAILBOX.fullmatch(address):
            raise ValueError(f"{address!r} is not a mail address")
    return addresses


def read_site_config(path: Path, base_url: str | None = None) -> SiteConfig:
    """Read `path`; `base_url`, when given, replaces the file's. Errors name the file, line and key."""
    file = read_toml(path)
    table = file.document.get("site")
    if not isinstance(table, dict):
        raise file.fault(("site",), "missing [site] table")
    extra = sorted(set(file.document) - {"site"})
    if extra:
        raise file.fault((extra[0],), f"unknown key {extra[0]!r}: site.toml holds a [site] table only")
    extra = sorted(set(table) - set(_KEYS))
    if extra:
        raise file.fault(("site", extra[0]), f"unknown key {extra[0]!r} in [site] (its keys: {', '.join(_KEYS)})")
    values: dict[str, Any] = {"feedback": "github", "hub_url": HUB, **table}
    for key in _KEYS:
        if key not in values:
            raise file.fault(("site",), f"missing key {key!r} in [site]")
        if not isinstance(values[key], str):
            raise file.fault(("site", key), f"{key} must be a string, not {values[key]!r}")
    if base_url is not None:
        fault = _fault("base_url", base_url)
        if fault:
            raise BuildError("--base-url", None, fault)
        values["base_url"] = base_url
    for key in _KEYS:
        fault = None if key == "base_url" and base_url is not None else _fault(key, values[key])
        if fault:
            raise file.fault(("site", key), fault)
    return SiteConfig(
        base_url=values["base_url"] if values["base_url"].endswith("/") else values["base_url"] + "/",
        repository=values["repository"],
        feedback=values["feedback"],
        hub_url=values["hub_url"].rstrip("/"),
    )


def _fault(key: str, value: str) -> str | None:
    """Say why `value` cannot be the [site] value of `key`, or return None."""
    if key == "feedback":
        if value == "github":
            return None
        try:
            if not value.startswith("mailto:"):
                raise ValueError("it is neither")
            _mailto_parts(value)
        except ValueError as error:
            return f'feedback must be "github" or a "mailto:" address, not {value!r}: {error}'
        return None
    if _HTTP_URL.fullmatch(value):
        return None
    return f"{key} must be an http(s) URL without user name, query or fragment, not {value!r}"
