"""No commit dreamgit makes carries a credential: add, log, agent edits, dream operations, push."""

from __future__ import annotations

import subprocess
from datetime import timedelta
from pathlib import Path

from dreamgit.dream.run import dream
from dreamgit.store import layout, operations
from dreamgit.store.repo import MemoryRepo
from dreamkit import DREAM_AT, T0, git, invoke, set_config

KEY = "AKIAZ7QWERTYUIOP4ASD"
REFUSE = "extends: default\nsecrets: {mode: refuse}\n"
OFF = "extends: default\nsecrets: {mode: 'off'}\n"


def _all_history(repo: MemoryRepo) -> str:
    return git(repo, "log", "--all", "-p", "--format=%B")


def test_add_redacts_by_default_and_the_commit_says_where(tmp_path: Path) -> None:
    """A memory holding a key is committed with ``[REDACTED:aws-key]`` and a Dream-Redacted line."""
    repo = MemoryRepo.init(tmp_path / "m", now=T0)
    result = invoke(repo, "add", f"Deploys with key {KEY} to prod.", "--topic", "ops", now=T0)
    assert result.exit_code == 0, result.output
    [memory] = repo.memories(now=T0)
    assert memory.text == "Deploys with key [REDACTED:aws-key] to prod."
    message = git(repo, "log", "-1", "--format=%B", "main")
    assert f"Dream-Redacted: {memory.path}:" in message and "(aws-key)" in message
    assert KEY not in _all_history(repo)


def test_refuse_mode_commits_nothing_and_names_the_file(tmp_path: Path) -> None:
    """In refuse mode ``add`` exits 1 with the file and line, and main does not move."""
    repo = MemoryRepo.init(tmp_path / "m", now=T0)
    set_config(repo, REFUSE, now=T0)
    before = repo.tip()
    result = invoke(repo, "add", f"Deploys with key {KEY}.", "--topic", "ops", now=T0)
    assert result.exit_code == 1
    assert "looks like a credential (aws-key); nothing was committed" in result.stderr
    assert "memories/ops/" in result.stderr
    assert repo.tip() == before
    assert KEY not in _all_history(repo)


def test_logged_session_is_scanned_like_a_memory(tmp_path: Path) -> None:
    """``log`` redacts a session transcript before it is committed."""
    repo = MemoryRepo.init(tmp_path / "m", now=T0)
    text = f"User: my github token is ghp_{'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z'}abcd, keep it\n"
    result = invoke(repo, "log", text, now=T0)
    assert result.exit_code == 0, result.output
    [body] = [repo.read_text(path) for path in repo.session_paths().values()]
    assert body is not None and "[REDACTED:github-token], keep it" in body
    assert "ghp_Ab3" not in _all_history(repo)


def test_agent_edit_with_a_secret_is_redacted_in_the_commit_and_the_file(tmp_path: Path) -> None:
    """A hand-written memory file with a key is committed redacted and rewritten in place."""
    repo = MemoryRepo.init(tmp_path / "m", now=T0)
    path = tmp_path / "m" / "memories" / "ops" / "deploy.md"
    path.parent.mkdir(parents=True)
    path.write_text(f"Deploy key: {KEY}\n", encoding="utf-8")
    operations.add_memory(repo, "Likes tea.", topic="misc", now=T0 + timedelta(hours=1))
    committed = git(repo, "show", "main:memories/ops/deploy.md")
    assert committed == "Deploy key: [REDACTED:aws-key]\n"
    assert path.read_text(encoding="utf-8") == committed
    assert KEY not in _all_history(repo)


def test_dream_operations_are_scanned_too(tmp_path: Path) -> None:
    """A session committed with scanning off: the memory a dream gathers from it is redacted."""
    repo = MemoryRepo.init(tmp_path / "m", now=T0)
    set_config(repo, OFF, now=T0)
    operations.log_session(repo, f"User: Remember that the staging deploy uses key {KEY}.", now=T0)
    set_config(repo, "extends: default\n", now=T0 + timedelta(minutes=1))
    record = dream(repo, now=DREAM_AT, force=True)
    added = [op for op in record["ops"] if op["op"] == "add"]
    assert added, record["decisions"]
    for op in added:
        message = git(repo, "log", "-1", "--format=%B", str(op["commit"]))
        text = git(repo, "show", f"{op['commit']}:{op['after'][0]['path']}")
        assert KEY not in text and "[REDACTED:aws-key]" in text
        assert "Dream-Redacted:" in message


def test_push_refuses_a_secret_a_plain_git_commit_brought_in(tmp_path: Path) -> None:
    """``run --push`` stops before pushing when a commit the remote lacks holds a key."""
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    repo = MemoryRepo.init(tmp_path / "m", now=T0)
    git(repo, "remote", "add", "origin", str(remote))
    (tmp_path / "m" / "notes.txt").write_text(f"key {KEY}\n", encoding="utf-8")
    git(repo, "add", "notes.txt")
    git(repo, "-c", "user.name=A", "-c", "user.email=a@x", "commit", "-qm", "by hand")
    for day in range(3):
        operations.log_session(repo, f"User: I use Neovim {day}.", now=T0 + timedelta(days=day))
    result = invoke(repo, "run", "--force", "--no-merge", "--push", "origin")
    assert result.exit_code == 1, result.output
    assert "not pushed: commit " in result.stderr
    assert "notes.txt:1 (aws-key)" in result.stderr
    assert git(tmp_path / "remote.git", "for-each-ref") == ""
    assert layout.MAIN  # the local branches stay for a redact and a new push


def test_with_scanning_off_memories_keep_the_text_but_run_records_are_redacted(
    tmp_path: Path,
) -> None:
    """`secrets: off` stores memory text as written; the run record, dreamgit's own, is not."""
    repo = MemoryRepo.init(tmp_path / "m", now=T0)
    set_config(repo, OFF, now=T0)
    operations.log_session(repo, f"User: Remember that the staging deploy uses key {KEY}.", now=T0)
    record = dream(repo, now=DREAM_AT, force=True)
    added = [op for op in record["ops"] if op["op"] == "add"]
    assert added, record["decisions"]
    assert any(KEY in m.text for m in repo.memories(now=DREAM_AT))
    stored = repo.read_text(f"{layout.RUNS}{record['run_id']}.json")
    assert stored is not None and KEY not in stored and "[REDACTED:aws-key]" in stored


def test_an_agents_executable_redacted_in_place_stays_executable(tmp_path: Path) -> None:
    """A script with a key under the memory folder is rewritten redacted with its mode."""
    repo = MemoryRepo.init(tmp_path / "m", now=T0)
    path = tmp_path / "m" / "memories" / "ops" / "deploy.sh"
    path.parent.mkdir(parents=True)
    path.write_text(f"#!/bin/sh\nexport KEY={KEY}\n", encoding="utf-8")
    path.chmod(0o755)
    operations.add_memory(repo, "Likes tea.", topic="misc", now=T0 + timedelta(hours=1))
    assert KEY not in path.read_text(encoding="utf-8")
    assert path.stat().st_mode & 0o777 == 0o755  # written aside, it had lost its bit
    assert git(repo, "ls-tree", "main", "memories/ops/deploy.sh").split()[0] == "100755"
    assert git(repo, "status", "--porcelain") == ""


def test_an_agents_executable_named_with_a_key_is_committed_executable(tmp_path: Path) -> None:
    """A new script whose name holds a key is committed under its safe name with its mode."""
    repo = MemoryRepo.init(tmp_path / "m", now=T0)
    path = tmp_path / "m" / "memories" / "ops" / f"{KEY}.sh"
    path.parent.mkdir(parents=True)
    path.write_text("#!/bin/sh\necho deploy\n", encoding="utf-8")
    path.chmod(0o755)
    operations.add_memory(repo, "Likes tea.", topic="misc", now=T0 + timedelta(hours=1))
    [listed] = git(repo, "ls-tree", "main", "memories/ops/").splitlines()
    assert KEY not in listed and listed.split()[0] == "100755"
