"""A memory repository: the git repository plus what dreamgit knows of its layout.

Reading takes a snapshot of the main branch's tip (memories, sessions, run
records, configuration) without a work tree, so bare repositories work the
same. Writing goes through :meth:`MemoryRepo.commit_main`, which builds the
change against the tip it read and retries on a race; in a repository whose
work tree has ``main`` checked out it first commits any uncommitted agent edits
and afterwards brings the files up to date without overwriting hand edits.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from dreamgit.clock import utcnow
from dreamgit.errors import (
    ConcurrentUpdateError,
    MemoryFileError,
    NotARepositoryError,
    NotFoundError,
    UserError,
)
from dreamgit.ids import memory_id
from dreamgit.model import Memory
from dreamgit.store import layout
from dreamgit.store.adopt import (
    Adopted,
    check_format,
    config_text,
    configured_branch,
    describe,
    redacted_paths,
    uncommitted_files,
)
from dreamgit.store.config import read_config
from dreamgit.store.formats import MemoryFormat, Source, get_format
from dreamgit.store.gitstore import GitStore, Identity, StaleTipError
from dreamgit.store.locks import exclusive
from dreamgit.store.memoryfile import (
    decode_text,
    memory_from_record,
    parse_memory_record,
)
from dreamgit.store.parsecache import ParseCache
from dreamgit.store.secrets import findings_trailers, scrub, secrets_mode

__all__ = ["MemoryRepo", "Snapshot"]

DEFAULT_IDENTITY = Identity("dreamgit", "dreamgit@localhost")
Changes = dict[str, bytes | None]


@dataclass
class Snapshot:
    """The memories at one commit: the readable ones and the files that could not be read."""

    commit: str | None
    memories: list[Memory]
    broken: list[MemoryFileError] = field(default_factory=list)

    def by_id(self) -> dict[str, Memory]:
        """Memories keyed by id."""
        return {m.id: m for m in self.memories}


class MemoryRepo:
    """An agent's memory as a git repository (bare or with a work tree)."""

    def __init__(self, store: GitStore) -> None:
        self.store = store
        self.branch = layout.MAIN
        self._cache = ParseCache(store.git_dir / "dreamgit" / "cache" / "memories.json")
        self._ids = ParseCache(store.git_dir / "dreamgit" / "cache" / "ids.json")
        self._config: tuple[str | None, dict[str, Any]] | None = None
        #: What ``init`` found in the folder and which format it chose (None after ``open``).
        self.adopted: Adopted | None = None

    # -- opening -------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | Path) -> MemoryRepo:
        """Open an existing memory repository, on the branch that holds its configuration."""
        repo = cls(GitStore.open(Path(path)))
        repo.branch = configured_branch(repo.store)
        return repo

    @classmethod
    def init(
        cls,
        path: str | Path,
        *,
        bare: bool = False,
        now: datetime | None = None,
        format: str | None = None,
    ) -> MemoryRepo:
        """Create a memory repository (or make an existing folder or git repository one).

        What the folder holds is taken in first, byte for byte, on the repository's
        own branch (see :mod:`dreamgit.store.adopt`); then one commit ``init`` adds
        the config naming the format and, for dreamgit's own layout without one, an
        empty index. :attr:`adopted` says what was found.
        """
        path, now = Path(path), now or utcnow()
        check_format(format)
        try:
            store = GitStore.open(path)
        except NotARepositoryError:
            store = GitStore.init(path, bare=bare)
        repo = cls(store)
        repo.branch = store.head_branch() or layout.MAIN
        if repo.read_text(layout.CONFIG) is not None:
            raise UserError(
                f"{path} is already a dreamgit memory repository",
                hint="use it as it is; `dreamgit status` shows what it holds",
            )
        found, adopted = uncommitted_files(store), None
        with repo._worktree_turn() as worktree:
            if found:
                before = repo.tip()
                listing = "\n".join(f"  {p}" for p in sorted(found))
                message = (
                    f"adopt: {len(found)} file(s) as they were\n\n{listing}\n\nDream-Op: adopt"
                )
                adopted = repo._retry(repo._commit_step(message, lambda _tip: found, now=now))
                if worktree:  # the files are already there: only git's index follows
                    repo._follow_worktree(fallback=before)
        redacted = redacted_paths(store.commit_info(adopted).message) if adopted else set()
        repo.adopted = describe(store, repo.tip(), repo.branch, format, redacted=redacted)
        files: dict[str, bytes | None] = {
            layout.CONFIG: config_text(repo.adopted.format, repo.branch).encode("utf-8")
        }
        if repo.adopted.format == "dreamgit" and repo.read_text(layout.INDEX) is None:
            files[layout.INDEX] = layout.EMPTY_INDEX.encode("utf-8")
        message = "init: dreamgit memory repository\n\nDream-Op: init"
        repo.commit_main(message, lambda _tip: files, now=now)
        return repo

    def require_initialised(self) -> None:
        """Raise a clear error when this git repository has no dreamgit configuration."""
        if self.read_text(layout.CONFIG) is None:
            where = self.store.workdir or self.store.git_dir
            raise NotARepositoryError(
                f"{where} is a git repository but not a dreamgit memory repository "
                f"(no {layout.CONFIG} on {self.branch})",
                hint=f"run `dreamgit init {where}` first",
            )

    # -- reading -------------------------------------------------------------------------

    def tip(self) -> str | None:
        """The main branch's current commit."""
        return self.store.tip(self.branch)

    def read_text(self, path: str, at: str | None = None) -> str | None:
        """A text file at ``at`` (default: the main tip), or None."""
        commit = at if at is not None else self.tip()
        data = self.store.read_path(commit, path)
        return None if data is None else data.decode("utf-8", errors="replace")

    def list_dir(self, prefix: str, at: str | None = None) -> dict[str, str]:
        """Text files directly under ``prefix``: file name → text."""
        commit = at if at is not None else self.tip()
        found = {}
        for path, blob in self.store.files(commit, prefix).items():
            name = path[len(prefix) :]
            if "/" not in name:
                found[name] = self.store.read(blob).decode("utf-8", errors="replace")
        return found

    @property
    def format(self) -> MemoryFormat:
        """The repository's memory format (``format:`` in the config)."""
        return get_format(self.config())

    def source(self, at: str | None) -> Source:
        """One commit's files as a format reads them."""
        return Source(
            files=self.store.files(at),
            read_blob=self.store.read,
            record=lambda path, blob: self._record(path, blob),
        )

    def config(self) -> dict[str, Any]:
        """The parsed ``.dreamgit/config.yaml`` at the main tip ({} when absent)."""
        tip = self.tip()
        if self._config is None or self._config[0] != tip:
            self._config = (tip, read_config(self.read_text(layout.CONFIG, tip)))
        return self._config[1]

    def secrets_mode(self) -> str:
        """How credentials in text about to be committed are handled (config ``secrets.mode``)."""
        return secrets_mode(self.config())

    def _redact_worktree(
        self,
        read: Mapping[str, bytes | None],
        scrubbed: Mapping[str, bytes | None],
        paths: set[str],
    ) -> None:
        """Write redacted agent files back in place, unless the agent changed them meanwhile."""
        workdir = self.store.workdir
        if workdir is None:
            return
        for path in sorted(paths):
            target, new = workdir / path, scrubbed[path]
            try:
                if new is None or target.read_bytes() != read[path]:
                    continue
            except OSError:
                continue
            tmp = target.with_name(f".{target.name}.{os.getpid()}.redact")
            tmp.write_bytes(new)
            os.replace(tmp, target)

    def identity(self) -> Identity:
        """Who commits: config ``author``, then ``GIT_AUTHOR_*``, then dreamgit itself."""
        author = self.config().get("author")
        if isinstance(author, dict) and author.get("name") and author.get("email"):
            return Identity(str(author["name"]), str(author["email"]))
        name, email = os.environ.get("GIT_AUTHOR_NAME"), os.environ.get("GIT_AUTHOR_EMAIL")
        if name and email:
            return Identity(name, email)
        return DEFAULT_IDENTITY

    def snapshot(self, *, now: datetime, at: str | None = None) -> Snapshot:
        """Every memory at ``at`` (default: the main tip); broken files are listed, not raised."""
        commit = at if at is not None else self.tip()
        fmt = self.format
        if fmt.name != "dreamgit":
            found, problems = fmt.scan(self.source(commit), now=now)
            self._cache.save(at_least=256)
            if fmt.strict and problems:
                raise problems[0]
            return Snapshot(commit, found, problems)
        files = self.store.files(commit, layout.MEMORIES)
        memories: list[Memory] = []
        broken: list[MemoryFileError] = []
        seen: dict[str, str] = {}
        for path, blob in files.items():
            try:
                memory = memory_from_record(self._record(path, blob), path=path, now=now)
            except MemoryFileError as exc:
                broken.append(exc)
                continue
            if memory.id in seen:
                broken.append(
                    MemoryFileError(
                        path,
                        f"has the same id {memory.id} as {seen[memory.id]}",
                        hint="give one of them a new id, or merge them",
                    )
                )
                continue
            seen[memory.id] = path
            memories.append(memory)
        self._cache.save(keep=set(files.values()))
        return Snapshot(commit, memories, broken)

    def memory_ids(self, at: str | None = None) -> set[str]:
        """Ids of the readable memory files at ``at``, without a full snapshot.

        A small blob → id cache answers for known files, so ``add`` stays fast in a
        fresh process; the few new files are parsed directly, many through the parse
        cache (which is then saved only when it grew a lot: saving rewrites it whole).
        """
        if self.format.name != "dreamgit":
            return {m.id for m in self.snapshot(now=utcnow(), at=at).memories}
        files = self.store.files(at, layout.MEMORIES)
        missing = [(path, blob) for path, blob in files.items() if self._ids.get(blob) is None]
        for path, blob in missing:
            self._ids.put(blob, self._file_id(path, blob, cached=len(missing) > 32))
        self._ids.save(keep=set(files.values()))
        self._cache.save(at_least=256)
        ids = set()
        for path, blob in files.items():
            known = self._ids.get(blob)
            if known is not False:
                ids.add(known or memory_id("path", path))
        return ids

    def _file_id(self, path: str, blob: str, *, cached: bool) -> str | bool:
        """The id a memory file states ("" when none), or False when it cannot be read."""
        try:
            if cached:
                return str(self._record(path, blob)["id"] or "")
            text = decode_text(self.store.read(blob), path=path)
            return str(parse_memory_record(text, path=path)["id"] or "")
        except MemoryFileError:
            return False

    def _record(self, path: str, blob: str) -> dict[str, Any]:
        cached = self._cache.get(blob)
        if cached is None:
            try:
                text = decode_text(self.store.read(blob), path=path)
                cached = {"ok": parse_memory_record(text, path=path)}
            except MemoryFileError as exc:
                cached = {"error": exc.reason, "line": exc.line, "hint": exc.hint}
            self._cache.put(blob, cached)
        if "ok" not in cached:
            raise MemoryFileError(path, cached["error"], line=cached["line"], hint=cached["hint"])
        return dict(cached["ok"])

    def memories(self, *, now: datetime, topic: str | None = None) -> list[Memory]:
        """Active memories at the main tip, optionally of one topic, ordered by path."""
        found = self.snapshot(now=now).memories
        return [m for m in found if topic is None or m.topic == topic]

    def get_memory(self, memory_id: str, *, now: datetime) -> Memory:
        """One active memory by id, or NotFoundError."""
        for memory in self.snapshot(now=now).memories:
            if memory.id == memory_id:
                return memory
        raise NotFoundError(
            f"no active memory with id {memory_id}",
            hint="list ids with `dreamgit memories`; a forgotten one comes back with "
            "`dreamgit restore ID`",
        )

    def session_paths(self, at: str | None = None) -> dict[str, str]:
        """Session id → path for every session file at ``at``."""
        from dreamgit.store.sessionfile import session_id_from_path

        commit = at if at is not None else self.tip()
        found = {}
        for path in self.store.files(commit, layout.SESSIONS):
            ident = session_id_from_path(path)
            if ident is not None:
                found[ident] = path
        if self.format.name != "dreamgit":
            found.update(self.format.evidence(self.source(commit)))
        return found

    # -- writing -------------------------------------------------------------------------

    @contextmanager
    def _worktree_turn(self) -> Iterator[bool]:
        """Take the writers' turn on main; yields whether main is checked out in a work tree.

        Compare-and-swap alone keeps every commit, but a slow step (a dream's
        three-way merge) could lose the race to a fast writer again and again;
        taking turns lets dreamgit's own writers through one at a time, while
        the compare-and-swap still guards against any other git writer.
        """
        with self.writers_turn():
            yield self.store.checked_out_branch() == self.branch

    @contextmanager
    def writers_turn(self) -> Iterator[None]:
        """Hold the writers' turn: dreamgit's other writers of this repository wait meanwhile."""
        with exclusive(self.store.git_dir / "dreamgit" / "writers.lock"):
            yield

    def commit_main(
        self,
        message: str | Callable[[], str],
        build: Callable[[str | None], Mapping[str, bytes | None]],
        *,
        now: datetime,
    ) -> str | None:
        """Commit what ``build(tip)`` returns on main by compare-and-swap; None when empty.

        ``build`` is called again with the new tip whenever another writer got
        there first, so the change is always made against what is really there.
        ``message`` may be a function, called after ``build``, when it names
        something ``build`` decided (a new id).
        """
        return self.advance_main(self._commit_step(message, build, now=now), now=now)

    def advance_main(
        self, step: Callable[[str | None], str | None], *, now: datetime
    ) -> str | None:
        """Move main with ``step(tip) -> new tip or None``, retried while it raises StaleTipError.

        Where main is checked out, uncommitted agent edits are committed first
        and the work tree follows afterwards, all under the work-tree lock.
        """
        with self._worktree_turn() as worktree:
            if worktree:
                # A writer that died between its commit and the file update left the
                # work tree behind; catch up first, or its change would look like a
                # hand edit and be committed back as one.
                self._follow_worktree(fallback=self.tip())
                self._commit_agent_edits(now)
            before = self.tip()
            new = self._retry(step)
            if worktree:
                self._follow_worktree(fallback=before)
            return new

    def _follow_worktree(self, *, fallback: str | None) -> None:
        """Bring the work tree from the commit it last showed (or ``fallback``) to the tip."""
        marker = self.store.git_dir / "dreamgit" / "worktree-shown"
        try:
            shown: str | None = marker.read_text(encoding="ascii").strip()
            self.store.tree_id(shown)
        except (OSError, KeyError, ValueError):  # no marker yet, or its commit is gone
            shown = fallback
        tip = self.tip()
        if tip is None or shown == tip:
            return
        self.store.sync_worktree(shown, tip)
        self._mark_shown(tip)

    def _mark_shown(self, commit: str) -> None:
        """Remember which commit the work tree's files show (the base of the next sync)."""
        marker = self.store.git_dir / "dreamgit" / "worktree-shown"
        marker.parent.mkdir(parents=True, exist_ok=True)
        tmp = marker.with_name(f"{marker.name}.{os.getpid()}.tmp")
        tmp.write_text(commit + "\n", encoding="ascii")
        os.replace(tmp, marker)

    def follow_rewrite(self, old_tip: str) -> None:
        """After history was rewritten: bring the work tree's files from ``old_tip`` to the tip.

        Call it with the writers' turn held, before anything looks for agent edits:
        files that still show ``old_tip`` would otherwise look changed by hand.
        """
        if self.store.checked_out_branch() != self.branch:
            return
        self._mark_shown(old_tip)
        self._follow_worktree(fallback=old_tip)

    def preview_agent_edits(self, now: datetime) -> str | None:
        """Main's tip with the uncommitted agent edits on top, as an unreferenced commit.

        ``review`` plans against this, so it shows what ``run`` (which commits
        the edits first) will do, while moving no ref and touching no file.
        """
        tip = self.tip()
        if self.store.checked_out_branch() != self.branch:
            return tip
        edits = self.store.worktree_edits(self.format.agent_paths)
        if not edits:
            return tip
        tree = self.store.build_tree(tip, edits)
        return self.store.commit_unreferenced(
            parents=[tip] if tip else [],
            tree=tree,
            message="preview: uncommitted agent edits",
            who=self.identity(),
            when=now,
        )

    def _commit_agent_edits(self, now: datetime) -> None:
        edits = self.store.worktree_edits(self.format.agent_paths)
        if not edits:
            return
        scrubbed, found = scrub(edits, self.secrets_mode())
        self._redact_worktree(edits, scrubbed, {f.path for f in found})
        edits = scrubbed
        listing = "\n".join(f"  {p}" for p in sorted(edits))
        message = (
            f"agent edits: {len(edits)} file(s) changed by hand\n\n{listing}\n\n"
            "Dream-Op: agent-edits"
        )
        self._retry(self._commit_step(message, lambda _tip: edits, now=now))

    def _commit_step(
        self,
        message: str | Callable[[], str],
        build: Callable[[str | None], Mapping[str, bytes | None]],
        *,
        now: datetime,
    ) -> Callable[[str | None], str | None]:
        def step(tip: str | None) -> str | None:
            changes = build(tip)
            if not changes:
                return None
            changes, found = scrub(changes, self.secrets_mode())
            tree = self.store.build_tree(tip, changes)
            if tip is not None and tree == self.store.tree_id(tip):
                return None
            text = message if isinstance(message, str) else message()
            return self.store.commit(
                self.branch,
                parents=[tip] if tip else [],
                tree=tree,
                message=with_trailers(text, findings_trailers(found)),
                who=self.identity(),
                when=now,
            )

        return step

    def _retry(self, step: Callable[[str | None], str | None]) -> str | None:
        jitter = random.Random(os.getpid())
        for attempt in range(200):
            try:
                return step(self.tip())
            except StaleTipError:
                time.sleep(jitter.uniform(0, min(0.002 * (attempt + 1), 0.05)))
        raise ConcurrentUpdateError(
            f"{self.branch} kept moving while this change was being written",
            hint="other writers are very busy; run the command again",
        )


def require_text(value: str | None, *, what: str) -> str:
    """``value`` when given and not blank, else a UserError naming ``what``."""
    if value is None or not value.strip():
        raise UserError(f"{what} is empty", hint=f"give some text for the {what}")
    return value


def with_trailers(message: str, trailers: str) -> str:
    """``message`` with more ``Dream-*`` trailer lines joined to its trailer paragraph."""
    if not trailers:
        return message
    body = message.rstrip("\n")
    last = body.rsplit("\n\n", 1)[-1]
    joined = "\n" if "\n\n" in body and last.startswith("Dream-") else "\n\n"
    return f"{body}{joined}{trailers}"
