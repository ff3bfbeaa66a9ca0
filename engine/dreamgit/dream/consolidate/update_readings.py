"""What each memory says to compare for updates, read once, then kept between runs.

The newer-value check (``update.py``) groups every active memory's frames by subject
(``update_frames``): restating the text as a fact, framing it and its later clauses,
looking for a promotion. Over 100,000 memories that reading was half of consolidation,
and all but the new and changed memories read as in the run before. What a memory says
depends on its text alone and on the code. Inside :func:`keeping_readings` (opened with
the kept updates, ``update_memo``) a text's reading is taken from the kept ones
(``update-readings.sqlite3`` in the git directory, tagged with a fingerprint of the
consolidation and framing code), and the ones read anew are saved when the block ends.
Outside it every memory is read afresh. Same answers either way.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import AbstractContextManager
from contextvars import ContextVar
from pathlib import Path

from dreamgit.dream.consolidate.frame_memo import FrameCodec, frame_codec, keeping, read_through
from dreamgit.extract.frame import Frame

__all__ = ["FOUND_BY", "Reading", "keeping_readings", "kept_reading"]

#: What one memory says to compare: its frames, and when it tells of a promotion the
#: sentence's frame and the role's words (else None and nothing).
Reading = tuple[list[Frame], Frame | None, frozenset[str]]

#: The source a reading and an update depend on (relative to the package).
FOUND_BY = ("extract", "textsim.py", "lazyre.py", "model.py", "dream/consolidate")

_KEEPER: ContextVar[Callable[[str, Callable[[str], Reading]], Reading] | None] = ContextVar(
    "dreamgit_update_readings", default=None
)


class _ReadingCodec:
    """A reading as JSON: ``[[frame, …], sentence or null, [role word, …]]``, each frame
    as ``frame_memo`` keeps one."""

    def __init__(self, frames: FrameCodec) -> None:
        self._frames = frames

    def encode(self, reading: Reading) -> str:
        frames, sentence, role = reading
        values = [[self._frames.values(f) for f in frames], self._frames.values(sentence)]
        return json.dumps([*values, sorted(role)], ensure_ascii=False)

    def decode(self, text: str) -> Reading:
        values = json.loads(text)
        if not isinstance(values, list) or len(values) != 3:
            raise ValueError("a kept reading of another shape")
        frames, sentence, role = values
        if not isinstance(frames, list) or not isinstance(role, list):
            raise ValueError("a kept reading of another shape")
        found = [self._frames.frame(f) for f in frames]
        if None in found or not all(isinstance(w, str) for w in role):
            raise ValueError("a kept reading of another shape")
        return [f for f in found if f is not None], self._frames.frame(sentence), frozenset(role)


def kept_reading(text: str, read: Callable[[str], Reading]) -> Reading:
    """``read(text)``, or what it gave for the same text before."""
    keeper = _KEEPER.get()
    return read(text) if keeper is None else keeper(text, read)


def keeping_readings(git_dir: Path) -> AbstractContextManager[None]:
    """Take memories' readings from those kept in ``git_dir``; save the new ones at the end
    (every memory read afresh when a frame cannot be kept as JSON or the code cannot be
    read to fingerprint it)."""
    frames = frame_codec()
    codec = None if frames is None else _ReadingCodec(frames)
    return keeping(git_dir, FOUND_BY, "update-readings", codec, _KEEPER, read_through)
