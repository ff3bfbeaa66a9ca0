"""The memories that could pair with a pass's new ones, named by the kept index of words.

``pair_candidates.could_pair`` looks up the rarest words of each new memory in the kept
index (``store/keptpostings.py``); every memory the duplicate finder pairs with a new one
must be among those it names, or the merge passes would lose a pair.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from dreamgit.dream.consolidate.pair_candidates import could_pair
from dreamgit.dream.word_memo import keeping_words
from dreamgit.extract.duplicates import DupItem, find_duplicate_pairs

_WORDS = [
    "pytest",
    "Flask",
    "Postgres",
    "uv",
    "ruff",
    "vim",
    "daily",
    "work",
    "staging",
    "herons",
    "Lisbon",
    "tea",
]


def _texts(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(["Priya", *rng.sample(_WORDS, rng.randint(1, 6))]) for _ in range(n)]


def test_without_a_kept_index_no_memory_is_named() -> None:
    """Outside the dream's block of kept words the caller asks the finder about all."""
    assert could_pair(["Uses uv", "Uses pip"], [0], 0.8) is None


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("threshold", [0.5, 0.8])
def test_every_memory_the_finder_pairs_with_a_probe_is_named(
    tmp_path: Path, seed: int, threshold: float
) -> None:
    """Each pair the finder finds with a probe has both its memories named, the probes
    among them, and (at a high threshold) not every memory is."""
    texts = _texts(200, seed)
    probes = sorted(random.Random(seed).sample(range(len(texts)), 5))
    items = [DupItem(f"m-{k}", text, "a", None) for k, text in enumerate(texts)]
    involving = {items[k].id for k in probes}
    pairs = find_duplicate_pairs(items, threshold=threshold, involving=involving)
    with keeping_words(tmp_path):
        named = could_pair(texts, probes, threshold)
    with keeping_words(tmp_path):  # the index kept by the block before
        assert could_pair(texts, probes, threshold) == named
    assert named is not None
    assert set(probes) <= named
    position = {item.id: k for k, item in enumerate(items)}
    assert {position[i] for a, b, _s in pairs for i in (a, b)} <= named
