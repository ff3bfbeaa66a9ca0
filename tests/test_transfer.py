"""export then import: the same active memories in a fresh repository of every format."""

from __future__ import annotations

import json
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from dreamgit.cli import cli
from dreamgit.store.formats import FORMAT_NAMES
from dreamgit.store.transfer import EXCHANGE
from formatkit import LATER, T0, git
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


def test_imports_of_the_wrong_shape_say_what_was_expected(tmp_path: Path) -> None:
    """An unknown kind, a JSON object instead of a list, broken metadata: each named."""
    from dreamgit.errors import MemoryFileError, UserError
    from dreamgit.store.transfer import read_export

    with pytest.raises(UserError) as info:
        read_export("yaml", tmp_path, now=T0)
    assert info.value.message == "'yaml' is not a format dreamgit imports"
    document = tmp_path / "export.json"
    document.write_text('{"id": "m-1"}', encoding="utf-8")
    with pytest.raises(UserError) as info:
        read_export("json", document, now=T0)
    assert info.value.render() == f"{document}: a JSON export is a list of memories"
    markdown = tmp_path / "export.md"
    markdown.write_text("## m-1 · misc\n<!-- dreamgit:memory {oops} -->\ntext\n", encoding="utf-8")
    with pytest.raises(MemoryFileError) as caught:
        read_export("markdown", markdown, now=T0)
    assert caught.value.render() == f"{markdown}:2: memory metadata is not JSON"


def test_export_is_the_same_bytes_twice_and_keeps_hand_written_tags(tmp_path: Path) -> None:
    """A hand-written Claude Code file (no times, top-level tags): two exports agree."""
    root = tmp_path / "memory"
    root.mkdir()
    (root / "deploy.md").write_text(
        "---\nname: deploy\ndescription: how we deploy\ntype: project\n"
        "tags: [deploy, argo]\n---\nDeploys go through Argo CD.\n",
        encoding="utf-8",
    )
    ok(root, "init", str(root), now=T0)
    exports = []
    for n in range(2):  # on the running clock, a second apart
        if n:
            time.sleep(1.1)
        done = CliRunner().invoke(cli, ["--repo", str(root), "export", "--format", "json"])
        assert done.exit_code == 0, done.output
        exports.append(done.stdout)
    first, second = exports
    assert first == second
    assert json.loads(first)[0]["tags"] == ["deploy", "argo"]


def test_import_into_claude_code_writes_the_index_and_says_from_what(tmp_path: Path) -> None:
    """The imported files are listed in MEMORY.md in the import's own commit."""
    source = tmp_path / "source"
    ok(source, "init", str(source), now=T0)
    ok(source, "add", "Prefers dark roast coffee.", "--topic", "food", now=T0)
    document = tmp_path / "export.json"
    document.write_text(ok(source, "export", "--format", "json").stdout, encoding="utf-8")
    target = tmp_path / "claude"
    ok(target, "init", str(target), "--format", "claude-code", now=T0)
    ok(target, "import", "--from", "json", str(document))
    log = git(target, "log", "-1", "--format=%s", "--name-only").split()
    assert " ".join(log[:5]) == "import: 1 memories from json"
    assert "MEMORY.md" in log
    assert "Prefers dark roast coffee" in (target / "MEMORY.md").read_text(encoding="utf-8")
