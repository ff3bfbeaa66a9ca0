"""The session lines behind an operation: what a reviewer reads to believe it.

A memory names the sessions it came from (``sources`` in its front matter). For
an operation that left a memory, the lines of those sessions that share the most
content words with the memory's text are its evidence, at most a few. Reading is
by path at one commit; a session that is gone or unreadable gives no line.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dreamgit.errors import MemoryFileError
from dreamgit.ruleset.context import concept_words
from dreamgit.store import frontmatter
from dreamgit.store.repo import MemoryRepo

__all__ = ["evidence_lines"]

#: Lines shown per operation.
MAX_LINES = 2
#: Sessions read per operation.
MAX_SESSIONS = 3
_MAX_LINE_CHARS = 240


def evidence_lines(
    repo: MemoryRepo, op: Mapping[str, Any], sessions: Mapping[str, str]
) -> list[tuple[str, str]]:
    """``(session id, line)`` pairs for ``op``; ``sessions`` maps session ids to paths."""
    after = [s for s in op.get("after") or [] if isinstance(s, Mapping)]
    commit = op.get("commit")
    if not after or not commit:
        return []
    text = str(after[0].get("text") or "")
    sources = _sources(repo, str(after[0].get("path") or ""), str(commit))
    wanted = concept_words(text)
    scored: list[tuple[int, str, str]] = []
    for session in sources[:MAX_SESSIONS]:
        path = sessions.get(session)
        body = repo.read_text(path, str(commit)) if path else None
        for line in (body or "").splitlines():
            shared = len(wanted & concept_words(line))
            if shared:
                scored.append((shared, session, line.strip()[:_MAX_LINE_CHARS]))
    scored.sort(key=lambda item: -item[0])
    found: list[tuple[str, str]] = []
    for _, session, line in scored:  # a line said in several sessions is shown once
        if all(line != seen for _, seen in found):
            found.append((session, line))
    return found[:MAX_LINES]


def _sources(repo: MemoryRepo, path: str, commit: str) -> list[str]:
    text = repo.read_text(path, commit) if path else None
    if not text:
        return []
    try:
        meta = frontmatter.parse(text, path=path).meta
    except MemoryFileError:
        return []
    ours = meta.get("dream") if isinstance(meta, dict) else None
    found = ours.get("sources") if isinstance(ours, dict) else None
    return [str(s) for s in found] if isinstance(found, list) else []
