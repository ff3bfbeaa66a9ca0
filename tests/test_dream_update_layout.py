"""The newer-value check's layout kept between runs (``update-layout.sqlite3``) is a cache.

A dream keeps how its memories' frames fell into subjects and what each subject's
comparison found (``update_layout``), and a later run compares again only the subjects a
new, changed or removed memory touched. Whatever state the kept layout is in (kept by a
review, damaged, written by other code, unreadable, of another shape, laid out over other
memories, removed), a dream gives the same operations, run id and trees as on a fresh
repository; a reader in the middle of a writer's save sees the layout before it, whole.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from dreamgit.store.keptlayout import KeptLayout
from dreamgit.store.repo import MemoryRepo
from dreamgit.store.sqlitecache import remove_database
from dreamkit import build_repo, invoke_json
from keptstates import Prepare, forget_in_process_readings, kept_path, same_dream_as_fresh
from test_dream_kept_counts import COUNTS
from test_dream_kept_updates import UPDATES

_KIND = "update-layout"


def _reviewed(repo: MemoryRepo) -> Path:
    """Review ``repo`` (which keeps its layout); the layout's database."""
    forget_in_process_readings()
    invoke_json(repo, "review", "--force")
    path = kept_path(repo, _KIND)
    with sqlite3.connect(path) as db:
        (value,) = db.execute("SELECT value FROM layout WHERE part = 'members'").fetchone()
    assert json.loads(value)
    return path


def _set(path: Path, value: str) -> None:
    """Every part of the kept layout (but its version) set to ``value``."""
    with sqlite3.connect(path) as db:
        db.execute("UPDATE layout SET value = ? WHERE part != 'v'", (value,))


def kept(repo: MemoryRepo) -> None:
    _reviewed(repo)


def damaged(repo: MemoryRepo) -> None:
    path = _reviewed(repo)
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    path.write_bytes(b"not a database, " * 64)


def from_other_code(repo: MemoryRepo) -> None:
    """Another code's layout, which says no subject found anything."""
    path = _reviewed(repo)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE layout SET value = '{}' WHERE part = 'found'")
        db.execute("UPDATE meta SET value = 'other code' WHERE key = 'code'")


def unreadable(repo: MemoryRepo) -> None:
    _set(_reviewed(repo), "{broken")


def of_another_shape(repo: MemoryRepo) -> None:
    """JSON of this version whose parts are not what the layout holds."""
    _set(_reviewed(repo), json.dumps({"x": 1}))


def of_other_memories(repo: MemoryRepo) -> None:
    """The layout a review of a repository of other memories kept: the run moves it."""
    other = build_repo(repo.store.git_dir.parent / "other", bare=True, memories=COUNTS[:-1])
    source = _reviewed(other)
    target = kept_path(repo, _KIND)
    target.parent.mkdir(parents=True, exist_ok=True)
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{source}{suffix}").exists():
            shutil.copy(f"{source}{suffix}", f"{target}{suffix}")


def removed(repo: MemoryRepo) -> None:
    remove_database(_reviewed(repo))


STATES: list[Prepare] = [
    kept,
    damaged,
    from_other_code,
    unreadable,
    of_another_shape,
    of_other_memories,
    removed,
]


@pytest.mark.parametrize("prepare", STATES, ids=[p.__name__ for p in STATES])
def test_a_dream_gives_the_same_operations_and_trees_whatever_the_kept_layout(
    tmp_path: Path, prepare: Prepare
) -> None:
    """Kept, damaged, foreign, unreadable, misshapen, stale or removed: a fresh dream."""
    rules = same_dream_as_fresh(tmp_path, UPDATES, prepare)
    assert rules.count("supersede-newer-value") >= 2


@pytest.mark.parametrize("prepare", [kept, of_other_memories], ids=["kept", "of_other_memories"])
def test_a_dream_gives_the_same_count_changes_whatever_the_kept_layout(
    tmp_path: Path, prepare: Prepare
) -> None:
    """The count check's part of the layout, kept or laid out over other memories: the
    dream of a fresh repository."""
    rules = same_dream_as_fresh(tmp_path, COUNTS, prepare)
    assert rules.count("supersede-newer-value") >= 2


def test_a_reader_sees_the_layout_before_a_save_whole(tmp_path: Path) -> None:
    """A reader inside its read transaction keeps the layout it began with while another
    process saves a new one; the next read sees the new one."""
    kept_layout = KeptLayout(tmp_path, fingerprint="code")
    kept_layout.save({"v": "first", "members": "{}"})
    reader = sqlite3.connect(kept_layout.path, isolation_level=None)
    try:
        reader.execute("BEGIN")
        first = reader.execute("SELECT part, value FROM layout ORDER BY part").fetchall()
        KeptLayout(tmp_path, fingerprint="code").save({"v": "second"})
        assert reader.execute("SELECT part, value FROM layout ORDER BY part").fetchall() == first
        reader.execute("COMMIT")
    finally:
        reader.close()
    assert first == [("members", "{}"), ("v", "first")]
    assert kept_layout.load() == {"v": "second"}  # a part the new layout lacks is gone
    assert KeptLayout(tmp_path, fingerprint="other code").load() is None
