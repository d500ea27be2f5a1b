"""The command line's Hub client: a model's config.json and safetensors headers, fetched by its id.

Like `__main__`, this edge is not part of the core and never ships to the browser (the page's script is the
browser's edge): it uses the network. It speaks the Hugging Face Hub's protocol as huggingface_hub does: files
at {endpoint}/{repo}/resolve/{revision}/{file}, redirects followed (a renamed repository, the storage a large
file lives on), the 8 + N bytes of each safetensors header read with Range requests and nothing more, and the
Hub's answers told apart by status and X-Error-Code (RepoNotFound, GatedRepo, EntryNotFound; 429 with Retry-After
or a RateLimit header). HF_ENDPOINT names another endpoint, as for huggingface_hub.
"""

from __future__ import annotations

import gettext
import os
import re
import struct
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass

from .kernel.numbers import PLAIN
from .registry import find
from .report import ConfigReport, LocaleKit, read_checkpoint
from .vocabulary.checkpoint import LARGEST_HEADER, shard_files

__all__ = ["DEFAULT_ENDPOINT", "Fetched", "HubError", "endpoint", "fetch_model", "inputs_from_hub", "valid_repo_id"]

DEFAULT_ENDPOINT = "https://huggingface.co"
_REPO_ID = re.compile(r"[A-Za-z0-9](?:[\w.-]{0,94}[A-Za-z0-9_])?/[\w.-]{1,96}")
_SHARD = re.compile(r"[\w.-]+(?:/[\w.-]+)*\.safetensors")
_RATE_LIMIT = re.compile(r";\s*t=(\d+)")
_TIMEOUT = 20.0
_LARGEST_FILE = 50_000_000
"""Bytes read of config.json or the shard index, and of all headers together (DeepSeek-V3's index is a few MB)."""


@dataclass(frozen=True)
class Fetched:
    """What was read of a model: its config.json and the header of each safetensors file (none if it has none)."""

    config: str
    headers: tuple[str, ...]
    files: tuple[str, ...]


class HubError(Exception):
    """Why a model could not be read; `code` is one of `report.HUB_PROBLEMS`' keys."""

    def __init__(self, code: str, number: int = 0) -> None:
        super().__init__(code)
        self.code = code
        self.number = number
        """Seconds to wait (rate_limited) or the HTTP status (hub_error)."""


def endpoint() -> str:
    """The Hub's address: HF_ENDPOINT if set, as huggingface_hub reads it."""
    return os.environ.get("HF_ENDPOINT", DEFAULT_ENDPOINT).rstrip("/")


def valid_repo_id(repo_id: str) -> bool:
    """Whether `repo_id` is an organisation (or user) and a name, as the Hub allows them."""
    return _REPO_ID.fullmatch(repo_id) is not None and ".." not in repo_id


def fetch_model(repo_id: str, revision: str = "main", hub: str | None = None) -> Fetched:
    """Read `repo_id`'s config.json and its safetensors headers at `revision`; raise `HubError` if it cannot."""
    if not valid_repo_id(repo_id) or not re.fullmatch(r"[\w.-]{1,200}", revision):
        raise HubError("bad_id")
    base = f"{hub or endpoint()}/{repo_id}/resolve/{urllib.parse.quote(revision, safe='')}/"
    config = _get(base + "config.json", missing_file="no_config").decode("utf-8", "replace")
    try:
        index = _get(base + "model.safetensors.index.json", missing_file="no_file").decode("utf-8", "replace")
    except HubError as problem:
        if problem.code != "no_file":
            raise
        files: tuple[str, ...] = ("model.safetensors",)
    else:
        files = tuple(name for name in shard_files(index) if _SHARD.fullmatch(name) and ".." not in name)
    headers: list[str] = []
    for name in files:
        try:
            headers.append(_header(base + urllib.parse.quote(name)))
        except HubError as problem:
            if problem.code != "no_file":
                raise
            return Fetched(config=config, headers=(), files=())  # no safetensors: the config alone
        if sum(map(len, headers)) > _LARGEST_FILE:  # no model's headers together come near this
            raise HubError("not_safetensors")
    return Fetched(config=config, headers=tuple(headers), files=files)


def inputs_from_hub(slug: str, repo_id: str, revision: str = "main", kit: LocaleKit | None = None) -> ConfigReport:
    """The inputs of calculator `slug` that model `repo_id` states, and the sentence saying what was read (in
    `kit`'s language, English by default); raise `HubError` if the model cannot be read. For Qwen/Qwen3-8B, the
    values of llm-inference-vram hold layers "36" and kv_heads "8" (tests/test_hub.py runs it on a loopback Hub).
    """
    fetched = fetch_model(repo_id, revision)
    english = LocaleKit(translations=gettext.NullTranslations(), numbers=PLAIN)
    return read_checkpoint(find(slug), fetched.config, fetched.headers, kit or english)


def _header(url: str) -> str:
    """One safetensors file's header: its first 8 bytes give the length, the next that many bytes the JSON."""
    length = struct.unpack("<Q", _get(url, first=8, missing_file="no_file"))[0]
    if length > LARGEST_HEADER:
        raise HubError("not_safetensors")
    return _get(url, first=8 + length, missing_file="no_file")[8:].decode("utf-8", "replace")


def _get(url: str, *, first: int = 0, missing_file: str) -> bytes:
    """GET `url` (only its `first` bytes, if given), following redirects; raise `HubError` for what went wrong."""
    request = urllib.request.Request(url, headers={"User-Agent": "ai-llm-calculators"})
    if first:
        request.add_header("Range", f"bytes=0-{first - 1}")
    try:
        with urllib.request.urlopen(request, timeout=_TIMEOUT) as response:
            # A server that ignores Range sends the whole file: read no more than asked.
            body: bytes = response.read(first) if first else response.read(_LARGEST_FILE)
    except urllib.error.HTTPError as error:
        problem = _problem(error, missing_file)
        error.close()  # the answer's connection, which the error holds open until collected
        raise problem from None
    except (TimeoutError, urllib.error.URLError, ConnectionError) as error:
        raise HubError("offline") from error
    if first and len(body) < first:
        raise HubError("not_safetensors")
    return body


def _problem(error: urllib.error.HTTPError, missing_file: str) -> HubError:
    """The Hub's answer, told apart as huggingface_hub's hf_raise_for_status tells it."""
    code = error.headers.get("X-Error-Code", "")
    if code == "GatedRepo":
        return HubError("gated")
    if code == "RevisionNotFound":
        return HubError("no_revision")
    if code == "EntryNotFound" or (error.code == 404 and code != "RepoNotFound"):
        return HubError(missing_file)
    if code == "RepoNotFound" or error.code in (401, 404):
        return HubError("missing")
    if error.code == 429:
        return HubError("rate_limited", _wait(error.headers.get("Retry-After"), error.headers.get("RateLimit")))
    return HubError("hub_error", error.code)


def _wait(retry_after: str | None, rate_limit: str | None) -> int:
    """Seconds until the Hub answers again: Retry-After's, or the RateLimit header's t= (IETF draft 09)."""
    if retry_after and retry_after.strip().isdigit():
        return int(retry_after)
    found = _RATE_LIMIT.search(rate_limit or "")
    return int(found.group(1)) if found else 0
