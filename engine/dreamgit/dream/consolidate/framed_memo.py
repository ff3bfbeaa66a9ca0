"""What the newer-value check reads of each memory, read once, then kept between runs.

The newer-value check (``update_frames.frames_by_subject``) reads every active memory:
its fact (``as_fact``), the frame of that sentence and of its later clauses, and a
promotion it says. Over 100,000 memories that was the largest part of consolidation,
and all but the new and changed memories read as in the run before. What one memory
reads as is a function of its text and of the code, so inside :func:`keeping_framed`
(the dream's plan opens it) a memory's reading is taken from those kept in the git
directory (``framed.sqlite3``, tagged with a fingerprint of the framing and consolidation
code) under its text, one row a memory, and the readings made anew are saved when the
block ends. Outside it every memory is read afresh. Same answers either way.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import AbstractContextManager
from contextvars import ContextVar
from pathlib import Path

from dreamgit.dream.consolidate.frame_memo import FrameCodec, frame_codec, keeping, read_through
from dreamgit.extract.frame import Frame

__all__ = ["Reading", "keeping_framed", "kept_reading"]

#: One memory as the newer-value check reads it: the frame of its sentence, the frames
#: it says of its subjects, and the words of a role it says its subject was promoted to.
Reading = tuple[Frame | None, list[Frame], frozenset[str]]

#: The source a reading depends on (relative to the package): framing, ``as_fact``.
_READ_BY = ("extract", "textsim.py", "lazyre.py", "dream/consolidate")

_KEEPER: ContextVar[Callable[[str, Callable[[str], Reading]], Reading] | None] = ContextVar(
    "dreamgit_framed", default=None
)


class _ReadingCodec:
    """A reading as a JSON list: the sentence's frame, the frames, the role's words."""

    def __init__(self, frames: FrameCodec) -> None:
        self._frames = frames

    def encode(self, reading: Reading) -> str:
        sentence, frames, role = reading
        # the sentence's frame is most often one of the frames: kept once, named by place
        place = next((k for k, f in enumerate(frames) if f is sentence), None)
        said = place if place is not None else self._frames.values(sentence)
        values = [said, [self._frames.values(f) for f in frames], sorted(role)]
        return json.dumps(values, ensure_ascii=False)

    def decode(self, text: str) -> Reading:
        values = json.loads(text)
        if not isinstance(values, list) or len(values) != 3:
            raise ValueError("a kept reading of another shape")
        said, frames, role = values
        if not isinstance(frames, list) or not isinstance(role, list):
            raise ValueError("a kept reading of another shape")
        read = [self._frames.frame(f) for f in frames]
        kept = [f for f in read if f is not None]
        if len(kept) < len(read) or not all(isinstance(w, str) for w in role):
            raise ValueError("a kept reading of another shape")
        if type(said) is int and not 0 <= said < len(kept):
            raise ValueError("a kept reading of another shape")
        sentence = kept[said] if type(said) is int else self._frames.frame(said)
        return sentence, kept, frozenset(role)


def kept_reading(text: str, read: Callable[[str], Reading]) -> Reading:
    """``read(text)``, or the reading kept for ``text`` when a block keeps them."""
    keeper = _KEEPER.get()
    return read(text) if keeper is None else keeper(text, read)


def keeping_framed(git_dir: Path) -> AbstractContextManager[None]:
    """Take memories' readings from those kept in ``git_dir``; save the new ones at the end
    (every memory read afresh when a frame cannot be kept as JSON, or the source cannot be
    read to fingerprint it)."""
    frames = frame_codec()
    codec = _ReadingCodec(frames) if frames is not None else None
    return keeping(git_dir, _READ_BY, "framed", codec, _KEEPER, read_through)
