"""Content words are saved and let go when gathering is done with them, same answers.

Only gathering reads content words, so a dream's word memo saves them (sets and index)
when gathering says it is done (``sharing.done_with_content_words``) instead of holding
their tables through consolidation. The databases hold what a save at the block's end
keeps, content words asked afterwards are read afresh with the same answers, the
features are kept to the end as before, and nothing is saved twice.
"""

from __future__ import annotations

import gc
import sqlite3
from pathlib import Path

import pytest

from dreamgit.dream.gather import phase
from dreamgit.dream.gather.compact import WORDS_KEEPER, content_words
from dreamgit.dream.gather.sharing import (
    CONTENT_HOLDERS,
    CONTENT_WORDS_DONE,
    FEATURE_HOLDERS,
    done_with_content_words,
    holders,
)
from dreamgit.dream.word_memo import keeping_words
from dreamgit.store.keptpostings import KeptPostings
from dreamgit.store.repo import MemoryRepo
from dreamgit.textsim import FEATURE_KEEPER, features
from dreamkit import build_repo, forced_dream

TEXTS = ["The kettle whistles at dawn.", "Ana moved to Porto on 14 July 2023.", "ok"]
CACHES = ("content-words", "content-words-postings", "features", "features-postings")


def _rows(git_dir: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of each kept table of the word memo, but the tokens of its writes."""
    found: dict[str, list[tuple[object, ...]]] = {}
    for name in CACHES:
        with sqlite3.connect(git_dir / "dreamgit" / "cache" / f"{name}.sqlite3") as db:
            tables = [t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
            for table in sorted(tables):
                rows = db.execute(f"SELECT * FROM {table}").fetchall()
                if table == "meta":
                    rows = [row for row in rows if row[0] != "version"]
                found[f"{name}/{table}"] = sorted(rows, key=repr)
    return found


def _content_indexes() -> list[KeptPostings]:
    gc.collect()
    return [
        o
        for o in gc.get_objects()
        if isinstance(o, KeptPostings) and o.path.name.startswith("content-words")
    ]


def test_content_words_are_saved_and_let_go_when_gathering_is_done(tmp_path: Path) -> None:
    """After the call the content words' keeper and index are unset and their database
    holds the sets read; asked again they are read afresh, the same; features stay kept."""
    expected = [content_words(t) for t in TEXTS]
    with keeping_words(tmp_path):
        asked = holders(TEXTS, {"kettle", "porto"}, content_words, CONTENT_HOLDERS)
        read = [content_words(t) for t in TEXTS]
        assert _content_indexes()
        done_with_content_words()
        assert WORDS_KEEPER.get() is None and CONTENT_HOLDERS.get() is None
        assert FEATURE_KEEPER.get() is not None and FEATURE_HOLDERS.get() is not None
        assert not _content_indexes()
        with sqlite3.connect(tmp_path / "dreamgit" / "cache" / "content-words.sqlite3") as db:
            assert db.execute("SELECT count(*) FROM readings").fetchone()[0] == len(TEXTS)
        again = [content_words(t) for t in TEXTS]
        assert holders(TEXTS, {"kettle", "porto"}, content_words, CONTENT_HOLDERS) == asked
        done_with_content_words()  # twice: nothing more
    assert read == again == expected
    assert CONTENT_WORDS_DONE.get() is None and WORDS_KEEPER.get() is None


def test_content_words_let_go_early_are_not_saved_again_at_the_block_s_end(
    tmp_path: Path,
) -> None:
    """The block's end saves the features and leaves the content words as gathering's
    call saved them (no second write)."""
    with keeping_words(tmp_path):
        holders(TEXTS, {"kettle"}, content_words, CONTENT_HOLDERS)
        holders(TEXTS, {"kettle"}, features, FEATURE_HOLDERS)
        done_with_content_words()
        saved = _rows(tmp_path)
        path = tmp_path / "dreamgit" / "cache" / "content-words-postings.sqlite3"
        with sqlite3.connect(path) as db:
            version = db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone() == version
    after = _rows(tmp_path)
    assert {k: v for k, v in after.items() if k.startswith("content")} == {
        k: v for k, v in saved.items() if k.startswith("content")
    }
    assert after["features/readings"] and after["features-postings/postings"]


def test_a_block_that_fails_saves_no_content_words_gathering_did_not_finish(
    tmp_path: Path,
) -> None:
    """An error before gathering is done: nothing saved, everything unset, as before."""
    with pytest.raises(RuntimeError), keeping_words(tmp_path):
        holders(TEXTS, {"kettle"}, content_words, CONTENT_HOLDERS)
        raise RuntimeError("boom")
    path = tmp_path / "dreamgit" / "cache" / "content-words.sqlite3"
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM readings").fetchone()[0] == 0
    assert WORDS_KEEPER.get() is None and CONTENT_HOLDERS.get() is None
    assert CONTENT_WORDS_DONE.get() is None and FEATURE_KEEPER.get() is None


def test_outside_a_dream_gathering_s_call_does_nothing() -> None:
    """No word memo: nothing to save or let go."""
    done_with_content_words()
    assert content_words(TEXTS[0]) == {"kettle", "whistle", "dawn"}


def test_a_dream_keeps_the_same_rows_whether_content_words_go_early_or_at_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two dreams of one repository, content words saved when gathering is done and at the
    block's end: the same operations and trees, and the same rows in every word table,
    then again in a second dream over what each kept."""
    results: dict[str, list[object]] = {"early": [], "late": []}
    for name in results:
        repo = build_repo(tmp_path / name, bare=True)
        with monkeypatch.context() as patched:
            if name == "late":
                patched.setattr(phase, "done_with_content_words", lambda: None)
            for _ in range(2):
                features.cache_clear()  # as in a fresh process
                dreamt = forced_dream(MemoryRepo.open(repo.store.git_dir))
                results[name] += [dreamt, _rows(repo.store.git_dir)]
    assert results["early"] == results["late"]
