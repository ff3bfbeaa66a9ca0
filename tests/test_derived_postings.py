"""The derived store's postings, a row per term naming memories by number, answer as BM25
over the files does: after builds and moves, with ties going by path whatever the numbers,
and from a database an older layout left."""

from __future__ import annotations

import random
import sqlite3
from collections import Counter
from pathlib import Path

from dreamgit.recall.index import best, bm25_scores, search_stored, terms_held
from dreamgit.store.derived import DerivedStore, Posting, memory_terms

#: Words the generated memories are made of (few, so that queries match many and tie).
WORDS = ("kettle", "harbor", "violet", "granite", "lantern", "meadow", "copper", "willow")


def _record(path: str, blob: str) -> dict[str, object]:
    """A well-formed record whose text is its blob id (each test's blobs are its texts)."""
    fields = ("created", "updated", "name", "description", "type", "key", "confidence")
    found: dict[str, object] = dict.fromkeys(fields, None)
    found.update(id=f"m-{path}", text=blob, tags=[], priority="normal")
    found.update(sources=[], supersedes=[], recalls=0)
    return found


def _from_the_texts(
    files: dict[str, str], query: list[str], wanted: int
) -> list[tuple[str, float, int]]:
    """(path, score, query terms held) of BM25's ``wanted`` best, computed from the texts."""
    postings: dict[str, list[Posting]] = {}
    total = 0
    for path, text in files.items():
        terms = memory_terms(text, [])
        total += len(terms)
        for term, tf in Counter(terms).items():
            postings.setdefault(term, []).append((path, tf, len(terms)))
    scores = bm25_scores(postings, query, len(files), total / len(files))
    chosen = best(scores, wanted)
    held = terms_held(postings, query, chosen)
    return [(p, scores[p], held[p]) for p in chosen]


def _from_the_store(
    store: DerivedStore, tree: str, query: list[str], wanted: int
) -> list[tuple[str, float, int]]:
    found = search_stored(store, tree, query, wanted)
    assert found is not None
    return [(path, score, held) for path, _record, score, held in found]


def test_the_postings_are_a_row_per_term(tmp_path: Path) -> None:
    """However many memories hold a term, its postings are one row."""
    files = {f"memories/t/{i:03}.md": f"{WORDS[i % 3]} {WORDS[3]} fact" for i in range(30)}
    store = DerivedStore(tmp_path)
    store.sync("t", lambda: files, _record)
    store.close()
    terms = {t for text in files.values() for t in memory_terms(text, [])}
    with sqlite3.connect(store.path) as db:
        rows = db.execute("SELECT term FROM postings").fetchall()
    assert sorted(term for (term,) in rows) == sorted(terms)


def test_a_row_is_little_endian_whatever_the_machine(tmp_path: Path) -> None:
    """A row's numbers are little-endian 32-bit words (memory number, frequency, length),
    so a git directory copied to a machine of the other byte order answers the same."""
    store = DerivedStore(tmp_path)
    store.sync("t", lambda: {"memories/t/a.md": "kettle kettle harbor"}, _record)
    store.close()
    with sqlite3.connect(store.path) as db:
        (number,) = db.execute("SELECT n FROM docs").fetchone()
        (term,) = memory_terms("kettle", [])
        (data,) = db.execute("SELECT data FROM postings WHERE term = ?", (term,)).fetchone()
    assert data == b"".join(v.to_bytes(4, "little") for v in (number, 2, 3))


def test_moves_answer_as_the_texts_do_with_ties_by_path(tmp_path: Path) -> None:
    """Trees that add files whose paths sort before those held (so numbers and paths
    disagree), edit and remove others: each answer is the one BM25 gives over the texts."""
    rng = random.Random(5)
    files: dict[str, str] = {}
    store = DerivedStore(tmp_path)
    for step in range(5):
        for path in rng.sample(sorted(files), k=min(len(files), 6)):
            if rng.random() < 0.5:
                del files[path]
            else:
                files[path] = " ".join(rng.choices(WORDS, k=rng.randint(1, 5)))
        for k in range(12):  # later steps' paths sort first: their numbers come last
            files[f"memories/t/{9 - step}-{k:02}.md"] = " ".join(rng.sample(WORDS, 2))
        tree, held = f"tree-{step}", dict(files)
        store.sync(tree, lambda held=held: held, _record)
        for query in (["kettle"], ["harbor", "violet"], ["copper", "copper", "meadow"]):
            for wanted in (1, 3, 40):
                expected = _from_the_texts(files, query, wanted)
                assert _from_the_store(store, tree, query, wanted) == expected


def test_a_database_of_the_older_layout_is_made_again(tmp_path: Path) -> None:
    """A database an older dreamgit left (postings a row per term and path, no numbers)
    is dropped and built in this layout, with the same answers."""
    database = tmp_path / "dreamgit" / "cache" / "derived.sqlite3"
    database.parent.mkdir(parents=True)
    with sqlite3.connect(database) as db:
        db.executescript(
            """
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE docs (
                path TEXT PRIMARY KEY, blob TEXT NOT NULL, id TEXT, record TEXT,
                len INTEGER NOT NULL, active INTEGER NOT NULL, said TEXT
            );
            CREATE TABLE postings (
                term TEXT NOT NULL, path TEXT NOT NULL, tf INTEGER NOT NULL,
                len INTEGER NOT NULL, PRIMARY KEY (term, path)
            ) WITHOUT ROWID;
            INSERT INTO meta VALUES ('schema', '3'), ('tree', 't'), ('count', '1'),
                ('total', '1');
            INSERT INTO docs VALUES ('memories/t/old.md', 'b', 'm-old', '{}', 1, 1, 'x');
            INSERT INTO postings VALUES ('kettl', 'memories/t/old.md', 1, 1);
            """
        )
    db.close()
    files = {"memories/t/a.md": "kettle harbor", "memories/t/b.md": "kettle"}
    store = DerivedStore(tmp_path)
    store.sync("t", lambda: files, _record)
    assert _from_the_store(store, "t", ["kettle"], 5) == _from_the_texts(files, ["kettle"], 5)
    store.close()
    with sqlite3.connect(database) as db:
        paths = [p for (p,) in db.execute("SELECT path FROM docs ORDER BY n")]
    assert paths == sorted(files)
