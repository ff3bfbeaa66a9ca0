"""A memory's lineage: every commit that touched it, through merges and supersessions.

The commits on main (dream operations on merged branches included) carry
``Dream-Op``/``Dream-Memory`` trailers; agent edits list the paths they changed.
A merge links the survivor with what it absorbed and a supersession links the
newer memory with the one it retired, so the lineage of a memory is the history of
every memory linked to it that way, in both directions, oldest first, with the
memory's text after each step (None where the step took it out of the active set).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from dreamgit import trailers as tr
from dreamgit.clock import format_time
from dreamgit.errors import MemoryFileError, NotFoundError
from dreamgit.gitstore import CommitInfo
from dreamgit.ids import memory_id
from dreamgit.store import layout
from dreamgit.store.memoryfile import decode_text, parse_memory_record
from dreamgit.store.repo import MemoryRepo
from dreamgit.trailers import parse_trailers

__all__ = ["Step", "lineage"]

#: Operations that join two memories' histories.
LINKS = ("merge", "supersede")


@dataclass(frozen=True)
class Step:
    """One commit in a memory's life."""

    commit: str
    time: str
    memory: str
    op: str
    rule: str
    run: str
    relation: str
    text: str | None
    sources: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """The step as ``show --history --json`` lists it."""
        return {
            "commit": self.commit,
            "time": self.time,
            "memory": self.memory,
            "op": self.op,
            "rule": self.rule,
            "run": self.run,
            "relation": self.relation,
            "text": self.text,
            "sources": list(self.sources),
        }


@dataclass(frozen=True)
class _Event:
    info: CommitInfo
    op: str
    rule: str
    run: str
    ids: tuple[str, ...]
    paths: tuple[str, ...]


def lineage(repo: MemoryRepo, wanted: str) -> list[Step]:
    """Every step of ``wanted`` and of the memories merged with or superseding it, oldest first."""
    tip = repo.tip()
    events = _events(repo, tip) if tip is not None else []
    family = _family(events, wanted)
    reader = _Reader(repo)
    paths: dict[str, set[str]] = {}
    steps: list[Step] = []
    for event in events:
        members = [i for i in event.ids if i in family]
        if not members and event.op == "agent-edits":
            members = [i for i, known in paths.items() if known & set(event.paths)]
        for ident in members:
            known = paths.get(ident, set())
            text, sources, path = reader.after(
                event.info.id, ident, known, look_further=not _removes(event, ident)
            )
            if path is not None:
                paths.setdefault(ident, set()).add(path)
            steps.append(
                Step(
                    commit=event.info.id,
                    time=format_time_from(event.info.time),
                    memory=ident,
                    op=event.op,
                    rule=event.rule,
                    run=event.run,
                    relation=_relation(event, ident),
                    text=text,
                    sources=sources,
                )
            )
    if not steps:
        raise NotFoundError(
            f"memory {wanted} was never in this repository's history",
            hint="`dreamgit memories` lists ids; `git log --all` shows everything git has",
        )
    return steps


def format_time_from(seconds: int) -> str:
    """A commit time (seconds since the epoch) the way dreamgit writes times."""
    return format_time(datetime.fromtimestamp(seconds, UTC))


def _events(repo: MemoryRepo, tip: str) -> list[_Event]:
    events = []
    for info in reversed(list(repo.store.walk(tip))):
        trailers = parse_trailers(info.message)
        op = trailers.get(tr.OP, "")
        ids = tuple(i.strip() for i in trailers.get(tr.MEMORY, "").split(",") if i.strip())
        paths: tuple[str, ...] = ()
        if op == "agent-edits":
            paths = tuple(
                line.strip() for line in info.message.splitlines() if line.startswith("  ")
            )
        if ids or paths:
            rule = trailers.get(tr.RULE, op)
            events.append(_Event(info, op, rule, trailers.get(tr.RUN, ""), ids, paths))
    return events


def _family(events: list[_Event], wanted: str) -> set[str]:
    """``wanted`` and every memory linked to it by merges and supersessions, transitively."""
    family = {wanted}
    grew = True
    while grew:
        grew = False
        for event in events:
            if event.op in LINKS and family & set(event.ids) and not set(event.ids) <= family:
                family |= set(event.ids)
                grew = True
    return family


def _removes(event: _Event, ident: str) -> bool:
    """Whether the step takes ``ident`` out of the active set."""
    if event.op in ("prune", "forget"):
        return True
    return event.op in LINKS and ident != event.ids[0]


def _relation(event: _Event, ident: str) -> str:
    first, others = event.ids[0], event.ids[1:]
    if event.op == "merge":
        return f"absorbed {', '.join(others)}" if ident == first else f"merged into {first}"
    if event.op == "supersede":
        return f"supersedes {', '.join(others)}" if ident == first else f"superseded by {first}"
    return ""


class _Reader:
    """A memory's text after a commit: read at the paths it is known by, else found in the diff."""

    def __init__(self, repo: MemoryRepo) -> None:
        self._repo = repo
        self._parsed: dict[bytes, dict[str, Any] | None] = {}

    def after(
        self, commit: str, ident: str, known: set[str], *, look_further: bool
    ) -> tuple[str | None, tuple[str, ...], str | None]:
        """(text, sources, path) of ``ident`` as ``commit`` left it; text None when removed.

        Looking a known path up is cheap; only a memory met for the first time (or
        moved) costs a diff of the commit, which is what keeps a long lineage fast.
        """
        store = self._repo.store
        for path in sorted(known):
            data = store.read_path(commit, path)
            record = None if data is None else self._record(path, data)
            if record is not None and record["id"] == ident:
                return record["text"], tuple(record["sources"]), path
        if not look_further:  # the step took it out of the active set: nothing to find
            return None, (), None
        removed_from = None
        for change in store.changed_paths(commit):
            if not change.path.startswith(layout.MEMORIES):
                continue
            if change.new is not None:
                record = self._record(change.path, store.read(change.new))
                if record is not None and record["id"] == ident:
                    return record["text"], tuple(record["sources"]), change.path
            if change.old is not None and change.path in known:
                removed_from = change.path
        return None, (), removed_from

    def _record(self, path: str, data: bytes) -> dict[str, Any] | None:
        key = path.encode() + b"\0" + data
        if key not in self._parsed:
            try:
                record = parse_memory_record(decode_text(data, path=path), path=path)
                record["id"] = record["id"] or memory_id("path", path)
                self._parsed[key] = record
            except MemoryFileError:
                self._parsed[key] = None
        return self._parsed[key]
