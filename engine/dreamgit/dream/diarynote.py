"""After ``dreamgit merge``: the run's diary entry says it was merged, when and how.

A run left for review wrote its entry on its branch before anyone reviewed it, so
the entry says "Left on `dream/…` for review". The merge brings that entry to main
unchanged; this commit, right after it, makes it say what happened instead.
"""

from __future__ import annotations

from datetime import datetime

from dreamgit.dream.diary import mark_merged
from dreamgit.store import layout
from dreamgit.store.repo import MemoryRepo

__all__ = ["note_merged"]


def note_merged(repo: MemoryRepo, run_id: str, *, how: str, now: datetime) -> str | None:
    """Commit DREAMS.md with run ``run_id`` marked merged; the commit, or None if unchanged."""

    def build(tip: str | None) -> dict[str, bytes | None]:
        existing = repo.read_text(layout.DIARY, tip)
        marked = None if existing is None else mark_merged(existing, run_id, how=how, when=now)
        return {} if marked is None else {layout.DIARY: marked.encode("utf-8")}

    message = f"diary: run {run_id} merged after review\n\nDream-Op: diary\nDream-Run: {run_id}\n"
    return repo.commit_main(message, build, now=now)
