"""Credentials never enter memory: every text dreamgit commits is scanned first.

Known key formats and keyword assignments are found by detect-secrets' plugins
(cloud keys, tokens, private key blocks, passwords in connection strings, JWTs);
a few newer formats it does not know yet (model-provider keys, Google API keys,
GitLab and Hugging Face tokens) and long high-entropy tokens after a secret-ish
keyword are added here. Entropy alone never decides: hashes written in prose,
UUIDs and version strings are ordinary memory.

``scrub(changes, mode)`` takes a commit's files: in ``refuse`` mode a hit raises
:class:`~dreamgit.errors.SecretFoundError` naming the file and line (nothing is
committed); in ``redact`` mode each secret becomes ``[REDACTED:<kind>]`` and the
findings are returned so the commit message can say so; ``off`` scans nothing.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from dreamgit.errors import ConfigError, SecretFoundError

__all__ = ["MODES", "Finding", "findings_trailers", "scan_text", "scrub", "secrets_mode"]

MODES = ("redact", "refuse", "off")
DEFAULT_MODE = "redact"

#: detect-secrets' type names → the short kind written into ``[REDACTED:<kind>]``.
_KINDS = {
    "AWS Access Key": "aws-key",
    "Artifactory Credentials": "artifactory-token",
    "Azure Storage Account access key": "azure-key",
    "Basic Auth Credentials": "password",
    "Cloudant Credentials": "cloudant-key",
    "Discord Bot Token": "discord-token",
    "GitHub Token": "github-token",
    "GitLab Token": "gitlab-token",
    "IBM COS HMAC Credentials": "ibm-key",
    "IBM Cloud IAM Key": "ibm-key",
    "JSON Web Token": "jwt",
    "Mailchimp Access Key": "mailchimp-key",
    "NPM tokens": "npm-token",
    "OpenAI Token": "openai-key",
    "Private Key": "private-key",
    "PyPI Token": "pypi-token",
    "Secret Keyword": "secret",
    "SendGrid API Key": "sendgrid-key",
    "Slack Token": "slack-token",
    "SoftLayer Credentials": "softlayer-key",
    "Square OAuth Secret": "square-secret",
    "Stripe Access Key": "stripe-key",
    "Telegram Bot Token": "telegram-token",
    "Twilio API Key": "twilio-key",
}

#: Formats detect-secrets 1.5 does not know, as (kind, pattern of the whole secret).
_EXTRA = (
    ("openai-key", re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}")),
    ("anthropic-key", re.compile(r"\bsk-ant-[A-Za-z0-9_-]{32,}")),
    ("google-api-key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b")),
    ("github-token", re.compile(r"\bgithub_pat_[A-Za-z0-9_]{40,}")),
    ("gitlab-token", re.compile(r"\bglpat-[0-9A-Za-z_-]{20,}")),
    ("password", re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s:/@]*:([^\s:/@]{4,})@")),
    ("huggingface-token", re.compile(r"\bhf_[A-Za-z0-9]{30,}\b")),
    (
        "aws-secret-key",
        re.compile(
            r"(?i)aws.{0,20}?(?:secret|private).{0,20}?[:=]\s*['\"]?"
            r"([A-Za-z0-9/+=]{40})\b"
        ),
    ),
    (
        "secret",
        re.compile(
            r"(?i)\b(?:api[_-]?key|access[_-]?key|secret(?:[_-]?key)?|client[_-]?secret|"
            r"auth[_-]?token|access[_-]?token|token|passw(?:or)?d|pwd)\b\s*[:=]\s*['\"]?"
            r"([A-Za-z0-9_\-+/=.!@#$%^&*]{8,})"
        ),
    ),
)

#: A line can hold a credential only if it has a long token or a credential word; most
#: memory lines have neither and skip the plugins (which cost most of a scan).
_SUSPECT = re.compile(
    r"[A-Za-z0-9_\-+/=.]{16,}|pass|pwd|secret|token|key|auth|cred|private|sk_|://[^\s]*@",
    re.IGNORECASE,
)

#: Around a matched secret value, the characters that still belong to the same token.
_TOKEN = re.compile(r"[A-Za-z0-9_\-+/=.]")
_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.I)
_VERSIONISH = re.compile(r"^v?\d+(?:\.\d+)+(?:[-+.][A-Za-z0-9]+)*$")
_ENV_NAME = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")  # api_key_env: OPENAI_API_KEY


@dataclass(frozen=True)
class Finding:
    """One secret: where it is (1-based line) and what kind; never the secret itself."""

    path: str
    line: int
    kind: str
    start: int
    end: int

    def where(self) -> str:
        """``path:line (kind)``, for messages and commit trailers."""
        return f"{self.path}:{self.line} ({self.kind})"


def secrets_mode(config: Mapping[str, Any]) -> str:
    """The ``secrets.mode`` of a repository's config (``redact`` when not set)."""
    section = config.get("secrets")
    if section is None:
        return DEFAULT_MODE
    mode = section.get("mode", DEFAULT_MODE) if isinstance(section, dict) else section
    if mode not in MODES:
        raise ConfigError(
            f".dreamgit/config.yaml: secrets.mode must be one of {', '.join(MODES)}, not {mode!r}",
            hint="redact replaces a credential with [REDACTED:<kind>]; refuse stops the commit",
        )
    return str(mode)


def scan_text(text: str, *, path: str = "") -> list[Finding]:
    """Every credential in ``text``, line by line, in order; overlapping hits merged."""
    out: list[Finding] = []
    for number, line in enumerate(text.splitlines(), start=1):
        spans = sorted(_line_spans(line))
        for kind, start, end in _merge(spans):
            out.append(Finding(path, number, kind, start, end))
    return out


def scrub(
    changes: Mapping[str, bytes | None], mode: str
) -> tuple[dict[str, bytes | None], list[Finding]]:
    """A commit's files with secrets handled by ``mode``, and what was found.

    Files that are not UTF-8 text are passed through: they are not memory text.
    """
    out = dict(changes)
    if mode == "off":
        return out, []
    found: list[Finding] = []
    for path, data in changes.items():
        if data is None:
            continue
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        hits = scan_text(text, path=path)
        if not hits:
            continue
        if mode == "refuse":
            first = hits[0]
            raise SecretFoundError(
                f"{first.path}:{first.line}: looks like a credential ({first.kind}); "
                "nothing was committed",
                hint="remove it, or set `secrets: {mode: redact}` in .dreamgit/config.yaml "
                "to commit it as [REDACTED:<kind>]",
            )
        found.extend(hits)
        out[path] = _redact(text, hits).encode("utf-8")
    return out, found


def findings_trailers(found: list[Finding]) -> str:
    """``Dream-Redacted:`` trailer lines for a commit message (empty when nothing was found)."""
    return "".join(f"Dream-Redacted: {f.where()}\n" for f in found)


def _redact(text: str, hits: list[Finding]) -> str:
    lines = text.splitlines(keepends=True)
    by_line: dict[int, list[Finding]] = {}
    for hit in hits:
        by_line.setdefault(hit.line, []).append(hit)
    for number, line_hits in by_line.items():
        line = lines[number - 1]
        for hit in sorted(line_hits, key=lambda h: h.start, reverse=True):
            line = f"{line[: hit.start]}[REDACTED:{hit.kind}]{line[hit.end :]}"
        lines[number - 1] = line
    return "".join(lines)


def _line_spans(line: str) -> Iterator[tuple[int, int, str]]:
    if not _SUSPECT.search(line):
        return
    for plugin in _plugins():
        for secret in plugin.analyze_line(filename="memory.md", line=line, line_number=0):
            value = secret.secret_value
            if not value or secret.type not in _KINDS:
                continue
            start = line.find(value)
            while start != -1:
                begin, end = _widen(line, start, start + len(value))
                keyword = secret.type == "Secret Keyword"
                if not _looks_innocent(line[begin:end]) and (
                    not keyword or _high_entropy(line[begin:end])
                ):
                    yield begin, end, _KINDS[secret.type]
                start = line.find(value, start + len(value))
    for kind, pattern in _EXTRA:
        for match in pattern.finditer(line):
            group = 1 if match.groups() else 0
            begin, end = match.span(group)
            if kind == "secret" and not _high_entropy(line[begin:end]):
                continue
            yield begin, end, kind


def _merge(spans: list[tuple[int, int, str]]) -> list[tuple[str, int, int]]:
    """Overlapping spans become one; the first (leftmost, longest) names the kind."""
    merged: list[tuple[str, int, int]] = []
    for start, end, kind in sorted(spans, key=lambda s: (s[0], -s[1])):
        if merged and start < merged[-1][2]:
            last_kind, last_start, last_end = merged[-1]
            merged[-1] = (last_kind, last_start, max(last_end, end))
        else:
            merged.append((kind, start, end))
    return merged


def _widen(line: str, start: int, end: int) -> tuple[int, int]:
    """Grow a captured part of a secret (``ghp`` of a GitHub token) to its whole token."""
    while start > 0 and _TOKEN.match(line[start - 1]) and line[start - 1] not in "=/":
        start -= 1
    while end < len(line) and _TOKEN.match(line[end]):
        end += 1
    while end > start and line[end - 1] == ".":  # a sentence's full stop is not the key's
        end -= 1
    return start, end


def _looks_innocent(token: str) -> bool:
    return bool(_UUID.match(token) or _VERSIONISH.match(token) or _ENV_NAME.match(token))


def _high_entropy(value: str) -> bool:
    """A value after ``password=``/``token:`` that is not a word, a UUID or a version."""
    if _looks_innocent(value) or value.isalpha() or len(set(value)) < 6:
        return False
    counts = {c: value.count(c) for c in set(value)}
    entropy = -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())
    has_digit = any(c.isdigit() for c in value)
    return entropy >= 3.0 and (has_digit or not value.isalnum())


@functools.cache
def _plugins() -> tuple[Any, ...]:
    """detect-secrets' format plugins (not its entropy plugins: they flag ordinary words)."""
    # Imported on first scan: detect-secrets loads every plugin module when imported.
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.settings import default_settings

    with default_settings():
        classes: dict[str, Any] = get_mapping_from_secret_type_to_class()
        return tuple(plugin() for kind, plugin in classes.items() if kind in _KINDS)
