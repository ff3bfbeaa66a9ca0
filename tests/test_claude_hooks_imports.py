"""What the read-only Claude Code hooks load: none of the write path, so each stays cheap.

The prompt hook runs at every prompt and the session-start hook at every session, so
they must not import what only writes need (``cmd_memory``, ``store.operations``, the
secret scanner and its hundreds of patterns), and the session-start hook in a work
tree must not open git at all. Checked with ``python -X importtime`` on the real
command against a real repository: which modules load, never how long they take.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from clikit import RepositoryTemplates
from test_claude_hooks import DAY, SESSION, _memory, _record

WRITE_PATH = ("dreamgit.cli.cmd_memory", "dreamgit.store.operations", "dreamgit.store.secrets")


def _loaded(repo: Path, event: str, payload: dict[str, str]) -> tuple[str, set[str]]:
    """The hook's stdout and stderr (less the import times) and the modules it imported."""
    argv = ["-X", "importtime", "-m", "dreamgit", "--repo", str(repo), "--now", DAY]
    done = subprocess.run(
        [sys.executable, *argv, "hook", "claude-code", event],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=True,
    )
    modules = {
        line.rsplit("|", 1)[1].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:")
    }
    said = "\n".join(row for row in done.stderr.splitlines() if not row.startswith("import time:"))
    assert not said.startswith("dreamgit hook"), said  # a hook's one failure line
    return done.stdout + said, modules


def test_the_prompt_hook_recalls_without_loading_the_write_path(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """prompt-submit answers from memory yet never imports the modules only writes need."""
    repo = _memory(tmp_path, templates)
    said, modules = _loaded(repo, "prompt-submit", {"prompt": "tabs in Makefiles"})
    assert "Prefers tabs over spaces in Makefiles" in said
    assert "dreamgit.recall.search" in modules
    assert not modules & set(WRITE_PATH)


def test_the_prompt_hook_opens_no_git_once_a_recall_kept_the_commit(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """The second prompt at the same commit is answered from the derived store alone, alike."""
    repo = _memory(tmp_path, templates)
    payload = {"prompt": "tabs in Makefiles"}
    first, first_modules = _loaded(repo, "prompt-submit", payload)
    second, modules = _loaded(repo, "prompt-submit", payload)
    assert second == first and "Prefers tabs over spaces in Makefiles" in second
    assert "pygit2" in first_modules
    assert "pygit2" not in modules and "dreamgit.recall.cached" in modules
    assert not modules & set(WRITE_PATH)


def test_the_session_start_hook_in_a_work_tree_opens_no_git(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """session-start reads MEMORY.md as a file: neither pygit2 nor the write path loads."""
    repo = _memory(tmp_path, templates)
    said, modules = _loaded(repo, "session-start", {"source": "startup"})
    assert "Prefers tabs over spaces in Makefiles" in said
    assert "pygit2" not in modules
    assert not modules & set(WRITE_PATH)


def test_the_session_end_hook_with_nothing_new_loads_no_secret_scanner(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """A second session-end (PreCompact after SessionEnd) logs nothing and scans nothing."""
    repo = _memory(tmp_path, templates)
    transcript = tmp_path / f"{SESSION}.jsonl"
    lines = [
        _record(0, "user", "I keep the deploy keys in the vault."),
        _record(1, "assistant", "Ok."),
    ]
    transcript.write_text("\n".join(lines) + "\n", encoding="utf-8")
    payload = {"transcript_path": str(transcript)}
    said, _ = _loaded(repo, "session-end", payload)
    assert f"logged 1 session part(s) of {SESSION}.jsonl" in said
    said, modules = _loaded(repo, "session-end", payload)
    assert f"logged 0 session part(s) of {SESSION}.jsonl" in said
    assert "dreamgit.store.agentlog" in modules
    assert not modules & set(WRITE_PATH)
