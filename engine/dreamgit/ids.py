"""Identifiers and names: memory and session ids, topics and slugs.

Ids are derived from content and time, so the same commands at the same
``--now`` give the same ids (and the same commits) in any repository. Topics
and slugs are checked against one pattern so no name can escape the
repository's folders.
"""

from __future__ import annotations

import re
from datetime import datetime

from dreamgit.errors import UserError

__all__ = [
    "check_name",
    "memory_id",
    "run_id",
    "session_id",
    "slugify",
]

NAME_PATTERN = re.compile(r"[a-z0-9][a-z0-9_-]*\Z")
MAX_NAME = 64
MEMORY_ID = re.compile(r"m-[a-z2-7]{8}\Z")
SESSION_ID = re.compile(r"s-\d{8}-[0-9a-f]{6}\Z")


def _digest(*parts: str) -> bytes:
    # Imported when an id is made: a recall of ids made earlier hashes nothing.
    from dreamgit.leanhash import sha256

    return sha256("\x1f".join(parts).encode("utf-8")).digest()


def memory_id(*parts: str) -> str:
    """``m-`` and eight base32 characters of a hash of the parts."""
    import base64

    return "m-" + base64.b32encode(_digest(*parts)).decode("ascii").lower()[:8]


def session_id(created: datetime, *parts: str) -> str:
    """``s-YYYYMMDD-`` and six hex characters of a hash of the parts."""
    return f"s-{created:%Y%m%d}-{_digest(*parts).hex()[:6]}"


def run_id(now: datetime, *parts: str) -> str:
    """``20261122T030000Z-4f2a``: the time of the run and four hex characters."""
    return f"{now:%Y%m%dT%H%M%SZ}-{_digest(*parts).hex()[:4]}"


def check_name(value: str, *, what: str) -> str:
    """Return ``value`` if it is a safe topic or slug, else raise a UserError saying why."""
    if not value or len(value) > MAX_NAME or not NAME_PATTERN.match(value):
        raise UserError(
            f"{what} {value!r} is not allowed",
            hint=(
                f"a {what} is 1-{MAX_NAME} characters of a-z, 0-9, '-' and '_', "
                "starting with a letter or digit (no '/', '.', spaces or capitals)"
            ),
        )
    return value


_WORDS = re.compile(r"[a-z0-9]+")
_STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "for",
        "to",
        "in",
        "on",
        "at",
        "is",
        "are",
        "be",
        "and",
        "or",
        "with",
        "that",
        "this",
        "their",
        "there",
        "user",
        "users",
        "s",
    ]
)


def slugify(text: str, *, max_words: int = 6, max_len: int = 48) -> str:
    """A readable slug from text: its first meaningful words, hyphenated, within ``max_len``."""
    lower = text.lower().replace("'s", "")
    slug = ""
    for word in [w for w in _WORDS.findall(lower) if w not in _STOP][:max_words]:
        longer = f"{slug}-{word}" if slug else word
        if len(longer) > max_len:
            break
        slug = longer
    return slug or (_WORDS.findall(lower) or ["memory"])[0][:max_len]
