"""The versions of a memory that history keeps: what ``restore`` can bring back.

An id can leave the active set more than once: forgotten, added again with the
same text (the id follows from the text, so it is reused), forgotten again. Each
removal leaves one version in history, the file as it was just before. They are
numbered from 1, oldest first, and that number is what ``restore --version N``
takes and ``show --history`` prints. A version can also be named by any commit
whose tree holds the memory (``restore --commit REV``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime

from dreamgit import trailers as tr
from dreamgit.errors import NotFoundError, UserError
from dreamgit.gitstore import Change, CommitInfo
from dreamgit.ids import memory_id
from dreamgit.model import Memory
from dreamgit.store import layout
from dreamgit.store.memoryfile import decode_text, memory_from_record, parse_memory_record
from dreamgit.store.repo import MemoryRepo

__all__ = [
    "Version",
    "at_commit",
    "names_others",
    "removed_versions",
    "resolve_revision",
    "retired",
]

#: Trailers of commits that name every memory (or session) they touch.
_NAMING_TRAILERS = (f"\n{tr.MEMORY}: ", f"\n{tr.SESSION}: ")


@dataclass(frozen=True)
class Version:
    """One version of a memory in history: its file, and the commit that holds it."""

    #: 1 for the oldest removal; 0 for a version named by a commit that no removal matches.
    number: int
    #: A commit whose tree holds this file.
    held_in: str
    #: The commit that took it out of the active set (None when named by --commit).
    removed_in: str | None
    #: When it was removed (seconds since the epoch), or 0.
    removed_at: int
    path: str
    data: bytes
    memory: Memory


def removed_versions(repo: MemoryRepo, ident: str, *, now: datetime) -> list[Version]:
    """Every version of ``ident`` a commit on main took out of the active set, oldest first.

    A commit that names memories (forget, prune, a dream's merge…) removes only
    those it names, so only the ones naming ``ident`` are read; an "agent edits"
    commit, a revert or a plain ``git commit`` names none and is read too. A merge
    commit repeats what its branches did and is skipped.
    """
    tip = repo.tip()
    if tip is None:
        return []
    found: list[tuple[CommitInfo, str, bytes, str]] = []
    for info in repo.store.walk(tip):
        if len(info.parents) != 1:
            continue
        if names_others(info.message, ident):
            continue
        removal = _removal(repo, info, ident, now=now)
        if removal is not None:
            found.append((info, *removal))
    versions = []
    for number, (info, path, data, held_in) in enumerate(reversed(found), start=1):
        memory = _memory(data, path, now=now)
        assert memory is not None  # _removal returns readable versions only
        memory = retired(memory, info)
        versions.append(Version(number, held_in, info.id, info.time, path, data, memory))
    return versions


def retired(memory: Memory, removal: CommitInfo) -> Memory:
    """``memory`` as the version ``removal`` retired: when a supersede or merge took it out,
    it stopped being true then (``valid_to``) and the memory that said so is its
    ``superseded_by``. The operation's one commit removes the file, so no file version
    carries these; history does."""
    op = tr.find_trailer(removal.message, tr.OP)
    named = tr.find_trailer(removal.message, tr.MEMORY)
    if named is None or op not in ("supersede", "merge"):
        return memory
    successor, *others = [i.strip() for i in named.split(",")]
    if memory.id not in others:
        return memory
    when = datetime.fromtimestamp(removal.time, UTC)
    return replace(memory, valid_to=when, superseded_by=(successor,))


def at_commit(
    repo: MemoryRepo, ident: str, revision: str, *, now: datetime, removed: list[Version]
) -> Version:
    """The version of ``ident`` that ``revision``'s tree holds, numbered as in ``removed``."""
    commit = resolve_revision(repo, ident, revision)
    for path, blob in repo.store.files(commit, layout.MEMORIES).items():
        data = repo.store.read(blob)
        if ident.encode("utf-8") not in data and memory_id("path", path) != ident:
            continue
        memory = _memory(data, path, now=now)
        if memory is not None and memory.id == ident:
            number = next((v.number for v in removed if v.data == data), 0)
            return Version(number, commit, None, 0, path, data, memory)
    raise NotFoundError(
        f"commit {commit[:12]} does not hold memory {ident}",
        hint=f"a commit where `dreamgit show {ident} --history` shows its text holds it; "
        "the commit that removed it does not",
    )


def resolve_revision(repo: MemoryRepo, ident: str, revision: str) -> str:
    """The commit ``revision`` names, or NotFoundError saying how to name one of ``ident``."""
    try:
        return repo.store.resolve(revision)
    except (KeyError, ValueError):
        raise NotFoundError(
            f"no commit named {revision!r} in this repository",
            hint="give a commit id, a branch or main~N; "
            f"`dreamgit show {ident} --history` lists the commits that hold it",
        ) from None


def names_others(message: str, ident: str) -> bool:
    """Whether a commit message names the memories it touches, and ``ident`` is not one."""
    return ident not in message and any(t in message for t in _NAMING_TRAILERS)


def _removal(
    repo: MemoryRepo, info: CommitInfo, ident: str, *, now: datetime
) -> tuple[str, bytes, str] | None:
    """(path, bytes, commit holding them) of ``ident`` if ``info`` took it out of the active set.

    A file that moved in the same commit did not leave; a last version that cannot
    be read gives way to the newest readable one before it.
    """
    changes = [c for c in repo.store.changed_paths(info.id) if c.path.startswith(layout.MEMORIES)]
    gone = None
    for change in changes:
        if change.old is None or change.new is not None:
            continue
        data = repo.store.read(change.old)
        memory = _memory(data, change.path, now=now)
        if memory is not None and memory.id == ident:
            gone = (change.path, data, info.parents[0])
            break
        if memory is None and ident.encode("utf-8") in data:
            older = _readable_version(repo, change.path, ident, info.id, now=now)
            if older is not None:
                gone = older
                break
    if gone is None or _still_there(repo, changes, ident, now=now):
        return None
    return gone


def _still_there(repo: MemoryRepo, changes: list[Change], ident: str, *, now: datetime) -> bool:
    """Whether a file the same commit added or changed holds ``ident`` (it moved)."""
    for change in changes:
        if change.new is None:
            continue
        data = repo.store.read(change.new)
        if ident.encode("utf-8") in data:
            memory = _memory(data, change.path, now=now)
            if memory is not None and memory.id == ident:
                return True
    return False


def _readable_version(
    repo: MemoryRepo, path: str, ident: str, removed_in: str, *, now: datetime
) -> tuple[str, bytes, str] | None:
    """The newest readable version of ``path`` with id ``ident`` before ``removed_in``."""
    for info in repo.store.walk(removed_in):
        data = repo.store.read_path(info.id, path)
        if data is None or ident.encode("utf-8") not in data:
            continue
        memory = _memory(data, path, now=now)
        if memory is not None and memory.id == ident:
            return path, data, info.id
    return None


def _memory(data: bytes, path: str, *, now: datetime) -> Memory | None:
    """The memory a file holds, or None when it cannot be read."""
    try:
        record = parse_memory_record(decode_text(data, path=path), path=path)
        return memory_from_record(record, path=path, now=now)
    except UserError:
        return None
