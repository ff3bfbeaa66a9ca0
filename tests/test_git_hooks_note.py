"""The repository's own git hooks: dreamgit's commits skip them and say so, once.

dreamgit builds every commit in memory, never from git's index, so a pre-commit hook
(which checks the index) or a commit-msg hook would judge something else than the
commit: they are not run. A command that committed says once which hooks did not run,
and a dream's run record names them; ``hooks: quiet`` in the config silences the note.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from clikit import RepositoryTemplates, dreamgit_process, initialized, prepared
from dreamgit.store.layout import hooks_note

DAY = "2026-11-10T09:00:00Z"
NIGHT = "2026-11-10T23:00:00Z"


def _repo_with_hooks(
    tmp_path: Path, templates: RepositoryTemplates, folder: str | None = None
) -> Path:
    """A memory repository whose pre-commit and commit-msg hooks leave a mark if run."""
    repo = tmp_path / "mem"
    initialized(templates, repo, DAY)
    hooks = repo / ".git" / "hooks"
    if folder is not None:
        hooks = repo / folder
        subprocess.run(["git", "-C", str(repo), "config", "core.hooksPath", folder], check=True)
    hooks.mkdir(parents=True, exist_ok=True)
    for name in ("pre-commit", "commit-msg"):
        hook = hooks / name
        hook.write_text(f"#!/bin/sh\ntouch '{tmp_path}/{name}-ran'\n", encoding="utf-8")
        hook.chmod(0o755)
    return repo


def test_a_write_says_once_which_hooks_did_not_run(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """add commits without running the hooks, and says so in one line."""
    repo = _repo_with_hooks(tmp_path, templates)
    done = dreamgit_process(repo, DAY, "add", "Deploys go out on Thursdays", "--topic", "ops")
    assert done.returncode == 0, done.stderr
    assert done.stderr == f"warning: {hooks_note(['pre-commit', 'commit-msg'])}\n"
    assert hooks_note(["pre-commit", "commit-msg"]).startswith(
        "this repository's pre-commit and commit-msg hook(s) did not run on dreamgit's commits"
    )
    assert not list(tmp_path.glob("*-ran"))


def test_a_dream_names_the_skipped_hooks_in_its_record_and_output(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """run --json carries hooks_skipped; its stderr has the note once."""
    repo = _repo_with_hooks(tmp_path, templates, folder=".githooks")
    prepared(repo, DAY, "log", "User: I moved the nightly backups to Tuesday.")
    done = dreamgit_process(repo, NIGHT, "run", "--force", "--json")
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["hooks_skipped"] == ["pre-commit", "commit-msg"] and record["ops"]
    assert done.stderr.count("did not run on dreamgit's commits") == 1


def test_hooks_quiet_silences_the_note_and_a_repository_without_hooks_has_none(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """`hooks: quiet` in the committed config: no note; sample hooks alone: no note."""
    repo = _repo_with_hooks(tmp_path, templates)
    config = repo / ".dreamgit" / "config.yaml"
    config.write_text(config.read_text(encoding="utf-8") + "hooks: quiet\n", encoding="utf-8")
    subprocess.run(
        [
            "git",
            "-C",
            str(repo),
            "-c",
            "user.name=T",
            "-c",
            "user.email=t@example.com",
            "commit",
            "-q",
            "--no-verify",
            "-am",
            "quiet hooks",
        ],
        check=True,
    )
    done = dreamgit_process(repo, DAY, "add", "Backups run nightly", "--topic", "ops")
    assert done.returncode == 0 and done.stderr == ""
    plain = tmp_path / "plain"
    initialized(templates, plain, DAY)
    done = dreamgit_process(plain, DAY, "add", "Backups run nightly", "--topic", "ops")
    assert done.returncode == 0 and done.stderr == ""


def test_rules_check_refuses_an_unknown_hooks_mode(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """`hooks:` takes note or quiet; anything else is named with its line."""
    repo = tmp_path / "mem"
    initialized(templates, repo, DAY)
    config = repo / ".dreamgit" / "config.yaml"
    config.write_text(config.read_text(encoding="utf-8") + "hooks: loud\n", encoding="utf-8")
    done = dreamgit_process(repo, DAY, "rules", "check", str(config))
    assert done.returncode == 1
    assert "hooks: must be one of note, quiet, not 'loud'" in done.stdout + done.stderr
