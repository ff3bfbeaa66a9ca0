"""The dream branch a run writes: one commit per operation, each scanned for credentials.

A run's operations become commits on ``dream/<run-id>``, starting at the main tip its
plan was made from; each commit's files and message go through the credential scan
first, in the repository's mode. Generated text (index, diary) repeats memory text,
which a hand-written file may have brought in unscanned, so it is redacted even in
refuse mode (what it repeats was refused already); the run record was redacted field
by field when it was made. The branch's tree grows commit by commit in one set of tree
builders (``gitstore.growing``): a commit reads back no folder the one before wrote.
"""

from __future__ import annotations

from datetime import datetime

from dreamgit.dream.trailers import operation_message
from dreamgit.dream.workset import Operation
from dreamgit.gitstore.growing import GrowingTree
from dreamgit.history.runs import GENERATED_OPS
from dreamgit.store import layout
from dreamgit.store.committer import with_trailers
from dreamgit.store.repo import MemoryRepo
from dreamgit.store.secrets import Finding, findings_trailers, scrub, scrub_message

__all__ = ["DreamBranch"]


class DreamBranch:
    """``dream/<run_id>`` as it grows from ``base``; ``tip`` is its newest commit."""

    def __init__(self, repo: MemoryRepo, *, run_id: str, base: str | None, now: datetime) -> None:
        self.run_id = run_id
        self.name = f"{layout.DREAM_BRANCH_PREFIX}{run_id}"
        self.tip = base
        self._store = repo.store
        self._who = repo.identity()
        self._mode = repo.secrets_mode()
        self._now = now
        #: The tree of ``tip`` as the branch's builders hold it (None: to be read again).
        self._tree: GrowingTree | None = None
        self._tree_at: str | None = None

    def commit(self, op: Operation) -> str:
        """Commit ``op`` on the branch, scanned; returns the new tip."""
        store, at = self._store, self.tip
        found: list[Finding] = []
        if op.op == "record" or self._mode == "off":
            changes = op.changes
        else:
            mode = "redact" if op.op in GENERATED_OPS else self._mode
            taken = lambda path: at is not None and store.read_path(at, path) is not None  # noqa: E731
            changes, found = scrub(op.changes, mode, taken=taken)
        message = scrub_message(operation_message(op, run_id=self.run_id), self._mode)
        tree = self._tree if self._tree is not None and self._tree_at == at else None
        if tree is None:
            tree = self._tree = store.growing_tree(at)
        self._tree_at = None  # written below: it holds ``at`` again only once committed
        self.tip = store.commit(
            self.name,
            parents=[at] if at else [],
            tree=tree.write(changes),
            message=with_trailers(message, findings_trailers(found)),
            who=self._who,
            when=self._now,
        )
        self._tree_at = self.tip
        return self.tip
