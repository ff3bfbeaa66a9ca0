"""Which of the commits since the work tree's files were last brought up to date they follow.

The files follow dreamgit's own commits: those it staged in git's index itself (in
this process, or left staged by a holder of the index lock that was killed), and
those with a ``Dream-Op`` trailer. Any other commit was made by git or another tool:
git's own `git commit` commits its index and leaves the files to the person, and so
does dreamgit. (One made without the index is then undone in git's index, as `git
status` shows it, and the next write commits the files as they are, as `git commit
-a` would.) That matters where git's index and the files disagree. `git commit` reads
the index before it takes ``index.lock``, and writes what it read back under the lock
even when its compare-and-swap of the branch then fails; one that read the index just
before dreamgit staged a commit leaves an index without dreamgit's change, and the next
`git commit` drops that change from main. The files still hold it, and the next
dreamgit write commits them back as they are.

Where the tip does not descend from the commit the files show (history rewritten),
the files follow the whole difference.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from dreamgit import trailers as tr

if TYPE_CHECKING:
    from dreamgit.gitstore import GitStore

__all__ = ["Runs", "commit_runs"]


@dataclass(frozen=True)
class Runs:
    """The commits since the shown one, in runs along the first parents, oldest first."""

    #: ``(old, new)`` runs of dreamgit's commits: the files follow them.
    followed: list[tuple[str | None, str]] = field(default_factory=list)
    #: ``(old, new)`` runs of other commits: the files stay as they are.
    left: list[tuple[str | None, str]] = field(default_factory=list)


def commit_runs(store: GitStore, shown: str | None, tip: str, *, ours: Container[str] = ()) -> Runs:
    """The runs that bring the files from ``shown`` to ``tip``: dreamgit's commits (those
    in ``ours``, or with a ``Dream-Op`` trailer) to follow, and the others between them."""
    if shown is None or not store.is_ancestor(shown, tip):
        return Runs(followed=[(shown, tip)])
    chain = list(store.walk(tip, first_parent=True, hide=(shown,)))
    if not chain or chain[-1].parents[:1] != (shown,):
        return Runs(followed=[(shown, tip)])  # reached through a merge's other parent
    runs = Runs()
    last: list[tuple[str | None, str]] | None = None
    for commit in reversed(chain):  # each one's first parent is the one before
        dreamgit = commit.id in ours or tr.OP in tr.parse_trailers(commit.message)
        into = runs.followed if dreamgit else runs.left
        if into is last:
            into[-1] = (into[-1][0], commit.id)
        else:
            into.append((commit.parents[0], commit.id))
        last = into
    return runs
