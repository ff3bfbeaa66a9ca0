"""Messages name the repository's own branch: a `master` repository hears "master"."""

from __future__ import annotations

import subprocess
from pathlib import Path

from clikit import RepositoryTemplates, dreamgit, prepared

DAY = "2026-11-10T09:00:00Z"
NIGHT = "2026-11-10T23:00:00Z"


def _logged_on_master(repo: Path) -> None:
    """A memory repository on ``master`` with one session logged."""
    subprocess.run(["git", "init", "-q", "-b", "master", str(repo)], check=True)
    prepared(repo, DAY, "init", str(repo))
    prepared(repo, DAY, "log", "User: I prefer tea over coffee in the mornings.")


def _master_repo(tmp_path: Path, templates: RepositoryTemplates) -> Path:
    """A copy of :func:`_logged_on_master`'s repository (made once a worker)."""
    templates.copy(_logged_on_master, tmp_path / "mem")
    return tmp_path / "mem"


def test_run_says_merged_into_master(tmp_path: Path, templates: RepositoryTemplates) -> None:
    """A dream merged on a `master` repository says so, not "main"."""
    out = dreamgit(_master_repo(tmp_path, templates), NIGHT, "run", "--force")
    last = out.splitlines()[-1]
    assert last.startswith("dream ") and ": merged into master (dream/" in last


def test_merge_says_into_master(tmp_path: Path, templates: RepositoryTemplates) -> None:
    """`merge RUN` of a reviewed branch names the branch it merged into."""
    repo = _master_repo(tmp_path, templates)
    out = prepared(repo, NIGHT, "run", "--force", "--no-merge")
    run_id = out.splitlines()[-1].split()[1].rstrip(":")
    merged = dreamgit(repo, NIGHT, "merge", run_id)
    assert merged.startswith(f"merged dream/{run_id} into master (")
