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
from typing import TYPE_CHECKING

from dreamgit import trailers as tr

if TYPE_CHECKING:
    from dreamgit.gitstore import GitStore

__all__ = ["spans_to_follow"]


def spans_to_follow(
    store: GitStore, shown: str | None, tip: str, *, ours: Container[str] = ()
) -> list[tuple[str | None, str]]:
    """The ``(old, new)`` steps, oldest first, that bring the files from ``shown`` to ``tip``.

    Each step spans a run of dreamgit's commits along the first parents (those in
    ``ours``, or with a ``Dream-Op`` trailer); other commits between them are left out.
    """
    if shown is None or not store.is_ancestor(shown, tip):
        return [(shown, tip)]
    chain = list(store.walk(tip, first_parent=True, hide=(shown,)))
    if not chain or chain[-1].parents[:1] != (shown,):
        return [(shown, tip)]  # reached through a merge's other parent: follow it all
    steps: list[tuple[str | None, str]] = []
    for commit in reversed(chain):
        if commit.id not in ours and tr.OP not in tr.parse_trailers(commit.message):
            continue
        parent = commit.parents[0]
        if steps and steps[-1][1] == parent:
            steps[-1] = (steps[-1][0], commit.id)
        else:
            steps.append((parent, commit.id))
    return steps
