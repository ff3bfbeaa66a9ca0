"""Credentials never enter memory: every text dreamgit writes is scanned first.

Known key formats are found by the issuers' own shapes in ``store.secret_formats``
(model-provider keys, npm, PyPI, Slack, Stripe, GitHub, JWTs, IBM Cloud and ~60 more);
values without a prefix by a keyword before them, in an assignment or in prose.
Entropy alone never decides: hashes written in prose, UUIDs and version strings are
ordinary memory. Private key blocks are
redacted whole, and a file *named* with a credential is moved (:func:`safe_path`).

``scrub(changes, mode)`` takes a commit's files: in ``refuse`` mode a hit raises
:class:`~dreamgit.errors.SecretFoundError` naming the file and line (nothing is
committed); in ``redact`` mode each secret becomes ``[REDACTED:<kind>]`` and the
findings are returned so the commit message can say so; ``off`` scans nothing.
Generated text (messages, run records, summaries, replies) goes through
:func:`redact_text` / :func:`redact_value`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from dreamgit import trailers as tr
from dreamgit.errors import ConfigError, SecretFoundError
from dreamgit.store.secret_formats import (
    PRIVATE_KEY_BLOCK,
    folds_plainly,
    has_keyword,
    keyword_rules,
    plausible_value,
    token_formats,
)

__all__ = [
    "MODES",
    "Finding",
    "clean_input",
    "findings_trailers",
    "marked",
    "path_secrets",
    "redact_bytes",
    "redact_text",
    "redact_value",
    "refuse_secret_name",
    "safe_path",
    "scan_text",
    "scrub",
    "scrub_message",
    "secrets_mode",
]

MODES = ("redact", "refuse", "off")
DEFAULT_MODE = "redact"

#: A line can hold a credential only if it has a long token or a credential word; most
#: memory lines have neither and skip the formats and keyword rules.
_SUSPECT = (
    r"[A-Za-z0-9_\-+/=.]{16,}|pass|pwd|pin\b|secret|token|key|auth|cred|private|bearer|basic"
    r"|sk_|://[^\s]*@"
)

#: :data:`_SUSPECT` without case folding (see ``folds_plainly``): a long token, ``://``,
#: or a credential word in the line lower-cased. It passes a little more (``pin`` inside
#: a word, ``://`` without an ``@``), which the formats and keyword rules then rule out:
#: never less. The folded pattern costs ~50 µs a line of an index; these ~2 µs.
_LONG_TOKEN = re.compile(r"[A-Za-z0-9_\-+/=.]{16,}")
_SUSPECT_WORD = re.compile(r"pass|pwd|pin|secret|token|key|auth|cred|private|bearer|basic|sk_")

_SURROGATE = re.compile("[\ud800-\udfff]")


def _suspect(line: str) -> bool:
    """Whether ``line`` may hold a credential (at least wherever :data:`_SUSPECT` matches)."""
    if not folds_plainly(line):
        # Compiled by re on first use: most lines never need the folded pattern.
        return re.search(_SUSPECT, line, re.IGNORECASE) is not None
    return (
        _LONG_TOKEN.search(line) is not None
        or "://" in line
        or _SUSPECT_WORD.search(line.lower()) is not None
    )


@dataclass(frozen=True)
class Finding:
    """One secret: where (1-based line, offsets in the text) and what kind; never the secret.

    ``line`` 0 means the secret was in the file's name, not in its text: the file was
    committed as ``moved_to`` instead.
    """

    path: str
    line: int
    kind: str
    start: int
    end: int
    moved_to: str = ""

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
    """Every credential in ``text``, in order; overlapping hits merged, blocks whole."""
    spans = [(m.start(), m.end(), "private-key") for m in PRIVATE_KEY_BLOCK.finditer(text)]
    offset = 0
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        spans.extend((offset + s, offset + e, kind) for s, e, kind in _line_spans(body))
        offset += len(line)
    return [
        Finding(path, text.count("\n", 0, start) + 1, kind, start, end)
        for kind, start, end in _merge(spans)
    ]


def redact_text(text: str, *, path: str = "") -> tuple[str, list[Finding]]:
    """``text`` with each credential replaced by ``[REDACTED:<kind>]``, and what was found."""
    hits = scan_text(text, path=path)
    for hit in reversed(hits):
        text = f"{text[: hit.start]}[REDACTED:{hit.kind}]{text[hit.end :]}"
    return text, hits


def redact_bytes(data: bytes) -> bytes:
    """:func:`redact_text` for bytes; bytes that are not UTF-8 are kept around what goes."""
    text = data.decode("utf-8", errors="surrogateescape")
    clean, hits = redact_text(text)
    return clean.encode("utf-8", errors="surrogateescape") if hits else data


def redact_value(value: Any) -> Any:
    """A JSON-like value (a run record) with every string in it redacted, keys included.

    Each distinct string is scanned once: a record repeats its reasons and ids (a run
    that deferred 19,000 prunes says "max_changes_per_run (100) reached" 19,000 times).
    """
    seen: dict[str, str] = {}

    def text(item: str) -> str:
        done = seen.get(item)
        if done is None:
            done = seen[item] = redact_text(item)[0] if _suspect(item) else item
        return done

    def clean(item: Any) -> Any:
        # the exact types first: a record is plain dicts, lists and strings, and the
        # abstract Mapping check costs more than the rest of a visit
        kind = type(item)
        if kind is str:
            return text(item)
        if kind is dict:
            return {
                text(k) if type(k) is str else clean(k): text(v) if type(v) is str else clean(v)
                for k, v in item.items()
            }
        if kind is list:
            return [text(x) if type(x) is str else clean(x) for x in item]
        if isinstance(item, str):
            return text(item)
        if isinstance(item, Mapping):
            return {clean(k): clean(v) for k, v in item.items()}
        if isinstance(item, list | tuple):
            return [clean(x) for x in item]
        return item

    return clean(value)


def path_secrets(path: str) -> list[Finding]:
    """Credentials in a path's names, also where a slug lower-cased them (``akia…``)."""
    found: list[Finding] = []
    for name in path.split("/"):
        stem = name.rsplit(".", 1)[0] if "." in name[1:] else name
        for variant in dict.fromkeys((stem, stem.upper(), stem.replace("-", " "))):
            found.extend(scan_text(variant, path=path))
    return found


def safe_path(path: str, taken: Callable[[str], bool] = lambda _p: False) -> str:
    """``path`` with every name that holds a credential renamed ``redacted-<kind>[-N]``."""
    if not path_secrets(path):
        return path
    names = path.split("/")
    for i, name in enumerate(names):
        hits = path_secrets(name)
        if hits:
            suffix = "." + name.rsplit(".", 1)[1] if "." in name[1:] else ""
            names[i] = f"redacted-{hits[0].kind}{suffix}"
    base = "/".join(names)
    stem, dot, ext = base.rpartition(".") if "." in names[-1][1:] else (base, "", "")
    candidate, n = base, 1
    while taken(candidate):
        n += 1
        candidate = f"{stem}-{n}{dot}{ext}"
    return candidate


def scrub(
    changes: Mapping[str, bytes | None],
    mode: str,
    *,
    taken: Callable[[str], bool] = lambda _p: False,
) -> tuple[dict[str, bytes | None], list[Finding]]:
    """A commit's files with secrets handled by ``mode``, and what was found.

    A file whose path names a credential is moved to :func:`safe_path` (``taken`` says
    which paths already exist); bytes that are not UTF-8 are scanned too and kept
    byte for byte around what is redacted.
    """
    out: dict[str, bytes | None] = {}
    if mode == "off":
        return dict(changes), []
    found: list[Finding] = []
    for path, data in changes.items():
        target = path
        if data is not None and (named := path_secrets(path)):
            if mode == "refuse":  # the message names the folder, never the name itself
                folder = path.rsplit("/", 1)[0] + "/" if "/" in path else "the top folder"
                raise SecretFoundError(
                    f"a file in {folder} is named with what looks like a credential "
                    f"({named[0].kind}); nothing was committed",
                    hint="rename the file, or set `secrets: {mode: redact}` in "
                    ".dreamgit/config.yaml to commit it as redacted-<kind>.md",
                )
            target = safe_path(path, lambda p: p in out or p in changes or taken(p))
            found.append(Finding(path, 0, named[0].kind, 0, 0, moved_to=target))
        if data is None:
            out[target] = None
            continue
        text = data.decode("utf-8", errors="surrogateescape")
        clean, hits = redact_text(text, path=target)
        if hits and mode == "refuse":
            first = hits[0]
            raise SecretFoundError(
                f"{first.path}:{first.line}: looks like a credential ({first.kind}); "
                "nothing was committed",
                hint="remove it, or set `secrets: {mode: redact}` in .dreamgit/config.yaml "
                "to commit it as [REDACTED:<kind>]",
            )
        found.extend(hits)
        out[target] = clean.encode("utf-8", errors="surrogateescape") if hits else data
    return out, found


def scrub_message(message: str, mode: str) -> str:
    """A commit message with credentials redacted (in every mode but ``off``).

    The files were refused or redacted already; what remains is a name or a
    summary made from them, so the message is redacted rather than refused.
    """
    return message if mode == "off" else redact_text(message)[0]


def clean_input(text: str, mode: str, *, what: str, where: str) -> str:
    """Text a person gave (a memory, a key), redacted before anything is made from it.

    Slugs, titles and descriptions come from what this returns, so a credential
    that a slug would lower-case (``akia…``) is gone before a slug is made. ``where``
    names the file to be for a refusal (never a name made from the text).
    """
    if mode == "off":
        return text
    clean, hits = redact_text(text)
    if hits and mode == "refuse":
        raise SecretFoundError(
            f"{where}:{hits[0].line}: the {what} looks like a credential ({hits[0].kind}); "
            "nothing was committed",
            hint="remove it, or set `secrets: {mode: redact}` in .dreamgit/config.yaml "
            "to commit it as [REDACTED:<kind>]",
        )
    return clean


def refuse_secret_name(value: str, mode: str, *, what: str) -> None:
    """A topic or tag is a name in paths and front matter: one holding a credential is refused.

    Redacting it would leave a name that no longer reads back as one, so it is refused
    in every mode but ``off``; the message never repeats the value.
    """
    if mode != "off" and (hits := path_secrets(value)):
        raise SecretFoundError(
            f"the {what} looks like a credential ({hits[0].kind}); nothing was committed",
            hint=f"choose a plain {what} such as `ops` or `deploy`",
        )


def marked(changes: Mapping[str, bytes | None]) -> list[Finding]:
    """Where ``changes`` hold ``[REDACTED:<kind>]``: the trailers of text redacted before."""
    found = []
    for path, data in changes.items():
        text = "" if data is None else data.decode("utf-8", errors="replace")
        for match in _MARKER.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append(Finding(path, line, match[1], match.start(), match.end()))
    return found


_MARKER = re.compile(r"\[REDACTED:([a-z0-9-]+)\]")


def findings_trailers(found: list[Finding]) -> str:
    """``Dream-Redacted:`` trailer lines for a commit message (empty when nothing was found)."""
    return "".join(
        tr.trailers(
            (tr.REDACTED, f"{f.moved_to} (file name, {f.kind})" if f.line == 0 else f.where())
        )
        + "\n"
        for f in found
    )


def _line_spans(line: str) -> Iterator[tuple[int, int, str]]:
    if not _suspect(line):
        return
    for kind, pattern in _formats_for(line):
        for match in pattern.finditer(line):
            begin, end = match.span(1 if match.groups() else 0)
            yield begin, end, kind
    if not has_keyword(line):
        return  # neither keyword rule can match
    assignment, prose_rule = keyword_rules()
    for rule, prose in ((assignment, False), (prose_rule, True)):
        for match in rule.finditer(line):
            value = match.group("value")
            joined = match.groupdict().get("copula", "") if prose else None
            if plausible_value(value, password=bool(match.group("pw")), prose=joined):
                begin = match.start("value")
                end = begin + len(value.rstrip(".!?:"))
                yield begin, end, "password" if match.group("pw") else "secret"


def _formats_for(line: str) -> list[tuple[str, re.Pattern[str]]]:
    """The token formats that may match ``line`` (RE2 reads UTF-8: stray surrogates are
    masked for it; the formats then run on the line as it is)."""
    return token_formats(line if line.isascii() else _SURROGATE.sub("\ufffd", line))


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
