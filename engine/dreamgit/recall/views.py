"""What a recall reads of a commit besides the memory files, kept for the next process.

A recall at the main tip reads from git, besides the memories the derived store
indexes: the id the derived store holds them under (the ``memories/`` tree), the
recall counters and the configuration's recall sections (merged over the bundled
rules). The full path (:mod:`dreamgit.recall.search`) keeps them here once per commit,
in the derived store's database; the cached path (:mod:`dreamgit.recall.cached`) reads
them back by the commit HEAD's branch is at, so a process that finds them opens no git
repository and parses no YAML. A row is a fact about one commit and never changes;
the counters are kept per blob, one row per memory, so a recall reads only its hits'.
A row is read only by the dreamgit that wrote it, with the same bundled rules, and
only what survives a JSON round trip unchanged is kept: anything else is left to the
full path. It is a cache: deleting it changes no answer.
"""

from __future__ import annotations

import functools
import json
import sqlite3
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from dreamgit.packagefiles import package_files
from dreamgit.store import layout
from dreamgit.store.derived import DerivedStore
from dreamgit.store.signals import stats_from_dict, stats_to_dict
from dreamgit.version import __version__

if TYPE_CHECKING:
    from dreamgit.model import RecallStats
    from dreamgit.store.repo import MemoryRepo

__all__ = ["View", "counters_of", "follow_view", "keep_view", "read_view"]

#: How many commits back from main's tip a writer looks for a kept view to follow
#: (a dream's operations are one commit each).
_REACH = 256

_TABLES = """
CREATE TABLE IF NOT EXISTS recall_views (
    commit_id TEXT PRIMARY KEY, branch TEXT NOT NULL, tree TEXT NOT NULL,
    counters TEXT, sections TEXT NOT NULL, written_by TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS recall_counters (
    blob TEXT NOT NULL, id TEXT NOT NULL, stats TEXT NOT NULL, PRIMARY KEY (blob, id)
) WITHOUT ROWID;
"""


class View(NamedTuple):
    """One commit as recall reads it: its branch, the derived store's id of its memories,
    its recall counters' blob (None: no counters) and its merged recall sections."""

    branch: str
    tree: str
    counters: str | None
    sections: dict[str, Any]


def keep_view(repo: MemoryRepo, commit: str, tree: str, sections: dict[str, Any]) -> None:
    """Keep what a recall at ``commit`` (the tip of ``repo.branch``) read, once per commit.

    Quiet when the database cannot be written or the data would not come back the same:
    the next recall then takes the full path again.
    """
    try:
        text = json.dumps(sections, sort_keys=True)
    except (TypeError, ValueError):
        return  # a value JSON cannot hold (a date in the config): not kept
    if json.loads(text) != sections:
        return
    blob = repo.store.entry_id(commit, layout.RECALL_COUNTERS)
    try:
        with _open(repo.store.git_dir) as db:
            if db.execute(_HAS_VIEW, (commit, _writer())).fetchone() is not None:
                return
            db.execute("BEGIN IMMEDIATE")
            if blob is not None and not _has_counters(db, blob):
                rows = _counter_rows(blob, repo.recall_counters(commit))
                if rows is None:
                    db.execute("ROLLBACK")
                    return
                db.executemany("INSERT OR IGNORE INTO recall_counters VALUES (?, ?, ?)", rows)
            db.execute(
                # REPLACE: a view another dreamgit kept (before an upgrade) is never read
                # by this one, so it gives way, or this commit would never be cached.
                "INSERT OR REPLACE INTO recall_views VALUES (?, ?, ?, ?, ?, ?)",
                (commit, repo.branch, tree, blob, text, _writer()),
            )
            db.execute("COMMIT")
    except (sqlite3.Error, OSError):
        return  # a cache that cannot be written costs only time


def follow_view(repo: MemoryRepo) -> None:
    """After a write of main: keep the view of its new tip from the nearest kept view of
    an earlier commit of the branch, when the configuration between them is the same
    blob (its merged sections are then the same), with the derived store moved to the
    tip by the diff. The first recall after an ``add``, a ``forget`` or a dream then
    answers from the cached path; with no such view, the next recall keeps one.
    """
    tip = repo.tip()
    if tip is None:
        return
    nearest = _nearest_kept(repo, tip)
    if nearest is None:
        return
    commit, earlier = nearest
    if commit == tip or earlier.branch != repo.branch:
        return
    tree = repo.sync_derived(tip)
    if tree is not None:
        keep_view(repo, tip, tree, earlier.sections)


def _nearest_kept(repo: MemoryRepo, tip: str) -> tuple[str, View] | None:
    """The first commit of :func:`_first_parents` with a view this dreamgit kept, and
    that view; None when there is none (or no database to read).

    Asked commit by commit as the line is walked: after a write the parent's view is
    kept, so one step answers, where listing the whole line first read up to 256
    commits and trees.
    """
    try:
        with _open(repo.store.git_dir, read_only=True) as db:
            for commit in _first_parents(repo, tip):
                row = db.execute(_VIEW_OF, (commit,)).fetchone()
                view = None if row is None else _view_of(row)
                if view is not None:
                    return commit, view
    except sqlite3.Error:
        return None
    return None


def _first_parents(repo: MemoryRepo, tip: str) -> Iterator[str]:
    """``tip`` and its first parents back to the last with ``tip``'s config blob (main's
    own line, a merged dream's operations included), at most ``_REACH``; a parent a
    shallow clone does not hold ends the line."""
    store = repo.store
    config = store.entry_id(tip, layout.CONFIG)
    commit = tip
    yield commit
    for _ in range(_REACH - 1):
        try:
            parents = store.commit_info(commit).parents
            if not parents or store.entry_id(parents[0], layout.CONFIG) != config:
                return
        except KeyError:
            return
        commit = parents[0]
        yield commit


#: The kept view of one commit (branch, tree, counters, sections, written_by).
_VIEW_OF = (
    "SELECT branch, tree, counters, sections, written_by FROM recall_views WHERE commit_id = ?"
)


def _view_of(row: list[Any] | tuple[Any, ...]) -> View | None:
    """A view from its row (branch, tree, counters, sections, written_by), or None when
    another dreamgit wrote it."""
    if row[4] != _writer():
        return None
    sections = json.loads(row[3])
    return View(row[0], row[1], row[2], sections) if isinstance(sections, dict) else None


def read_view(git_dir: Path, commit: str) -> View | None:
    """The kept view of ``commit``, or None (none kept, kept by another dreamgit, or no
    database to read)."""
    try:
        with _open(git_dir, read_only=True) as db:
            row = db.execute(_VIEW_OF, (commit,)).fetchone()
    except sqlite3.Error:
        return None
    return None if row is None else _view_of(row)


def counters_of(git_dir: Path, blob: str | None, ids: list[str]) -> dict[str, RecallStats]:
    """The recall counters of ``ids`` in the counters file ``blob`` (those it holds).

    Raises sqlite3.Error when the database cannot be read.
    """
    if blob is None or not ids:
        return {}
    found: dict[str, RecallStats] = {}
    with _open(git_dir, read_only=True) as db:
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows = db.execute(
                f"SELECT id, stats FROM recall_counters WHERE blob = ? AND id IN ({marks})",
                [blob, *chunk],
            )
            found.update((ident, stats_from_dict(json.loads(text))) for ident, text in rows)
    return found


_HAS_VIEW = "SELECT 1 FROM recall_views WHERE commit_id = ? AND written_by = ?"


def _has_counters(db: sqlite3.Connection, blob: str) -> bool:
    found = db.execute("SELECT 1 FROM recall_counters WHERE blob = ? LIMIT 1", (blob,))
    return found.fetchone() is not None


def _counter_rows(blob: str, counters: dict[str, RecallStats]) -> list[tuple[str, str, str]] | None:
    """One row per memory, or None when a memory's counters would not read back the same."""
    rows = []
    for ident, stats in counters.items():
        data = stats_to_dict(stats)
        if stats_from_dict(data) != stats:
            return None
        rows.append((blob, ident, json.dumps(data)))
    return rows


class _open:
    """A connection to the derived store's database, with the views' tables; closed after."""

    def __init__(self, git_dir: Path, *, read_only: bool = False) -> None:
        path = DerivedStore(git_dir).path
        if read_only:  # never creates the file: a repository without one is answered by git
            self._db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=10)
        else:
            self._db = sqlite3.connect(path, timeout=10, isolation_level=None)
            try:
                self._db.executescript(_TABLES)
            except BaseException:
                self._db.close()
                raise

    def __enter__(self) -> sqlite3.Connection:
        return self._db

    def __exit__(self, *_: object) -> None:
        self._db.close()


@functools.cache
def _writer() -> str:
    """This dreamgit and its bundled rules: who may read a view (the sections merge them).

    Two checksums of the rules, not a cryptographic hash: this tells versions apart and
    guards against nobody, and hashlib's import (OpenSSL) costs a recall ~4 ms.
    """
    crc, adler = 0, 1
    for item in sorted(package_files("dreamgit.rules").iterdir(), key=lambda p: p.name):
        if item.name.endswith(".yaml"):
            chunk = item.name.encode() + b"\0" + item.read_bytes() + b"\0"
            crc, adler = zlib.crc32(chunk, crc), zlib.adler32(chunk, adler)
    return f"{__version__}:{crc:08x}{adler:08x}"
