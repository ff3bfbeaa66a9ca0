"""The facts a reader over every memory asks for: read in one pass with the files that
have none, only those derived, and the answer that of deriving every fact afresh."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dreamgit.store.derived import DerivedStore
from dreamgit.store.derivedfacts import FactsOf

TREES = {
    "tree-a": {f"memories/t/{i}.md": f"a{i}" for i in range(8)},
    "tree-b": {**{f"memories/t/{i}.md": f"a{i}" for i in range(8)}, "memories/t/9.md": "b9"},
}


def _record(path: str, blob: str) -> dict[str, object]:
    """A record whose priority follows its blob, so facts differ from file to file."""
    fields = ("created", "updated", "name", "description", "type", "key", "confidence")
    found: dict[str, object] = dict.fromkeys(fields, None)
    found.update(id=f"m-{path}", text=f"text of {blob}", tags=[], recalls=0)
    found.update(priority="low" if blob.endswith(("1", "9")) else "normal")
    found.update(sources=[], supersedes=[])
    return found


class _Derive:
    """A fact from a record (its priority's first letter, then the text), counting calls."""

    def __init__(self) -> None:
        self.paths: list[str] = []

    def __call__(self, path: str, record: dict[str, Any]) -> str:
        self.paths.append(path)
        return f"{str(record['priority'])[0]}{record['text']}"


def _shape(found: FactsOf | None) -> tuple[list[str], list[tuple[str, str, Any]]]:
    assert found is not None
    records = sorted((r.path, r.fact, r.whole()["text"]) for r in found.records)
    return sorted(found.values), records


def test_only_the_files_without_a_fact_are_derived_and_the_answer_is_whole(
    tmp_path: Path,
) -> None:
    """After a write adds one file, one fact is derived; values and records are those a
    store deriving every fact afresh gives."""
    store = DerivedStore(tmp_path / "s")
    store.sync("tree-a", lambda: TREES["tree-a"], _record)
    first = _Derive()
    store.facts_of("tree-a", "k:1", first, with_record="l%")
    assert len(first.paths) == 8
    store.sync("tree-b", lambda: TREES["tree-b"], _record)
    again = _Derive()
    found = store.facts_of("tree-b", "k:1", again, with_record="l%")
    assert again.paths == ["memories/t/9.md"]
    fresh = DerivedStore(tmp_path / "fresh")
    fresh.sync("tree-b", lambda: TREES["tree-b"], _record)
    assert _shape(found) == _shape(fresh.facts_of("tree-b", "k:1", _Derive(), with_record="l%"))
    assert [path for path, _fact, _text in _shape(found)[1]] == [
        "memories/t/1.md",
        "memories/t/9.md",
    ]
    kept = _Derive()
    assert _shape(store.facts_of("tree-b", "k:1", kept, with_record="l%")) == _shape(found)
    assert kept.paths == []


def test_facts_that_cannot_be_kept_are_derived_once_not_listed_again(tmp_path: Path) -> None:
    """With a database that refuses writes, the new file's fact is still derived only
    once (not every file's again), and the answer is whole."""
    store = DerivedStore(tmp_path / "s")
    store.sync("tree-a", lambda: TREES["tree-a"], _record)
    store.facts_of("tree-a", "k:1", _Derive(), with_record="l%")
    store.sync("tree-b", lambda: TREES["tree-b"], _record)
    # Every write of this connection fails at once, as on a read-only file system.
    store._connect().execute("PRAGMA query_only = ON")
    derive = _Derive()
    found = store.facts_of("tree-b", "k:1", derive, with_record="l%")
    assert derive.paths == ["memories/t/9.md"]
    assert len(_shape(found)[0]) == 9
