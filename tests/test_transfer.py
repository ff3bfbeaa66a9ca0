"""export then import: the same active memories in a fresh repository of every format."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from dreamgit.store.formats import FORMAT_NAMES
from dreamgit.store.transfer import EXCHANGE
from formatkit import LATER, T0
from test_format_claude import ok, run

SEEDS = (
    ("Prefers pytest over unittest for Python tests.", "preferences", "high", "python.tests"),
    ("Deploys go out on Thursdays.", "work", "normal", "deploy.day"),
    ("The staging server restarts every night.", "work", "low", None),
)


def source_repo(tmp_path: Path) -> tuple[Path, list[dict[str, Any]]]:
    """A dreamgit repository with three memories of different priorities and keys."""
    root = tmp_path / "source"
    ok(root, "init", str(root), now=T0)
    for k, (text, topic, priority, key) in enumerate(SEEDS):
        args = ["add", text, "--topic", topic, "--priority", priority]
        ok(root, *args, *(["--key", key] if key else []), now=T0 + timedelta(hours=k))
    return root, json.loads(ok(root, "memories", "--json").stdout)


def _view(memories: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return sorted((m["id"], " ".join(m["text"].split()), m["created"]) for m in memories)


@pytest.mark.parametrize("kind", [*EXCHANGE, *FORMAT_NAMES])
@pytest.mark.parametrize("target", FORMAT_NAMES)
def test_export_then_import_gives_the_same_memories(tmp_path: Path, kind: str, target: str) -> None:
    """Texts, ids and times survive every export and every target format; twice adds nothing."""
    source, memories = source_repo(tmp_path)
    out = tmp_path / "export"
    ok(source, "export", "--format", kind, "--out", str(out))
    [document] = list(out.iterdir()) if kind in EXCHANGE else [out]
    fresh = tmp_path / "fresh"
    ok(fresh, "init", str(fresh), "--format", target, now=T0)
    imported = ok(fresh, "import", "--from", kind, str(document))
    assert "imported 3 of 3 memories (0 already there)" in imported.stderr
    after = json.loads(ok(fresh, "memories", "--json").stdout)
    if target == "openclaw":
        after = [m for m in after if m["priority"] != "core"]
    assert _view(after) == _view(memories)
    assert sorted(m["priority"] for m in after) == ["high", "low", "normal"]
    again = ok(fresh, "import", "--from", kind, str(document))
    assert "imported 0 of 3 memories (3 already there)" in again.stderr


def test_export_to_stdout_and_a_broken_import_names_the_line(tmp_path: Path) -> None:
    """jsonl on stdout, one line per memory; a bad line is an error naming file and line."""
    source, memories = source_repo(tmp_path)
    lines = ok(source, "export", "--format", "jsonl").stdout.splitlines()
    assert [json.loads(line)["id"] for line in lines] == [m["id"] for m in memories]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(lines[0] + "\n{oops\n", encoding="utf-8")
    result = run(source, "import", "--from", "jsonl", str(bad), now=LATER)
    assert result.exit_code == 1
    assert f"error: {bad}:2: is not a JSON line" in result.stderr
