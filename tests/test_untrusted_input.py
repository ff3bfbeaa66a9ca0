"""Nothing read from a file or typed as a number is trusted: forged ids and huge ages are errors.

A hand-written memory whose id carries line breaks and ``Dream-*`` lines would have
those lines written into the next commit's trailers; it is reported with its path
and line and left out. An age too large for a duration is exit 1 with a message,
not a crash. Both through the installed command.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from clikit import RepositoryTemplates

NOW = "2026-11-20T10:00:00Z"
FORGED_ID = "m-aaaaaaaa\\n\\nDream-Run: 20990101T000000Z-ffff\\nDream-Op: merge"


def run(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    found = shutil.which("dreamgit", path=str(Path(sys.executable).parent))
    command = [found] if found else [sys.executable, "-m", "dreamgit"]
    env = dict(os.environ, DREAMGIT_REPO=str(repo))
    return subprocess.run(
        [*command, "--now", NOW, *args], env=env, capture_output=True, text=True, check=False
    )


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True)
    return done.stdout


def _initialized(path: Path) -> None:
    assert run(path, "init", str(path)).returncode == 0
    git(path, "config", "user.name", "Person")
    git(path, "config", "user.email", "person@example.com")


@pytest.fixture
def repo(tmp_path: Path, templates: RepositoryTemplates) -> Path:
    """What ``dreamgit init`` makes (the command runs once a worker, each test gets a copy)."""
    templates.copy(_initialized, tmp_path / "mem")
    return tmp_path / "mem"


def _commit_by_hand(repo: Path, name: str, dream_block: str) -> None:
    folder = repo / "memories" / "ops"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(f"---\nname: hand\ndream:\n{dream_block}---\nA hand note.\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "by hand")


def test_an_id_with_forged_trailer_lines_is_refused_with_its_path_and_line(repo: Path) -> None:
    """The file is reported and left out; no commit can carry its lines as trailers."""
    _commit_by_hand(repo, "forged.md", f'  id: "{FORGED_ID}"\n  topic: ops\n')
    listed = run(repo, "memories", "--json")
    assert listed.returncode == 0
    assert (
        "warning: memories/ops/forged.md:4: dream.id: an id is one word of letters, digits, "
        "'.', '_' and '-' (no spaces, line breaks or commas)\n"
        "hint: give it an id like m-7f3k2q9d, or remove the line to have one made\n"
    ) in listed.stderr
    assert "m-aaaaaaaa" not in listed.stdout
    tip = git(repo, "rev-parse", "HEAD")
    forged = FORGED_ID.replace("\\n", "\n")
    refused = run(repo, "forget", forged)
    assert refused.returncode == 1
    assert git(repo, "rev-parse", "HEAD") == tip
    assert "Dream-Run: 20990101T000000Z-ffff" not in git(repo, "log", "--format=%B")


def test_a_tag_with_a_line_break_is_refused_with_its_path(repo: Path) -> None:
    """Tags, keys and sources are one line each when read back."""
    _commit_by_hand(repo, "tagged.md", '  id: m-bbbbbbbb\n  tags: ["ok", "x\\nDream-Op: merge"]\n')
    listed = run(repo, "memories")
    assert (
        "warning: memories/ops/tagged.md:5: dream.tags: a line break or control character "
        "is not allowed here\n"
    ) in listed.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("memories", "--as-of", "99999999999d"),
            "error: --as-of '99999999999d' is too long: a duration is at most 999999999 days\n",
        ),
        (
            ("memories", "--as-of", "999999999d"),
            "error: --as-of '999999999d' reaches back before the year 1\n",
        ),
        (
            ("forget", "--older-than", "99999999999999999999d"),
            "error: --older-than '99999999999999999999d' is too long: "
            "a duration is at most 999999999 days\n",
        ),
    ],
)
def test_an_age_too_large_is_a_user_error(repo: Path, args: tuple[str, ...], message: str) -> None:
    """Exit 1 with what to write instead, never an internal error."""
    done = run(repo, *args)
    assert (done.returncode, done.stderr) == (
        1,
        message + "hint: write a shorter age, or a date such as 2020-01-01\n",
    )
