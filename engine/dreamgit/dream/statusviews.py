"""What a status read of one commit besides the memories, kept for the next process.

``dreamgit status`` reads a commit's sessions, run records, configuration, ``MEMORY.md``
and recall files through git, and the memories' figures from the derived store. All of
it but the memories, the time, the recall spool (and a work tree's edits, which the lean
path checks itself) is a fact about the commit: the full path
(:func:`dreamgit.dream.status.repo_status`) keeps it here, in the derived store's
database, as one row per commit (the report without what moves, the gate's figures, the
rules' texts a status evaluates, the dream branches it saw, and with a work tree the
committed files under the agent's paths but the memories), and the lean path
(:mod:`dreamgit.dream.leanstatus`) reads it back by the commit HEAD's branch is at, so a
process that finds it opens no git repository and parses no YAML. A write that changed
only memory files and ``MEMORY.md`` (an ``add``) carries its parent's row forward
(:func:`follow_status_view`). A row is read only by the dreamgit that wrote it with the
same bundled rules; only the latest rows are kept. It is a cache: deleting it
changes no answer.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dreamgit.recall.views import _writer as writer  # one stamp for every kept view
from dreamgit.store import layout
from dreamgit.store.derived import DerivedStore

if TYPE_CHECKING:
    from dreamgit.store.repo import MemoryRepo

__all__ = ["agent_files", "follow_status_view", "keep_status_view", "read_status_view"]

#: How many commits' rows are kept (the newest): a status asks about the tip.
_KEPT = 16

_TABLE = """
CREATE TABLE IF NOT EXISTS status_views (
    commit_id TEXT PRIMARY KEY, branch TEXT NOT NULL, written_by TEXT NOT NULL,
    data TEXT NOT NULL
)
"""


def keep_status_view(git_dir: Path, commit: str, branch: str, data: dict[str, Any]) -> None:
    """Keep ``data`` for ``commit`` (the tip of ``branch``). Quiet when the database
    cannot be written or the data would not come back the same."""
    try:
        text = json.dumps(data, ensure_ascii=False)
    except (TypeError, ValueError):
        return
    if json.loads(text) != data:
        return
    try:
        db = _connect(git_dir)
        try:
            db.execute("BEGIN IMMEDIATE")
            db.execute(
                "INSERT OR REPLACE INTO status_views VALUES (?, ?, ?, ?)",
                (commit, branch, writer(), text),
            )
            db.execute(
                "DELETE FROM status_views WHERE rowid NOT IN"
                " (SELECT rowid FROM status_views ORDER BY rowid DESC LIMIT ?)",
                (_KEPT,),
            )
            db.execute("COMMIT")
        finally:
            db.close()
    except (sqlite3.Error, OSError):
        return  # a cache that cannot be written costs only time


def read_status_view(git_dir: Path, commit: str, branch: str) -> dict[str, Any] | None:
    """The row kept for ``commit`` on ``branch`` by this dreamgit, or None."""
    path = DerivedStore(git_dir).path
    try:
        db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=10)
        try:
            row = db.execute(
                "SELECT branch, written_by, data FROM status_views WHERE commit_id = ?",
                (commit,),
            ).fetchone()
        finally:
            db.close()
    except sqlite3.Error:
        return None
    if row is None or row[0] != branch or row[1] != writer():
        return None
    data = json.loads(row[2])
    return data if isinstance(data, dict) else None


def follow_status_view(repo: MemoryRepo) -> None:
    """After a write of the branch: carry the row of the tip's first parent to the tip
    when the write changed only memory files (each added or changed, none removed) and
    ``MEMORY.md``: the count and topics grow by the added files, ``MEMORY.md``'s length
    (and, with a work tree, its blob id) is read again, the derived store is moved to the
    tip; all else a status reads of a commit is the same. Quiet when there is nothing to
    follow."""
    store, tip = repo.store, repo.tip()
    if tip is None or repo.format.name != "dreamgit":
        return
    parents = store.commit_info(tip).parents
    if not parents:
        return
    earlier = read_status_view(store.git_dir, parents[0], repo.branch)
    if earlier is None:
        return
    fmt = repo.format
    added: list[str] = []
    kept_files = dict(earlier.get("agent_files", {}))
    changes = store.tree_changes(store.tree_id(parents[0]), store.tree_id(tip), "")
    if not changes:
        return  # not a tree this store holds, or nothing changed
    for change in changes:
        if change.new is None:
            return  # a removal: the full path counts what is left
        if change.path == layout.INDEX:
            kept_files[change.path] = change.new
            continue
        if not fmt.memory_path(change.path) or change.path.count("/") != 2:
            return
        if change.old is None:
            added.append(change.path)
    tree = repo.sync_derived(tip)
    if tree is None:
        return
    report = dict(earlier["report"])
    report["memories"] += len(added)
    report["topics"] = sorted({*report["topics"], *(p.split("/")[1] for p in added)})
    gate = {**earlier["gate"], "memories": report["memories"]}
    index = repo.read_text(layout.INDEX, tip) or ""
    data = {**earlier, "tree": tree, "report": report, "gate": gate, "index_chars": len(index)}
    if "agent_files" in earlier:  # a work tree: its committed MEMORY.md moved with the write
        data["agent_files"] = kept_files
    keep_status_view(store.git_dir, tip, repo.branch, data)


def agent_files(prefixes: tuple[str, ...], files: Mapping[str, str]) -> dict[str, str]:
    """The committed files under the agent's paths (``prefixes``) but the memories (the
    derived store lists those) and their blob ids: what a clean work tree holds there."""
    return {
        path: blob
        for path, blob in files.items()
        if path.startswith(prefixes) and not path.startswith(layout.MEMORIES)
    }


def _connect(git_dir: Path) -> sqlite3.Connection:
    db = sqlite3.connect(DerivedStore(git_dir).path, timeout=10, isolation_level=None)
    try:
        db.execute(_TABLE)
    except BaseException:
        db.close()
        raise
    return db
