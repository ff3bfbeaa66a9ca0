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
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from contextvars import ContextVar
from functools import partial
from pathlib import Path

from dreamgit.dream.consolidate.frame_memo import (
    FrameCodec,
    Memo,
    frame_codec,
    keeping,
    words,
)
from dreamgit.dream.consolidate.kept_frame import EAGER, KeptFrame
from dreamgit.extract.frame import Frame
from dreamgit.extract.shared_sets import shared
from dreamgit.jsontext import as_json

__all__ = [
    "FOUND_BY",
    "READ_BY",
    "Reading",
    "hold_readings",
    "keeping_readings",
    "kept_reading",
    "prefetch_readings",
]

#: What one memory says to compare: its frames, and when it tells of a promotion the
#: sentence's frame and the role's words (else None and nothing).
Reading = tuple[list[Frame], Frame | None, frozenset[str]]

#: The source a reading depends on (relative to the package): the framing code, and the
#: consolidation modules that restate, split and frame a memory's text and keep the result.
READ_BY = (
    "extract",
    "textsim.py",
    "lazyre.py",
    "dream/consolidate/update_frames.py",
    "dream/consolidate/update_passes.py",
    "dream/consolidate/restate.py",
    "dream/consolidate/update_readings.py",
    "dream/consolidate/kept_frame.py",
    "dream/consolidate/frame_memo.py",
)
#: The source an update (a subject's comparison, the check's layout with its counts)
#: depends on: the readings' and the modules the check and the count check import (a test
#: holds it to their imports). Not ``model.py``: the check reads a memory by its id, time
#: and text only, which key every kept answer, so an edit there (a docstring) keeps the
#: caches; nor the rest of consolidation (the phase, the duplicates and their merging),
#: whose edits recomputed every update at 100,000 memories.
FOUND_BY = (
    *READ_BY,
    "dream/consolidate/update.py",
    "dream/consolidate/update_kept.py",
    "dream/consolidate/update_layout.py",
    "dream/consolidate/update_memo.py",
    "dream/consolidate/update_members.py",
    "dream/consolidate/update_reach.py",
    "dream/consolidate/rejected.py",
    "dream/consolidate/counts.py",
    "dream/consolidate/count_cues.py",
    "dream/consolidate/count_layout.py",
    "dream/consolidate/count_reading.py",
    "dream/consolidate/count_said.py",
    "dream/consolidate/count_words.py",
    "dream/consolidate/setting_names.py",
)

_KEEPER: ContextVar[_Reader | None] = ContextVar("dreamgit_update_readings", default=None)


class _ReadingCodec:
    """A reading as text: a first line of JSON, ``[[frame, …], sentence or null, [role
    word, …]]`` with each frame as its :data:`~.kept_frame.EAGER` fields, then one line
    per frame of its whole ``frame_memo`` JSON (JSON text holds no raw line break), read
    back as a :class:`~.kept_frame.KeptFrame` that decodes that line when first asked for
    another field."""

    def __init__(self, frames: FrameCodec) -> None:
        self._frames = frames

    def encode(self, reading: Reading) -> str:
        frames, sentence, role = reading
        eager = [_eager(f) for f in frames]
        head = as_json([eager, self._frames.values(sentence), sorted(role)])
        return "\n".join([head, *(self._frames.encode(f) for f in frames)])

    def decode(self, text: str) -> Reading:
        head, *bodies = text.split("\n")
        values = json.loads(head)
        if type(values) is not list or len(values) != 3:
            raise ValueError("a kept reading of another shape")
        frames, sentence, role = values
        if type(frames) is not list or len(frames) != len(bodies) or type(role) is not list:
            raise ValueError("a kept reading of another shape")
        if not all(isinstance(w, str) for w in role):
            raise ValueError("a kept reading of another shape")
        kept: list[Frame] = [self._kept(f, b) for f, b in zip(frames, bodies, strict=True)]
        return kept, self._frames.frame(sentence), shared(role)

    def _kept(self, values: object, body: str) -> KeptFrame:
        if type(values) is not list or len(values) != len(EAGER):
            raise ValueError("a kept frame of another shape")
        subject, change, negated, left, moved_from, period = values
        if type(subject) is not list or type(left) is not list or type(moved_from) is not list:
            raise ValueError("a kept frame of another shape")
        if type(change) is not bool or type(negated) is not bool or type(period) is not bool:
            raise ValueError("a kept frame of another shape")
        held = {
            "subject": words(subject),
            "change": change,
            "negated": negated,
            "left": words(left),
            "moved_from": words(moved_from),
            "period": period,
        }
        return KeptFrame(held, body, self._whole)

    def _whole(self, body: str) -> Frame:
        frame = self._frames.decode(body)
        if frame is None:
            raise ValueError("a kept frame of another shape")
        return frame


def _eager(frame: Frame) -> list[object]:
    """A frame's :data:`~.kept_frame.EAGER` fields as JSON holds them (as ``_kept`` reads
    them): its sets of words sorted, its flags as they are."""
    return [
        sorted(frame.subject),
        frame.change,
        frame.negated,
        sorted(frame.left) if frame.left else [],
        sorted(frame.moved_from) if frame.moved_from else [],
        frame.period,
    ]


def kept_reading(text: str, read: Callable[[str], Reading]) -> Reading:
    """``read(text)``, or what it gave for the same text before."""
    keeper = _KEEPER.get()
    return read(text) if keeper is None else keeper(text, read)


def prefetch_readings(texts: list[str]) -> None:
    """Load the kept readings of ``texts`` ahead, in one batch (nothing outside a block)."""
    keeper = _KEEPER.get()
    if keeper is not None:
        keeper.memo.prefetch(texts)


def hold_readings(texts: Iterable[str]) -> None:
    """Keep the readings of ``texts`` (the memories in use) whether asked for or not."""
    keeper = _KEEPER.get()
    if keeper is not None:
        keeper.memo.hold(texts)


def keeping_readings(git_dir: Path) -> AbstractContextManager[None]:
    """Take memories' readings from those kept in ``git_dir``, each loaded when asked for
    (in batches: :func:`prefetch_readings`); save the new ones at the end (every memory
    read afresh when a frame cannot be kept as JSON or the code cannot be read to
    fingerprint it)."""
    frames = frame_codec()
    codec = None if frames is None else _ReadingCodec(frames)
    return keeping(git_dir, READ_BY, "update-readings", codec, _KEEPER, _Reader, batched=True)


class _Reader:
    """The memo's reader, whose kept frames are read afresh from the text where their kept
    JSON cannot be decoded."""

    def __init__(self, memo: Memo[Reading]) -> None:
        self.memo = memo

    def __call__(self, text: str, afresh: Callable[[str], Reading]) -> Reading:
        reading = self.memo.read(text, afresh)
        for k, frame in enumerate(reading[0]):
            if type(frame) is KeptFrame:
                frame.recover_with(partial(_frame_of, afresh, text, k))
        return reading


def _frame_of(read: Callable[[str], Reading], text: str, k: int) -> Frame:
    return read(text)[0][k]
