"""The installed command as a process, on a repository named by ``DREAMGIT_REPO``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any


def dreamgit(repo: Path, now: str, *args: str, stdin: str | None = None) -> str:
    """Run ``dreamgit --now NOW ARGS`` on ``repo``; its stdout (it must succeed)."""
    done = dreamgit_process(repo, now, *args, stdin=stdin)
    assert done.returncode == 0, done.stderr
    return done.stdout


def dreamgit_process(
    repo: Path, now: str, *args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``dreamgit --now NOW ARGS`` on ``repo``, whatever its exit status."""
    found = shutil.which("dreamgit", path=str(Path(sys.executable).parent))
    command = [found] if found else [sys.executable, "-m", "dreamgit"]
    env = dict(os.environ, DREAMGIT_REPO=str(repo))
    return subprocess.run(
        [*command, "--now", now, *args],
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


def active(repo: Path, now: str) -> list[dict[str, Any]]:
    """The active memories as ``memories --json`` lists them."""
    found: list[dict[str, Any]] = json.loads(dreamgit(repo, now, "memories", "--json"))
    return found
