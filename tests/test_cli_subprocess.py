"""End to end: the installed `dreamgit` command run as a real process."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from clikit import RepositoryTemplates, initialized, prepared
from dreamgit.version import __version__
from gitcheck import NOW_TEXT, fsck, subjects


def _command() -> list[str]:
    found = shutil.which("dreamgit", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "dreamgit"]


def dreamgit(
    *args: str | bytes, repo: Path | None = None, input: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    """Run the command with --now fixed through the environment, as a scheduler would."""
    env = dict(os.environ, DREAMGIT_NOW=NOW_TEXT)
    if repo is not None:
        env["DREAMGIT_REPO"] = str(repo)
    return subprocess.run(
        [*_command(), *args], env=env, input=input, capture_output=True, check=False
    )


def test_session_to_status_through_the_installed_command(tmp_path: Path) -> None:
    """init, log from a pipe, add, memories --json and status --json work as processes."""
    repo = tmp_path / "mem"
    assert dreamgit("init", str(repo)).returncode == 0
    logged = dreamgit("log", "--tag", "web", repo=repo, input=b"Switched to FastAPI.\n")
    assert logged.returncode == 0, logged.stderr
    added = dreamgit("add", "Uses FastAPI", "--topic", "stack", repo=repo)
    assert added.returncode == 0, added.stderr
    memory_id = added.stdout.decode().strip()
    listed = json.loads(dreamgit("memories", "--json", repo=repo).stdout)
    assert [m["id"] for m in listed] == [memory_id]
    status = json.loads(dreamgit("status", "--json", repo=repo).stdout)
    assert (status["memories"], status["sessions"], status["pending_sessions"]) == (1, 1, 1)
    assert subjects(repo) == [
        f"add: {memory_id} stack/uses-fastapi",
        f"log: session {logged.stdout.decode().strip()}",
        "init: dreamgit memory repository",
    ]
    fsck(repo)


def test_version_and_exit_codes_of_the_process(tmp_path: Path) -> None:
    """--version exits 0; a usage error exits 2; a user error exits 1 with stderr only."""
    version = dreamgit("--version")
    assert (version.returncode, version.stdout) == (
        0,
        f"dreamgit, version {__version__}\n".encode(),
    )
    usage = dreamgit("add", "no topic", repo=tmp_path)
    assert usage.returncode == 2 and b"Missing option '--topic'" in usage.stderr
    user = dreamgit("status", repo=tmp_path)
    assert (user.returncode, user.stdout) == (1, b"")
    assert user.stderr.decode().startswith(f"error: {tmp_path} is not a git repository\n")


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS refuses non-UTF-8 argv bytes")
def test_non_utf8_text_argument_is_refused(tmp_path: Path) -> None:
    """A TEXT argument with Latin-1 bytes is a user error naming the byte, not a crash."""
    repo = tmp_path / "mem"
    dreamgit("init", str(repo))
    result = dreamgit("log", b"caf\xe9", repo=repo)
    assert result.returncode == 1
    assert result.stderr.decode() == (
        "error: TEXT:1: session is not UTF-8 text (bad byte 0xe9 at offset 3)\n"
        "hint: convert it to UTF-8 first, e.g. with iconv\n"
    )
    assert len(subjects(repo)) == 1


def test_the_first_version_of_a_reused_id_is_restored_by_the_installed_command(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """Forget, add the same text again, forget: --version 1 brings back high and `medical`.
    The set-up steps run in this process (``clikit.prepared``); show and restore are processes."""
    repo = tmp_path / "mem"
    initialized(templates, repo, NOW_TEXT)
    text = "Allergic to penicillin"
    first = prepared(
        repo, NOW_TEXT, "add", text, "--topic", "health", "--priority", "high", "--tag", "medical"
    )
    ident = first.strip()
    prepared(repo, NOW_TEXT, "forget", ident)
    again = prepared(repo, NOW_TEXT, "add", text, "--topic", "health")
    assert again.strip() == ident
    prepared(repo, NOW_TEXT, "forget", ident)
    history = dreamgit("show", ident, "--history", repo=repo).stdout.decode()
    assert "  1  " in history and "priority high, tags medical" in history
    restored = dreamgit("restore", ident, "--version", "1", repo=repo)
    assert restored.returncode == 0, restored.stderr
    assert restored.stdout.decode() == (
        f"restored {ident} (memories/health/allergic-penicillin.md): version 1 of 2\n"
    )
    shown = json.loads(dreamgit("show", ident, "--json", repo=repo).stdout)
    assert (shown["priority"], shown["tags"]) == ("high", ["medical"])
    fsck(repo)
