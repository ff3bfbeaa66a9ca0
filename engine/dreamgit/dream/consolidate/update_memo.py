"""Each subject's newer-value updates found once, then kept between runs.

The newer-value check (``update.py``) compares, subject by subject, each memory with a
bounded number of earlier ones about the same subject and what that subject owns; over
10,000 memories that is a fifth of consolidation, and all but the subjects a new or
changed memory joined answer as in the run before. What one subject's comparison finds
depends on the memories it compares alone (their ids, times and texts, in their order:
a frame is a function of the text) and on the code. Inside :func:`keeping_updates` (the
dream's plan opens it) a subject's updates are taken from the kept ones under a digest of
those inputs (``subject-updates.sqlite3`` in the git directory, tagged with a fingerprint
of the consolidation and framing code), and the ones found anew are saved when the block
ends. Outside it every subject is compared afresh. Same answers either way. The block
also keeps the check's layout (``update_layout``), which asks for a subject's
comparison only when a new, changed or removed memory touched it or a subject tied to it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from dreamgit.dream.consolidate.frame_memo import Memo, keeping
from dreamgit.dream.consolidate.update_kept import keeping_layout
from dreamgit.dream.consolidate.update_layout import Found
from dreamgit.dream.consolidate.update_readings import FOUND_BY, keeping_readings
from dreamgit.jsontext import as_json
from dreamgit.model import Memory

__all__ = ["Found", "InputDigest", "keeping_updates", "kept_updates"]

_KEEPER: ContextVar[Memo[list[Found]] | None] = ContextVar("dreamgit_subject_updates", default=None)


class _FoundCodec:
    """A subject's updates as a JSON list of four strings each, and back."""

    def encode(self, found: list[Found]) -> str:
        return as_json([list(f) for f in found])

    def decode(self, text: str) -> list[Found]:
        values = json.loads(text)
        if not isinstance(values, list) or not all(
            isinstance(v, list) and len(v) == 4 and all(isinstance(x, str) for x in v)
            for v in values
        ):
            raise ValueError("kept updates of another shape")
        return [(old, new, reason, named) for old, new, reason, named in values]


class InputDigest:
    """Digests of what one subject's comparison reads: each memory's id, time and text
    (computed once per memory), and for a subject the sequence of its inputs."""

    def __init__(self) -> None:
        self._of: dict[int, str] = {}

    def memory(self, memory: Memory) -> str:
        found = self._of.get(id(memory))
        if found is None:
            text = f"{memory.id}\x1f{memory.created.isoformat()}\x1f{memory.text}"
            found = hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()
            self._of[id(memory)] = found
        return found

    def of(self, subject: frozenset[str], parts: Iterable[Sequence[tuple[Memory, object]]]) -> str:
        """The digest of ``subject`` and each part's memories, in their order."""
        digest = hashlib.sha1("\x1f".join(sorted(subject)).encode(), usedforsecurity=False)
        for part in parts:
            digest.update(b"\x1e")
            digest.update("".join(self.memory(m) for m, _frame in part).encode())
        return digest.hexdigest()


def kept_updates(key: Callable[[], str], find: Callable[[], list[Found]]) -> list[Found]:
    """``find()``, or what it found for the same inputs (their digest ``key()``) before."""
    memo = _KEEPER.get()
    if memo is None:
        return find()
    return memo.read(key(), lambda _key: find())


@contextmanager
def keeping_updates(git_dir: Path) -> Iterator[None]:
    """Take subjects' updates, and what each memory says to compare
    (``update_readings``), from those kept in ``git_dir``; save the new ones at the end
    (every subject compared afresh when the code cannot be read to fingerprint it)."""
    with (
        keeping_readings(git_dir),
        keeping(git_dir, FOUND_BY, "subject-updates", _FoundCodec(), _KEEPER, _itself),
        keeping_layout(git_dir),
    ):
        yield


def _itself(memo: Memo[list[Found]]) -> Memo[list[Found]]:
    return memo
