"""A dream reads its memories' word sets through the sets kept between runs, same answers.

``features.sqlite3`` and ``content-words.sqlite3`` in the git directory keep each text's
features (what the duplicate finder compares) and content words (what gathering checks a
new statement against), so a later run reads only new and changed memories. Whatever
state those caches are in, a dream gives the same operations, run id and trees.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dreamgit.dream.gather.compact import WORDS_KEEPER, content_words
from dreamgit.dream.word_memo import keeping_words
from dreamgit.store.repo import MemoryRepo
from dreamgit.textsim import FEATURE_KEEPER, features
from dreamkit import MEMORIES, build_repo, forced_dream, invoke_json

KINDS = ("features", "content-words")
SAID = ("Prefers pytest over unittest for Python tests.", "Met Ana on 14 July 2023.", "ok")


def _kept(repo: MemoryRepo, kind: str) -> Path:
    return repo.store.git_dir / "dreamgit" / "cache" / f"{kind}.sqlite3"


def _reviewed(repo: MemoryRepo) -> None:
    """A review before the run (a process of its own): the databases hold every set."""
    features.cache_clear()  # as in a fresh process: every text asked of the database
    invoke_json(repo, "review", "--force")
    for kind in KINDS:
        with sqlite3.connect(_kept(repo, kind)) as db:
            assert db.execute("SELECT count(*) FROM readings").fetchone()[0] >= len(MEMORIES)


def _damaged(repo: MemoryRepo) -> None:
    _reviewed(repo)
    for kind in KINDS:
        for suffix in ("-wal", "-shm"):
            Path(f"{_kept(repo, kind)}{suffix}").unlink(missing_ok=True)
        _kept(repo, kind).write_bytes(b"not a database, " * 64)


def _unreadable_rows(repo: MemoryRepo) -> None:
    """Rows this code cannot read back (another shape, not JSON): each text is read again."""
    _reviewed(repo)
    for kind in KINDS:
        with sqlite3.connect(_kept(repo, kind)) as db:
            texts = [t for (t,) in db.execute("SELECT text FROM readings")]
            for k, text in enumerate(texts):
                value = "{broken" if k % 2 else "{}"
                db.execute("UPDATE readings SET value = ? WHERE text = ?", (value, text))


def _from_other_code(repo: MemoryRepo) -> None:
    """Sets kept by other code (a fingerprint of its own), every one of them wrong."""
    _reviewed(repo)
    for kind in KINDS:
        with sqlite3.connect(_kept(repo, kind)) as db:
            db.execute("UPDATE readings SET value = ?", ('["wrong"]',))
            db.execute("UPDATE meta SET value = 'other code' WHERE key = 'code'")


def _dreamt(root: Path, prepare: Callable[[MemoryRepo], None] | None) -> tuple[Any, str]:
    repo = build_repo(root, bare=True)
    if prepare is not None:
        prepare(repo)
    features.cache_clear()  # as in a fresh process
    return forced_dream(repo)


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, str]:
    """The dream of a fresh repository, made once for the states compared with it."""
    return _dreamt(tmp_path_factory.mktemp("fresh") / "repo", None)


@pytest.mark.parametrize(
    "prepare",
    [_reviewed, _damaged, _unreadable_rows, _from_other_code],
    ids=["kept", "damaged", "unreadable-rows", "other-code"],
)
def test_a_dream_gives_the_same_operations_and_trees_whatever_the_kept_words(
    tmp_path: Path, prepare: Callable[[MemoryRepo], None], fresh: tuple[Any, str]
) -> None:
    """Kept, damaged, unreadable or foreign word sets: the dream of a fresh repository."""
    assert any(op == "merge" for op, *_rest in fresh[0][1])
    assert _dreamt(tmp_path / "prepared", prepare) == fresh


def test_a_kept_word_set_is_read_back_without_reading_the_text_again(tmp_path: Path) -> None:
    """A second block (a later process) takes each text's sets from the databases."""
    features.cache_clear()
    with keeping_words(tmp_path):
        first = [(features(t), content_words(t)) for t in SAID]
    features.cache_clear()
    asked: list[str] = []

    def reading(text: str) -> Any:
        asked.append(text)
        raise AssertionError(f"read again: {text}")

    with keeping_words(tmp_path):
        feature_keeper, words_keeper = FEATURE_KEEPER.get(), WORDS_KEEPER.get()
        assert feature_keeper is not None and words_keeper is not None
        again = [(feature_keeper(t, reading), words_keeper(t, reading)) for t in SAID]
    assert again == first and asked == []
    assert type(again[0][0]) is frozenset and type(again[0][1]) is set
    assert FEATURE_KEEPER.get() is None and WORDS_KEEPER.get() is None


def test_kept_word_sets_read_back_share_one_string_per_word(tmp_path: Path) -> None:
    """Word sets read from the databases hold one string object per word, whichever set
    and text it comes from (100,000 kept sets are held to the end of a dream)."""
    texts = ["The kettle whistles at dawn.", "A kettle sits by the window at dawn."]
    with keeping_words(tmp_path):
        for text in texts:
            features(text)
            content_words(text)
    features.cache_clear()

    def reading(text: str) -> Any:
        raise AssertionError(f"read again: {text}")

    with keeping_words(tmp_path):
        feature_keeper, words_keeper = FEATURE_KEEPER.get(), WORDS_KEEPER.get()
        assert feature_keeper is not None and words_keeper is not None
        sets = [keeper(t, reading) for t in texts for keeper in (feature_keeper, words_keeper)]
    shared = {w for s in sets for w in s if all(w in other for other in sets)}
    assert shared  # "kettle" is in every set
    for word in shared:
        assert len({id(w) for s in sets for w in s if w == word}) == 1
