"""The merge passes' restatement pairs: only new and changed memories read and judged.

Which notes :func:`~dreamgit.extract.duplicates.find_contained_pairs` compares depends on
the groups their texts fall into (subject, relation, object, topic), capped per group, and
whether a pair holds depends on the two notes alone. So each pass takes the keys of an
unchanged memory (one of the same signature: id, topic, key, time and text) from the last
answer instead of reading its text again, and a judgment between two unchanged memories
that were compared last time from that answer; it judges only the rest. Within a dream
the last answer is the pass before; between dreams, the last pass of the run before, kept
in the git directory (``store/keptcontained.py``) while :func:`keeping_contained` is open.
Same pairs in the same order as the full scan, whatever state the kept answer is in.
A note's keys are a pure function of its text: a pass with most of them to read takes
those read ahead (:func:`read_ahead`: the first merge pass reads them beside the pairs,
in turns with a forked child, ``topic_turns.py``) and reads only the others.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from operator import itemgetter
from pathlib import Path
from typing import cast

from dreamgit.dream.consolidate.kept_answer import KeptAnswer
from dreamgit.extract.duplicates import (
    ContainedKeys,
    DupItem,
    contained_keys,
    find_contained_pairs,
    judge_contained,
    scored_pairs,
)
from dreamgit.store.keptcontained import Contained, KeptContained, Note
from dreamgit.store.keptframes import code_fingerprint

__all__ = ["contained_pairs", "keeping_contained", "read_ahead", "unread"]

#: The source an answer depends on (relative to the package): the frames and the guards.
_JUDGED_BY = ("extract", "textsim.py", "lazyre.py")
_PACKAGE = Path(__file__).resolve().parents[2]


_MEMO: ContextVar[KeptAnswer[Contained] | None] = ContextVar(
    "dreamgit_contained_pairs", default=None
)
#: Keys read ahead by text, for the next pass to take.
_AHEAD: ContextVar[dict[str, ContainedKeys]] = ContextVar("dreamgit_contained_ahead")


def unread(items: Sequence[DupItem], signs: Sequence[str]) -> list[str]:
    """The texts of the items whose keys a pass would read (none outside a
    :func:`keeping_contained` block: there a pass reads them all, ahead or not)."""
    memo = _MEMO.get()
    if memo is None:
        return []
    notes = memo.last.notes
    return [item.text for item, sign in zip(items, signs, strict=True) if sign not in notes]


def read_ahead(keys: dict[str, ContainedKeys]) -> None:
    """Keys by text for the next pass to take instead of reading them."""
    _AHEAD.set(keys)


def contained_pairs(items: Sequence[DupItem], signs: Sequence[str]) -> list[tuple[str, str, float]]:
    """``find_contained_pairs(items)``, reading and judging only what the last answer does
    not hold; ``signs`` are the items' signatures (a memory's version), in their order."""
    memo = _MEMO.get()
    if memo is None:
        return find_contained_pairs(items)
    notes, held = memo.last.notes, memo.last.held
    known = list(map(notes.get, signs))  # (C) each item's note of the last answer, or None
    read = cast("list[Note]", known.copy())  # each None is replaced below
    ahead = _AHEAD.get({})
    _AHEAD.set({})  # taken: held no longer than this pass
    for k in [k for k, note in enumerate(known) if note is None]:  # new or changed
        text = items[k].text
        keys = ahead.get(text) or contained_keys(text)
        read[k] = (keys.group, keys.phrases, False)
    groups, phrases = list(map(_GROUP, read)), list(map(_PHRASES, read))

    def earlier(kind: str, i: int, j: int) -> bool | None:
        a, b = known[i], known[j]
        # compared last time: both unchanged and ``j`` within its group's cap (so is an
        # ``i`` of its group, which comes before it, in both runs)
        if a is None or b is None or not b[2]:
            return None
        return (kind, signs[i], signs[j]) in held

    judgment = judge_contained(items, groups, phrases, earlier)
    memo.last = Contained(
        dict(zip(signs, zip(groups, phrases, judgment.in_cap, strict=True), strict=True)),
        {(kind, signs[i], signs[j]) for kind, i, j in judgment.held},
        memo.kept.generation,
    )
    return scored_pairs(items, judgment.found)


#: A note's group key and phrase keys (read in C).
_GROUP, _PHRASES = itemgetter(0), itemgetter(1)


@contextmanager
def keeping_contained(git_dir: Path) -> Iterator[None]:
    """Find the merge passes' restatements against the answer kept in ``git_dir``; keep
    the last pass's at the end (nothing kept when the source cannot be fingerprinted)."""
    try:
        fingerprint = code_fingerprint(_PACKAGE, _JUDGED_BY)
    except OSError:  # the source cannot be read (a zipped install): nothing is kept
        yield
        return
    kept = KeptContained(git_dir, fingerprint=fingerprint)
    memo = KeptAnswer(kept.load)
    token = _MEMO.set(memo)
    try:
        yield
        if memo.ran:  # its answer replaces the kept one
            kept.save(memo.kept, memo.last)
    finally:
        _MEMO.reset(token)
