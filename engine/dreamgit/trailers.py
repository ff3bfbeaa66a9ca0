"""The ``Dream-*`` trailer vocabulary: the names every dreamgit commit message may carry.

Every commit dreamgit makes ends in a paragraph of ``Name: value`` trailers that git
(``git log --format=%(trailers)``) and our own history commands read back: which run,
phase, operation and rule made it, which memories or sessions it names. The names live
here and nowhere else (tests/test_trailers.py fails on a ``"Dream-`` literal in another
module), with the helpers that write a trailer paragraph and read one back, so a writer
and its reader cannot drift apart.
"""

from __future__ import annotations

import re

__all__ = [
    "MEMORY",
    "MODEL",
    "OP",
    "PHASE",
    "PREFIX",
    "REDACTED",
    "REVERTS",
    "RULE",
    "RUN",
    "SCORE",
    "SESSION",
    "SIGNALS",
    "SOURCE",
    "find_trailer",
    "parse_trailers",
    "trailers",
]

#: What every trailer name of ours starts with.
PREFIX = "Dream-"
#: The dream run (``20261122T030000Z-4f2a``) a commit belongs to.
RUN = "Dream-Run"
#: The phase of the dream cycle that made the commit (gather, consolidate, prune …).
PHASE = "Dream-Phase"
#: The operation (add, merge, supersede, forget, restore, merge-run …).
OP = "Dream-Op"
#: The rule that allowed the operation.
RULE = "Dream-Rule"
#: The memory ids the commit touches, comma-separated; the first is the one kept.
MEMORY = "Dream-Memory"
#: Who proposed the operation: ``rules`` or ``llm``.
SOURCE = "Dream-Source"
#: The model that proposed it, when one did.
MODEL = "Dream-Model"
#: A promotion's score.
SCORE = "Dream-Score"
#: How many recall signals the commit records or folds.
SIGNALS = "Dream-Signals"
#: The commit a revert undoes.
REVERTS = "Dream-Reverts"
#: The session ids the commit logs, comma-separated.
SESSION = "Dream-Session"
#: A credential taken out before the commit: ``path:line (kind)``, one trailer each.
REDACTED = "Dream-Redacted"


def trailers(*pairs: tuple[str, object]) -> str:
    """Trailer lines ``Name: value`` for ``(name, value)`` pairs, joined by newlines."""
    return "\n".join(f"{name}: {value}" for name, value in pairs)


def parse_trailers(message: str) -> dict[str, str]:
    """The ``Dream-*`` trailers of a commit message (last paragraph), by name."""
    paragraphs = message.strip().split("\n\n")
    found = {}
    for line in paragraphs[-1].splitlines() if len(paragraphs) > 1 else []:
        name, sep, value = line.partition(": ")
        if sep and name.startswith(PREFIX):
            found[name] = value.strip()
    return found


def find_trailer(message: str, name: str) -> str | None:
    """The value of the first line ``name: value`` anywhere in ``message``; None if none."""
    found = re.search(rf"^{re.escape(name)}: (.+)$", message, re.M)
    return found.group(1) if found else None
