"""Gathering asks a kept index which known texts share a word with the new statements,
with the answers of reading every text.

``content-words-postings.sqlite3`` and ``features-postings.sqlite3`` in the git directory
number each text met and keep, for each word, which texts hold it
(``store/keptpostings.py``), so a dream reads the words of the known texts that share
one with its new statements and of the texts new to the index, not of every memory.
Whatever the texts did in between (added, changed, removed) and whatever state the index
is in, the positions named are those of a full scan, in order, and a dream gives the
same operations and trees.
"""

from __future__ import annotations

import contextlib
import gc
import random
import sqlite3
import weakref
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from dreamgit.dream.gather.compact import compact, content_words
from dreamgit.dream.gather.extract import extract_candidates
from dreamgit.dream.gather.sharing import CONTENT_HOLDERS, FEATURE_HOLDERS, holders
from dreamgit.dream.word_memo import keeping_words
from dreamgit.extract import duplicates
from dreamgit.extract.candidate import Candidate
from dreamgit.extract.duplicates import DupItem, find_duplicate_pairs
from dreamgit.extract.pairable import pairable
from dreamgit.store.keptpostings import KeptPostings
from dreamgit.store.repo import MemoryRepo
from dreamgit.store.sqlitecache import unpacked
from dreamgit.textsim import features
from dreamkit import MEMORIES, Seed
from keptcachekit import KeptCache

Holders = dict[str, list[int]]

_SUBJECTS = ["Noor", "The user", "Her brother", "The team", "Our landlord"]
_VERBS = ["repairs", "collects", "paints", "sells", "borrows", "orders"]
_THINGS = ["old bicycles", "green teapots", "river stones", "vinyl records", "wool scarves"]
_PLACES = ["in Porto", "at the market", "on 3 March 2024", "every winter", "near the harbour"]
_COUNTS = ["", " 12 of them", " twice a week"]


def _sentence(rng: random.Random) -> str:
    return (
        f"{rng.choice(_SUBJECTS)} {rng.choice(_VERBS)} {rng.choice(_THINGS)} "
        f"{rng.choice(_PLACES)}{rng.choice(_COUNTS)}."
    )


def _scan(texts: list[str], words: set[str], read: Callable[[str], Iterable[str]]) -> Holders:
    """What a scan of every text answers: for each of ``words`` a text holds, the
    positions of the texts that hold it, in order."""
    found: Holders = {}
    for word in sorted(words):
        at = [k for k, text in enumerate(texts) if word in read(text)]
        if at:
            found[word] = at
    return found


def _changed(texts: list[str], rng: random.Random) -> list[str]:
    """``texts`` after a run's worth of edits: some removed, some rewritten, some added
    (a text may stand twice, as two memories saying the same)."""
    out = [t for t in texts if rng.random() > 0.15]
    out = [_sentence(rng) if rng.random() < 0.1 else t for t in out]
    for _ in range(rng.randint(1, 12)):
        out.insert(rng.randint(0, len(out)), rng.choice([*out, _sentence(rng)]))
    return out


@pytest.mark.parametrize(
    ("kind", "read"), [("content-words", content_words), ("features", features)]
)
def test_the_index_names_the_texts_a_full_scan_names_over_changing_stores(
    tmp_path: Path, kind: str, read: Callable[[str], Iterable[str]]
) -> None:
    """Runs over random stores that change between them, each a new process's index read
    from what the run before saved: every query's positions are the full scan's."""
    rng = random.Random(f"{kind}-27")
    texts = [_sentence(rng) for _ in range(60)]
    vocabulary = sorted({w for t in texts for w in read(t)} | {"absent", "nowhere"})
    for _run in range(10):
        texts = _changed(texts, rng)
        index = KeptPostings(tmp_path, fingerprint="code", kind=kind)
        for size in (1, 3, 8):
            words = set(rng.sample(vocabulary, size))
            assert index.holders(texts, words, read) == _scan(texts, words, read)
        index.save()


def test_a_later_index_reads_only_the_texts_new_to_it(tmp_path: Path) -> None:
    """The words of a text the index numbered in an earlier run are not read again."""
    rng = random.Random(3)
    texts = [_sentence(rng) for _ in range(30)]
    first = KeptPostings(tmp_path, fingerprint="code", kind="content-words")
    first.holders(texts, {"teapot"}, content_words)
    first.save()
    added = [t for t in (_sentence(rng) for _ in range(20)) if t not in texts][:3]
    asked: list[str] = []

    def reading(text: str) -> set[str]:
        asked.append(text)
        return content_words(text)

    later = KeptPostings(tmp_path, fingerprint="code", kind="content-words")
    everything = [*texts, *added]
    assert later.holders(everything, {"teapot", "porto"}, reading) == _scan(
        everything, {"teapot", "porto"}, content_words
    )
    assert sorted(asked) == sorted(added)


def test_each_saved_row_holds_the_numbers_of_its_word_s_texts_in_order(tmp_path: Path) -> None:
    """Over three runs (texts added, a kept row appended to), the texts table numbers each
    text once and each word's row is the numbers of the texts holding it, ascending."""
    rng = random.Random(5)
    texts = list(dict.fromkeys(_sentence(rng) for _ in range(60)))
    for some in (texts[:25], texts[:40], texts):
        index = KeptPostings(tmp_path, fingerprint="code", kind="content-words")
        index.holders(some, {"porto"}, content_words)
        index.save()
    with sqlite3.connect(index.path) as db:
        numbers = dict(db.execute("SELECT text, n FROM texts"))
        rows = dict(db.execute("SELECT word, data FROM postings"))
    assert sorted(numbers) == sorted(texts) and sorted(numbers.values()) == list(range(len(texts)))
    by_number = sorted(numbers, key=numbers.__getitem__)
    expected: dict[str, list[int]] = {}
    for n, text in enumerate(by_number):
        for word in content_words(text):
            expected.setdefault(word, []).append(n)
    assert {word: list(unpacked(row)) for word, row in rows.items()} == expected


def test_holders_gives_the_same_answer_with_and_without_an_index(tmp_path: Path) -> None:
    """``holders`` reads every text outside a dream's block and asks the index inside it."""
    rng = random.Random(11)
    texts = [_sentence(rng) for _ in range(40)]
    words = {"stone", "record", "3-march-2024", "absent"}
    held = holders(texts, words, content_words, CONTENT_HOLDERS)
    assert CONTENT_HOLDERS.get() is None and FEATURE_HOLDERS.get() is None
    for _ in range(2):  # the first block builds the index, the second reads it
        with keeping_words(tmp_path):
            assert CONTENT_HOLDERS.get() is not None
            assert holders(texts, words, content_words, CONTENT_HOLDERS) == held
    assert held == _scan(texts, words, content_words) and len(held) == 3


def test_texts_no_run_asks_about_leave_the_index_and_the_answers_stay_whole(
    tmp_path: Path,
) -> None:
    """A run that asks about a few of the texts drops the rest (more than a quarter
    unasked); a later run about all of them reads those again, same answers."""
    rng = random.Random(5)
    texts = [_sentence(rng) for _ in range(40)]
    words = {"bicycle", "scarve", "harbour"}
    for asked in (texts, texts[:8], texts):
        index = KeptPostings(tmp_path, fingerprint="code", kind="content-words")
        assert index.holders(asked, words, content_words) == _scan(asked, words, content_words)
        index.save()
        with sqlite3.connect(index.path) as db:
            assert db.execute("SELECT count(*) FROM texts").fetchone()[0] == len(set(asked))


def test_a_run_saves_nothing_onto_an_index_another_process_wrote_after_it_read(
    tmp_path: Path,
) -> None:
    """Two processes read the same index and add texts: the second to save leaves the
    first's rows as they are, and a later run answers as the full scan."""
    rng = random.Random(9)
    base = [_sentence(rng) for _ in range(20)]
    KeptPostings(tmp_path, fingerprint="code", kind="features").save()
    seed = KeptPostings(tmp_path, fingerprint="code", kind="features")
    seed.holders(base, {"porto"}, features)
    seed.save()
    one = KeptPostings(tmp_path, fingerprint="code", kind="features")
    two = KeptPostings(tmp_path, fingerprint="code", kind="features")
    first = [*base, "Noor sells kites at the fair."]
    second = [*base, "The team orders lamps online."]
    one.holders(first, {"kite"}, features)
    two.holders(second, {"lamp"}, features)
    one.save()
    two.save()
    with sqlite3.connect(one.path) as db:
        kept = {t for (t,) in db.execute("SELECT text FROM texts")}
    assert kept == set(first)
    later = KeptPostings(tmp_path, fingerprint="code", kind="features")
    both = [*first, second[-1]]
    for words in ({"kite"}, {"lamp"}, {"porto", "kite", "lamp"}):
        assert later.holders(both, words, features) == _scan(both, words, features)


def _damaged_rows(path: Path) -> None:
    """Rows that are not whole numbers: a database this code never wrote."""
    with sqlite3.connect(path) as db:
        db.execute("UPDATE postings SET data = x'0102'")


def _garbage(path: Path) -> None:
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    path.write_bytes(b"not a database, " * 64)


@pytest.mark.parametrize("damage", [_garbage, _damaged_rows], ids=["garbage", "bad-rows"])
def test_a_damaged_index_is_read_as_empty_and_built_again(
    tmp_path: Path, damage: Callable[[Path], None]
) -> None:
    rng = random.Random(13)
    texts = [_sentence(rng) for _ in range(25)]
    words = {"teapot", "vinyl"}
    built = KeptPostings(tmp_path, fingerprint="code", kind="content-words")
    built.holders(texts, words, content_words)
    built.save()
    damage(built.path)
    again = KeptPostings(tmp_path, fingerprint="code", kind="content-words")
    assert again.holders(texts, words, content_words) == _scan(texts, words, content_words)
    again.save()
    with sqlite3.connect(again.path) as db:
        assert db.execute("SELECT count(*) FROM texts").fetchone()[0] == len(set(texts))
        assert all(len(row) % 4 == 0 for (row,) in db.execute("SELECT data FROM postings"))


def test_texts_the_index_was_asked_about_keep_their_kept_words(tmp_path: Path) -> None:
    """A known text whose words a run did not need (it shares none with the new
    statements) still counts as used: its kept word set is not dropped as stale."""
    rng = random.Random(17)
    texts = sorted({_sentence(rng) for _ in range(30)})
    with keeping_words(tmp_path):
        for text in texts:
            content_words(text)
    with keeping_words(tmp_path):
        found = holders(texts, {"12"}, content_words, CONTENT_HOLDERS)["12"]
        for k in found:
            content_words(texts[k])
    assert 0 < len(found) < 0.75 * len(texts)
    with sqlite3.connect(tmp_path / "dreamgit" / "cache" / "content-words.sqlite3") as db:
        kept = {t for (t,) in db.execute("SELECT text FROM readings")}
    assert kept >= set(texts)


def _statements(rng: random.Random, run: int) -> list[Candidate]:
    """What the extractor finds in a session of the user's own sentences."""
    verbs = ["repair", "collect", "paint", "sell", "borrow", "order"]
    things = [*_THINGS, "brass lamps", "paper kites", "cast iron pans", "clay bowls"]
    places = [*_PLACES, "in Braga", "at the weekend fair", "on 9 June 2025"]
    lines = [
        f"User: I {rng.choice(verbs)} {rng.choice(things)} {rng.choice(places)}"
        f"{rng.choice(_COUNTS)}."
        for _ in range(25)
    ]
    when = datetime(2029, 3, 9, tzinfo=UTC)
    return extract_candidates("\n".join(lines), session_id=f"s-{run}", created=when)


def test_compact_gives_the_same_lists_from_the_index_as_from_every_text(tmp_path: Path) -> None:
    """Random stores, changed between runs: the statements kept, over the budget and
    repeated are those of the full scan, whether the index is built or read back."""
    rng = random.Random(27)
    known = [_sentence(rng) for _ in range(80)]
    sizes = [0, 0, 0]
    for run in range(6):
        known = _changed(known, rng)
        found = _statements(rng, run)
        budget = rng.choice([40, 90, 5000])
        scanned = compact(found, budget, known, min_novelty=0.32)
        with keeping_words(tmp_path):
            assert compact(found, budget, known, min_novelty=0.32) == scanned
        sizes = [size + len(found) for size, found in zip(sizes, scanned, strict=True)]
    assert all(sizes)  # some kept, some over the budget, some repeats


@pytest.mark.parametrize("threshold", [0.8, 0.6])
def test_the_statements_left_out_before_the_finder_pair_with_no_new_one(
    tmp_path: Path, threshold: float
) -> None:
    """Random stores: the duplicate finder's pairs with a new statement are the same over
    every statement as over the new ones and the known ones ``pairable`` names, whether
    the index is built or read back; and it names fewer than share a word."""
    rng = random.Random(int(threshold * 10))
    known = [_sentence(rng) for _ in range(120)]
    pairs = 0
    for run in range(4):
        known = _changed(known, rng)
        # new statements, and known ones said again with a word more
        fresh = [_sentence(rng) for _ in range(4)]
        fresh += [f"{rng.choice(known)[:-1]} {rng.choice(['indeed', 'lately'])}." for _ in range(2)]
        items = [DupItem(f"k{k}", t, "facts") for k, t in enumerate(known)]
        items += [DupItem(f"n{run}-{k}", t, "facts") for k, t in enumerate(fresh)]
        probing = {item.id for item in items[len(known) :]}
        whole = find_duplicate_pairs(items, threshold=threshold, involving=probing)
        for block in (False, True, True):
            with keeping_words(tmp_path) if block else contextlib.nullcontext():
                kept = pairable(known, fresh, threshold)
            left = [item for k, item in enumerate(items) if k in kept or k >= len(known)]
            assert find_duplicate_pairs(left, threshold=threshold, involving=probing) == whole
        if threshold == 0.8:  # a lower threshold probes more words: of so few, most
            words = frozenset().union(*map(features, fresh))
            assert len(kept) < len(sharing_any(known, words))
        pairs += len(whole)
    assert pairs


@pytest.mark.parametrize("threshold", [0.8, 0.6])
def test_the_finder_reads_only_the_features_of_what_could_pair_inside_a_dream(
    tmp_path: Path, threshold: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Random stores: inside a dream's block the finder asked for the pairs with a few
    items leaves out first the items that could pair with none (the kept index names the
    others, built or read back), so reads only their features; the same pairs, in the same
    order, as outside it, where every item is read."""
    rng = random.Random(f"finder-{threshold}")
    known = [_sentence(rng) for _ in range(120)]
    read: list[str] = []

    def reading(text: str) -> frozenset[str]:
        read.append(text)
        return features(text)

    monkeypatch.setattr(duplicates, "features", reading)
    pairs = 0
    for run in range(4):
        known = _changed(known, rng)
        fresh = [_sentence(rng) for _ in range(3)]
        fresh += [f"{rng.choice(known)[:-1]} {rng.choice(['indeed', 'lately'])}." for _ in range(2)]
        items = [DupItem(f"k{k}", t, rng.choice(["facts", "people"])) for k, t in enumerate(known)]
        # new ones among the known, as a merge pass orders them
        for k, text in enumerate(fresh):
            items.insert(rng.randint(0, len(items)), DupItem(f"n{run}-{k}", text, "facts"))
        probing = {f"n{run}-{k}" for k in range(len(fresh))}
        for same_topic in (True, False):
            read.clear()
            whole = find_duplicate_pairs(
                items, threshold=threshold, same_topic=same_topic, involving=probing
            )
            assert len(read) == len(items)
            assert whole == [
                pair
                for pair in find_duplicate_pairs(items, threshold=threshold, same_topic=same_topic)
                if pair[0] in probing or pair[1] in probing
            ]
            for _ in range(2):  # the first block builds the index, the second reads it
                with keeping_words(tmp_path):
                    read.clear()
                    found = find_duplicate_pairs(
                        items, threshold=threshold, same_topic=same_topic, involving=probing
                    )
                assert found == whole
                named = pairable(known, fresh, threshold)
                assert sorted(read) == sorted([*fresh, *(known[k] for k in named)])
                # a lower threshold probes more words: of so few, nearly all
                assert len(read) < len(items) or threshold < 0.8
            pairs += len(whole)
    assert pairs


def test_a_statement_holding_none_of_the_rarest_words_but_one_more_is_still_named() -> None:
    """Seven words at Dice 0.8 (Jaccard 2/3) need five shared, so any three of them name
    every possible twin: the known one below lacks the two rarest (no other statement
    holds them) and holds the third, and pairs with the new one."""
    new = "Ilsa restores antique walnut cabinets and oak chairs."
    known = ["Ilsa restores walnut and oak chairs.", "Tomas sells brass lamps."]
    items = [DupItem("k0", known[0], "f"), DupItem("k1", known[1], "f"), DupItem("n", new, "f")]
    assert find_duplicate_pairs(items, threshold=0.8, involving={"n"})
    assert pairable(known, [new], 0.8) == {0}


def sharing_any(texts: list[str], words: frozenset[str]) -> list[int]:
    return [k for k, text in enumerate(texts) if not words.isdisjoint(features(text))]


#: The fixture's memories and one that shares words with a session's statement.
_KNOWN: tuple[Seed, ...] = (*MEMORIES, Seed("Uses Neovim with a dark theme.", "tools", hours=2))
_CACHES = [
    KeptCache(f"{kind}-postings.sqlite3", _KNOWN, "SELECT count(*) FROM texts")
    for kind in ("content-words", "features")
]


def _from_other_code(cache: KeptCache) -> Callable[[MemoryRepo], None]:
    def prepare(repo: MemoryRepo) -> None:
        """An index kept by other code (a fingerprint of its own), every row emptied."""
        cache.reviewed(repo)
        with sqlite3.connect(cache.path(repo)) as db:
            db.execute("UPDATE postings SET data = x''")
            db.execute("UPDATE meta SET value = 'other code' WHERE key = 'code'")

    return prepare


def _from_another_store(cache: KeptCache) -> Callable[[MemoryRepo], None]:
    def prepare(repo: MemoryRepo) -> None:
        cache.from_another_store(repo, MEMORIES[:6])

    return prepare


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, str]:
    """The dream of a fresh repository, made once for the states compared with it."""
    return _CACHES[0].dreamt(tmp_path_factory.mktemp("fresh"), None)


@pytest.mark.parametrize("cache", _CACHES, ids=["content-words", "features"])
@pytest.mark.parametrize("state", ["kept", "damaged", "other-code", "another-store", "removed"])
def test_a_dream_gives_the_same_operations_and_trees_whatever_the_kept_index(
    tmp_path: Path, cache: KeptCache, state: str, fresh: tuple[Any, str]
) -> None:
    """Kept, damaged, foreign, another store's or removed: the dream of a fresh repository."""
    prepare = {
        "kept": cache.reviewed,
        "damaged": cache.damaged,
        "other-code": _from_other_code(cache),
        "another-store": _from_another_store(cache),
        "removed": cache.removed_after_review,
    }[state]
    assert any(op == "add" for op, *_rest in fresh[0][1])
    assert cache.dreamt(tmp_path, prepare) == fresh
    assert cache.path(cache_repo(tmp_path)).exists()


def cache_repo(root: Path) -> MemoryRepo:
    return MemoryRepo.open(root / "repo.git")


def test_the_index_keeps_the_query_s_own_strings_of_the_texts_it_knows(tmp_path: Path) -> None:
    """After a query, the numbers of the texts it asked about are keyed by its strings,
    not the database's copies; those not asked keep theirs, and every later answer and
    save (the unasked dropped) is as before."""
    rng = random.Random(9)
    texts = [_sentence(rng) for _ in range(40)]
    words = {"bicycle", "scarve", "harbour"}
    first = KeptPostings(tmp_path, fingerprint="code", kind="content-words")
    first.holders(texts, words, content_words)
    first.save()
    index = KeptPostings(tmp_path, fingerprint="code", kind="content-words")
    asked = ["".join(list(t)) for t in texts[:8]]  # equal strings, other objects
    assert not any(a is t for a, t in zip(asked, texts, strict=False))
    assert index.holders(asked, words, content_words) == _scan(asked, words, content_words)
    keys = {id(text) for text in index._numbers}
    assert all(id(text) in keys for text in asked) and len(index._numbers) == len(texts)
    assert index.holders(asked, words, content_words) == _scan(asked, words, content_words)
    index.save()
    with sqlite3.connect(index.path) as db:
        assert {t for (t,) in db.execute("SELECT text FROM texts")} == set(asked)


def test_the_word_sets_of_texts_new_to_the_index_are_not_held(tmp_path: Path) -> None:
    """The index posts a new text's words when it reads them and keeps no set of them
    (a cold dream's 100,000 sets were held to its end), yet answers each later query and
    the next run as the full scan: texts new in one query, asked again in the next."""
    rng = random.Random(21)
    texts = [_sentence(rng) for _ in range(30)]
    read_sets: list[weakref.ref[frozenset[str]]] = []

    def reading(text: str) -> frozenset[str]:
        words = frozenset(content_words(text))  # a frozenset: a copy of it is itself
        read_sets.append(weakref.ref(words))
        return words

    index = KeptPostings(tmp_path, fingerprint="code", kind="content-words")
    for some, words in ((texts[:20], {"teapot"}), (texts, {"porto", "stone"})):
        assert index.holders(some, words, reading) == _scan(some, words, content_words)
    gc.collect()
    assert len(read_sets) == len(set(texts)) and all(ref() is None for ref in read_sets)
    index.save()
    later = KeptPostings(tmp_path, fingerprint="code", kind="content-words")
    words = {"teapot", "porto", "record", "harbour"}
    assert later.holders(texts, words, reading) == _scan(texts, words, content_words)
    assert len(read_sets) == len(set(texts))
