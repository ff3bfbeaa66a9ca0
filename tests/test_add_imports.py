"""A plain ``dreamgit add`` in a bare repository imports only what an add uses."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from dreamgit.cli import cli
from gitcheck import NOW_TEXT

#: Modules an add at the tip of a kept index never needs: OpenSSL behind hashlib (git's
#: ids and memory ids hash with CPython's own SHA), and the session notes' module with
#: the extractors it reads notes with (only a note's index line needs them).
_UNUSED = ("hashlib", "dreamgit.dream.session_notes", "dreamgit.extract")

_WATCH = (
    "import sys\nfrom dreamgit.cli import main\n"
    "try:\n    main()\nfinally:\n"
    f"    found = [m for m in {_UNUSED!r} if m in sys.modules]\n"
    "    assert not found, f'imported: {found}'\n"
)


def _add(repo: Path, text: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", _WATCH, "--repo", str(repo), "--now", NOW_TEXT]
    env = {k: v for k, v in os.environ.items() if not k.startswith("DREAMGIT_")}
    return subprocess.run(
        [*command, "add", text, "--topic", "garden"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


def test_an_add_placed_in_the_index_imports_neither_hashlib_nor_the_extractors(
    tmp_path: Path,
) -> None:
    """The second add of a bare repository (its line placed in the kept index) runs to
    the end without importing them, and its memory is listed."""
    repo = tmp_path / "mem.git"
    result = CliRunner().invoke(cli, ["--now", NOW_TEXT, "init", "--bare", str(repo)])
    assert result.exit_code == 0, result.output
    first = CliRunner().invoke(
        cli, ["--repo", str(repo), "--now", NOW_TEXT, "add", "Grows basil.", "--topic", "garden"]
    )
    assert first.exit_code == 0, first.output
    done = _add(repo, "Waters the tomatoes at dawn.")
    assert done.returncode == 0, done.stderr
    index = subprocess.run(
        ["git", "--git-dir", str(repo), "show", "main:MEMORY.md"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "Waters the tomatoes at dawn" in index
    assert "Grows basil" in index
