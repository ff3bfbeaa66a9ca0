"""The record cache in SQLite: every entry back as it was put, saved as the difference, in
one transaction; damaged, stale or other code's caches are parsed again."""

from __future__ import annotations

import contextlib
import json
import math
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from dreamgit.model import Memory
from dreamgit.store import memorycache, recordcache
from dreamgit.store.memoryfile import render_memory
from dreamgit.store.recordcache import RecordCache, loaded_row
from dreamgit.store.recordrow import ROW_VERSION
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW

_PLAIN = [ROW_VERSION, "m-1", "tools", True, "editor", None, "user", "normal", None,
          "Edits in Helix.", 1.0, 0, "2025-01-06T08:35:17Z", "2025-01-06T08:35:17Z"]  # fmt: skip
#: Every kind of entry the cache holds: rows with and without optional values, rows with
#: values SQLite would not give back as they are, a broken file's reason, a built record.
ENTRIES: dict[str, Any] = {
    "a" * 40: _PLAIN,
    "b" * 40: [*_PLAIN[:3], False, *_PLAIN[4:]],
    "c" * 40: [*_PLAIN, "2025-01-07T00:00:00Z", None, ["editor"], [], ["m-0"]],
    "d" * 40: [*_PLAIN[:10], math.nan, 2**70, *_PLAIN[12:]],
    "e" * 40: [*_PLAIN[:10], 1, 0, *_PLAIN[12:]],  # a whole number, not a float
    "f" * 40: [*_PLAIN[:3], 1, *_PLAIN[4:]],  # front_matter that is no truth value
    "0" * 40: {"error": "not a memory", "line": 2, "hint": "fix it", "v": ROW_VERSION},
    "1" * 40: {"ok": {"id": "m-2", "text": "Built."}, "v": ROW_VERSION},
}


def _loaded(path: Path) -> dict[str, Any]:
    """The entries a new reader loads, each row as a row."""
    entries = RecordCache(path).entries()
    return {b: loaded_row(e) if type(e) is tuple else e for b, e in entries.items()}


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Equal entries, value types included (NaN equal to itself)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True) and all(
        [type(v) for v in a[k]] == [type(v) for v in b[k]] for k in a if type(a[k]) is list
    )


def test_every_kind_of_entry_is_loaded_as_it_was_put(tmp_path: Path) -> None:
    """Rows (with optional values, a truth value, NaN, a number too big for SQLite, a whole
    number), a broken file's reason and a built record come back equal and of their types."""
    path = tmp_path / "memories.sqlite3"
    cache = RecordCache(path)
    for blob, entry in ENTRIES.items():
        cache.put(blob, entry)
    cache.save()
    loaded = _loaded(path)
    assert loaded.keys() == ENTRIES.keys()
    assert _same(loaded, ENTRIES)
    assert math.isnan(loaded["d" * 40][10]) and loaded["d" * 40][11] == 2**70
    assert loaded["a" * 40][3] is True and loaded["b" * 40][3] is False


@pytest.mark.parametrize("count", [0, 1, 2500])
def test_a_cache_written_from_encoded_entries_reads_back_as_them(
    tmp_path: Path, count: int
) -> None:
    """Entries written whole as JSON text (a build of the derived store's records), keys
    that JSON would escape among them, replace what the cache held and read back as the
    entries."""
    path = tmp_path / "memories.sqlite3"
    stale = RecordCache(path)
    stale.put("stale", _PLAIN)
    stale.save()
    keys = [f'b{k}"\\\u00e9\n' if k % 7 == 0 else f"{k:040x}" for k in range(count)]
    entries = {
        key: {"ok": {"text": f"fact {k} \u2014 said"}, "v": ROW_VERSION}
        for k, key in enumerate(keys)
    }
    RecordCache(path).write_encoded((key, json.dumps(e)) for key, e in entries.items())
    assert RecordCache(path).entries() == entries
    assert RecordCache(path).exists() is bool(count)


def test_a_save_writes_only_what_changed_and_deletes_what_is_not_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second save stores the one entry put since the first and deletes the one not kept,
    leaving the others untouched."""
    path = tmp_path / "memories.sqlite3"
    first = RecordCache(path)
    for blob, entry in ENTRIES.items():
        first.put(blob, entry)
    first.save()
    stored: list[str] = []
    real = recordcache._stored
    monkeypatch.setattr(recordcache, "_stored", lambda b, e: stored.append(b) or real(b, e))
    second = RecordCache(path)
    second.put("9" * 40, _PLAIN)
    second.save(keep=(set(ENTRIES) - {"a" * 40}) | {"9" * 40})
    assert stored == ["9" * 40]
    assert _loaded(path).keys() == (set(ENTRIES) - {"a" * 40}) | {"9" * 40}
    second.save()  # nothing put since: nothing written
    assert stored == ["9" * 40]


def test_a_save_that_fails_half_way_leaves_the_cache_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A save is one transaction: stopped after its first row, none of its rows is seen."""
    path = tmp_path / "memories.sqlite3"
    first = RecordCache(path)
    first.put("a" * 40, _PLAIN)
    first.save()
    real = recordcache._stored

    def once(blob: str, entry: Any) -> tuple[Any, ...]:
        if blob == "c" * 40:
            raise RuntimeError("stopped")
        return real(blob, entry)

    monkeypatch.setattr(recordcache, "_stored", once)
    second = RecordCache(path)
    second.put("b" * 40, _PLAIN)
    second.put("c" * 40, _PLAIN)
    with pytest.raises(RuntimeError):
        second.save(keep=set())
    assert list(_loaded(path)) == ["a" * 40]


def test_a_reader_during_a_save_sees_the_cache_before_it(tmp_path: Path) -> None:
    """While another connection's save is open, a reader loads the cache as it was."""
    path = tmp_path / "memories.sqlite3"
    first = RecordCache(path)
    first.put("a" * 40, _PLAIN)
    first.save()
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as writer:
        writer.execute("BEGIN IMMEDIATE")
        writer.execute("DELETE FROM records")
        writer.execute(
            recordcache._PUT, recordcache._stored("b" * 40, _PLAIN)
        )  # half a save: not committed
        assert list(_loaded(path)) == ["a" * 40]
        writer.execute("COMMIT")
    assert list(_loaded(path)) == ["b" * 40]


def _repo(tmp_path: Path) -> MemoryRepo:
    files = {
        "memories/tools/editor.md": render_memory(
            Memory("m-q7w3e5r1", "tools", "editor", "Edits in Helix.", NOW, NOW)
        ).encode(),
        "memories/tools/shell.md": b"Writes shell scripts with two-space indents.\n",
        "memories/tools/broken.md": b"---\na: [\n---\n",
    }
    repo = MemoryRepo.init(tmp_path / "mem", bare=True, now=NOW)
    assert repo.commit_main("hand: put files", lambda _tip: files, now=NOW)
    return repo


def _read(repo: MemoryRepo) -> tuple[list[str], list[str]]:
    snapshot = MemoryRepo.open(repo.store.git_dir).snapshot(now=NOW)
    return [repr(m) for m in snapshot.memories], [e.render() for e in snapshot.broken]


def _cache(repo: MemoryRepo) -> Path:
    return repo.store.git_dir / "dreamgit" / "cache" / "memories.sqlite3"


@pytest.mark.parametrize("damage", ["file", "row", "other code", "other memories"])
def test_a_damaged_stale_or_other_codes_cache_gives_the_same_memories(
    tmp_path: Path, damage: str
) -> None:
    """A cache file that is not a database, a row whose JSON is damaged, a cache another
    version of the code made and one that holds other memories' rows (and lies about
    ours') each give the memories a read without a cache gives, and are mended."""
    repo = _repo(tmp_path)
    cold = _read(repo)
    saved = _cache(repo)
    good = RecordCache(saved).entries()
    if damage == "file":
        saved.write_bytes(b"not a database at all" * 100)
    else:
        with contextlib.closing(sqlite3.connect(saved, isolation_level=None)) as db:
            if damage == "row":
                db.execute("UPDATE records SET rest = '[not json'")
            elif damage == "other code":
                db.execute("UPDATE meta SET value = 'rows-0' WHERE key = 'code'")
                db.execute("UPDATE records SET text = 'Said by other code.'")
            else:
                db.execute("UPDATE records SET blob = 'f' || substr(blob, 2)")
                db.execute("UPDATE records SET text = 'Said of another memory.'")
    assert _read(repo) == cold
    assert RecordCache(saved).entries() == good


def test_the_json_cache_an_older_version_wrote_is_removed_by_the_first_save(
    tmp_path: Path,
) -> None:
    """``memories.json`` (written whole by older versions) is read no more and removed."""
    repo = _repo(tmp_path)
    old = _cache(repo).with_name("memories.json")
    _cache(repo).unlink(missing_ok=True)
    old.parent.mkdir(parents=True, exist_ok=True)
    old.write_text(json.dumps({"x" * 40: ["said by the old cache"]}))
    cold = _read(repo)
    assert not old.exists()
    assert memorycache.MemoryFiles(repo.store).ids(repo.store.files(repo.tip())) >= {"m-q7w3e5r1"}
    assert _read(repo) == cold
