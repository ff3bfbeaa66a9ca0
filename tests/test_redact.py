"""Redaction from history: the text is gone from every object; nothing else changes or is lost."""

from __future__ import annotations

import json
import subprocess
from datetime import timedelta
from pathlib import Path

import pytest

from dreamgit import faults
from dreamgit.errors import ConcurrentUpdateError, NotFoundError, UserError
from dreamgit.history import redact as redact_module
from dreamgit.history.redact import redact
from dreamgit.store import layout, operations, restoring
from dreamgit.store.repo import MemoryRepo
from dreamkit import DREAM_AT, T0, git, invoke, set_config, spawn

SECRET = "Ada's diagnosis is Kessler syndrome"
OFF = "extends: default\nsecrets: {mode: 'off'}\n"


def _planted(root: Path) -> MemoryRepo:
    """A repository where SECRET is in a session, a memory, an older version and a message."""
    repo = MemoryRepo.init(root, now=T0)
    set_config(repo, OFF, now=T0)
    operations.add_memory(repo, "Prefers tea over coffee.", topic="misc", now=T0)
    operations.log_session(repo, f"User: by the way, {SECRET}.", now=T0 + timedelta(hours=1))
    old = operations.add_memory(repo, f"{SECRET}, found in 2025.", topic="health", now=T0)
    operations.forget(repo, [old.id], now=T0 + timedelta(hours=2))
    operations.add_memory(repo, f"Note: {SECRET}.", topic="health", now=T0 + timedelta(hours=3))
    repo.commit_main(
        f"note about {SECRET}\n\nDream-Op: note",
        lambda _tip: {"notes/plain.md": b"nothing here\n"},
        now=T0 + timedelta(hours=4),
    )
    return repo


def _everything(repo: MemoryRepo) -> str:
    """Every object git holds, after the reflog is expired and unreachable objects pruned."""
    git(repo, "reflog", "expire", "--expire=now", "--all")
    git(repo, "gc", "--quiet", "--prune=now")
    listing = git(repo, "cat-file", "--batch-all-objects", "--batch-check=%(objectname)")
    ids = listing.split()
    dump = subprocess.run(
        ["git", "cat-file", "--batch"],
        input=("\n".join(ids) + "\n").encode(),
        cwd=repo.store.workdir or repo.store.git_dir,
        capture_output=True,
        check=True,
    )
    return dump.stdout.decode("utf-8", errors="replace")


def _trees(repo: MemoryRepo, commit: str) -> dict[str, str]:
    return repo.store.files(commit)


def test_text_is_gone_from_every_object_and_every_other_file_is_unchanged(tmp_path: Path) -> None:
    """Session, memory, old version, message: all redacted; the rest of each commit identical."""
    repo = _planted(tmp_path / "m")
    assert SECRET in git(repo, "log", "--all", "-p")
    report = redact(repo, now=DREAM_AT, match=SECRET)
    assert report.rewritten == len(report.pairs) >= len(report.touched) >= 4
    assert SECRET not in git(repo, "log", "--all", "-p")
    fmt = "%an|%ae|%at|%cn|%ce|%ct"
    for old_commit, new_commit in report.pairs.items():
        old, new = _trees(repo, old_commit), _trees(repo, new_commit)
        assert set(old) == set(new)
        for path, blob in old.items():
            before = repo.store.read(blob).decode()
            if SECRET in before:
                assert repo.store.read(new[path]).decode() == before.replace(SECRET, "[REDACTED]")
            else:
                assert new[path] == blob, path  # every other file of every commit: untouched
        assert git(repo, "log", "-1", f"--format={fmt}", old_commit) == git(
            repo, "log", "-1", f"--format={fmt}", new_commit
        )
    brought = {path for item in report.touched for path in item.files}
    assert any(p.startswith("sessions/") for p in brought)
    assert any(p.startswith("memories/health/") for p in brought)
    assert any(item.message for item in report.touched)
    assert SECRET not in _everything(repo)
    assert "[REDACTED]" in (tmp_path / "m" / "memories" / "health").joinpath(
        next(p.name for p in (tmp_path / "m" / "memories" / "health").iterdir())
    ).read_text(encoding="utf-8")
    assert git(repo, "status", "--porcelain") == ""
    git(repo, "fsck", "--strict")


def test_the_record_says_what_and_when_but_never_the_text(tmp_path: Path) -> None:
    """A commit on main records rule, time and counts; the text is nowhere in it."""
    repo = _planted(tmp_path / "m")
    report = redact(repo, now=DREAM_AT, match=SECRET)
    assert report.record is not None
    record = json.loads(repo.read_text(report.record) or "")
    assert record["rule"] == "match" and record["commits_with_text"] == len(report.touched)
    assert SECRET not in json.dumps(record) and "Kessler" not in json.dumps(record)


def test_redacting_a_memory_removes_every_version_and_its_lines_elsewhere(tmp_path: Path) -> None:
    """``redact ID``: each version of the memory is gone, its text replaced in other files."""
    repo = MemoryRepo.init(tmp_path / "m", now=T0)
    set_config(repo, OFF, now=T0)
    keep = operations.add_memory(repo, "Prefers tea over coffee.", topic="misc", now=T0)
    gone = operations.add_memory(
        repo, "Sees Dr Okafor every Thursday at noon.", topic="health", now=T0
    )
    operations.forget(repo, [gone.id], now=T0 + timedelta(hours=1))
    restoring.restore(repo, gone.id, now=T0 + timedelta(hours=2))
    result = invoke(repo, "redact", gone.id, now=DREAM_AT)
    assert result.exit_code == 0, result.output
    assert "Okafor" not in git(repo, "log", "--all", "-p")
    assert [m.id for m in repo.memories(now=DREAM_AT)] == [keep.id]
    assert "held the text (memory)" in result.stdout
    assert "git push --force-with-lease REMOTE main" in result.stdout


def test_dry_run_lists_commits_and_changes_nothing(tmp_path: Path) -> None:
    """``--dry-run`` names commits and files and moves no ref."""
    repo = _planted(tmp_path / "m")
    before = git(repo, "for-each-ref")
    data = json.loads(invoke(repo, "redact", "--match", SECRET, "--dry-run", "--json").stdout)
    assert data["dry_run"] is True and len(data["commits"]) >= 4
    assert any(c["message"] for c in data["commits"])
    assert any(f.startswith("sessions/") for c in data["commits"] for f in c["files"])
    assert git(repo, "for-each-ref") == before


def test_regex_mode_and_bad_requests_are_clear(tmp_path: Path) -> None:
    """A pattern redacts every match; a bad pattern, no target or an unknown id say what to do."""
    repo = _planted(tmp_path / "m")
    redact(repo, now=DREAM_AT, match=r"Kessler\s+\w+", regex=True)
    assert "Kessler" not in git(repo, "log", "--all", "-p")
    with pytest.raises(UserError) as caught:
        redact(repo, now=DREAM_AT, match="(", regex=True)
    assert str(caught.value).startswith("--match is not a valid regular expression: ")
    with pytest.raises(UserError) as caught:
        redact(repo, now=DREAM_AT)
    assert str(caught.value) == "redact needs either a memory id or --match TEXT, not both"
    with pytest.raises(NotFoundError) as caught:
        redact(repo, now=DREAM_AT, memory="m-nothere")
    assert str(caught.value) == "memory m-nothere was never in this repository's history"
    assert invoke(repo, "redact", "--match", "no such words", now=DREAM_AT).stdout == (
        "nothing to redact: no commit holds it\n"
    )


def test_a_concurrent_commit_makes_the_redaction_fail_cleanly_then_it_is_included(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plain git commit lands mid-redaction: nothing moves, nothing is lost; again works."""
    repo = _planted(tmp_path / "m")
    work = tmp_path / "m"

    def commit_meanwhile(name: str) -> None:
        if name == "redact-before-refs":
            (work / "notes" / "late.md").write_text(f"late {SECRET}\n", encoding="utf-8")
            git(repo, "add", "notes/late.md")
            git(repo, "-c", "user.name=P", "-c", "user.email=p@x", "commit", "-qm", "late")

    original = faults.checkpoint
    monkeypatch.setattr(redact_module.faults, "checkpoint", commit_meanwhile)
    with pytest.raises(ConcurrentUpdateError) as caught:
        redact(repo, now=DREAM_AT, match=SECRET)
    assert str(caught.value).endswith(
        "moved while the redaction was being written; nothing was changed"
    )
    assert git(repo, "log", "-1", "--format=%s", layout.MAIN).strip() == "late"
    monkeypatch.setattr(redact_module.faults, "checkpoint", original)
    redact(repo, now=DREAM_AT, match=SECRET)
    assert SECRET not in git(repo, "log", "--all", "-p")
    assert "late" in git(repo, "log", "--format=%s", layout.MAIN).split("\n")


def test_killed_before_the_refs_move_leaves_the_old_history_whole(tmp_path: Path) -> None:
    """SIGKILL after the rewrite, before the refs move: every ref as it was, fsck clean."""
    repo = _planted(tmp_path / "m")
    before = git(repo, "for-each-ref")
    done = spawn(repo, "redact", "--match", SECRET, fault="redact-before-refs")
    assert done.returncode == -9
    assert git(repo, "for-each-ref") == before
    assert SECRET in git(repo, "log", "--all", "-p")
    git(repo, "fsck", "--strict")
    assert spawn(repo, "redact", "--match", SECRET).returncode == 0
    assert SECRET not in git(repo, "log", "--all", "-p")


def test_gc_option_leaves_no_old_object_behind(tmp_path: Path) -> None:
    """``--gc`` expires the reflog and prunes: not even an unreachable object keeps the text."""
    repo = _planted(tmp_path / "m")
    result = invoke(repo, "redact", "--match", SECRET, "--gc", now=DREAM_AT)
    assert result.exit_code == 0, result.output
    assert "reflog" not in result.stdout
    dump = subprocess.run(
        ["git", "cat-file", "--batch-all-objects", "--batch", "--unordered"],
        cwd=tmp_path / "m",
        capture_output=True,
        check=True,
    ).stdout.decode("utf-8", errors="replace")
    assert SECRET not in dump


def test_empty_match_and_gc_without_git_say_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A blank --match is refused; --gc without git on PATH names the commands to run."""
    repo = _planted(tmp_path / "m")
    with pytest.raises(UserError) as caught:
        redact(repo, now=DREAM_AT, match="  ")
    assert caught.value.render() == (
        "--match needs some text\nhint: give the text (or --regex pattern)"
    )
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    with pytest.raises(UserError) as caught:
        redact_module.collect_garbage(repo)
    assert caught.value.render() == (
        "--gc needs the git program, which is not on PATH\n"
        "hint: run `git reflog expire --expire=now --all && git gc --prune=now` yourself"
    )
