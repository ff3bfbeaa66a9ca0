"""The everyday writes: log a session, add, forget and restore a memory.

Each is exactly one commit on main, made by compare-and-swap, whose message
names the operation and carries ``Dream-Op`` / ``Dream-Memory`` trailers so the
history can be searched (``restore`` finds what ``forget`` removed that way).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from dreamgit.errors import NotFoundError, UserError
from dreamgit.ids import check_name, memory_id, session_id, slugify
from dreamgit.model import MEMORY_TYPES, PRIORITIES, Memory, Session
from dreamgit.store import layout
from dreamgit.store.formats import Source, Texts
from dreamgit.store.formats.claude_sessions import ClaudeSession
from dreamgit.store.memoryfile import (
    decode_text,
    memory_from_record,
    parse_memory_record,
    render_memory,
    rewrite_memory,
)
from dreamgit.store.repo import MemoryRepo, require_text
from dreamgit.store.secrets import clean_input, findings_trailers, marked, refuse_secret_name
from dreamgit.store.sessionfile import render_session
from dreamgit.store.transfer import unplaced
from dreamgit.store.versions import Version, at_commit, removed_versions

__all__ = [
    "Restored",
    "add_memory",
    "forget",
    "import_memories",
    "log_claude_sessions",
    "log_session",
    "restore",
    "restore_version",
    "unique_slug",
]


def log_session(
    repo: MemoryRepo,
    text: str,
    *,
    now: datetime,
    summary: str = "",
    tags: Sequence[str] = (),
) -> Session:
    """Record a session transcript; returns it with its new id."""
    require_text(text, what="session")
    mode = repo.secrets_mode()
    for tag in tags:
        check_name(tag, what="tag")
        refuse_secret_name(tag, mode, what="tag")
    result: list[Session] = []

    def build(tip: str | None) -> dict[str, bytes | None]:
        taken = repo.session_paths(tip)
        salt = 0
        while True:
            ident = session_id(now, text, summary, str(salt))
            if ident not in taken:
                break
            salt += 1
        session = Session(ident, now, text, summary=summary, tags=tuple(tags))
        result[:] = [session]
        return {session.path: render_session(session).encode("utf-8")}

    def message() -> str:
        return f"log: session {result[0].id}\n\nDream-Op: log\nDream-Session: {result[0].id}"

    repo.commit_main(message, build, now=now)
    return result[0]


def _encoded(changes: Mapping[str, str | None]) -> dict[str, bytes | None]:
    return {p: None if t is None else t.encode("utf-8") for p, t in changes.items()}


def _scan(
    repo: MemoryRepo, tip: str | None, changes: Mapping[str, str | None], now: datetime
) -> list[Memory]:
    """The memories a format reads from ``tip`` with ``changes`` written on top."""
    files = dict(repo.store.files(tip))
    for path, text in changes.items():
        if text is None:
            files.pop(path, None)
        else:
            files[path] = repo.store.write_blob(text.encode("utf-8"))
    source = Source(files=files, read_blob=repo.store.read, record=repo.source(tip).record)
    return repo.format.scan(source, now=now)[0]


def unique_slug(base: str, taken: set[str]) -> str:
    """``base``, or ``base-2``, ``base-3``… whichever is free among ``taken``."""
    slug, n = base, 1
    while slug in taken:
        n += 1
        slug = f"{base[:44]}-{n}"
    return slug


def add_memory(
    repo: MemoryRepo,
    text: str,
    *,
    topic: str,
    now: datetime,
    priority: str = "normal",
    tags: Sequence[str] = (),
    key: str | None = None,
    type: str = "user",
    name: str = "",
    description: str = "",
) -> Memory:
    """Add one memory by hand; returns it with its id and path."""
    require_text(text, what="memory text")
    mode = repo.secrets_mode()
    check_name(topic, what="topic")
    refuse_secret_name(topic, mode, what="topic")
    for tag in tags:
        check_name(tag, what="tag")
        refuse_secret_name(tag, mode, what="tag")
    if priority not in PRIORITIES:
        raise UserError(
            f"priority {priority!r} is not one of {', '.join(PRIORITIES)}",
            hint="pass --priority with one of those names",
        )
    if type not in MEMORY_TYPES:
        raise UserError(
            f"type {type!r} is not one of {', '.join(MEMORY_TYPES)}",
            hint="pass --type with one of those names",
        )
    # Redacted first: the slug, the name and the description are made from what is stored.
    where = f"{layout.MEMORIES}{topic}/(new memory)"
    given = (text.strip(), key or "", name, description)
    body = clean_input(given[0], mode, what="memory text", where=where)
    key = clean_input(key, mode, what="key", where=where) if key else key
    name = clean_input(name, mode, what="name", where=where) if name else name
    description = clean_input(description, mode, what="description", where=where)
    redacted = given != (body, key or "", name, description)
    made: list[Memory] = []
    written: dict[str, bytes | None] = {}

    def build(tip: str | None) -> dict[str, bytes | None]:
        files = repo.store.files(tip, f"{layout.MEMORIES}{topic}/")
        taken_slugs = {p.rsplit("/", 1)[1].removesuffix(".md") for p in files}
        ids = repo.memory_ids(tip)
        salt = 0
        while (ident := memory_id(topic, body, str(salt))) in ids:
            salt += 1
        slug = unique_slug(slugify(name or body), taken_slugs)
        memory = Memory(
            id=ident,
            topic=topic,
            slug=slug,
            text=body,
            created=now,
            updated=now,
            name=name or slug,
            description=description,
            type=type,
            priority=priority,
            key=key or None,
            tags=tuple(sorted(set(tags))),
        )
        fmt = repo.format
        if fmt.name != "dreamgit":
            placed = fmt.place(memory, set(repo.store.files(tip)))
            changes = fmt.add(Texts(lambda p: repo.read_text(p, tip)), placed)
            made[:] = [next(m for m in _scan(repo, tip, changes, now) if m.id == placed.id)]
            written.clear()
            written.update(_encoded(changes))
            return dict(written)
        content = render_memory(memory)
        # Return the memory as it reads back (the file fills in the description).
        record = parse_memory_record(content, path=memory.path)
        made[:] = [memory_from_record(record, path=memory.path, now=now)]
        written.clear()
        written[memory.path] = content.encode("utf-8")
        return dict(written)

    def message() -> str:
        memory = made[0]
        trailers = findings_trailers(marked(written)) if redacted else ""
        return (
            f"add: {memory.id} {memory.path.removeprefix(layout.MEMORIES).removesuffix('.md')}\n\n"
            f"Dream-Op: add\nDream-Memory: {memory.id}\n{trailers}"
        ).rstrip("\n")

    repo.commit_main(message, build, now=now)
    return made[0]


def forget(repo: MemoryRepo, ids: Sequence[str], *, now: datetime) -> list[Memory]:
    """Remove memories from the active set in one commit; history keeps them."""
    if not ids:
        raise UserError("forget needs at least one memory id", hint="dreamgit forget ID…")
    gone: list[Memory] = []

    def build(tip: str | None) -> dict[str, bytes | None]:
        active = repo.snapshot(now=now, at=tip).by_id()
        missing = [i for i in ids if i not in active]
        if missing:
            raise NotFoundError(
                f"no active memory with id {', '.join(missing)}",
                hint="list ids with `dreamgit memories`",
            )
        gone[:] = [active[i] for i in dict.fromkeys(ids)]
        fmt = repo.format
        texts = Texts(lambda p: repo.read_text(p, tip))
        changes: dict[str, bytes | None] = {}
        for memory in gone:
            changes.update(texts.put(fmt.remove(texts, memory)))
        return changes

    listing = ", ".join(dict.fromkeys(ids))
    message = f"forget: {listing}\n\nDream-Op: forget\nDream-Memory: {listing}"
    repo.commit_main(message, build, now=now)
    return gone


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
    if repo.format.name != "dreamgit":
        raise UserError(
            f"restore of one memory is not available in the {repo.format.name} format yet",
            hint="undo the run or operation that removed it: `dreamgit revert RUN [--op N]`",
        )
    versions = removed_versions(repo, ident, now=now)
    if commit is not None:
        found = at_commit(repo, ident, commit, now=now, removed=versions)
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

    message = f"restore: {ident}\n\nDream-Op: restore\nDream-Memory: {ident}"
    repo.commit_main(message, build, now=now)
    return Restored(restored[0], found, tuple(versions))


def log_claude_sessions(
    repo: MemoryRepo, sessions: Sequence[ClaudeSession], *, now: datetime
) -> list[Session]:
    """Log the Claude Code sessions not logged yet, in one commit; returns the new ones.

    A session's id follows from Claude Code's own session id and its first time,
    so a session logged once is recognised on every later call and skipped.
    """
    result: list[Session] = []

    def build(tip: str | None) -> dict[str, bytes | None]:
        taken = repo.session_paths(tip)
        result.clear()
        changes: dict[str, bytes | None] = {}
        for found in sessions:
            created = found.created or now
            ident = session_id(created, "claude-code", found.id)
            if ident in taken:
                continue
            session = Session(
                ident,
                created,
                found.text,
                summary=f"Claude Code session {found.id}",
                tags=("claude-code",),
            )
            result.append(session)
            changes[session.path] = render_session(session).encode("utf-8")
        return changes

    def message() -> str:
        listing = ", ".join(s.id for s in result)
        return (
            f"log: {len(result)} Claude Code session(s)\n\nDream-Op: log\nDream-Session: {listing}"
        )

    repo.commit_main(message, build, now=now)
    return list(result)


def import_memories(
    repo: MemoryRepo, memories: Sequence[Memory], *, origin: str, now: datetime
) -> list[Memory]:
    """Write imported memories into the repository's format in one commit; returns them.

    A memory whose id is already active is skipped, so an import run twice adds
    nothing the second time. Ids, times, sources and priorities go where the
    format can hold them (front matter, or the sidecar under ``.dreamgit/``).
    """
    done: list[Memory] = []

    def build(tip: str | None) -> dict[str, bytes | None]:
        fmt = repo.format
        existing = set(repo.snapshot(now=now, at=tip).by_id())
        files = set(repo.store.files(tip))
        texts = Texts(lambda p: repo.read_text(p, tip))
        changes: dict[str, bytes | None] = {}
        done.clear()
        for memory in memories:
            if memory.id in existing:
                continue
            existing.add(memory.id)
            new = unplaced(memory)
            if fmt.name == "dreamgit":
                check_name(new.topic, what="topic")
                prefix = f"{layout.MEMORIES}{new.topic}/"
                slugs = {p[len(prefix) : -3] for p in files if p.startswith(prefix)}
                new = replace(new, slug=unique_slug(new.slug, slugs))
            placed = fmt.place(new, files)
            changes.update(texts.put(fmt.add(texts, placed)))
            files.add(placed.path)
            done.append(placed)
        return changes

    def message() -> str:
        listing = ", ".join(m.id for m in done)
        return (
            f"import: {len(done)} memories from {origin}\n\n"
            f"Dream-Op: import\nDream-Memory: {listing}"
        )

    repo.commit_main(message, build, now=now)
    return list(done)
