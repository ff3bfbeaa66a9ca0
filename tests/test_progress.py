"""Progress of long commands: phases on a terminal's stderr; nothing on pipes or with --json."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW


def _repo(tmp_path: Path) -> Path:
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    for text in ("I prefer green tea.", "I prefer vim over emacs.", "I live in Lisbon."):
        operations.log_session(repo, f"User: {text}", now=NOW)
    return tmp_path / "mem"


def _dreamgit(
    path: Path, *args: str, tty: bool, env: dict[str, str] | None = None
) -> tuple[str, str]:
    """Run the command with stderr on a pseudo-terminal (or a pipe); (stdout, stderr)."""
    command = [
        sys.executable,
        "-m",
        "dreamgit",
        "--repo",
        str(path),
        "--now",
        "2026-11-23T03:00:00Z",
    ]
    full_env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"} | (env or {})
    if not tty:
        done = subprocess.run(
            [*command, *args], capture_output=True, text=True, env=full_env, check=True
        )
        return done.stdout, done.stderr
    main, secondary = pty.openpty()
    with subprocess.Popen(
        [*command, *args], stdout=subprocess.PIPE, stderr=secondary, env=full_env, text=True
    ) as proc:
        os.close(secondary)
        chunks = []
        while True:
            try:
                chunk = os.read(main, 4096)
            except OSError:  # the terminal closed: the command has exited
                break
            if not chunk:
                break
            chunks.append(chunk)
        out = proc.stdout.read() if proc.stdout else ""
    os.close(main)
    assert proc.returncode == 0
    return out, b"".join(chunks).decode("utf-8")


def test_run_on_a_terminal_shows_its_phases_dimmed_and_clears_them(tmp_path: Path) -> None:
    """Each phase with its counts, rewritten in place, the line cleared at the end."""
    out, err = _dreamgit(_repo(tmp_path), "run", tty=True, env={"TERM": "xterm"})
    for phase in (
        "dreamgit: reading memories…",
        "dreamgit: gathering from 3 sessions (0 memories known)…",
        "dreamgit: consolidating 3 memories…",
        "dreamgit: pruning…",
        "dreamgit: writing the index…",
        "dreamgit: committing 4 operations on dream/",
        "dreamgit: merging into main…",
    ):
        assert phase in err, phase
    assert "\x1b[2m" in err and err.endswith("\r\x1b[2K")
    assert "merged into main" in out and "\x1b" not in out


def test_no_color_shows_plain_lines_without_escape_sequences(tmp_path: Path) -> None:
    """NO_COLOR: the same phases, one per line, and not one escape sequence."""
    _, err = _dreamgit(_repo(tmp_path), "review", tty=True, env={"NO_COLOR": "1"})
    assert "\x1b" not in err
    assert err.replace("\r\n", "\n").splitlines()[:2] == [
        "dreamgit: reading memories…",
        "dreamgit: gathering from 3 sessions (0 memories known)…",
    ]


@pytest.mark.parametrize(("args", "tty"), [(("run",), False), (("run", "--json"), True)])
def test_nothing_is_shown_on_a_pipe_or_with_json(
    tmp_path: Path, args: tuple[str, ...], tty: bool
) -> None:
    """stderr stays empty when it is not a terminal, and with --json even when it is."""
    _, err = _dreamgit(_repo(tmp_path), *args, tty=tty)
    assert err == ""
