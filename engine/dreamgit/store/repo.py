"""A memory repository: the git repository plus what dreamgit knows of its layout.

Reading takes a snapshot of the main branch's tip (memories, sessions, run
records, configuration) without a work tree, so bare repositories work the
same. Writing goes through :meth:`MemoryRepo.commit_main`, which builds the
change against the tip it read and retries on a race; in a repository whose
work tree has ``main`` checked out it first commits any uncommitted agent edits
and afterwards brings the files up to date without overwriting hand edits.
"""

from __future__ import annotations

import dataclasses
import os
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
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
from dreamgit.model import Memory, RecallStats
from dreamgit.store import layout, signals
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
from dreamgit.store.indexing import Indexer, tree_with_index
from dreamgit.store.locks import exclusive
from dreamgit.store.memoryfiles import MemoryFiles
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
        self._files = MemoryFiles(store)
        self._config: tuple[str | None, dict[str, Any]] | None = None
        self._counters: tuple[str | None, dict[str, RecallStats]] = (None, {})
        #: What ``init`` found in the folder and which format it chose (None after ``open``).
        self.adopted: Adopted | None = None
        #: Renders MEMORY.md for a commit (None: already right). Set by the layers that
        #: know the rules (the command line, the API, a dream), so that every commit
        #: changing memories carries the index that lists them.
        self.indexer: Indexer | None = None

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

    @classmethod
    def open_or_init(
        cls, path: str | Path, *, bare: bool = False, now: datetime | None = None
    ) -> MemoryRepo:
        """Open the memory repository at ``path``, creating it first when it is not one."""
        try:
            repo = cls(GitStore.open(Path(path)))
        except NotARepositoryError:
            return cls.init(path, bare=bare, now=now)
        if repo.read_text(layout.CONFIG) is None:
            return cls.init(path, bare=bare, now=now)
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
            record=self._files.record,
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
            self._files.save()
            if fmt.strict and problems:
                raise problems[0]
            return Snapshot(commit, self._overlay_recalls(found, commit), problems)
        memories, broken = self._files.read(self.store.files(commit, layout.MEMORIES), now=now)
        return Snapshot(commit, self._overlay_recalls(memories, commit), broken)

    def _overlay_recalls(self, memories: list[Memory], commit: str | None) -> list[Memory]:
        counters = self.recall_counters(commit)
        if not counters:
            return memories
        return [_with_recalls(m, counters.get(m.id)) for m in memories]

    def recall_counters(self, at: str | None = None) -> dict[str, RecallStats]:
        """Each memory's folded recall counters at ``at`` (default: the main tip)."""
        commit = at if at is not None else self.tip()
        blob = self.store.entry_id(commit, layout.RECALL_COUNTERS)
        if blob != self._counters[0]:
            text = None if blob is None else self.store.read(blob).decode("utf-8", "replace")
            self._counters = (blob, signals.parse_counters(text)[0])
        return self._counters[1]

    def memory_ids(self, at: str | None = None) -> set[str]:
        """Ids of the readable memory files at ``at``, without a full snapshot.

        A small blob → id cache answers for known files, so ``add`` stays fast in a
        fresh process; the few new files are parsed directly, many through the parse
        cache (which is then saved only when it grew a lot: saving rewrites it whole).
        """
        if self.format.name != "dreamgit":
            return {m.id for m in self.snapshot(now=utcnow(), at=at).memories}
        return self._files.ids(self.store.files(at, layout.MEMORIES))

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
    def _index_turn(self, worktree: bool) -> Iterator[None]:
        """Hold git's index lock where main is checked out (see ``GitStore.index_locked``)."""
        if not worktree:
            yield
            return
        with self.store.index_locked():
            yield

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
        with self._worktree_turn() as worktree, self._index_turn(worktree):
            if worktree:
                # A writer that died between its commit and the file update left the
                # work tree behind; catch up first, or its change would look like a
                # hand edit and be committed back as one.
                self._follow_worktree(fallback=self.tip())
                self._commit_agent_edits(now)
            before = self.tip()
            self._commit_spooled_recalls(now)
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
        committed = self._retry(self._commit_step(message, lambda _tip: edits, now=now))
        if committed is not None:
            # The files already show this commit: the next sync starts from it, or the
            # edited files would look changed by hand again and be left in place.
            self._mark_shown(committed)

    def _commit_spooled_recalls(self, now: datetime) -> None:
        """Commit this clone's spooled recall signals as one batch, then drop them from the spool.

        Runs in the writers' turn, so no other dreamgit writer takes the same
        files; a spool file is deleted only once its batch is on main.
        """
        git_dir = self.store.git_dir
        signals.recover_flush(git_dir, lambda name: self._batch_landed(name))
        spooled = signals.read_spool(git_dir)
        if not spooled:
            return
        lines = [data for _path, data in spooled]
        name = signals.batch_name(lines)
        message = (
            f"recall: {len(lines)} recall signal(s) recorded\n\n"
            f"Dream-Op: recall-signals\nDream-Signals: {len(lines)}"
        )
        files = [spool_file for spool_file, _data in spooled]
        signals.begin_flush(git_dir, name, files)
        path = layout.RECALL_SIGNALS + name
        self._retry(self._commit_step(message, lambda _tip: {path: b"".join(lines)}, now=now))
        signals.finish_flush(git_dir, files)

    def _batch_landed(self, name: str) -> bool:
        """Whether a batch of signals is on main, or was folded from it already."""
        tip = self.tip()
        if self.store.read_path(tip, layout.RECALL_SIGNALS + name) is not None:
            return True
        return name in signals.parse_counters(self.read_text(layout.RECALL_COUNTERS, tip))[1]

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
            tree = self.with_index(tree, changes, parents=[tip] if tip else [], now=now)
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

    def with_index(
        self,
        tree: str,
        changes: Mapping[str, bytes | None] | None,
        *,
        parents: Sequence[str],
        now: datetime,
    ) -> str:
        """``tree`` with MEMORY.md rendered for its memories (see ``store.indexing``)."""
        return tree_with_index(
            self.store,
            self.indexer,
            tree,
            changes=changes,
            parents=parents,
            who=self.identity(),
            when=now,
        )

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


def _with_recalls(memory: Memory, stats: RecallStats | None) -> Memory:
    """``memory`` with its folded recall counters (front-matter recalls plus recorded ones)."""
    if stats is None:
        return memory
    return dataclasses.replace(memory, recall=stats, recalls=memory.recalls + stats.count)


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
