"""The derived store: recall answers the same from it, from the files, and from a stale,
damaged or missing database; a move to a new tree is all or nothing."""

from __future__ import annotations

import itertools
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from dreamgit.api import DreamEngine
from dreamgit.errors import MemoryFileError
from dreamgit.gitstore import Identity
from dreamgit.integrations.remember import remember
from dreamgit.recall import index as recall_index
from dreamgit.recall.query import RecallQuery
from dreamgit.recall.search import indexed_memories, recall
from dreamgit.store.derived import (
    SCHEMA,
    Choose,
    DerivedStore,
    NumberedPosting,
    PathsOf,
    index_terms,
)
from dreamgit.store.derivedpostings import read_postings
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW

FACTS = [
    ("Prefers pytest over unittest for Python tests", "preferences"),
    ("Runs pytest with coverage before every Python release", "tools"),
    ("The deploy pipeline runs on GitHub Actions every night", "project"),
    ("Prefers dark mode in every editor", "preferences"),
    ("Prefers dark mode in every editor", "tools"),  # a tie that only the path breaks
    ("Keeps Python tests next to the code they test", "project"),
    ("Deploys to staging before production, never on Fridays", "project"),
]
QUERIES = ["python tests", "dark mode editor", "deploy staging", "pytest", "quantum chromodynamics"]


@pytest.fixture
def engine(tmp_path: Path) -> DreamEngine:
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    eng = DreamEngine(repo, now=NOW)
    for text, topic in FACTS:
        eng.add_memory(text, topic=topic)
    return eng


@pytest.fixture(autouse=True)
def _no_index_in_the_process() -> None:
    """Each test starts as a fresh process would: no recall index held in memory."""
    recall_index._CACHE.clear()


def _database(repo: MemoryRepo) -> Path:
    return repo.store.git_dir / "dreamgit" / "cache" / "derived.sqlite3"


def _answers(repo: MemoryRepo) -> list[list[tuple[str, float, float, list[str]]]]:
    """Every query's hits (id, score, BM25, group) as recall gives them."""
    return [
        [
            (h.memory.id, h.score, h.bm25, h.group)
            for h in recall(repo, RecallQuery(q, record=False, top_k=10), now=NOW).hits
        ]
        for q in QUERIES
    ]


def _from_the_files(repo: MemoryRepo) -> list[list[tuple[str, float, float, list[str]]]]:
    """The same answers from an index built in the process from the files."""
    recall_index._CACHE.clear()
    indexed_memories(repo, now=NOW, at=repo.tip())
    found = _answers(repo)
    recall_index._CACHE.clear()
    return found


def _commit(repo: MemoryRepo, files: dict[str, bytes | None]) -> None:
    tip = repo.tip()
    tree = repo.store.build_tree(tip, files)
    who = Identity("test", "test@localhost")
    repo.store.commit("main", parents=[tip], tree=tree, message="edit", who=who, when=NOW)


def test_recall_from_the_persisted_index_answers_as_the_files_do(engine: DreamEngine) -> None:
    """A fresh recall builds the database and gives the answers an index of the files gives."""
    repo = engine.repo
    found = _answers(repo)
    assert _database(repo).exists()
    assert found == _from_the_files(repo)
    assert len(found[1][0][3]) == 1  # the two dark-mode memories: one leads, by path
    assert found[-1] == []


def test_a_stale_database_follows_added_changed_and_removed_files(engine: DreamEngine) -> None:
    """After adds, an edit and a removal the database moves to the new tree by the diff."""
    repo = engine.repo
    _answers(repo)
    engine.add_memory("Prefers Python 3.12 for new tools", topic="preferences")
    first = sorted(repo.store.files(repo.tip(), "memories/"))[0]
    _commit(repo, {first: None})
    recall_index._CACHE.clear()
    assert _answers(repo) == _from_the_files(repo)
    with sqlite3.connect(_database(repo)) as db:
        paths = {p for (p,) in db.execute("SELECT path FROM docs")}
    assert first not in paths and len(paths) == len(FACTS)


def test_duplicate_ids_and_broken_files_count_as_the_snapshot_counts_them(
    engine: DreamEngine,
) -> None:
    """A second file with a known id and a file that does not read are left out, as on read."""
    repo = engine.repo
    _answers(repo)
    files = repo.store.files(repo.tip(), "memories/")
    last = sorted(files)[-1]
    copy = repo.store.read(files[last])
    _commit(repo, {"memories/aaa/copy.md": copy, "memories/zzz/broken.md": b"---\n: [\n---\nx\n"})
    recall_index._CACHE.clear()
    with_copy = _answers(repo)
    assert with_copy == _from_the_files(repo)
    assert _active(repo, last) == {"memories/aaa/copy.md": 1, last: 0}
    _commit(repo, {"memories/aaa/copy.md": None})
    recall_index._CACHE.clear()
    assert _answers(repo) == _from_the_files(repo)
    assert _active(repo, last) == {last: 1}


def _active(repo: MemoryRepo, path: str) -> dict[str, int]:
    """Each file stating the id ``path`` states, and whether it is active in the database."""
    with sqlite3.connect(_database(repo)) as db:
        rows = db.execute(
            "SELECT path, active FROM docs WHERE id = (SELECT id FROM docs WHERE path = ?)",
            (path,),
        )
        return dict(rows.fetchall())


@pytest.mark.parametrize("damage", [b"not a database at all" * 100, b""])
def test_a_damaged_database_is_rebuilt(engine: DreamEngine, damage: bytes) -> None:
    """Garbage or an empty file in place of the database: the same answers, a new database."""
    repo = engine.repo
    expected = _from_the_files(repo)
    repo.derived.close()  # damaged by someone else: not under this process's open connection
    _database(repo).parent.mkdir(parents=True, exist_ok=True)
    _database(repo).write_bytes(damage)
    assert _answers(repo) == expected
    with sqlite3.connect(_database(repo)) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == (SCHEMA,)


def test_a_postings_row_cut_short_gives_the_files_answers(engine: DreamEngine) -> None:
    """A term's row that does not hold whole postings is taken for damage: recall answers
    from the files, the same answers."""
    repo = engine.repo
    expected = _from_the_files(repo)
    _answers(repo)
    with sqlite3.connect(_database(repo)) as db:
        db.execute("UPDATE postings SET data = substr(data, 1, length(data) - 1)")
    recall_index._CACHE.clear()
    assert _answers(repo) == expected


def test_a_database_of_another_schema_is_rebuilt(engine: DreamEngine) -> None:
    """A database an older dreamgit wrote is emptied and filled again."""
    repo = engine.repo
    expected = _answers(repo)
    with sqlite3.connect(_database(repo)) as db:
        db.execute("UPDATE meta SET value = '0' WHERE key = 'schema'")
        db.execute("UPDATE postings SET data = zeroblob(length(data))")
    recall_index._CACHE.clear()
    assert _answers(repo) == expected


def test_a_failed_move_leaves_the_database_at_the_tree_it_held(tmp_path: Path) -> None:
    """A parse that fails half-way through a move rolls the whole move back."""
    store = DerivedStore(tmp_path)
    record = {"id": "m-1", "text": "one fact", "tags": []}
    ok = dict.fromkeys(
        ("created", "updated", "name", "description", "type", "key", "confidence"), None
    )
    ok.update(record, priority="normal", sources=[], supersedes=[], recalls=0)
    store.sync("tree-a", lambda: {"memories/t/a.md": "blob-a"}, lambda p, b: dict(ok))

    def breaks(path: str, blob: str) -> dict[str, object]:
        if blob == "blob-c":
            raise KeyboardInterrupt  # the process dies mid-move
        return dict(ok, id="m-2")

    with pytest.raises(KeyboardInterrupt):
        store.sync(
            "tree-b", lambda: {"memories/t/b.md": "blob-b", "memories/t/c.md": "blob-c"}, breaks
        )
    assert store.search("tree-b", ["fact"], lambda *_: []) is None
    held = store.search("tree-a", ["fact"], _every_holder("fact"))
    assert held is not None and list(held) == ["memories/t/a.md"]


def _every_holder(term: str) -> Choose:
    """A ``choose`` that picks every memory holding ``term``, by path."""

    def choose(
        count: int, avg: float, postings: dict[str, list[NumberedPosting]], paths_of: PathsOf
    ) -> list[str]:
        return sorted(paths_of([n for n, _, _ in postings[term]]).values())

    return choose


def test_a_broken_record_is_kept_out_without_failing_the_move(tmp_path: Path) -> None:
    """A file that does not parse is held as broken: no postings, not returned."""
    store = DerivedStore(tmp_path)

    def broken(path: str, blob: str) -> dict[str, object]:
        raise MemoryFileError(path, "does not read")

    store.sync("t", lambda: {"memories/t/x.md": "b"}, broken)
    assert store.search("t", ["x"], lambda *_: ["memories/t/x.md"]) == {}


def _record(path: str, blob: str) -> dict[str, object]:
    """A well-formed record whose text names its blob (so a tree's answers are its own)."""
    fields = ("created", "updated", "name", "description", "type", "key", "confidence")
    found: dict[str, object] = dict.fromkeys(fields, None)
    found.update(id=f"m-{path}", text=f"shared {blob}", tags=[], priority="normal")
    found.update(sources=[], supersedes=[], recalls=0)
    return found


def _diff(trees: dict[str, dict[str, str]], old: str, new: str) -> dict[str, str | None] | None:
    """What differs from tree ``old`` to tree ``new`` (path → new blob, None: gone)."""
    if old not in trees:
        return None
    before, after = trees[old], trees[new]
    gone = dict.fromkeys(p for p in before if p not in after)
    return {**gone, **{p: b for p, b in after.items() if before.get(p) != b}}


def _state(tmp_path: Path) -> list[list[tuple[object, ...]]]:
    """The database's rows, memories named by path: the numbers a move gives them and the
    order of a term's postings are its own, what they stand for is not."""
    with sqlite3.connect(tmp_path / "dreamgit" / "cache" / "derived.sqlite3") as db:
        docs = db.execute("SELECT * FROM docs ORDER BY path").fetchall()
        path_of = {row[0]: row[1] for row in docs}
        terms = [term for (term,) in db.execute("SELECT term FROM postings ORDER BY term")]
        postings = read_postings(db, terms)
        return [
            [row[1:] for row in docs],
            [
                (term, sorted((path_of[n], tf, length) for n, tf, length in postings[term]))
                for term in terms
            ],
            db.execute("SELECT * FROM meta ORDER BY 1, 2").fetchall(),
        ]


def test_a_move_by_the_diff_reads_no_listing_and_ends_as_a_build_from_scratch(
    tmp_path: Path,
) -> None:
    """Told what changed, a move never lists the tree's files, and its tables are those a
    build from the listing gives; told nothing (an old tree not in the repository), it lists."""
    trees = {
        "tree-a": {f"memories/t/{i}.md": f"a{i}" for i in range(6)},
        "tree-b": {**{f"memories/t/{i}.md": f"a{i}" for i in range(1, 6)}, "memories/t/9.md": "b"},
    }
    trees["tree-b"]["memories/t/3.md"] = "a3-edited"

    def no_listing() -> dict[str, str]:
        raise AssertionError("the listing was read")

    by_diff, from_scratch = tmp_path / "diff", tmp_path / "scratch"
    DerivedStore(by_diff).sync("tree-a", lambda: trees["tree-a"], _record)
    DerivedStore(by_diff).sync(
        "tree-b", no_listing, _record, lambda held: _diff(trees, held, "tree-b")
    )
    DerivedStore(from_scratch).sync("tree-b", lambda: trees["tree-b"], _record)
    assert _state(by_diff) == _state(from_scratch)
    listed: list[str] = []
    DerivedStore(by_diff).sync(
        "tree-a", lambda: listed.append("x") or trees["tree-a"], _record, lambda held: None
    )
    assert listed == ["x"]


def _shared_id_record(path: str, blob: str) -> dict[str, object]:
    """A record stating the id its blob names before ":" (files may share one)."""
    return {**_record(path, blob), "id": f"m-{blob.split(':')[0]}", "text": f"shared {blob} x"}


@pytest.mark.parametrize(
    "change",
    [
        {"memories/t/1.md": None},  # the first of an id goes: the second becomes active
        {"memories/t/0.md": "k2:new"},  # an earlier file takes an id: the first steps back
        {"memories/t/2.md": "k1:edited", "memories/t/5.md": None},
        {"memories/t/1.md": "k9:other", "memories/t/4.md": "k4:edited"},
    ],
)
def test_a_move_among_files_sharing_ids_ends_as_a_build_from_scratch(
    tmp_path: Path, change: dict[str, str | None]
) -> None:
    """Files stating one id change places by the diff: the active files, their postings and
    the count and total length BM25 reads are those a build from the listing gives."""
    before = {
        "memories/t/1.md": "k1:a",
        "memories/t/2.md": "k1:b",
        "memories/t/3.md": "k2:c",
        "memories/t/4.md": "k4:d",
        "memories/t/5.md": "k2:e",
    }
    after = {**before, **change}
    trees = {"old": before, "new": {p: b for p, b in after.items() if b is not None}}
    by_diff, from_scratch = tmp_path / "diff", tmp_path / "scratch"
    DerivedStore(by_diff).sync("old", lambda: trees["old"], _shared_id_record)
    DerivedStore(by_diff).sync(
        "new", lambda: trees["new"], _shared_id_record, lambda held: _diff(trees, held, "new")
    )
    DerivedStore(from_scratch).sync("new", lambda: trees["new"], _shared_id_record)
    assert _state(by_diff) == _state(from_scratch)


def test_a_repository_moves_its_database_by_the_diff_after_a_write(
    engine: DreamEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After an add, the database follows the commit without listing the memory files."""
    repo = engine.repo
    _answers(repo)
    engine.add_memory("Prefers Python 3.12 for new tools", topic="preferences")
    listing = repo.store.files

    def files(commit: str | None, prefix: str = "") -> dict[str, str]:
        assert prefix != "memories/", "the memory files were listed"
        return listing(commit, prefix)

    monkeypatch.setattr(repo.store, "files", files)
    assert repo.sync_derived(repo.tip()) is not None
    monkeypatch.undo()
    recall_index._CACHE.clear()
    assert _answers(repo) == _from_the_files(repo)


def test_readers_never_see_half_a_move_while_writers_move_the_database(tmp_path: Path) -> None:
    """Two writers move one database between two trees while a reader queries: every answer
    it gets is wholly one tree's files."""
    trees = {
        "tree-a": {f"memories/t/{i}.md": f"a{i}" for i in range(40)},
        "tree-b": {f"memories/t/{i}.md": f"b{i}" for i in range(20, 70)},
    }
    stop = threading.Event()

    def write(tree: str) -> None:
        store = DerivedStore(tmp_path)
        while not stop.is_set():  # each move undoes the other writer's
            try:  # by the diff from the tree the other writer left
                store.sync(
                    tree, lambda: trees[tree], _record, lambda held: _diff(trees, held, tree)
                )
            except sqlite3.OperationalError:  # locked past the wait: recall reads the files then
                store.close()
        store.close()

    writers = [threading.Thread(target=write, args=(t,)) for t in trees]
    for w in writers:
        w.start()
    reader, seen = DerivedStore(tmp_path), set[str]()
    (term,) = index_terms("shared")
    try:  # 200 rounds, and on until an answer came (a loaded machine starts writers late)
        deadline = time.monotonic() + 60
        for round_ in itertools.count():
            if round_ >= 200 and (seen or time.monotonic() > deadline):
                break
            for tree, files in trees.items():
                found = reader.search(tree, [term], _every_holder(term))
                if found is not None:
                    seen.add(tree)
                    texts = {r["text"] for r in found.values()}
                    assert texts == {f"shared {b}" for b in files.values()}
    finally:
        stop.set()
        for w in writers:
            w.join()
    assert seen


def test_a_repository_read_from_two_threads_answers_in_both(engine: DreamEngine) -> None:
    """The MCP server answers each tool in a worker thread: a recall in one and a repeat check
    in another use the one repository, and sqlite3 refuses a connection made in another
    thread, so each thread gets its own."""
    repo = engine.repo
    found: list[object] = []
    worker = threading.Thread(target=lambda: found.append(_answers(repo)))
    worker.start()
    worker.join()
    assert found == [_answers(repo)]
    again = remember(repo, FACTS[0][0], topic=FACTS[0][1], now=NOW)  # the repeat check
    assert again.reinforced


def _listing(repo: MemoryRepo, derived: list[str]) -> dict[str, str | None]:
    """Each file's fact of kind "chars" (its text's length) at the tip; ``derived`` notes
    the files whose fact was derived."""

    def derive(path: str, record: dict[str, Any]) -> str:
        derived.append(path)
        return str(len(record["text"]))

    tree = repo.sync_derived(repo.tip())
    assert tree is not None
    listed = repo.derived.listing(tree, "chars", derive)
    assert listed is not None
    return {found.path: found.fact for found in listed}


def test_a_fact_is_derived_once_per_file_version_and_dropped_with_it(
    engine: DreamEngine,
) -> None:
    """A listing derives each file's fact once; a changed file's fact is derived again, a
    removed file's is dropped, a broken file has none and says why."""
    repo = engine.repo
    derived: list[str] = []
    facts = _listing(repo, derived)
    assert len(derived) == len(FACTS) and set(facts) == set(derived)
    assert _listing(repo, derived) == facts and len(derived) == len(FACTS)
    files = sorted(repo.store.files(repo.tip(), "memories/"))
    changed = repo.store.read_path(repo.tip(), files[0]).replace(b"Prefers", b"Really prefers")
    _commit(repo, {files[0]: changed, files[1]: None, "memories/zzz/broken.md": b"---\n: [\n"})
    derived.clear()
    moved = _listing(repo, derived)
    assert derived == [files[0]]
    assert moved[files[0]] == str(int(facts[files[0]] or 0) + len("Really "))
    assert files[1] not in moved and moved["memories/zzz/broken.md"] is None
    with sqlite3.connect(_database(repo)) as db:
        kept = {p for (p,) in db.execute("SELECT path FROM facts WHERE kind = 'chars'")}
    assert kept == set(moved) - {"memories/zzz/broken.md"}


def test_a_listing_that_derives_every_fact_drops_the_other_variants_of_its_kind(
    engine: DreamEngine,
) -> None:
    """Facts of ``len:old`` go when ``len:new`` derives every file's (other rules, say);
    facts of another name stay."""
    repo = engine.repo
    tree = repo.sync_derived(repo.tip())
    assert tree is not None
    for kind in ("len:old", "other:1", "len:new"):
        assert repo.derived.listing(tree, kind, lambda _p, record: str(len(record["text"])))
    with sqlite3.connect(_database(repo)) as db:
        kinds = dict(db.execute("SELECT kind, COUNT(*) FROM facts GROUP BY kind").fetchall())
    assert kinds == {"len:new": len(FACTS), "other:1": len(FACTS)}


def test_a_build_into_empty_tables_ends_with_the_docs_indexes_in_place(
    engine: DreamEngine,
) -> None:
    """A first build makes the docs indexes after its rows (once, sorted): they are there
    after it, and queries by id and by text use them."""
    repo = engine.repo
    _answers(repo)
    with sqlite3.connect(_database(repo)) as db:
        names = {n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type='index'")}
        plan = " ".join(
            str(row)
            for row in db.execute("EXPLAIN QUERY PLAN SELECT path FROM docs WHERE id = 'x'")
        )
    assert {"docs_by_id", "docs_by_said"} <= names
    assert "docs_by_id" in plan
