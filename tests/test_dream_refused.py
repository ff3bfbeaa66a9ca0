"""A dream whose merge a concurrent redact refused is listed as refused, with why.

The dream is held just before its merge while ``redact`` rewrites main (and the dream
branch with it); let go, the dream's merge is refused, and ``status`` and ``history``
call the branch refused and say why, where they used to call it abandoned.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from clikit import RepositoryTemplates, dreamgit, dreamgit_process, initialized, prepared

DAY = "2026-11-10T09:00:00Z"
NIGHT = "2026-11-10T23:00:00Z"


def test_a_dream_refused_by_a_concurrent_redact_is_listed_as_refused(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """status says "refused dream" with the reason; history's status is "refused"."""
    repo = tmp_path / "mem"
    initialized(templates, repo, DAY)
    prepared(repo, DAY, "add", "The staging host is called Quokkaport", "--topic", "ops")
    prepared(repo, DAY, "log", "User: I moved the nightly backups to Tuesday.")
    go = tmp_path / "go"
    env = dict(
        os.environ,
        DREAMGIT_REPO=str(repo),
        DREAMGIT_FAULT=f"pause:before-merge:{go}",
    )
    dream = subprocess.Popen(
        [sys.executable, "-m", "dreamgit", "--now", NIGHT, "run", "--force"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    reached = go.with_name("go.reached")
    for _ in range(3000):
        if reached.exists() or dream.poll() is not None:
            break
        time.sleep(0.02)
    assert reached.exists(), dream.communicate()
    prepared(repo, NIGHT, "redact", "--match", "Quokkaport")  # the other writer, in this process
    go.touch()
    _, err = dream.communicate(timeout=120)
    assert dream.returncode == 1, err
    assert "was rewritten since dream/" in err
    status = dreamgit_process(repo, NIGHT, "status")
    refused = [line for line in status.stdout.splitlines() if line.startswith("refused dream:")]
    assert len(refused) == 1, status.stdout
    assert "merge refused: main was rewritten since the dream began" in refused[0]
    assert "abandoned" not in status.stdout
    (run,) = json.loads(dreamgit(repo, NIGHT, "history", "--json"))[:1]
    assert run["status"] == "refused"
