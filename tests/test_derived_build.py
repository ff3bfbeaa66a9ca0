"""The derived store's build: what it holds off and how it reads many files at once."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

from dreamgit.store.derived import DerivedStore


def _record(path: str, blob: str) -> dict[str, object]:
    """A well-formed record whose text names its blob."""
    fields = ("created", "updated", "name", "description", "type", "key", "confidence")
    found: dict[str, object] = dict.fromkeys(fields, None)
    found.update(id=f"m-{blob}", text=f"shared words {blob}", tags=["t"], priority="normal")
    found.update(sources=[], supersedes=[], recalls=0)
    return found


def test_a_build_makes_no_full_pass_of_the_collector(tmp_path: Path) -> None:
    """While a build reads its files the collector never passes over the oldest generation,
    even with thresholds that would make it pass every few objects; as it was after."""
    passes: list[int] = []

    def note(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            passes.append(info["generation"])

    seen: list[tuple[int, int]] = []

    def record(path: str, blob: str) -> dict[str, object]:
        kept = [[blob] for _ in range(50)]  # young objects, as a parse makes
        seen.append((passes.count(2), gc.get_threshold()[2]))
        return {**_record(path, blob), "sources": [k[0] for k in kept[:1]]}

    before = gc.get_threshold()
    gc.callbacks.append(note)
    gc.set_threshold(10, 1, 1)
    try:
        files = {f"memories/t/{i:03}.md": f"b{i}" for i in range(200)}
        DerivedStore(tmp_path).sync("tree", lambda: files, record)
        during = gc.get_threshold()
    finally:
        gc.set_threshold(*before)
        gc.callbacks.remove(note)
    assert len(seen) == 200
    assert len({count for count, _ in seen}) == 1  # no oldest pass between the first and last
    assert all(oldest > 1_000_000 for _, oldest in seen)
    assert during == (10, 1, 1)
