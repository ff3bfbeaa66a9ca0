"""The demo repository after several dreams, recalls between them: what a report shows."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from dreamgit.demo import build_demo
from dreamgit.store.repo import MemoryRepo
from dreamkit import invoke

__all__ = ["ROUNDS", "demo_after_runs"]

#: The session of each later night, and what the agent recalled that day.
ROUNDS = (
    ("User: I switched my editor from Neovim to Helix last week, Helix is my editor now.", "vim"),
    ("User: We moved the billing database from PostgreSQL to CockroachDB this sprint.", "billing"),
    ("User: Please always answer me in British English from now on.", "editor"),
)


def demo_after_runs(root: Path) -> tuple[MemoryRepo, datetime]:
    """``dreamgit demo`` at ``root``, then a recall, a session and a dream each night of
    :data:`ROUNDS`; the repository and a time after the last dream."""
    demo = build_demo(root)
    repo, when = demo.repo, demo.dreamed_at
    for session, query in ROUNDS:
        when += timedelta(days=1)
        for args in (("recall", query), ("log", session), ("run", "--force")):
            done = invoke(repo, *args, now=when)
            assert done.exit_code == 0, done.output
    return MemoryRepo.open(root), when + timedelta(hours=1)
