"""site.toml: every value checked where it is read, named at its line and key, and safe where it is used."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import parse_qs, quote, urlsplit

import pytest

from site_builder.build import PROJECT
from site_builder.build.config import SiteConfig, read_site_config
from site_builder.build.errors import BuildError

REPOSITORY = "https://github.com/ai-llm-calculators/ai-llm-calculators"


def _site(tmp_path: Path, **values: str) -> Path:
    path = tmp_path / "site.toml"
    table = {"base_url": "https://example.org/calculators/", "repository": REPOSITORY, **values}
    lines = ["# The site's identity.", "[site]"] + [f"{key} = {json.dumps(value)}" for key, value in table.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _fault(path: Path, base_url: str | None = None) -> BuildError:
    with pytest.raises(BuildError) as raised:
        read_site_config(path, base_url)
    return raised.value


def _line(path: Path, start: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if line.startswith(start))


def test_the_projects_site_toml_is_valid() -> None:
    config = read_site_config(PROJECT / "site.toml")
    assert config.base_url.endswith("/") and config.feedback_action.startswith(config.repository)


@pytest.mark.parametrize("key", ["base_url", "repository"])
@pytest.mark.parametrize(
    "value",
    [
        "javascript:alert(document.domain)",
        "data:text/html,hi",
        "ftp://example.org/",
        "//example.org/",
        "https://example.org/a b",
        "https://example.org/\u2028",
        "https://user@example.org/",
        "https://example.org/?x=1",
        "https://example.org/#top",
        'https://example.org/"><script>',
        "https://example.org/%zz",
        "https://-bad-.example/",
    ],
)
def test_addresses_are_plain_http_urls(tmp_path: Path, key: str, value: str) -> None:
    path = _site(tmp_path, **{key: value})
    fault = _fault(path)
    assert (fault.path, fault.line) == (path, _line(path, key))
    assert fault.cause.startswith(f"{key} must be an http(s) URL")


@pytest.mark.parametrize(
    "value", ["http://localhost:8000/", "https://user.github.io/repo", "https://[::1]:8443/a/b-c_d~e/%C3%A9/"]
)
def test_good_addresses_pass(tmp_path: Path, value: str) -> None:
    assert read_site_config(_site(tmp_path, base_url=value)).base_url == value.rstrip("/") + "/"


def test_the_command_lines_base_url_is_checked_too(tmp_path: Path) -> None:
    fault = _fault(_site(tmp_path), "javascript:alert(1)//")
    assert str(fault.path) == "--base-url" and "base_url must be an http(s) URL" in fault.cause


@pytest.mark.parametrize(
    ("extra", "key", "cause"),
    [
        ('homepage = "https://example.org/"', "homepage", "unknown key 'homepage' in [site]"),
        ("feedback = 3", "feedback", "feedback must be a string"),
    ],
)
def test_a_fault_is_named_at_its_line_and_key(tmp_path: Path, extra: str, key: str, cause: str) -> None:
    path = _site(tmp_path)
    path.write_text(path.read_text(encoding="utf-8") + extra + "\n", encoding="utf-8")
    fault = _fault(path)
    assert (fault.line, cause in fault.cause) == (_line(path, key), True)


def test_a_feedback_address_keeps_its_own_fields_and_the_form_adds_to_them(tmp_path: Path) -> None:
    # `mailto:team@example.org?cc=lead@example.org` used to become `...?cc=lead@example.org?subject=...&body=...`.
    feedback = "mailto:team@example.org?cc=lead@example.org&CC=qa%40example.org&bcc=log@example.org"
    config = read_site_config(_site(tmp_path, feedback=feedback))
    assert config.feedback_action == "mailto:team@example.org"
    assert config.feedback_fields == (("cc", "lead@example.org,qa@example.org"), ("bcc", "log@example.org"))
    # What the page sends: the form's fields (the address's own first) after the action, each URL-encoded.
    fields = [*config.feedback_fields, ("body", "Too slow & wrong?\ncc=x@evil.example"), ("subject", "Feedback: A")]
    sent = config.feedback_action + "?" + "&".join(f"{quote(k, safe='')}={quote(v, safe='')}" for k, v in fields)
    parts = urlsplit(sent)
    assert parts.path == "team@example.org"
    assert parse_qs(parts.query) == {
        "cc": ["lead@example.org,qa@example.org"],
        "bcc": ["log@example.org"],
        "body": ["Too slow & wrong?\ncc=x@evil.example"],
        "subject": ["Feedback: A"],
    }


@pytest.mark.parametrize(
    ("feedback", "reason"),
    [
        ("javascript:alert(1)", "neither"),
        ("mailto:team@example.org?subject=Hi", "'subject' is not a field it may carry"),
        ("mailto:team@example.org?body=Hi", "'body' is not a field it may carry"),
        ("mailto:team@example.org?cc=not-an-address", "'not-an-address' is not a mail address"),
        ("mailto:team@example.org?cc", "bad query field"),
        ('mailto:team@example.org"><img src=x>', "is not a mail address"),
        ("mailto:", "names no address"),
        ("mailto://team@example.org", "no //"),
    ],
)
def test_a_feedback_target_is_github_or_a_mail_address(tmp_path: Path, feedback: str, reason: str) -> None:
    path = _site(tmp_path, feedback=feedback)
    fault = _fault(path)
    assert fault.line == _line(path, "feedback") and reason in fault.cause


def test_github_feedback_has_no_extra_fields() -> None:
    config = SiteConfig(base_url="https://example.org/", repository=REPOSITORY, feedback="github")
    assert (config.feedback_action, config.feedback_fields) == (f"{REPOSITORY}/issues/new", ())
