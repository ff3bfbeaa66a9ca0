"""A cold store's readings made in two processes: the newer-value check's, with their frames.

A dream over a store whose kept readings are missing (a clone, an upgrade of the reading
code) reads every memory (``update_readings``): over 100,000 memories framing and reading
them was ~8 s of one process's CPU, work that depends on nothing but each memory's text
and the code. When thousands of the memories a run reads have no kept reading (at least
``forkhalves.SPLIT_AT``), :func:`read_in_two` has a forked child read the second half of
those afresh (``store/forkhalves.alongside``) while this process reads the rest as it
always does. The child sends back each reading as the kept readings' JSON, with the
frames it read on the way; this process keeps both (``frame_memo.Memo.add_made``) and
takes those readings as kept ones. The same readings and the same kept rows either way: a
reading is a function of its text and the code. The child runs in a new context, where no
keeper is set: it reads no kept reading and saves none (a forked child must not touch the
parent's SQLite connections), and when it fails this process reads its half itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextvars import Context

from dreamgit.dream.consolidate.frame_memo import (
    Codec,
    FrameCodec,
    Memo,
    frame_codec,
    memo_behind,
)
from dreamgit.dream.consolidate.update_readings import Reading, reading_codec, readings_memo
from dreamgit.extract.frame import KEEPER, Frame
from dreamgit.model import Memory
from dreamgit.store.forkhalves import SPLIT_AT, alongside

__all__ = ["read_in_two"]

#: A reading made in the child: its JSON, and each sentence it framed with the frame's JSON.
Made = tuple[str, list[tuple[str, str]]]


def read_in_two(
    keys: Sequence[str],
    by_key: Mapping[str, Memory],
    read: Callable[[Memory], Reading],
    take: Callable[[str], object],
) -> None:
    """``take(key)`` for each of ``keys`` (the run's reader: through the kept readings);
    when thousands of their memories have no kept reading, the second half of those is
    read meanwhile by a forked child, by ``read`` afresh (see the module's text)."""
    memo, readings, frames = readings_memo(), reading_codec(), frame_codec()
    if memo is not None and readings is not None and frames is not None and len(keys) >= SPLIT_AT:
        missing = memo.missing(by_key[k].text for k in keys)
        if len(missing) >= SPLIT_AT:
            away = set(missing[len(missing) // 2 :])
            _split(keys, by_key, away, take, _Afresh(read, readings, frames), memo)
    _take_all(keys, take)  # the child's too: kept now, or read here when it failed


def _split(
    keys: Sequence[str],
    by_key: Mapping[str, Memory],
    away: set[str],
    take: Callable[[str], object],
    afresh: _Afresh,
    memo: Memo[Reading],
) -> None:
    """Take the keys whose text is not ``away`` here while a forked child reads the texts
    ``away`` afresh; keep what it sends."""
    theirs: dict[str, Memory] = {}
    for key in keys:
        memory = by_key[key]
        if memory.text in away:
            theirs.setdefault(memory.text, memory)
    mine = [k for k in keys if by_key[k].text not in away]
    sent = list(theirs.values())
    _, made = alongside(
        lambda: _take_all(mine, take), lambda: Context().run(afresh, sent), len(sent)
    )
    if made is not None:
        memo.add_made(dict(zip(theirs, (reading for reading, _ in made), strict=True)), held=True)
        frames_memo = memo_behind(KEEPER.get())
        if frames_memo is not None:  # saved, not held: this run has read what it reads of them
            frames_memo.add_made({t: f for _, framed in made for t, f in framed}, held=False)


def _take_all(keys: Sequence[str], take: Callable[[str], object]) -> None:
    for key in keys:
        take(key)


class _Afresh:
    """What the child does, in a context of its own: each memory's reading as JSON, with
    the frames read on the way (each sentence's frame that the parse's cache did not
    hold)."""

    def __init__(
        self, read: Callable[[Memory], Reading], readings: Codec[Reading], frames: FrameCodec
    ) -> None:
        self._read, self._readings, self._frames = read, readings, frames
        self._framed: list[tuple[str, str]] = []

    def __call__(self, memories: Sequence[Memory]) -> list[Made]:
        KEEPER.set(self._frame_kept)
        made: list[Made] = []
        for memory in memories:
            made.append((self._readings.encode(self._read(memory)), self._framed[:]))
            self._framed.clear()
        return made

    def _frame_kept(self, text: str, read_frame: Callable[[str], Frame | None]) -> Frame | None:
        frame = read_frame(text)
        self._framed.append((text, self._frames.encode(frame)))
        return frame
