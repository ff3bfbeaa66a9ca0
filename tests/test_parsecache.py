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
