"""The recall spool reaches main: the next writer commits this clone's signals as one batch.

A recall only spools its signal outside git (see ``store.signals``); the next
dreamgit writer of main commits what is spooled as one batch file, in the writers'
turn, and deletes the spool files once the batch is on main.
"""

from __future__ import annotations

from datetime import datetime

from dreamgit import trailers as tr
from dreamgit.store import layout, signals
from dreamgit.store.committer import Committer

__all__ = ["RecallFlusher"]


class RecallFlusher(Committer):
    """Commits the spooled recall signals on main, before the change a writer came to make."""

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
        files = [spool_file for spool_file, _data in spooled]
        lines = [data for _path, data in spooled]
        name = signals.batch_name(files, lines)
        message = f"recall: {len(lines)} recall signal(s) recorded\n\n" + tr.trailers(
            (tr.OP, "recall-signals"), (tr.SIGNALS, len(lines))
        )
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
