"""The id cache: a save keeping some blobs drops the others."""

from __future__ import annotations

from pathlib import Path

from dreamgit.store.parsecache import ParseCache


def test_a_save_keeping_some_blobs_drops_the_others_and_keeps_the_order(tmp_path: Path) -> None:
    """The entries of blobs not kept leave the file and the map; the rest stay in order."""
    cache = ParseCache(tmp_path / "ids.json")
    for blob in ("c", "a", "d", "b"):
        cache.put(blob, [blob])
    cache.save(keep={"a", "b", "c", "elsewhere"})
    assert (tmp_path / "ids.json").read_text(encoding="utf-8") == (
        '{"c":["c"],"a":["a"],"b":["b"]}'
    )
    assert len(cache) == 3 and cache.get("d") is None and ParseCache(cache._path).get("b") == ["b"]
