"""A dream's kept cache (a SQLite database under the git directory's ``dreamgit/cache``) put
in the states a dream must answer the same over: filled by a review, damaged, copied from
another repository, removed. Each test file adds the states only its cache has."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dreamgit.store.repo import MemoryRepo
from dreamgit.store.sqlitecache import remove_database
from dreamkit import Seed, build_repo, forced_dream, invoke_json


@dataclass(frozen=True)
class KeptCache:
    """The cache ``name`` of a repository made of ``memories``; ``filled`` is a query
    counting what a review keeps in it (at least one row)."""

    name: str
    memories: tuple[Seed, ...]
    filled: str

    def path(self, repo: MemoryRepo) -> Path:
        return repo.store.git_dir / "dreamgit" / "cache" / self.name

    def reviewed(self, repo: MemoryRepo) -> None:
        """A review before the run (a process of its own): the database holds its answer."""
        invoke_json(repo, "review", "--force")
        with sqlite3.connect(self.path(repo)) as db:
            assert db.execute(self.filled).fetchone()[0] >= 1

    def damaged(self, repo: MemoryRepo) -> None:
        """Reviewed, then overwritten with bytes that are no database."""
        self.reviewed(repo)
        for suffix in ("-wal", "-shm"):
            Path(f"{self.path(repo)}{suffix}").unlink(missing_ok=True)
        self.path(repo).write_bytes(b"not a database, " * 64)

    def from_another_store(self, repo: MemoryRepo, memories: tuple[Seed, ...]) -> None:
        """The cache of another repository (of ``memories``: some shared, some not)."""
        other = build_repo(repo.store.git_dir.parent / "other", bare=True, memories=memories)
        invoke_json(other, "review", "--force")
        shutil.copy(self.path(other), self.path(repo))

    def removed_after_review(self, repo: MemoryRepo) -> None:
        self.reviewed(repo)
        remove_database(self.path(repo))

    def dreamt(self, root: Path, prepare: Callable[[MemoryRepo], None] | None) -> tuple[Any, str]:
        """The forced dream of a repository of the memories, its cache put in a state first."""
        repo = build_repo(root / "repo.git", bare=True, memories=self.memories)
        if prepare is not None:
            self.path(repo).parent.mkdir(parents=True, exist_ok=True)
            prepare(repo)
        return forced_dream(repo)
