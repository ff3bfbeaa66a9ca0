"""OpenClaw workspaces in place: daily notes as evidence, Light/REM blocks, curated MEMORY.md."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

from dreamgit.dream.workset import WorkingSet
from dreamgit.store.formats.openclaw import LIGHT, OpenClawFormat
from dreamgit.store.repo import MemoryRepo
from formatkit import LATER, OPENCLAW_MEMORY, T0, git, hashed, openclaw_workspace, tree_bytes
from test_format_claude import ok, run

NOTE = "memory/2026-11-10.md"


def adopted(tmp_path: Path) -> tuple[Path, dict[str, bytes]]:
    """The workspace adopted, its notes gathered once, and candidates staged by hand."""
    root = tmp_path / "workspace"
    files = openclaw_workspace(root)
    result = ok(root, "init", str(root), now=T0)
    assert "found an OpenClaw workspace (7 daily notes and a curated MEMORY.md)" in result.stdout
    for args, hours in (
        (("Deploys go out on Tuesdays.", "--key", "deploy.day"), 0),
        (("Deploys go out on Thursdays now.", "--key", "deploy.day"), 1),
        (("Scratch note for this task.", "--priority", "ephemeral"), 2),
        (("The staging server restarts every night after the backup job.",), 3),
        (("The staging server restarts every night after the backup job finishes.",), 4),
    ):
        ok(root, "add", args[0], "--topic", "work", *args[1:], now=T0 + timedelta(hours=hours))
    return root, files


def test_init_adopts_the_workspace_and_reads_notes_as_evidence(tmp_path: Path) -> None:
    """Every file kept byte for byte; the week of notes is pending evidence, not memory."""
    root = tmp_path / "workspace"
    files = openclaw_workspace(root)
    ok(root, "init", str(root), now=T0)
    first = git(root, "rev-list", "--max-parents=0", "HEAD").strip()
    assert tree_bytes(root, first) == hashed(files)
    status = json.loads(ok(root, "status", "--json").stdout)
    assert (status["format"], status["sessions"], status["pending_sessions"]) == ("openclaw", 7, 7)
    assert status["memories"] == 3  # the curated entries


def test_a_dream_stages_merges_supersedes_prunes_and_never_touches_memory_md(
    tmp_path: Path,
) -> None:
    """Candidates live in Light Sleep blocks; the run's reflection in today's REM Sleep block."""
    root, files = adopted(tmp_path)
    review = json.loads(ok(root, "review", "--force", "--json").stdout)
    record = json.loads(ok(root, "run", "--force", "--json").stdout)
    ops = [(o["op"], o["memories"]) for o in record["ops"] if o["op"] != "diary"]
    assert ops == [(o["op"], o["memories"]) for o in review["ops"] if o["op"] != "diary"]
    assert {"merge", "supersede", "prune"} <= {o for o, _ in ops}
    log = git(root, "log", "--format=%B")
    for op in ("merge", "supersede", "prune"):
        assert f"Dream-Op: {op}" in log
    assert (root / "MEMORY.md").read_bytes() == files["MEMORY.md"]
    note = (root / NOTE).read_text(encoding="utf-8")
    assert note.startswith("## 09:10 - Standup\n- Reviewed the backlog for day 10.\n")
    assert "## Light Sleep\n" + LIGHT[1] in note
    assert "Thursdays" in note and "Tuesdays" not in note and "Scratch" not in note
    assert note.count("The staging server restarts") == 1
    today = (root / f"memory/{LATER:%Y-%m-%d}.md").read_text(encoding="utf-8")
    assert today.startswith("## REM Sleep\n<!-- dreamgit:generated rem-sleep")
    assert "prefer pnpm" in (root / "memory/2026-11-09.md").read_text(encoding="utf-8")
    again = json.loads(ok(root, "run", "--force", "--json").stdout)
    assert again["ops"] == []


def test_revert_restores_the_notes_byte_for_byte(tmp_path: Path) -> None:
    """Reverting the run gives back every note and MEMORY.md as they were before it."""
    root, _ = adopted(tmp_path)
    before = tree_bytes(root, "HEAD")
    record = json.loads(ok(root, "run", "--force", "--json").stdout)
    ok(root, "revert", record["run_id"])
    after = tree_bytes(root, "HEAD")
    agent = {p: h for p, h in before.items() if p.startswith("memory/") or p == "MEMORY.md"}
    assert {p: after.get(p) for p in agent} == agent


def test_promotion_is_the_only_change_to_memory_md(tmp_path: Path) -> None:
    """The promotion hook moves a staged candidate into MEMORY.md's fence, user text kept."""
    root, _ = adopted(tmp_path)
    repo = MemoryRepo.open(root)
    memories = repo.memories(now=LATER)
    fmt = repo.format
    assert isinstance(fmt, OpenClawFormat)
    ws = WorkingSet(memories, lambda p: repo.read_text(p) or "", fmt)
    staged = next(m for m in memories if "Thursdays" in m.text)
    changes = ws.file_for_promotion(staged)
    memory_md = (changes["MEMORY.md"] or b"").decode()
    assert memory_md.startswith(OPENCLAW_MEMORY)
    assert "- Deploys go out on Thursdays now.\n<!-- /dreamgit:generated -->\n" in memory_md
    assert "Thursdays" not in (changes[staged.file] or b"").decode()
    assert ws.active[staged.id].path == "MEMORY.md"


def test_a_note_named_with_a_date_that_is_not_a_date_is_an_error(tmp_path: Path) -> None:
    """memory/2026-13-45.md: the error names the file and line; nothing changes."""
    root, _ = adopted(tmp_path)
    (root / "memory/2026-13-45.md").write_text("- something\n", encoding="utf-8")
    git(root, "add", "memory/2026-13-45.md")
    git(root, "commit", "-qm", "odd note")
    tip = git(root, "rev-parse", "HEAD")
    result = run(root, "run", "--force")
    assert result.exit_code == 1
    assert (
        "error: memory/2026-13-45.md:1: is named like a daily note, but 2026-13-45 is not a date"
        in result.stderr
    )
    assert git(root, "rev-parse", "HEAD") == tip


def test_a_crlf_note_keeps_crlf_when_a_dream_writes_its_blocks(tmp_path: Path) -> None:
    """A note written on Windows gets its Light/REM blocks in CRLF too: no mixed endings."""
    root = tmp_path / "workspace"
    openclaw_workspace(root)
    note = root / "memory" / "2026-11-09.md"
    own = note.read_bytes().replace(b"\n", b"\r\n")
    note.write_bytes(own)
    ok(root, "init", str(root), now=T0)
    ok(root, "run", "--force")
    for path in sorted((root / "memory").glob("*.md")):
        data = path.read_bytes()
        if path == note:
            assert data.startswith(own) and len(data) > len(own)
            assert b"\n" not in data.replace(b"\r\n", b""), "mixed line endings"
        else:
            assert b"\r\n" not in data
