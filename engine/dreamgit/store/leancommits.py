"""git commits read and written as loose objects, byte for byte as libgit2 writes them.

A commit is ``tree ID``, a ``parent ID`` line per parent, ``author`` and ``committer``
lines (``NAME <EMAIL> SECONDS +0000``), a blank line and the message as given: the
bytes ``pygit2``'s ``create_commit`` writes for dreamgit's signatures (UTC, offset 0).
libgit2 trims and refuses some names and addresses (angle brackets, leading or trailing
punctuation or spaces): those are doubts here, as is a commit read with an ``encoding``
header or text that is not UTF-8, so the full path gives its own answer or error.
"""

from __future__ import annotations

import functools
import re
from datetime import datetime
from pathlib import Path
from typing import NamedTuple

from dreamgit.gitstore.values import CommitInfo, Identity
from dreamgit.store.leandoubt import Doubt
from dreamgit.store.leanobjects import read_kind, write_object

__all__ = ["Commit", "read_commit", "write_commit"]

#: What libgit2 trims off both ends of a name or address (``extract_trimmed``).
_CRUD = frozenset(".,:;<>\"\\'")
_PERSON = re.compile(rb"(?P<name>[^<>\n]*) <(?P<email>[^<>\n]*)> (?P<time>\d+) [+-]\d{4}")


class Commit(NamedTuple):
    """A commit's tree, and the rest as ``GitStore.commit_info`` gives it."""

    tree: str
    info: CommitInfo


@functools.lru_cache(maxsize=64)
def read_commit(git_dir: Path, commit: str) -> Commit:
    """The loose commit ``commit``: its tree, parents, message, time and author (kept
    for the process: an add asks for the same few commits dozens of times)."""
    body = read_kind(git_dir, commit, b"commit")
    head, blank, message = body.partition(b"\n\n")
    if not blank:
        raise Doubt(commit)
    tree, parents, people = "", [], {}
    for line in head.split(b"\n"):
        key, _, value = line.partition(b" ")
        if key == b"tree" and not tree:
            tree = value.decode("ascii", errors="replace")
        elif key == b"parent":
            parents.append(value.decode("ascii", errors="replace"))
        elif key in (b"author", b"committer") and key not in people:
            found = _PERSON.fullmatch(value)
            if found is None:
                raise Doubt(commit)
            people[key] = found
        elif key == b"encoding":
            raise Doubt(commit)
    if len(tree) != 40 or len(people) != 2:
        raise Doubt(commit)
    author = people[b"author"]
    try:
        info = CommitInfo(
            id=commit,
            parents=tuple(parents),
            message=message.decode("utf-8"),
            time=int(people[b"committer"]["time"]),
            author=f"{author['name'].decode('utf-8')} <{author['email'].decode('utf-8')}>",
        )
    except UnicodeDecodeError:
        raise Doubt(commit) from None
    return Commit(tree, info)


def write_commit(
    git_dir: Path,
    *,
    tree: str,
    parents: list[str],
    message: str,
    committer: Identity,
    author: Identity,
    when: datetime,
) -> str:
    """Store a commit as a loose object, as libgit2 writes it; its id."""
    seconds = int(when.timestamp())
    lines = [f"tree {tree}", *(f"parent {p}" for p in parents)]
    lines.append(f"author {_person(author)} {seconds} +0000")
    lines.append(f"committer {_person(committer)} {seconds} +0000")
    body = ("\n".join(lines) + "\n\n").encode("utf-8") + message.encode("utf-8")
    return write_object(git_dir, b"commit", body)


def _person(who: Identity) -> str:
    """``NAME <EMAIL>`` as libgit2 writes it, or a Doubt where it would change or refuse it."""
    for part in (who.name, who.email):
        if (
            not part
            or part[0] in _CRUD
            or part[-1] in _CRUD
            or ord(part[0]) <= 32
            or ord(part[-1]) <= 32
            or any(c in "<>\n\0" for c in part)
        ):
            raise Doubt(f"an identity libgit2 would trim or refuse: {part!r}")
    return f"{who.name} <{who.email}>"
