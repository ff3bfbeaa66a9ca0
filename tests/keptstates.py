"""The states a kept reading cache (``store/keptframes.KeptReadings``) may be in before a
dream, shared by the kept-cache tests: filled by a review, damaged, written by other code,
holding rows this code cannot read back, removed. Each state is a function that puts one
repository's database of one kind in it; a dream after any of them must be a fresh one."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dreamgit.extract.frame import parse_frame
from dreamgit.store.repo import MemoryRepo
from dreamgit.store.sqlitecache import remove_database
from dreamkit import Seed, build_repo, forced_dream, invoke_json

Prepare = Callable[[MemoryRepo], None]
#: The states' names, in the order :func:`reading_states` gives them.
STATE_IDS = ["kept", "damaged", "other-code", "unreadable-rows", "removed"]


def kept_path(repo: MemoryRepo, kind: str) -> Path:
    """The database of the readings of ``kind`` in ``repo``'s git directory."""
    return repo.store.git_dir / "dreamgit" / "cache" / f"{kind}.sqlite3"


def reading_states(kind: str, *, rows: int, wrong: str, unreadable: str) -> list[Prepare]:
    """The five states of the ``kind`` database: after a review holding at least ``rows``
    readings; damaged; of other code with every value ``wrong``; every other row
    ``unreadable`` and the rest not JSON; removed after a review."""

    def reviewed(repo: MemoryRepo) -> None:
        forget_in_process_readings()
        invoke_json(repo, "review", "--force")
        with sqlite3.connect(kept_path(repo, kind)) as db:
            assert db.execute("SELECT count(*) FROM readings").fetchone()[0] >= rows

    def damaged(repo: MemoryRepo) -> None:
        reviewed(repo)
        path = kept_path(repo, kind)
        for suffix in ("-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        path.write_bytes(b"not a database, " * 64)

    def from_other_code(repo: MemoryRepo) -> None:
        reviewed(repo)
        with sqlite3.connect(kept_path(repo, kind)) as db:
            db.execute("UPDATE readings SET value = ?", (wrong,))
            db.execute("UPDATE meta SET value = 'other code' WHERE key = 'code'")

    def unreadable_rows(repo: MemoryRepo) -> None:
        reviewed(repo)
        with sqlite3.connect(kept_path(repo, kind)) as db:
            texts = [t for (t,) in db.execute("SELECT text FROM readings")]
            for k, text in enumerate(texts):
                value = "{broken" if k % 2 else unreadable
                db.execute("UPDATE readings SET value = ? WHERE text = ?", (value, text))

    def removed(repo: MemoryRepo) -> None:
        reviewed(repo)
        remove_database(kept_path(repo, kind))

    return [reviewed, damaged, from_other_code, unreadable_rows, removed]


def forget_in_process_readings() -> None:
    """Forget what this process has read already, as a fresh process would: every reading
    a dream then needs is asked of the kept database (or read afresh)."""
    parse_frame.cache_clear()


#: The dream of a fresh repository of each set of memories, made once a process: every
#: state of every kind is compared with the same one, so dreaming it again for each (five
#: states, four kinds) only spent the CPU of one more dream each time.
_FRESH: dict[tuple[Seed, ...], tuple[tuple[Any, ...], str]] = {}


def _fresh_dream(root: Path, memories: tuple[Seed, ...]) -> tuple[tuple[Any, ...], str]:
    """The dream of a fresh repository of ``memories`` (made under ``root`` the first time)."""
    if memories not in _FRESH:
        forget_in_process_readings()
        _FRESH[memories] = forced_dream(build_repo(root / "fresh", bare=True, memories=memories))
    return _FRESH[memories]


def same_dream_as_fresh(root: Path, memories: tuple[Seed, ...], prepare: Prepare) -> list[str]:
    """Dream a fresh repository of ``memories`` (once a process) and one ``prepare`` put in
    a state; assert they are the same dream (run id, operations, deferred work, tree); the
    rules of the fresh one's operations, for the caller to check the fixture exercises its
    cache."""
    fresh = _fresh_dream(root, memories)
    prepared = build_repo(root / "prepared", bare=True, memories=memories)
    prepare(prepared)
    forget_in_process_readings()
    assert forced_dream(prepared) == fresh
    return [rule for _op, _phase, rule, _m, _s in fresh[0][1]]
