"""The duplicate finder's whole answer judged topic by topic, the topics shared with a
forked child, and the notes' restatement keys read in the same turns: the pairs, scores
and order of judging every pair in one process, and each text's keys, whatever the child
does."""

from __future__ import annotations

import os
import random
import signal
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import pytest

from dreamgit.dream.consolidate import fork_turns, topic_turns
from dreamgit.dream.consolidate.topic_turns import every_pair
from dreamgit.extract.duplicates import (
    ContainedKeys,
    DupItem,
    contained_keys,
    find_duplicate_pairs,
)
from dreamgit.extract.frame import KEEPER, parse_frame
from dreamgit.extract.signature import signature
from dreamgit.store import forkhalves
from dreamgit.textsim import FEATURE_KEEPER, features

pytestmark = pytest.mark.skipif(not forkhalves.can_fork(), reason="needs fork and two CPUs")

_SAYINGS = (
    "Prefers pytest over unittest for Python tests",
    "Prefers pytest to unittest for the Python tests",
    "Lives in Lisbon, Portugal",
    "Lives in Lisbon in Portugal",
    "Uses Flask for the web services at work",
    "Uses Flask for web services at work now",
    "Works at Northwind as a data engineer",
    "Works as a data engineer at Northwind",
)


def _items(seed: int, topics: Sequence[str]) -> list[DupItem]:
    """Sayings and near repeats of them, in random topics and order, a few with keys."""
    rng = random.Random(seed)
    items = []
    for n in range(60):
        text = rng.choice(_SAYINGS) + rng.choice(("", ".", "!", " today"))
        key = rng.choice((None, None, None, "stack", "home"))
        items.append(DupItem(f"m{n:02d}", text, rng.choice(topics), key))
    return items


@pytest.mark.parametrize("seed", range(4))
def test_pairs_judged_topic_by_topic_in_two_processes_are_the_whole_answer(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(topic_turns, "SPLIT_AT", 2)
    shared: list[list[int]] = []

    def counted(parts: Any, work: Any) -> list[Any]:
        shared.append([len(items) for items, _texts in parts])
        return fork_turns.in_turns(parts, work)

    monkeypatch.setattr(topic_turns, "in_turns", counted)
    items = _items(seed, ("work", "identity", "preferences", "people"))
    whole = find_duplicate_pairs(items)
    assert whole  # near repeats pair
    assert every_pair(items, 0.8)[0] == whole
    assert len(shared) == 1 and sum(shared[0]) == len(items)
    assert shared[0] == sorted(shared[0], reverse=True) and len(shared[0]) == 4  # largest first


def test_one_topic_or_few_items_are_judged_here(monkeypatch: pytest.MonkeyPatch) -> None:
    def never(*_args: Any, **_options: Any) -> list[Any]:
        raise AssertionError("split")

    monkeypatch.setattr(topic_turns, "in_turns", never)
    one_topic = _items(7, ("work",))
    monkeypatch.setattr(topic_turns, "SPLIT_AT", 2)
    assert every_pair(one_topic, 0.8) == (find_duplicate_pairs(one_topic), {})
    monkeypatch.setattr(topic_turns, "SPLIT_AT", 61)
    many_topics = _items(7, ("work", "identity"))
    assert every_pair(many_topics, 0.8, keys_of=_texts(many_topics)) == (
        find_duplicate_pairs(many_topics),
        {},  # no child: the pass reads the keys when it needs them
    )


def test_past_the_most_parts_the_smallest_topics_share_the_last(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(topic_turns, "SPLIT_AT", 2)
    monkeypatch.setattr(topic_turns, "MOST_PARTS", 4)
    shared: list[list[set[str]]] = []

    def counted(parts: Any, work: Any) -> list[Any]:
        shared.append([{item.topic for item in items} for items, _texts in parts])
        return fork_turns.in_turns(parts, work)

    monkeypatch.setattr(topic_turns, "in_turns", counted)
    items = _items(2, ("work", "identity", "people"))
    assert every_pair(items, 0.8)[0] == find_duplicate_pairs(items)
    assert len(shared[0]) == 2 and len(shared[0][0]) == 1 and len(shared[0][1]) == 2


def test_the_keys_of_the_texts_asked_are_read_in_the_same_turns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each text's restatement keys, once per text, in parts after the topics."""
    monkeypatch.setattr(topic_turns, "SPLIT_AT", 2)
    monkeypatch.setattr(topic_turns, "_KEYS_PER_PART", 7)
    shared: list[list[tuple[int, int]]] = []

    def counted(parts: Any, work: Any) -> list[Any]:
        shared.append([(len(items), len(texts)) for items, texts in parts])
        return fork_turns.in_turns(parts, work)

    monkeypatch.setattr(topic_turns, "in_turns", counted)
    items = _items(4, ("work", "identity"))
    texts = _texts(items)
    pairs, keys = every_pair(items, 0.8, keys_of=[*texts, *texts[:5]])  # some asked twice
    assert pairs == find_duplicate_pairs(items)
    assert keys == _keys(items) and all(isinstance(k, ContainedKeys) for k in keys.values())
    topics, keyed = shared[0][:2], shared[0][2:]
    assert all(t == 0 for _n, t in topics) and all(n == 0 for n, _t in keyed)
    assert sum(t for _n, t in keyed) == len(texts) and max(t for _n, t in keyed) == 7


def _texts(items: Sequence[DupItem]) -> list[str]:
    return list(dict.fromkeys(item.text for item in items))


def _keys(items: Sequence[DupItem]) -> dict[str, ContainedKeys]:
    return {text: contained_keys(text) for text in _texts(items)}


def test_an_id_given_twice_is_the_finders_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(topic_turns, "SPLIT_AT", 2)
    items = _items(1, ("work", "identity"))
    items[-1] = items[-1]._replace(
        id=items[0].id, topic="identity" if items[0].topic == "work" else "work"
    )
    with pytest.raises(ValueError, match="duplicate memory id 'm00'"):
        every_pair(items, 0.8)


@pytest.mark.parametrize("how", ["killed", "raises", "kept-readings"])
def test_a_child_that_dies_has_its_topics_judged_here(
    how: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A child killed or failing: its topics judged here. The child never asks this process's
    keepers of frames and features (it would send no pairs if it did)."""
    monkeypatch.setattr(topic_turns, "SPLIT_AT", 2)
    parent = os.getpid()

    def ours(text: str, read: Callable[[str], Any]) -> Any:
        return read(text)

    def finder(items: Sequence[DupItem], **options: Any) -> list[tuple[str, str, float]]:
        if os.getpid() != parent and items:
            if how == "killed":
                os.kill(os.getpid(), signal.SIGKILL)
            if how == "raises":
                raise RuntimeError("the child fails")
            if ours in (KEEPER.get(), FEATURE_KEEPER.get()):
                return []
        return find_duplicate_pairs(items, **options)

    monkeypatch.setattr(topic_turns, "find_duplicate_pairs", finder)
    items = _items(3, ("work", "identity", "people"))
    with _kept_by(ours, ours):
        assert every_pair(items, 0.8, keys_of=_texts(items)) == (
            find_duplicate_pairs(items),
            _keys(items),
        )


@contextmanager
def _kept_by(frames: Any, feats: Any) -> Iterator[None]:
    kept_frames, kept_features = KEEPER.set(frames), FEATURE_KEEPER.set(feats)
    try:
        yield
    finally:
        FEATURE_KEEPER.reset(kept_features)
        KEEPER.reset(kept_frames)


def _asked(judge: Callable[[], object]) -> tuple[set[str], set[str]]:
    """The texts whose frames and features ``judge`` asks of this process's keepers, read
    from nothing (as in a fresh process)."""
    frames: set[str] = set()
    feats: set[str] = set()

    def noting(asked: set[str]) -> Callable[[str, Callable[[str], Any]], Any]:
        def keeper(text: str, read: Callable[[str], Any]) -> Any:
            asked.add(text)
            return read(text)

        return keeper

    parse_frame.cache_clear()
    features.cache_clear()
    signature.cache_clear()
    with _kept_by(noting(frames), noting(feats)):
        judge()
    return frames, feats


def test_the_texts_the_child_read_are_asked_here_so_the_same_readings_are_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(topic_turns, "SPLIT_AT", 2)
    items = _items(5, ("work", "identity", "people"))
    whole = _asked(lambda: find_duplicate_pairs(items))
    assert whole[0] and whole[1]
    assert _asked(lambda: every_pair(items, 0.8)) == whole
    texts = _texts(items)
    both = _asked(lambda: (find_duplicate_pairs(items), [contained_keys(t) for t in texts]))
    assert _asked(lambda: every_pair(items, 0.8, keys_of=texts)) == both


def test_no_items_are_the_finders_answer_and_its_checks() -> None:
    assert every_pair([], 0.8) == ([], {})
    with pytest.raises(ValueError, match="similarity threshold"):
        every_pair([], 1.5)
