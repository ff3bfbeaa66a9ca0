"""What the store hands out and takes in: commits, changed paths, who commits, a moved tip.

Plain records with no pygit2 in them, so they can be named without git at hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from dreamgit.errors import StaleTipError

__all__ = ["EMPTY_TREE", "Change", "CommitInfo", "Identity", "StaleTipError"]

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"


@dataclass(frozen=True)
class Identity:
    """Who commits: a name and an e-mail address."""

    name: str
    email: str


@dataclass(frozen=True)
class CommitInfo:
    """What the history commands need of one commit."""

    id: str
    parents: tuple[str, ...]
    message: str
    time: int
    author: str

    @property
    def subject(self) -> str:
        """The first line of the message."""
        return self.message.split("\n", 1)[0]


@dataclass(frozen=True)
class Change:
    """One path that differs between two commits (a blob id is None where absent)."""

    path: str
    old: str | None
    new: str | None
