"""What the hooks read without libgit2: the configuration's branch read plainly, or a doubt.

The commit is HEAD's branch's only when the configuration there names no other branch
in one plain line; whatever a plain reading cannot be sure of (quotes, YAML's special
words, a nested or repeated key, another branch) answers None, and the hooks open git.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from dreamgit.integrations.hookreads import committed_text, memory_head
from dreamgit.store import layout

BASE = "# dreamgit's configuration\nextends: default\n"


def _repository(folder: Path, config: str) -> Path:
    """A git repository on main whose one commit holds ``config`` as the configuration."""
    (folder / ".dreamgit").mkdir(parents=True)
    (folder / ".dreamgit" / "config.yaml").write_text(config, encoding="utf-8")
    (folder / "MEMORY.md").write_text("- a line of the index\n", encoding="utf-8")
    who = ("-c", "user.name=Test", "-c", "user.email=test@example.org")
    for args in (("init", "-q", "-b", "main"), ("add", "-A"), (*who, "commit", "-q", "-m", "c")):
        subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True)
    return folder


@pytest.mark.parametrize(
    "tail",
    ["", "branch: main\n", "branch: main   # this repository's own\n", "# branch: other\n"],
    ids=["no-branch", "plain", "plain-with-comment", "commented-out"],
)
def test_a_configuration_naming_no_other_branch_is_read_from_loose_objects(
    tmp_path: Path, tail: str
) -> None:
    """No branch named, HEAD's own named plainly, or a mention in a comment: read as it is."""
    folder = _repository(tmp_path / "repo", BASE + tail)
    assert memory_head(folder) is not None
    assert committed_text(folder, layout.CONFIG) == BASE + tail
    assert committed_text(folder, "MEMORY.md") == "- a line of the index\n"


@pytest.mark.parametrize(
    "tail",
    [
        "branch: master\n",
        'branch: "main"\n',
        "branch: null\n",
        "branch: 2026\n",
        "other:\n  branch: main\n",
        "branch: main\nbranch: main\n",
        "branch: &b main\n",
    ],
    ids=["another", "quoted", "null", "number", "nested", "twice", "anchor"],
)
def test_what_a_plain_reading_cannot_be_sure_of_is_a_doubt(tmp_path: Path, tail: str) -> None:
    """Another branch, or YAML that means more than one plain line says: None (open git)."""
    folder = _repository(tmp_path / "repo", BASE + tail)
    assert memory_head(folder) is None
    assert committed_text(folder, layout.CONFIG) is None


def test_a_format_keeps_other_files_in_doubt_but_not_dreamgits_own(tmp_path: Path) -> None:
    """``format:`` may move the index elsewhere: MEMORY.md is a doubt then; the
    configuration and ``.dreamgit/`` files are where every format keeps them."""
    folder = _repository(tmp_path / "repo", BASE + "format: claude-code\nbranch: main\n")
    assert committed_text(folder, "MEMORY.md") is None
    assert committed_text(folder, layout.CONFIG) is not None
    assert committed_text(folder, ".dreamgit/logged.json") is None  # absent: not committed
