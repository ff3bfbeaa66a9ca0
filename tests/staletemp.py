"""Older sessions' temporary folders removed while this session's tests run, not after them.

pytest keeps the folders of the last ``tmp_path_retention_count`` sessions (three) and, as a
session ends, removes the older ones, whoever made them. A whole run of the suite leaves
tens of thousands of files (a git repository a test); on a disk mounted with ``discard``
each removal waits on the disk, so removing an older run took seconds to tens of seconds
of wall time after the last test, with nothing left to overlap it. ``StaleTemp`` starts
pytest's own removal (the same folders, the same locks and renames, ``_pytest.pathlib``) in
a process of its own as the session starts, and waits for it just before pytest's turn at
the end, which then finds nothing more to remove. A session given ``--basetemp`` (an xdist
worker, or a user's own) removes nothing else, as in pytest. Where a pytest release no
longer has that removal under its private name, nothing is registered: pytest removes the
folders at the end, as it always did.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

try:
    from _pytest.pathlib import LOCK_TIMEOUT, cleanup_numbered_dir
except ImportError:  # pragma: no cover - another pytest: its own removal at the end
    LOCK_TIMEOUT = cleanup_numbered_dir = None

#: The name the removal is registered under.
NAME = "staletemp-removal"

#: The prefix of the numbered folders pytest makes for its sessions.
PREFIX = "pytest-"

#: pytest's removal of the older numbered folders under a root, as the session ends.
_REMOVE = (
    "import sys\n"
    "from pathlib import Path\n"
    "from _pytest.pathlib import cleanup_numbered_dir\n"
    "cleanup_numbered_dir(Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))\n"
)


def remove_older(root: Path, *, keep: int, dead_before: float) -> subprocess.Popen[bytes]:
    """Start removing the numbered folders of ``root`` older than its ``keep`` newest (and
    pytest's half-removed ``garbage-*`` ones), as pytest would; a folder still locked by a
    session that started after ``dead_before`` (a time) is left. The process removing them
    (silent: pytest's warnings about a file it could not remove would be printed raw)."""
    command = [sys.executable, "-W", "ignore", "-c", _REMOVE, str(root), PREFIX]
    return subprocess.Popen([*command, str(keep), repr(dead_before)], stdin=subprocess.DEVNULL)


def kept_sessions(config: pytest.Config) -> int:
    """How many sessions' folders pytest keeps (``tmp_path_retention_*``)."""
    if config.getini("tmp_path_retention_policy") == "none":
        return 0
    return int(config.getini("tmp_path_retention_count"))


def pytest_configure(config: pytest.Config) -> None:
    """Register the removal (the suite's conftest calls this; ``-p staletemp`` too)."""
    if cleanup_numbered_dir is not None:
        config.pluginmanager.register(StaleTemp(), NAME)


class StaleTemp:
    """Removes the older sessions' folders from the session's start (plugin hooks)."""

    def __init__(self) -> None:
        self._removing: subprocess.Popen[bytes] | None = None

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        config = session.config
        if config.option.basetemp is not None or config.option.collectonly:
            return
        factory: pytest.TempPathFactory = config._tmp_path_factory  # type: ignore[attr-defined]
        basetemp = factory.getbasetemp()  # made now rather than at the first test
        dead_before = basetemp.stat().st_mtime - LOCK_TIMEOUT
        self._removing = remove_older(
            basetemp.parent, keep=kept_sessions(config), dead_before=dead_before
        )

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self) -> None:
        if self._removing is not None:
            self._removing.wait()
            self._removing = None
