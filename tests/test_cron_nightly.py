"""The nightly job `install-cron --print --log-from` writes, run as cron would run it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from clikit import RepositoryTemplates, dreamgit, initialized
from dreamgit.errors import ConfigError, UserError
from dreamgit.integrations import cron

NOW = "2026-11-14T03:17:00Z"


def _sessions(folder: Path) -> None:
    """Three Claude Code sessions (the default gate's count for a dream)."""
    folder.mkdir(parents=True)
    said = ("Always use uv for Python.", "I live in Porto.", "My editor is Helix.")
    for n, text in enumerate(said, start=1):
        ident = f"5d1c7e20-0000-4000-8000-00000000000{n}"
        lines = [
            {"type": "user", "sessionId": ident, "timestamp": f"2026-11-1{n}T09:00:00Z",
             "message": {"role": "user", "content": text}},
            {"type": "assistant", "sessionId": ident, "timestamp": f"2026-11-1{n}T09:00:04Z",
             "message": {"role": "assistant", "content": [{"type": "text", "text": "Noted."}]}},
        ]  # fmt: skip
        (folder / f"{ident}.jsonl").write_text(
            "".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8"
        )


def _job(entry: str) -> str:
    """The shell text of a crontab entry: the second line without its five time fields."""
    return entry.splitlines()[1].split(" ", 5)[5]


def test_printed_job_logs_the_sessions_then_dreams(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """--log-from claude-code PATH: one job, log then run, both in the cron log."""
    repo, projects = tmp_path / "memory", tmp_path / "projects" / "-home-ada-app"
    initialized(templates, repo, NOW)
    _sessions(projects)
    entry = dreamgit(repo, NOW, "install-cron", "--print", "--log-from", "claude-code",
                     str(projects)).strip()  # fmt: skip
    job = _job(entry)
    assert " log --from claude-code " in job and job.index(" log ") < job.index(" run;")
    done = subprocess.run(
        ["sh", "-c", job], env={"PATH": "/usr/bin:/bin", "DREAMGIT_NOW": NOW}, check=False
    )
    assert done.returncode == 0
    log = (repo / ".git" / "dreamgit-cron.log").read_text(encoding="utf-8")
    assert "logged 3 Claude Code session(s); 0 already logged" in log
    history = subprocess.run(
        ["git", "-C", str(repo), "log", "--format=%s", "main"],
        capture_output=True, text=True, check=True,
    ).stdout.splitlines()  # fmt: skip
    assert history[-2].startswith("log: 3 Claude Code session(s)")  # then the dream
    assert history[0].startswith("record: dream ")
    assert "index: MEMORY.md lists 3 memories" in history
    assert "skipped" not in log


def test_the_config_log_list_goes_into_the_job(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """log: [{from: claude-code, path: …}] in the config: the same job without flags."""
    repo, projects = tmp_path / "memory", tmp_path / "sessions"
    initialized(templates, repo, NOW)
    config = repo / ".dreamgit" / "config.yaml"
    config.write_text(
        config.read_text(encoding="utf-8") + f"log:\n  - from: claude-code\n    path: {projects}\n",
        encoding="utf-8",
    )
    subprocess.run(["git", "-C", str(repo), "commit", "-qam", "log list"], check=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
                        "PATH": "/usr/bin:/bin"})  # fmt: skip
    entry = dreamgit(repo, NOW, "install-cron", "--print")
    assert f" log --from claude-code {projects}; " in entry


def test_a_bad_log_list_or_agent_is_refused_with_the_fix() -> None:
    """The config's log: list is checked item by item; only known agents are logged."""
    with pytest.raises(ConfigError) as caught:
        cron.configured_sources({"log": "claude-code"})
    assert caught.value.message == (
        ".dreamgit/config.yaml: log must be a list of {from: ORIGIN, path: FOLDER}"
    )
    with pytest.raises(ConfigError) as caught:
        cron.configured_sources({"log": [{"from": "claude-code", "path": "/x"}, {"from": 1}]})
    assert caught.value.message == ".dreamgit/config.yaml: log item 2 needs from: and path:"
    assert caught.value.hint == "e.g. - {from: claude-code, path: ~/.claude/projects/-home-me-app}"
    with pytest.raises(UserError) as refused:
        cron.nightly_command(Path("/tmp/memory"), [("cursor", "/x")])
    assert refused.value.render() == (
        "cannot log sessions from 'cursor'\nhint: log from one of: claude-code"
    )
