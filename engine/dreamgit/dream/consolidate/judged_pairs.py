"""The merge passes' near-duplicate pairs: only pairs with a new or changed memory judged.

Whether two memories are near-duplicates (``find_duplicate_pairs``: similarity, guards,
topic) depends on the two alone and on the code, and their order in the pass on their own
times and ids. So each pass takes the pairs of the last judged set whose two memories are
unchanged (a signature of id, topic, key, time and text names a memory's version) and asks
the finder only for the pairs that hold one of the others: within a dream, the pass
before; between dreams, the last pass of the run before, kept in the git directory
(``store/keptpairs.py``) while :func:`keeping_pairs` is open (the dream's plan opens it).
Same pairs in the same order as judging every pair, whatever state the kept set is in.
A pass with no judged set to start from judges every pair, topic by topic, the topics
shared with a forked child (``topic_turns.py``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import timezone
from operator import attrgetter
from pathlib import Path

from dreamgit.dream.consolidate.contained_pairs import keeping_contained, read_ahead, unread
from dreamgit.dream.consolidate.kept_answer import KeptAnswer
from dreamgit.dream.consolidate.topic_turns import every_pair
from dreamgit.extract.duplicates import DupItem, find_duplicate_pairs
from dreamgit.model import Memory
from dreamgit.store.keptframes import code_fingerprint
from dreamgit.store.keptpairs import Judged, KeptPairs

__all__ = ["duplicate_pairs", "keeping_pairs", "signature"]

#: The source a pair depends on (relative to the package): the finder, guards and words.
_JUDGED_BY = ("extract", "textsim.py", "lazyre.py")
_PACKAGE = Path(__file__).resolve().parents[2]


_MEMO: ContextVar[KeptAnswer[Judged] | None] = ContextVar("dreamgit_judged_pairs", default=None)


def signature(memory: Memory, threshold: float) -> str:
    """A memory's version as the finder sees it at ``threshold``: what its pairs and their
    order in a pass depend on."""
    created = memory.created
    # the instant of a time at a fixed offset (what the pass's order compares; a seventh
    # of the cost of ``isoformat``, which took a third of the signatures' at 100,000)
    fixed = type(created.tzinfo) is timezone
    at = repr(created.timestamp()) if fixed else created.isoformat()
    text = f"{threshold!r}\x1f{memory.id}\x1f{memory.topic}\x1f{memory.key!r}\x1f{at}\x1f"
    return _sha1(f"{text}{memory.text}".encode(), usedforsecurity=False).hexdigest()


_sha1 = hashlib.sha1


def duplicate_pairs(
    ordered: Sequence[Memory],
    items: Sequence[DupItem],
    threshold: float,
    signs: Sequence[str] | None = None,
) -> list[tuple[str, str, float]]:
    """``find_duplicate_pairs(items, threshold=threshold)`` for ``items`` (the finder's view
    of ``ordered``, in their order), judging only the pairs with a memory the last judged
    set did not hold; ``signs``, when given, are ``ordered``'s signatures."""
    memo = _MEMO.get()
    if memo is None:
        return every_pair(items, threshold)[0]
    last = memo.last
    if signs is None:
        signs = [signature(m, threshold) for m in ordered]
    # by C loops (dict, zip, map, set difference): 100,000 memories a pass
    ids = list(map(_ID, items))
    at = dict(zip(signs, range(len(signs)), strict=True))
    judged = set(signs)
    new = {ids[at[s]] for s in judged - last.items}
    if 2 * len(new) > len(items):  # mostly new (a first run): the whole index is cheaper
        # the pass's restatements next: their keys read in the same turns (a fork's)
        found, keys = every_pair(items, threshold, keys_of=unread(items, signs))
        read_ahead(keys)
        held = []
    else:
        found = find_duplicate_pairs(items, threshold=threshold, involving=new) if new else []
        held = [
            (at[a], at[b], score)
            for (a, b), score in last.pairs.items()
            if a in at and b in at and a in last.items and b in last.items
        ]
    if found:
        position = dict(zip(ids, range(len(ids)), strict=True))
        held += [(position[a], position[b], score) for a, b, score in found]
    held.sort()  # by the places of the two: the finder's order
    memo.last = Judged(judged, {(signs[a], signs[b]): score for a, b, score in held})
    return [(ids[a], ids[b], score) for a, b, score in held]


_ID = attrgetter("id")


@contextmanager
def keeping_pairs(git_dir: Path) -> Iterator[None]:
    """Judge the merge passes' pairs against the set kept in ``git_dir``; keep the last
    pass's set at the end (every pair judged when the finder's source cannot be read to
    fingerprint it)."""
    try:
        fingerprint = code_fingerprint(_PACKAGE, _JUDGED_BY)
    except OSError:  # the source cannot be read (a zipped install): nothing is kept
        yield
        return
    kept = KeptPairs(git_dir, fingerprint=fingerprint)
    memo = KeptAnswer(kept.load)
    token = _MEMO.set(memo)
    try:
        with keeping_contained(git_dir):  # the passes' other pairs: restatements
            yield
        if memo.ran:  # a pass ran: its set replaces the kept one
            kept.save(memo.kept, memo.last)
    finally:
        _MEMO.reset(token)
