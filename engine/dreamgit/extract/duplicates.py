"""Find near-duplicate memories without comparing every pair, and group them for merging.

Candidates come from an inverted index with prefix filtering (the all-pairs join of
Bayardo et al., 2007, keyed by small sets of words rather than single words): only
memories that share several of their rarest words are ever compared. The filter is
exact, so no pair at or above the threshold is missed, and deterministic: no hashing,
no sampling, no salted ``hash()``. Each candidate is scored with the measure of
:func:`dreamgit.textsim.similarity` and must pass the guards of
:mod:`dreamgit.extract.guards`. The work grows with the number of memories plus the
number of pairs that really are similar, not with the number of all pairs.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, compress
from operator import attrgetter
from typing import NamedTuple

from dreamgit.extract.frame import parse_frame
from dreamgit.extract.guards import extends, merge_allowed, subsumes
from dreamgit.extract.holders import FEATURE_HOLDERS
from dreamgit.extract.pairable import could_pair
from dreamgit.jsontext import as_json
from dreamgit.model import Memory
from dreamgit.textsim import dice, features

__all__ = [
    "DEFAULT_THRESHOLD",
    "ContainedJudgment",
    "ContainedKeys",
    "DupItem",
    "contained_keys",
    "find_contained_pairs",
    "find_duplicate_pairs",
    "group_duplicates",
    "judge_contained",
    "scored_pairs",
]

#: Default for ``similarity(a, b) >= ...`` in the bundled rules (Dice on content words).
DEFAULT_THRESHOLD = 0.8


class DupItem(NamedTuple):
    """What the duplicate finder needs to know about a memory (a named tuple: a merge pass
    builds one per memory, and a frozen dataclass cost 3.5 us each, 0.35 s at 100,000)."""

    id: str
    text: str
    topic: str = ""
    key: str | None = None

    @classmethod
    def from_memory(cls, memory: Memory) -> DupItem:
        """The duplicate finder's view of a memory."""
        return cls(memory.id, memory.text, memory.topic, memory.key)


#: Most shared words an index key stands for, and most keys one memory probes.
_MAX_KEY = 4
_MAX_PROBE_KEYS = 64


def _need(size: int, share: float) -> int:
    return max(1, math.ceil(share * size - 1e-9))


def _probe_level(size: int, jaccard_min: float) -> int:
    """How many shared words a key of a set of ``size`` words stands for when it probes:
    as many as possible (rarer keys), within a bounded number of keys."""
    need = _need(size, jaccard_min)
    level = min(need, _MAX_KEY)
    while level > 1 and math.comb(size - need + level, level) > _MAX_PROBE_KEYS:
        level -= 1
    return level


def _candidates(
    feats: list[frozenset[str]], scopes: list[str], jaccard_min: float
) -> Iterator[tuple[int, set[int]]]:
    """For each set, the sets seen before it that could reach ``jaccard_min`` with it.

    Sets are visited smallest first. Two sets with Jaccard >= t share at least
    o >= t * |y| words (y the later, larger one) and o >= 2t / (1 + t) * |x| (x the
    earlier). Their first k shared words, in a global order of words (rarest first),
    lie within the first |x| - o + k words of each: the prefix filter of Bayardo et al.
    (2007), with the shorter prefix for indexing. A key is a k-subset of words: single
    words, even pairs ("Central European"), recur in thousands of memories, while k
    words together rarely do. The later set picks k (its *level*: up to four, within
    64 probe keys); the earlier set is indexed at every level a set it could match
    (up to |x| / t words) may probe with. Exact: no pair at or above the threshold is
    missed.
    """
    rank = _rarest_first(feats)
    indexing = 2 * jaccard_min / (1 + jaccard_min)
    # per size, once (not once per set): its probes' level and prefix, and each level
    # it is indexed at with that level's prefix
    shapes: dict[int, tuple[int, int, list[tuple[int, int]]]] = {}
    indexes: dict[tuple[str, int], dict[tuple[int, ...], list[int]]] = {}
    for i in sorted(range(len(feats)), key=lambda k: (len(feats[k]), k)):
        size = len(feats[i])
        if not size:
            continue
        if size not in shapes:
            shapes[size] = _shape(size, jaccard_min, indexing)
        level, probed, indexed = shapes[size]
        ranks = sorted(map(rank.__getitem__, feats[i]))
        own = indexes.setdefault((scopes[i], level), {})
        found: set[int] = set()
        for key in combinations(ranks[:probed], level):
            found.update(own.get(key, ()))
        for k, prefix in indexed:
            index = indexes.setdefault((scopes[i], k), {})
            for key in combinations(ranks[:prefix], k):
                index.setdefault(key, []).append(i)
        yield i, found


def _shape(
    size: int, jaccard_min: float, indexing: float
) -> tuple[int, int, list[tuple[int, int]]]:
    """How :func:`_candidates` handles a set of ``size`` words: the level its probes use,
    how many of its rarest words they are made of, and each level it is indexed at (every
    level a set it could match, up to ``size / jaccard_min`` words, may probe with), in
    order, with how many of its rarest words that index takes."""
    level = _probe_level(size, jaccard_min)
    largest = math.floor(size / jaccard_min + 1e-9)
    index_need = _need(size, indexing)
    levels = sorted({_probe_level(s, jaccard_min) for s in range(size, largest + 1)})
    indexed = [(k, min(size, size - index_need + k)) for k in levels]
    return level, size - _need(size, jaccard_min) + level, indexed


def _rarest_first(feats: list[frozenset[str]]) -> dict[str, int]:
    """Each word's place in a global order of words, rarest first (ties by the word)."""
    frequency: dict[str, int] = {}
    for f in feats:
        for word in f:
            frequency[word] = frequency.get(word, 0) + 1
    return {w: r for r, w in enumerate(sorted(frequency, key=lambda w: (frequency[w], w)))}


def _candidates_of(
    feats: list[frozenset[str]], scopes: list[str], jaccard_min: float, probing: list[bool]
) -> Iterator[tuple[int, set[int]]]:
    """For each flagged set, every other set of its scope that could reach ``jaccard_min``
    with it (flagged or not), from an index of single words over all sets.

    A set y with Jaccard >= t with x shares o >= t * |x| of x's words (o <= |y|), so it
    holds one of any |x| - o + 1 of them: x probes the postings of that many of its
    rarest words, and sizes outside [t |x|, |x| / t] are left out. Exact, and nothing is
    built per set beyond its words: a few new memories against the rest cost what they
    meet, not a prefix index of every memory.
    """
    rank = _rarest_first(feats)
    postings: dict[tuple[str, str], list[int]] = {}
    for j, f in enumerate(feats):
        for word in f:
            postings.setdefault((scopes[j], word), []).append(j)
    for i, f in enumerate(feats):
        size = len(f)
        if not size or not probing[i]:
            continue
        smallest = _need(size, jaccard_min)
        largest = math.floor(size / jaccard_min + 1e-9)
        found: set[int] = set()
        for word in sorted(f, key=rank.__getitem__)[: size - smallest + 1]:
            found.update(postings[scopes[i], word])
        found.discard(i)
        yield i, {j for j in found if smallest <= len(feats[j]) <= largest}


def _check_ids(items: Sequence[DupItem]) -> None:
    seen: set[str] = set()
    for item in items:
        if item.id in seen:
            raise ValueError(f"duplicate memory id {item.id!r} given to the duplicate finder")
        seen.add(item.id)


def find_duplicate_pairs(
    items: Sequence[DupItem],
    *,
    threshold: float = DEFAULT_THRESHOLD,
    same_topic: bool = True,
    involving: Collection[str] | None = None,
) -> list[tuple[str, str, float]]:
    """Pairs ``(earlier_id, later_id, similarity)`` of near-duplicates that may merge.

    A pair is reported when its similarity is at least ``threshold``, the guards allow
    the merge and (with ``same_topic``) both are in the same topic. Pairs are ordered by
    the position of their first, then their second item in ``items``; same input, same
    output. Items without any content word are never paired. With ``involving`` (ids),
    only the pairs with at least one of those items are looked for: the whole answer's
    pairs that hold one of them, without judging any other pair; the other items that
    could pair with none of them are left out first when a kept index of which texts hold
    each word can tell (``pairable.py``; a dream keeps one), their features unread.
    """
    if not 0.0 < threshold <= 1.0:
        raise ValueError(f"similarity threshold must be in (0, 1], got {threshold}")
    _check_ids(items)
    if involving is not None and FEATURE_HOLDERS.get() is not None:
        # of 100,000 memories, a warm dream's few changed ones could pair with a few
        # hundred: the features of the rest were 1.2 s of its profile, read for nothing
        # (without a kept index, asking reads every text's features all the same)
        keep = could_pair(
            [item.text for item in items], [item.id in involving for item in items], threshold
        )
        items = list(compress(items, keep))
    feats = [features(item.text) for item in items]
    scopes = [item.topic if same_topic else "" for item in items]
    jaccard_min = threshold / (2.0 - threshold)  # Dice >= d  <=>  Jaccard >= d / (2 - d)
    if involving is None:
        candidates_of = _candidates(feats, scopes, jaccard_min)
    else:
        probing = [item.id in involving for item in items]
        candidates_of = _candidates_of(feats, scopes, jaccard_min, probing)
    # each key as keys_compatible compares it, once per item rather than once per pair
    keys = [(item.key or "").strip().lower() for item in items]
    found: list[tuple[int, int, float]] = []
    for i, candidates in candidates_of:
        f, size, key = feats[i], len(feats[i]), keys[i]
        for j in candidates:  # in any order: the pairs are sorted once, at the end
            if involving is not None and j > i and probing[j]:
                continue  # two flagged items: judged once, when the later one probes
            g = feats[j]
            score = 2 * len(f & g) / (size + len(g))  # dice (f is never empty)
            if score < threshold or (key and keys[j] and key != keys[j]):
                continue  # too far apart, or two slots the user named apart
            a, b = (j, i) if j < i else (i, j)
            if merge_allowed(items[a].text, items[b].text):
                found.append((a, b, score))
    found.sort()
    return [(items[a].id, items[b].id, score) for a, b, score in found]


def find_contained_pairs(items: Sequence[DupItem]) -> list[tuple[str, str, float]]:
    """Pairs ``(earlier_id, later_id, similarity)`` where one note is the other plus a
    qualifier ("Prefers pytest to unittest" / "Prefers pytest over unittest for Python
    tests"): :func:`~dreamgit.extract.guards.extends` holds (same subject,
    relation, object, numbers, dates and polarity; only whole qualifier phrases added),
    or one holds the other's relation and object as a phrase ("works at Northwind" /
    "works as a data engineer at Northwind": :func:`~dreamgit.extract.guards.
    subsumes`), whatever their keys: the longer one answers both slots.
    Memories are grouped by topic, subject, relation and object first (a hash map), so
    only notes of one group are ever compared.
    """
    _check_ids(items)
    keys = [contained_keys(item.text) for item in items]
    groups, phrases = [k.group for k in keys], [k.phrases for k in keys]
    return scored_pairs(items, judge_contained(items, groups, phrases).found)


class ContainedKeys(NamedTuple):
    """What :func:`find_contained_pairs` groups a note by, read from its text: its
    subject, relation and object (``group``, None without an object) and, for each of its
    qualifier phrases, the group of a note whose relation and object that phrase is. Each
    key is a canonical string, the same for the same words whatever their order."""

    group: str | None
    phrases: tuple[str, ...]


def contained_keys(text: str) -> ContainedKeys:
    """The keys of a note's text (see :class:`ContainedKeys`)."""
    frame = parse_frame(text)
    if frame is None:
        return ContainedKeys(None, ())
    group = _slot_key(frame.subject, frame.head, frame.particle, frame.object)
    phrases = tuple(
        sorted(
            {
                _slot_key(frame.subject, frame.head, particle, words)
                for particle, words in frame.phrases
            }
        )
    )
    return ContainedKeys(group if frame.object else None, phrases)


def _slot_key(subject: frozenset[str], head: str, particle: str, words: frozenset[str]) -> str:
    return as_json([sorted(subject), head, particle, sorted(words)])


#: A judgment made before, or None: ``(kind, i, j)`` with kind "extends" (i and j of one
#: group, i first) or "subsumes" (i's phrase is j's group).
Earlier = Callable[[str, int, int], "bool | None"]


@dataclass
class ContainedJudgment:
    """What :func:`judge_contained` found: the pairs (positions, earlier first), the
    judgments that held (``(kind, i, j)``) and which items were within their group's cap
    (compared with the rest of their group)."""

    found: set[tuple[int, int]]
    held: set[tuple[str, int, int]]
    in_cap: list[bool]


def judge_contained(
    items: Sequence[DupItem],
    groups: Sequence[str | None],
    phrases: Sequence[tuple[str, ...]],
    earlier: Earlier | None = None,
) -> ContainedJudgment:
    """The restatement pairs among ``items``, each item's keys given (``groups`` and
    ``phrases``, as :class:`ContainedKeys` holds them); ``earlier`` answers for a judgment
    already made (same two notes, both compared before), so only the others are judged
    anew. Same answer as judging every one."""
    topic = list(map(_TOPIC, items))
    by_group: dict[tuple[str, str | None], list[int]] = {}
    for i in compress(range(len(items)), groups):  # (C) the items with a group
        by_group.setdefault((topic[i], groups[i]), []).append(i)
    in_cap = [False] * len(items)
    held: set[tuple[str, int, int]] = set()
    for members in by_group.values():
        capped = members[:_MAX_GROUP]
        for i in capped:
            in_cap[i] = True
        if len(capped) < 2:
            continue
        for i, j in combinations(capped, 2):
            known = None if earlier is None else earlier("extends", i, j)
            if known is None:
                a, b = items[i], items[j]
                known = keys_agree(a, b) and (extends(a.text, b.text) or extends(b.text, a.text))
            if known:
                held.add(("extends", i, j))
    # "works as a data engineer at Northwind" holds "works at Northwind" as a phrase
    for i in compress(range(len(items)), phrases):  # (C) the items with a phrase
        for phrase in phrases[i]:
            for j in by_group.get((topic[i], phrase), ())[:_MAX_GROUP]:
                # the longer one answers the shorter's slot too: its key may differ
                known = None if earlier is None else earlier("subsumes", i, j)
                if known is None:
                    known = subsumes(items[i].text, items[j].text)
                if known:
                    held.add(("subsumes", i, j))
    found = {(min(i, j), max(i, j)) for _kind, i, j in held}
    return ContainedJudgment(found, held, in_cap)


_TOPIC = attrgetter("topic")


def scored_pairs(
    items: Sequence[DupItem], found: Iterable[tuple[int, int]]
) -> list[tuple[str, str, float]]:
    """Position pairs as ``(earlier_id, later_id, similarity)``, in the order of ``items``."""
    return [
        (items[a].id, items[b].id, dice(features(items[a].text), features(items[b].text)))
        for a, b in sorted(found)
    ]


#: Notes of one subject, relation and object compared with each other, at most.
_MAX_GROUP = 32


def keys_agree(a: DupItem, b: DupItem) -> bool:
    """Whether two items' keys allow a merge (equal, or one unset)."""
    return not a.key or not b.key or a.key.strip().lower() == b.key.strip().lower()


def group_duplicates(
    items: Sequence[DupItem], pairs: Iterable[tuple[str, str, float]]
) -> list[list[str]]:
    """Groups of ids to merge: an anchor first, then members paired with it.

    Anchors are taken in the order of ``items`` (pass them oldest first and the anchor
    is the merge survivor). A member joins a group only if it was paired with the anchor
    and the guards also allow it with every member already in the group, so chains
    A~B~C never merge A with a C it must not merge with. Each id is in at most one group.
    """
    neighbours: dict[str, list[str]] = {}
    for a, b, _score in pairs:
        neighbours.setdefault(a, []).append(b)
        neighbours.setdefault(b, []).append(a)
    # only the paired items are read (of 100,000 memories, a few thousand)
    paired = [(k, item) for k, item in enumerate(items) if item.id in neighbours]
    by_id = {item.id: item for _k, item in paired}
    position = {item.id: k for k, item in paired}
    assigned: set[str] = set()
    groups: list[list[str]] = []
    for _k, item in paired:
        anchor = item.id
        if anchor in assigned:
            continue
        group = [anchor]
        for other in sorted(set(neighbours[anchor]), key=position.__getitem__):
            if other in assigned:
                continue
            o = by_id[other]
            if all(
                merge_allowed(by_id[m].text, o.text, key_a=by_id[m].key, key_b=o.key)
                for m in group[1:]
            ):
                group.append(other)
        if len(group) > 1:
            assigned.update(group)
            groups.append(group)
    return groups
