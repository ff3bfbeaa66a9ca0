"""The everyday writes: log a session, add, reinforce, forget and import memories.

Each is exactly one commit on main, made by compare-and-swap, whose message
names the operation and carries ``Dream-Op`` / ``Dream-Memory`` trailers so the
history can be searched (``store.restoring`` finds what ``forget`` removed that way).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime

from dreamgit import trailers as tr
from dreamgit.errors import NotFoundError, UserError
from dreamgit.ids import check_name, memory_id, session_id, slugify
from dreamgit.model import MEMORY_TYPES, PRIORITIES, Memory, Session
from dreamgit.store import layout
from dreamgit.store.activememory import active_memory
from dreamgit.store.formats import Source, Texts
from dreamgit.store.memoryfile import (
    memory_from_record,
    parse_memory_record,
    render_memory,
    rewrite_memory,
)
from dreamgit.store.repo import MemoryRepo, require_text
from dreamgit.store.secrets import clean_input, findings_trailers, marked, refuse_secret_name
from dreamgit.store.sessionfile import render_session
from dreamgit.store.transfer import unplaced

__all__ = [
    "add_memory",
    "encoded",
    "forget",
    "import_memories",
    "log_session",
    "reinforce",
    "scan_with",
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
        logged = tr.trailers((tr.OP, "log"), (tr.SESSION, result[0].id))
        return f"log: session {result[0].id}\n\n{logged}"

    repo.commit_main(message, build, now=now)
    return result[0]


def encoded(changes: Mapping[str, str | None]) -> dict[str, bytes | None]:
    return {p: None if t is None else t.encode("utf-8") for p, t in changes.items()}


def scan_with(
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
    require_text(text, what="memory")
    mode = repo.secrets_mode()
    _check_fields(topic, tags, priority=priority, type=type, mode=mode)
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
        salt = 0
        while repo.id_taken(ident := memory_id(topic, body, str(salt)), tip):
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
        if repo.format.name != "dreamgit":
            added, changes = _add_in_format(repo, tip, memory, now=now)
            made[:] = [added]
            written.clear()
            written.update(changes)
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
            + tr.trailers((tr.OP, "add"), (tr.MEMORY, memory.id))
            + f"\n{trailers}"
        ).rstrip("\n")

    repo.commit_main(message, build, now=now)
    return made[0]


def _check_fields(topic: str, tags: Sequence[str], *, priority: str, type: str, mode: str) -> None:
    """UserError when a new memory's topic, tags, priority or type cannot be used."""
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


def _add_in_format(
    repo: MemoryRepo, tip: str | None, memory: Memory, *, now: datetime
) -> tuple[Memory, dict[str, bytes | None]]:
    """``memory`` placed in another agent's format at ``tip``: as it reads back, and the
    files that change; UserError when the format has no room for it."""
    fmt = repo.format
    placed = fmt.place(memory, set(repo.store.files(tip)))
    texts = Texts(lambda p: repo.read_text(p, tip))
    changes = fmt.add(texts, placed)
    texts.put(changes)
    over = fmt.overflow(texts, changes)
    if over is not None:
        raise UserError(
            f"not added: {over}",
            hint="forget or shorten one of its entries first (`dreamgit memories`)",
        )
    added = next(m for m in scan_with(repo, tip, changes, now) if m.id == placed.id)
    return added, encoded(changes)


def reinforce(repo: MemoryRepo, ident: str, *, now: datetime, tags: Sequence[str] = ()) -> Memory:
    """Say again what active memory ``ident`` says: it is updated now and gains ``tags``,
    in one commit; no second memory is made. Returns it as it reads back."""
    for tag in tags:
        check_name(tag, what="tag")
    done: list[Memory] = []

    def build(tip: str | None) -> dict[str, bytes | None]:
        known = active_memory(repo, ident, tip, now=now)
        if known is None:
            raise NotFoundError(
                f"no active memory with id {ident}", hint="list ids with `dreamgit memories`"
            )
        new = replace(
            known, updated=max(known.updated, now), tags=tuple(sorted({*known.tags, *tags}))
        )
        texts = Texts(lambda p: repo.read_text(p, tip))
        changes: dict[str, str | None]
        if repo.format.name == "dreamgit":
            changes = {
                known.path: rewrite_memory(texts.get(known.path) or "", new, path=known.path)
            }
        else:
            changes = repo.format.update(texts, known, new)
        done[:] = [next((m for m in _scan_any(repo, tip, changes, now) if m.id == ident), new)]
        return encoded(changes)

    named = tr.trailers((tr.OP, "reinforce"), (tr.MEMORY, ident))
    message = f"reinforce: {ident} said again\n\n{named}"
    repo.commit_main(message, build, now=now)
    return done[0]


def _scan_any(
    repo: MemoryRepo, tip: str | None, changes: Mapping[str, str | None], now: datetime
) -> list[Memory]:
    """The memories at ``tip`` with ``changes`` on top, in any format."""
    if repo.format.name != "dreamgit":
        return scan_with(repo, tip, changes, now)
    found = []
    for path, text in changes.items():
        if text is not None and path.startswith(layout.MEMORIES):
            found.append(
                memory_from_record(parse_memory_record(text, path=path), path=path, now=now)
            )
    return found


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
            changes.update(texts.put(fmt.forget(texts, memory)))
        return changes

    listing = ", ".join(dict.fromkeys(ids))
    message = f"forget: {listing}\n\n" + tr.trailers((tr.OP, "forget"), (tr.MEMORY, listing))
    repo.commit_main(message, build, now=now)
    return gone


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
        return f"import: {len(done)} memories from {origin}\n\n" + tr.trailers(
            (tr.OP, "import"), (tr.MEMORY, listing)
        )

    repo.commit_main(message, build, now=now)
    return list(done)
