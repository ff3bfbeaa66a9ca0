"""``restore``: bring a memory back from history, byte for byte, in every format.

The version chosen (the latest removal, ``--version N`` or ``--commit REV``) is found
by ``store.versions`` for dreamgit's own layout and by ``store.format_versions`` for
other agents' formats; it comes back in one commit on main, where its format keeps it
(a Claude Code file and its index lines, a Hermes entry, an OpenClaw bullet).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from dreamgit import trailers as tr
from dreamgit.errors import NotFoundError, UserError
from dreamgit.model import Memory
from dreamgit.store import layout
from dreamgit.store.format_versions import format_at_commit, format_versions
from dreamgit.store.formats import Texts
from dreamgit.store.memoryfile import (
    decode_text,
    memory_from_record,
    parse_memory_record,
    rewrite_memory,
)
from dreamgit.store.operations import encoded, scan_with, unique_slug
from dreamgit.store.repo import MemoryRepo
from dreamgit.store.versions import Version, at_commit, removed_versions

__all__ = ["Restored", "restore", "restore_version"]


@dataclass(frozen=True)
class Restored:
    """What ``restore`` brought back, and which of the versions history holds it was."""

    memory: Memory
    version: Version
    #: Every version a removal left in history, oldest first (see ``store.versions``).
    versions: tuple[Version, ...]

    @property
    def others(self) -> list[Version]:
        """The removed versions whose file differs from the one restored."""
        return [v for v in self.versions if v.data != self.version.data]


def restore(
    repo: MemoryRepo,
    ident: str,
    *,
    now: datetime,
    version: int | None = None,
    commit: str | None = None,
) -> Memory:
    """Bring a forgotten, pruned or superseded memory back, byte for byte.

    Without ``version`` or ``commit`` the latest removed version comes back; see
    :func:`restore_version` for the choice and what it reports.
    """
    return restore_version(repo, ident, now=now, version=version, commit=commit).memory


def restore_version(
    repo: MemoryRepo,
    ident: str,
    *,
    now: datetime,
    version: int | None = None,
    commit: str | None = None,
) -> Restored:
    """Bring back version ``version`` of ``ident`` (1 = oldest removal), the version
    ``commit``'s tree holds, or else the latest removed one."""
    if version is not None and commit is not None:
        raise UserError(
            "restore takes --version or --commit, not both",
            hint=f"`dreamgit show {ident} --history` lists both for each version",
        )
    if ident in repo.snapshot(now=now).by_id():
        chosen = version is not None or commit is not None
        raise UserError(
            f"memory {ident} is already active",
            hint=f"to bring back another version: `dreamgit forget {ident}`, then restore it"
            if chosen
            else "nothing to restore",
        )
    native = repo.format.name == "dreamgit"
    versions = (removed_versions if native else format_versions)(repo, ident, now=now)
    if commit is not None:
        pick = at_commit if native else format_at_commit
        found = pick(repo, ident, commit, now=now, removed=versions)
    elif not versions:
        raise NotFoundError(
            f"memory {ident} was never in this repository's history",
            hint="check the id with `git log --grep` or `dreamgit history`",
        )
    elif version is None:
        found = versions[-1]
    elif 1 <= version <= len(versions):
        found = versions[version - 1]
    else:
        raise NotFoundError(
            f"memory {ident} has no version {version}: history holds "
            f"{len(versions)} removed version(s), numbered from 1",
            hint=f"`dreamgit show {ident} --history` lists them",
        )
    if not native:
        memory = _restore_in_format(repo, found, now=now)
        return Restored(memory, found, tuple(versions))
    restored: list[Memory] = []

    def build(at: str | None) -> dict[str, bytes | None]:
        target = found.path
        existing = repo.store.files(at, layout.MEMORIES)
        if target in existing:
            topic, slug = target[len(layout.MEMORIES) :].removesuffix(".md").split("/")
            taken = {p.rsplit("/", 1)[1].removesuffix(".md") for p in existing if topic in p}
            target = f"{layout.MEMORIES}{topic}/{unique_slug(slug, taken)}.md"
        text = decode_text(found.data, path=target)
        memory = memory_from_record(parse_memory_record(text, path=target), path=target, now=now)
        data = found.data
        if memory.valid_to is not None or memory.superseded_by:
            # Restored, it is true again: the end a retired version records no longer holds.
            memory = replace(memory, valid_to=None, superseded_by=())
            data = rewrite_memory(text, memory, path=target).encode()
        restored[:] = [memory]
        return {target: data}

    message = f"restore: {ident}\n\n" + tr.trailers((tr.OP, "restore"), (tr.MEMORY, ident))
    repo.commit_main(message, build, now=now)
    return Restored(restored[0], found, tuple(versions))


def _restore_in_format(repo: MemoryRepo, found: Version, *, now: datetime) -> Memory:
    """Bring ``found`` back where another agent's format keeps it; returns it as read back."""
    ident = found.memory.id
    restored: list[Memory] = []

    def build(at: str | None) -> dict[str, bytes | None]:
        texts = Texts(lambda p: repo.read_text(p, at))
        held = Texts(lambda p: repo.read_text(p, found.held_in))
        changes = repo.format.restore(texts, found.memory, held)
        back = (m for m in scan_with(repo, at, changes, now) if m.id == ident)
        restored[:] = [next(back, found.memory)]
        return encoded(changes)

    message = f"restore: {ident}\n\n" + tr.trailers((tr.OP, "restore"), (tr.MEMORY, ident))
    repo.commit_main(message, build, now=now)
    return restored[0]
