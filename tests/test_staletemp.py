"""The older sessions' temporary folders go while the session runs (``staletemp``)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from staletemp import NAME, remove_older

TESTS = Path(__file__).parent

#: An inner session's one test: the folders of the two oldest of four earlier sessions are
#: gone before the session ends (within 10 s of its start), the two newest are kept.
_INNER_TEST = """
import time


def test_older_sessions_folders_go_while_this_one_runs(tmp_path_factory):
    root = tmp_path_factory.getbasetemp().parent
    deadline = time.monotonic() + 10
    while (root / "pytest-0").exists() or (root / "pytest-1").exists():
        assert time.monotonic() < deadline, sorted(p.name for p in root.iterdir())
        time.sleep(0.02)
    assert (root / "pytest-2" / "kept.txt").exists()
    assert (root / "pytest-3" / "kept.txt").exists()
"""


def _sessions(root: Path, count: int) -> None:
    """Folders of ``count`` earlier sessions under ``root``, each holding a file."""
    for number in range(count):
        folder = root / f"pytest-{number}"
        folder.mkdir(parents=True)
        (folder / "kept.txt").write_text("an earlier session's file\n")


def test_the_older_folders_go_and_a_live_sessions_lock_keeps_its_own(tmp_path: Path) -> None:
    """pytest's choice: the folders older than the newest ``keep`` and the half-removed
    ``garbage-*`` ones go; a folder a running session has locked stays."""
    _sessions(tmp_path, 5)
    (tmp_path / "pytest-1" / ".lock").write_text("a session still running\n")
    (tmp_path / "garbage-abc").mkdir()
    remove_older(tmp_path, keep=3, dead_before=time.time() - 60).wait()
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "pytest-1",
        "pytest-2",
        "pytest-3",
        "pytest-4",
    ]


def test_a_session_removes_the_older_folders_before_it_ends(tmp_path: Path) -> None:
    """Through pytest: a session's own test sees the older folders gone (on pytest's own
    removal, only as the session ends, it sees them still there and fails)."""
    temproot = tmp_path / "temproot"
    root = temproot / "pytest-of-user"
    _sessions(root, 4)
    (tmp_path / "test_inner.py").write_text(_INNER_TEST)
    env = dict(os.environ, PYTEST_DEBUG_TEMPROOT=str(temproot), USER="user", LOGNAME="user")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TESTS), env.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-o", "addopts=", "-p", "no:cacheprovider",
         "-p", "no:randomly", "-p", "no:xdist", "-p", "no:hypothesispytest",
         "-p", "staletemp", str(tmp_path / "test_inner.py")],
        capture_output=True, text=True, check=False, cwd=tmp_path, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert sorted(p.name for p in root.iterdir() if not p.is_symlink()) == [
        "pytest-2",
        "pytest-3",
        "pytest-4",
    ]


def test_the_suite_runs_with_the_removal(request: pytest.FixtureRequest) -> None:
    """The suite's conftest registers it."""
    assert request.config.pluginmanager.has_plugin(NAME)
