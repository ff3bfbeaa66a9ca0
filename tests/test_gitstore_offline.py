"""``add`` imports pygit2 without its HTTPS set-up, and leaves nothing changed behind it.

Each case runs ``dreamgit add`` in a fresh interpreter (the test process imported pygit2
long ago) in a repository with a work tree, then reports what that process holds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW, NOW_TEXT, git

_ADD_THEN_REPORT = """
import json, sys
{before}
from dreamgit.cli import main
try:
    main()
except SystemExit as exc:
    assert not exc.code, exc.code
report = {{
    "ssl": "ssl" in sys.modules,
    "pickle": "pickle" in sys.modules,
    "lean store": "dreamgit.store.leanstore" in sys.modules,
    "settings": "pygit2.settings" in sys.modules,
}}
import ssl
ssl.create_default_context()  # the real module, with Python's own certificates
import pygit2
report["cert_file_after_add"] = pygit2.settings.ssl_cert_file
pygit2.settings._initialize_tls_certificate_locations()
report["cert_file_set_up"] = pygit2.settings.ssl_cert_file
report["verify_paths_cafile"] = ssl.get_default_verify_paths().cafile
print(json.dumps(report))
"""


@pytest.fixture
def worktree(tmp_path: Path) -> Path:
    """A memory repository with main checked out and one memory."""
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    operations.add_memory(repo, "Grows basil on the sill", topic="garden", now=NOW)
    assert repo.store.workdir is not None
    return repo.store.workdir


def _add_and_report(
    worktree: Path, before: str = "", text: str = "Waters tomatoes at dawn"
) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DREAMGIT_")}
    script = _ADD_THEN_REPORT.format(before=before)
    add = ["--now", NOW_TEXT, "add", text, "--topic", "garden"]
    done = subprocess.run(
        [sys.executable, "-c", script, "--repo", str(worktree), *add],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert text in (worktree / "MEMORY.md").read_text()
    assert git(worktree, "status", "--porcelain") == ""
    report: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return report


def test_an_add_in_a_work_tree_imports_pygit2_without_ssl(worktree: Path) -> None:
    """pygit2 is imported (the work tree needs it) without ssl, and once the rules are
    cached (the first add) pickle is not imported either (the derived store's split builds
    use it), nor the lean store (bare repositories'); afterwards ssl is the real module and
    pygit2's own set-up can still run."""
    _add_and_report(worktree, text="Sows peas in March")
    report = _add_and_report(worktree)
    assert report["settings"] is True
    assert report["ssl"] is False
    assert report["pickle"] is False
    assert report["lean store"] is False
    assert report["cert_file_after_add"] is None  # libgit2 left with its own defaults
    assert report["cert_file_set_up"] == report["verify_paths_cafile"]


def test_a_pygit2_that_does_not_take_the_stand_in_is_imported_as_always(
    worktree: Path,
) -> None:
    """Where pygit2 does not read the stand-in as expected, it is imported again with the
    real ssl and its usual set-up, and the add goes on."""
    before = (
        "import dreamgit.gitstore.offline as offline\n"
        "offline._NO_LOCATIONS = 'a message no pygit2 checks for'"
    )
    report = _add_and_report(worktree, before)
    assert report["ssl"] is True
    assert report["cert_file_after_add"] == report["verify_paths_cafile"]


def test_a_process_that_did_not_ask_imports_pygit2_as_always(worktree: Path) -> None:
    """Only the add command asks: naming GitStore elsewhere imports ssl with pygit2."""
    code = "import sys\nfrom dreamgit.gitstore import GitStore\nprint('ssl' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True"]
