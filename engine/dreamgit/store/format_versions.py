"""The removed versions of a memory kept in another agent's format (Claude Code, Hermes, OpenClaw).

``store.versions`` finds them for dreamgit's own layout, one file per memory
under ``memories/``. Here a memory may be one entry of a shared file, so each
commit on main that changed the format's files is read on both sides by the
format itself: a commit whose parent held the memory and which does not took it
out of the active set. Only the files the commit changed (and the sidecar) are
read, so a memory that moved to another file in the same commit did not leave.
"""

from __future__ import annotations

from datetime import datetime

from dreamgit.errors import NotFoundError
from dreamgit.model import Memory
from dreamgit.store.formats import MemoryFormat, Source
from dreamgit.store.repo import MemoryRepo
from dreamgit.store.versions import Version, names_others, resolve_revision, retired

__all__ = ["format_at_commit", "format_versions"]


def format_versions(repo: MemoryRepo, ident: str, *, now: datetime) -> list[Version]:
    """Every version of ``ident`` a single-parent commit on main removed, oldest first.

    A version's ``data`` is the memory's text, its ``held_in`` the commit before
    the removal: the files a restore brings the memory back from.
    """
    tip = repo.tip()
    if tip is None:
        return []
    fmt = repo.format
    found: list[tuple[int, str, str, Memory]] = []
    for info in repo.store.walk(tip):
        if len(info.parents) != 1:
            continue
        if names_others(info.message, ident):
            continue
        changed = {c.path for c in repo.store.changed_paths(info.id) if fmt.memory_path(c.path)}
        if not changed:
            continue
        before = _memory(repo, fmt, info.parents[0], changed, ident, now)
        if before is None or _memory(repo, fmt, info.id, changed, ident, now) is not None:
            continue
        found.append((info.time, info.id, info.parents[0], retired(before, info)))
    return [
        Version(n, held, removed_in, when, memory.file, memory.text.encode("utf-8"), memory)
        for n, (when, removed_in, held, memory) in enumerate(reversed(found), start=1)
    ]


def _memory(
    repo: MemoryRepo, fmt: MemoryFormat, commit: str, paths: set[str], ident: str, now: datetime
) -> Memory | None:
    """Memory ``ident`` as the files ``paths`` (and the sidecar) of ``commit`` hold it."""
    whole = repo.source(commit)
    keep = paths | {fmt.sidecar_path}
    files = {p: b for p, b in whole.files.items() if p in keep}
    source = Source(files=files, read_blob=whole.read_blob, record=whole.record)
    return next((m for m in fmt.scan(source, now=now)[0] if m.id == ident), None)


def format_at_commit(
    repo: MemoryRepo, ident: str, revision: str, *, now: datetime, removed: list[Version]
) -> Version:
    """The version of ``ident`` that ``revision``'s tree holds, numbered as in ``removed``."""
    commit = resolve_revision(repo, ident, revision)
    memories = repo.format.scan(repo.source(commit), now=now)[0]
    memory = next((m for m in memories if m.id == ident), None)
    if memory is None:
        raise NotFoundError(
            f"commit {commit[:12]} does not hold memory {ident}",
            hint="the commit before the one that removed it does",
        )
    data = memory.text.encode("utf-8")
    number = next((v.number for v in removed if v.data == data), 0)
    return Version(number, commit, None, 0, memory.file, data, memory)
