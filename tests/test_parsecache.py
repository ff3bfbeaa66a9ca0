"""The record cache written whole from encoded records reads back as the records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dreamgit.store.parsecache import ParseCache


@pytest.mark.parametrize("count", [0, 1, 1023, 1024, 1025, 2500])
def test_a_cache_written_from_encoded_records_reads_back_as_them(
    tmp_path: Path, count: int
) -> None:
    """Keys that JSON must escape, over one batch and several: the file is the mapping's
    JSON, byte for byte as json.dumps writes it, and a new cache object reads each record."""
    keys = [f'b{k}"\\\u00e9\n' if k % 7 == 0 else f"{k:040x}" for k in range(count)]
    records = {key: {"ok": {"text": f"fact {k} \u2014 said"}, "v": 2} for k, key in enumerate(keys)}
    encoded = {key: json.dumps(value) for key, value in records.items()}
    path = tmp_path / "memories.json"
    ParseCache(path).write_encoded(encoded.items())
    written = ",".join(f"{json.dumps(key)}:{text}" for key, text in encoded.items())
    assert path.read_text(encoding="utf-8") == "{" + written + "}"
    assert json.loads(path.read_text(encoding="utf-8")) == records
    again = ParseCache(path)
    assert len(again) == count
    for key, value in records.items():
        assert again.get(key) == value


def test_a_save_keeping_some_blobs_drops_the_others_and_keeps_the_order(tmp_path: Path) -> None:
    """The entries of blobs not kept leave the file and the map; the rest stay in order."""
    cache = ParseCache(tmp_path / "memories.json")
    for blob in ("c", "a", "d", "b"):
        cache.put(blob, [blob])
    cache.save(keep={"a", "b", "c", "elsewhere"})
    assert (tmp_path / "memories.json").read_text(encoding="utf-8") == (
        '{"c":["c"],"a":["a"],"b":["b"]}'
    )
    assert len(cache) == 3 and cache.get("d") is None and ParseCache(cache._path).get("b") == ["b"]


def _saved(tmp_path: Path, count: int) -> tuple[Path, Path]:
    """A cache of ``count`` entries written whole, and where its recent file goes."""
    main, recent = tmp_path / "memories.json", tmp_path / "memories.recent.json"
    cache = ParseCache(main, recent=recent)
    for k in range(count):
        cache.put(f"b{k}", [k])
    cache.save()
    assert main.exists() and not recent.exists()
    return main, recent


def test_a_few_entries_added_are_saved_to_the_recent_file_not_the_whole_map(
    tmp_path: Path,
) -> None:
    """The whole map's file stays as it was; a new cache reads both files, and reads the
    same with the recent file as a cache that wrote the whole map."""
    main, recent = _saved(tmp_path, 128)
    before = main.read_bytes()
    cache = ParseCache(main, recent=recent)
    cache.put("new", ["new"])
    cache.save()
    assert main.read_bytes() == before
    assert json.loads(recent.read_text(encoding="utf-8")) == {"new": ["new"]}
    again = ParseCache(main, recent=recent)
    assert len(again) == 129 and again.get("new") == ["new"] and again.get("b3") == [3]
    whole = ParseCache(tmp_path / "whole.json")
    for k in range(128):
        whole.put(f"b{k}", [k])
    whole.put("new", ["new"])
    assert {blob: again.get(blob) for blob in [*map("b{}".format, range(128)), "new"]} == {
        blob: whole.get(blob) for blob in [*map("b{}".format, range(128)), "new"]
    }


def test_the_recent_file_grows_by_each_save_and_drops_blobs_not_kept(tmp_path: Path) -> None:
    """A second save keeps the first one's recent entries beside its own, but not those
    of blobs the caller no longer uses."""
    main, recent = _saved(tmp_path, 128)
    first = ParseCache(main, recent=recent)
    first.put("one", [1])
    first.put("gone", [0])
    first.save()
    second = ParseCache(main, recent=recent)
    second.put("two", [2])
    second.save(keep={"one", "two", *map("b{}".format, range(128))})
    assert json.loads(recent.read_text(encoding="utf-8")) == {"one": [1], "two": [2]}


def test_many_entries_added_write_the_whole_map_and_remove_the_recent_file(
    tmp_path: Path,
) -> None:
    """Past a thirty-second of the map the save writes every entry to the map's file."""
    main, recent = _saved(tmp_path, 128)
    cache = ParseCache(main, recent=recent)
    cache.put("one", [1])
    cache.save()
    assert recent.exists()
    cache = ParseCache(main, recent=recent)
    for k in range(5):
        cache.put(f"more{k}", [k])
    cache.save()
    assert not recent.exists()
    written = json.loads(main.read_text(encoding="utf-8"))
    assert len(written) == 134 and written["one"] == [1] and written["more2"] == [2]


@pytest.mark.parametrize("damage", ["[1, 2]", "{not json", ""])
def test_a_damaged_recent_file_is_read_as_empty(tmp_path: Path, damage: str) -> None:
    """The whole map's entries are read; the recent file's damage costs its entries only."""
    main, recent = _saved(tmp_path, 128)
    recent.write_text(damage, encoding="utf-8")
    cache = ParseCache(main, recent=recent)
    assert len(cache) == 128 and cache.get("b0") == [0]
    cache.put("new", ["new"])
    cache.save()
    assert json.loads(recent.read_text(encoding="utf-8")) == {"new": ["new"]}


def test_without_the_whole_map_file_a_save_writes_the_whole_map(tmp_path: Path) -> None:
    """A recent file alone (the map's file removed) is read, and the next save writes
    the map's file whole, not another recent file."""
    main, recent = _saved(tmp_path, 128)
    cache = ParseCache(main, recent=recent)
    cache.put("new", ["new"])
    cache.save()
    main.unlink()
    alone = ParseCache(main, recent=recent)
    assert len(alone) == 1
    alone.put("other", ["other"])
    alone.save()
    assert json.loads(main.read_text(encoding="utf-8")) == {"new": ["new"], "other": ["other"]}
    assert not recent.exists()


def test_writing_encoded_records_removes_the_recent_file(tmp_path: Path) -> None:
    """A cache written whole from encoded records holds no entry of an older recent file."""
    main, recent = _saved(tmp_path, 128)
    cache = ParseCache(main, recent=recent)
    cache.put("new", ["new"])
    cache.save()
    ParseCache(main, recent=recent).write_encoded([("b0", "[0]")])
    assert not recent.exists()
    assert len(ParseCache(main, recent=recent)) == 1
