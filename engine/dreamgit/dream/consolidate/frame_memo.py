"""Each sentence's frame read once, then kept between runs (``store/keptframes.py``).

A dream frames every active memory (the newer-value check, the count check, the
duplicate guards); over 10,000 memories that was a tenth of a dream, and all but the
new and changed memories frame as in the run before. Inside :func:`keeping_frames`
(the dream's plan opens it for its repository), :func:`~dreamgit.extract.frame.parse_frame`
takes a sentence's frame from the kept ones when the code that made it is the code
running now, and the frames read anew are saved when the block ends. Outside it every
sentence is framed afresh. Same answers either way: a frame is a function of the
sentence and of the code, which the fingerprint names.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from dataclasses import fields
from functools import cache
from operator import attrgetter
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar, get_args, get_origin, get_type_hints

from dreamgit.extract.frame import KEEPER, Frame
from dreamgit.jsontext import as_json
from dreamgit.store.keptframes import KeptReadings, code_fingerprint
from dreamgit.store.lookedreadings import LookedUpReadings

__all__ = [
    "Codec",
    "FrameCodec",
    "Memo",
    "frame_codec",
    "keeping",
    "keeping_frames",
    "read_through",
    "words",
]

T = TypeVar("T")
K = TypeVar("K")

#: The source a frame depends on (relative to the package): the parser and its word lists.
_READ_BY = ("extract", "textsim.py", "lazyre.py")
_PACKAGE = Path(__file__).resolve().parents[2]


class Codec(Protocol[T]):
    """A reading as JSON text, and back (ValueError or TypeError for another shape)."""

    def encode(self, value: T) -> str: ...

    def decode(self, text: str) -> T: ...


#: Readings made anew are saved (one transaction) whenever this many wait: over 100,000
#: memories the new readings of every kind, held as JSON to the dream's end, were ~115 MB
#: of its peak. Each batch lands all over the table's key order, rewriting most of its
#: pages: 100,000 rows cost 0.5 s of CPU saved at once, 1.0 s in batches of 10,000,
#: 0.7-0.8 s in batches of 20,000.
SAVE_EVERY = 20_000


class Memo(Generic[T]):
    """The readings of one kind kept for one repository, and those read anew in this run
    (saved in batches of :data:`SAVE_EVERY` as they come, the last at :meth:`save`)."""

    def __init__(self, kept: KeptReadings, codec: Codec[T], *, batched: bool = False) -> None:
        self._kept, self._codec = kept, codec
        #: batched: nothing loaded ahead but what :meth:`prefetch` asks for
        self._batched = batched
        self._fetched: dict[str, str] = {}
        #: the kept readings not taken yet: each read from the database when asked for
        self._stored: dict[str, str] | LookedUpReadings = (
            self._fetched if batched else kept.looked_up()
        )
        self._total = len(self._stored)
        self._added: dict[str, str] = {}
        self._asked: set[str] = set()
        self._current: set[str] = set()

    def prefetch(self, texts: Iterable[str]) -> None:
        """Load the kept readings of ``texts`` in one batch (batched memos: the others hold
        every kept reading from the start)."""
        if self._batched:
            wanted = [t for t in texts if t not in self._asked and t not in self._fetched]
            self._fetched.update(self._kept.load_some(wanted))

    def hold(self, texts: Iterable[str]) -> None:
        """Keep the readings of ``texts`` whether asked for or not: the texts in use
        (batched memos drop the others' readings when they are many)."""
        self._current.update(texts)

    def read(self, text: str, read: Callable[[str], T]) -> T:
        """``text``'s reading, kept or read by ``read`` (and kept)."""
        # A kept reading is let go once decoded: over 100,000 memories the kept JSON of a
        # kind is 50-100 MB, held to the end of the dream for texts asked once. A text
        # asked again is read anew (the same reading) and is not kept twice.
        stored = self._stored.pop(text, None)
        again = stored is None and text in self._asked
        self._asked.add(text)
        # a reading made anew in this run too: parse_frame's cache holds 65,536 sentences,
        # and a dream over 100,000 memories asks each several times
        stored = stored or self._added.get(text)
        if stored is not None:
            try:
                return self._codec.decode(stored)
            except (ValueError, TypeError):
                pass  # another shape: read again, and kept anew
        found = read(text)
        if not again:
            self._added[text] = self._codec.encode(found)
            if len(self._added) >= SAVE_EVERY:
                self._kept.add(self._added)
                self._added = {}  # saved: asked again, a text is read anew
        return found

    def close(self) -> None:
        """Let the kept readings' connection go."""
        self._kept.close()

    def save(self) -> None:
        """Keep the readings made anew; drop the unused ones when they are many and this
        run took most of the kept ones (it read every text in use: the rest are stale)."""
        if self._batched:
            self._kept.save_current(self._added, self._current)
            return
        left = len(self._stored)
        # A run that took fewer kept readings than it left (a warm dream: the kept layers
        # above answered for every unchanged memory) cannot tell a stale reading from one
        # it did not need: dropping those, a warm dream at 100,000 deleted 99,066 of 99,143
        # frames and every count, of which the next dream read ~3,000 again.
        unused = list(self._stored) if self._total - left >= left else []
        self._kept.save(self._added, unused, self._total)


@contextmanager
def keeping(
    git_dir: Path,
    sources: tuple[str, ...],
    kind: str,
    codec: Codec[T] | None,
    keeper: ContextVar[K | None],
    handle: Callable[[Memo[T]], K],
    *,
    batched: bool = False,
) -> Iterator[None]:
    """For the time of the block, ``keeper`` holds ``handle`` of the readings of ``kind``
    kept in ``git_dir`` for this code (a fingerprint of ``sources``, relative to the
    package); the new readings are saved at the end. Nothing is kept when ``codec`` is
    None or the source cannot be read to fingerprint it (a zipped install). A ``batched``
    memo loads only the readings it is asked to :meth:`Memo.prefetch`."""
    try:
        fingerprint = code_fingerprint(_PACKAGE, sources)
    except OSError:
        codec = None
    if codec is None:
        yield
        return
    memo = Memo(KeptReadings(git_dir, fingerprint=fingerprint, kind=kind), codec, batched=batched)
    token = keeper.set(handle(memo))
    try:
        yield
        memo.save()
    finally:
        keeper.reset(token)
        memo.close()


def read_through(memo: Memo[T]) -> Callable[[str, Callable[[str], T]], T]:
    """What a keeper of readings holds: the memo's :meth:`Memo.read`."""
    return memo.read


def keeping_frames(git_dir: Path) -> AbstractContextManager[None]:
    """Frame sentences through the frames kept in ``git_dir``; save the new ones at the
    end (every sentence framed afresh when a frame has a field no JSON can keep, or the
    parser's source cannot be read to fingerprint it)."""
    return _forgetting_shared(
        keeping(git_dir, _READ_BY, "frames", frame_codec(), KEEPER, read_through)
    )


@contextmanager
def _forgetting_shared(block: AbstractContextManager[None]) -> Iterator[None]:
    """``block``, then the shared sets let go (a dream opens its frames block first)."""
    try:
        with block:
            yield
    finally:
        _SHARED.clear()


#: Frames encoded lately whose text is kept for their next encoding: a memory's sentence
#: is encoded for the kept frames, then again for its kept reading, with a clause or two
#: in between.
_RECENT = 8


class FrameCodec:
    """A frame as a JSON list of its fields, and back: each field converted by its type
    (the dataclass's hints), so reading a kept frame costs a set per field."""

    def __init__(self) -> None:
        hints = get_type_hints(Frame)
        self._names = names = [f.name for f in fields(Frame)]
        pairs = [_converters(hints[name]) for name in names]
        self._fields = attrgetter(*names)
        self._encoders = [(k, enc) for k, (enc, _dec) in enumerate(pairs) if enc is not _same]
        self._decoders = [(k, dec) for k, (_enc, dec) in enumerate(pairs) if dec is not _same]
        #: id → (frame, its text): the frame held, so that its id names no other meanwhile
        self._recent: dict[int, tuple[Frame | None, str]] = {}
        if hasattr(Frame, "__slots__") or hasattr(Frame, "__post_init__"):
            raise TypeError("a frame whose fields are not plain attributes cannot be kept")

    def encode(self, frame: Frame | None) -> str:
        """``frame`` as JSON text (the same frame's text again when it was encoded lately:
        a frame is never changed)."""
        recent = self._recent.get(id(frame))
        if recent is not None and recent[0] is frame:
            return recent[1]
        text = as_json(self.values(frame))
        if len(self._recent) >= _RECENT:
            self._recent.clear()
        self._recent[id(frame)] = (frame, text)
        return text

    def decode(self, text: str) -> Frame | None:
        """A kept frame; ValueError or TypeError when it has another shape."""
        return self.frame(json.loads(text))

    def values(self, frame: Frame | None) -> list[Any] | None:
        """``frame`` as a list JSON can hold (None for None)."""
        if frame is None:
            return None
        values = list(self._fields(frame))
        for k, enc in self._encoders:
            values[k] = enc(values[k])
        return values

    def frame(self, values: Any) -> Frame | None:
        """The frame of :meth:`values`; ValueError or TypeError for another shape."""
        if values is None:
            return None
        if not isinstance(values, list) or len(values) != len(self._names):
            raise ValueError("a kept frame of another shape")
        for k, dec in self._decoders:
            values[k] = dec(values[k])
        # what the frozen dataclass's __init__ does, without a guarded setattr per field
        frame = object.__new__(Frame)
        frame.__dict__.update(zip(self._names, values, strict=True))
        return frame


@cache
def frame_codec() -> FrameCodec | None:
    """The codec of frames as JSON, or None when a frame has a field JSON cannot keep."""
    try:
        return FrameCodec()
    except TypeError:
        return None


_Convert = Callable[[Any], Any]


def _same(value: Any) -> Any:
    return value


#: The one empty set every kept frame's empty fields share.
_NONE: frozenset[Any] = frozenset()


#: Each set of words (or of phrases) read back while frames are kept, once: a frame's
#: subject, object, names, numbers and phrases repeat other frames' (of 50,000 frames,
#: 12,000 subjects, 5,000 objects); sharing them took those frames from 123 to 85 MB.
#: Emptied when the frames block ends.
_SHARED: dict[frozenset[Any], frozenset[Any]] = {}


def _shared(values: frozenset[Any]) -> frozenset[Any]:
    return _SHARED.setdefault(values, values)


def words(values: list[str]) -> frozenset[str]:
    """A set of words read back: the shared empty set, or the words interned and the set
    shared. A dream over 100,000 memories holds a frame of each, mostly of the same few
    thousand words and with half their sets empty: sharing those took its frames from
    400 to 230 MB."""
    return _shared(frozenset(map(sys.intern, values))) if values else _NONE


def _converters(hint: Any) -> tuple[_Convert, _Convert]:
    """(to JSON, from JSON) for a field's type: scalars, frozensets, tuples, lists."""
    origin, args = get_origin(hint), get_args(hint)
    if hint in (str, bool, int, float):
        return _same, _same
    if origin is frozenset and args == (str,):
        return sorted, words
    if origin is frozenset and len(args) == 1:
        enc, dec = _converters(args[0])
        return (lambda v: [enc(x) for x in v]), (
            lambda v: _shared(frozenset(map(dec, v))) if v else _NONE
        )
    if origin is list and len(args) == 1:
        enc, dec = _converters(args[0])
        return (lambda v: [enc(x) for x in v]), (lambda v: list(map(dec, v)))
    if origin is tuple and args and Ellipsis not in args:
        parts = [_converters(a) for a in args]
        return (
            lambda v: [e(x) for (e, _d), x in zip(parts, v, strict=True)],
            lambda v: tuple(d(x) for (_e, d), x in zip(parts, v, strict=True)),
        )
    raise TypeError(f"a frame field of type {hint} cannot be kept")
