"""A cold store's readings made in two processes: the newer-value check's, with their frames
and counts.

A dream over a store whose kept readings are missing (a clone, an upgrade of the reading
code) reads every memory (``update_readings``): over 100,000 memories framing and reading
them was ~8 s of one process's CPU, and the count readings ~2 s more, work that depends
on nothing but each memory's text and the code. When thousands of the memories a run
reads have no kept reading (at least :data:`SPLIT_AT`), :func:`read_in_two` has a
forked child read the second half of those afresh (``store/forkhalves.alongside``) while
this process reads the rest as it always does. The child sends back each reading as the
kept readings' JSON, with the frames it read on the way and the count reading the count
check asks for next (when not kept: :data:`COUNTS_AHEAD`, set with the kept counts). This
process keeps them all (``frame_memo.Memo.add_made``) and takes the readings and counts
as kept ones: it never frames those memories' sentences itself. The same readings and the
same kept rows either way: a reading is a function of its text and the code. The child
runs in a new context, where no keeper is set: it reads no kept reading and saves none (a
forked child must not touch the parent's SQLite connections), and when it fails this
process reads its half itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextvars import Context, ContextVar
from dataclasses import dataclass

from dreamgit.dream.consolidate.count_reading import COUNT_KEEPER, CountReading
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
from dreamgit.store.forkhalves import alongside

__all__ = ["COUNTS_AHEAD", "SPLIT_AT", "CountsAhead", "read_in_two"]

#: Memories without a kept reading below which this process reads them all. A reading
#: sent back saves ~50 us of this process's ~80 (it is decoded here, its frames whole),
#: against a fork, the pages this process then copies and the trip back: a cold dream at
#: 10,000 memories (5,000 sent) took no less CPU here (4.02 s against 3.95) and more wall
#: on a busy machine; at 100,000 its newer-value check took ~2 s less.
SPLIT_AT = 20_000

#: A reading made in the child: its JSON, each sentence it framed with the frame's JSON, and
#: its count reading's JSON (None when not asked for).
Made = tuple[str, list[tuple[str, str]], str | None]


@dataclass(frozen=True)
class CountsAhead:
    """How the count check reads a memory's text: whether it asks for its count reading,
    the reading, and the reading as its kept JSON."""

    asks: Callable[[str], bool]
    read: Callable[[str], CountReading | None]
    encode: Callable[[CountReading | None], str]


#: The count check's reading, set with the kept counts (``count_memo``): the count check
#: comes right after the readings, over the same memories.
COUNTS_AHEAD: ContextVar[CountsAhead | None] = ContextVar("dreamgit_counts_ahead", default=None)


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
            counted = _counts_missing(away)
            afresh = _Afresh(read, readings, frames, counted)
            _split(keys, by_key, away, take, afresh, memo)
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
        memo.add_made(dict(zip(theirs, (m[0] for m in made), strict=True)), held=True)
        frames_memo = memo_behind(KEEPER.get())
        if frames_memo is not None:  # saved, not held: this run has read what it reads of them
            frames_memo.add_made({t: f for m in made for t, f in m[1]}, held=False)
        counts_memo = memo_behind(COUNT_KEEPER.get())
        if counts_memo is not None:
            counted = zip(theirs, (m[2] for m in made), strict=True)
            counts_memo.add_made({t: c for t, c in counted if c is not None}, held=True)


def _counts_missing(texts: set[str]) -> set[str]:
    """The texts of ``texts`` whose count reading the count check will ask for and not
    find kept (none when no counts are kept: nothing to take them from)."""
    ahead, memo = COUNTS_AHEAD.get(), memo_behind(COUNT_KEEPER.get())
    if ahead is None or memo is None:
        return set()
    return set(memo.missing(t for t in texts if ahead.asks(t)))


def _take_all(keys: Sequence[str], take: Callable[[str], object]) -> None:
    for key in keys:
        take(key)


class _Afresh:
    """What the child does, in a context of its own: each memory's reading as JSON, with
    the frames read on the way (each sentence's frame that the parse's cache did not
    hold)."""

    def __init__(
        self,
        read: Callable[[Memory], Reading],
        readings: Codec[Reading],
        frames: FrameCodec,
        counted: set[str],
    ) -> None:
        self._read, self._readings, self._frames = read, readings, frames
        #: the texts whose count reading is made too, and how (read in the parent's context)
        self._counted, self._counts = counted, COUNTS_AHEAD.get()
        self._framed: list[tuple[str, str]] = []

    def __call__(self, memories: Sequence[Memory]) -> list[Made]:
        KEEPER.set(self._frame_kept)
        made: list[Made] = []
        for memory in memories:
            reading = self._readings.encode(self._read(memory))
            counts = None
            if self._counts is not None and memory.text in self._counted:
                counts = self._counts.encode(self._counts.read(memory.text))
            made.append((reading, self._framed[:], counts))
            self._framed.clear()
        return made

    def _frame_kept(self, text: str, read_frame: Callable[[str], Frame | None]) -> Frame | None:
        frame = read_frame(text)
        self._framed.append((text, self._frames.encode(frame)))
        return frame
