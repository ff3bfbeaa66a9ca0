"""The work-tree check of the lean status: the index compared with the committed files
once per index content, every file still looked at."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import pytest

from dreamgit.store import gitindex, leanworktree
from dreamgit.store.indexvouch import vouch, vouched
from dreamgit.store.leanworktree import Committed, committed_in_work_tree
from gitcheck import committed_work_tree, git, tree_blobs

PATHS = ("memories/", "MEMORY.md")


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """A repository with a commit of memories and an index, as a clone leaves them."""
    files = {
        "MEMORY.md": "- index\n",
        "memories/kitchen/keeps-a-starter.md": "Keeps a sourdough starter.\n",
        "memories/travel/likes-trains.md": "Likes night trains.\n",
    }
    path = committed_work_tree(tmp_path / "w", files)
    (path / ".git" / "dreamgit" / "cache").mkdir(parents=True)
    return path


class _Listing:
    """The committed files, counting how often the check asks for them."""

    def __init__(self, files: Mapping[str, str]) -> None:
        self.files, self.asked = dict(files), 0

    def __call__(self) -> dict[str, str]:
        self.asked += 1
        return self.files


def _check(work: Path, listing: _Listing, key: str = "k") -> bool:
    head = (work / ".git" / "refs" / "heads").iterdir().__next__().read_text().strip()
    committed = Committed(key, 20, listing, head)
    return committed_in_work_tree(work / ".git", work, PATHS, committed)


def _parsed_here(work: Path) -> None:
    """An index of version 4: read and compared with the commit here, not left to git."""
    git(work, "update-index", "--index-version", "4")


def test_the_same_index_is_compared_with_the_commit_once(work: Path) -> None:
    """A second check of an unchanged index lists no committed file, and says the same."""
    _parsed_here(work)
    listing = _Listing(tree_blobs(work))
    assert _check(work, listing) and listing.asked == 1
    assert _check(work, listing) and listing.asked == 1


def test_another_key_or_another_index_compares_again(work: Path) -> None:
    """Other committed files (another key), or an index someone changed, are compared."""
    _parsed_here(work)
    listing = _Listing(tree_blobs(work))
    assert _check(work, listing)
    assert _check(work, listing, key="other") and listing.asked == 2
    (work / "memories/travel/likes-trains.md").write_text("Likes day trains.\n")
    git(work, "add", "memories/travel/likes-trains.md")
    assert not _check(work, listing, key="other")  # staged is not committed
    assert listing.asked == 3


def test_a_vouched_index_still_looks_at_every_file(work: Path) -> None:
    """The memo says what the index stages, not what the files hold: an edit is seen."""
    _parsed_here(work)
    listing = _Listing(tree_blobs(work))
    assert _check(work, listing)
    (work / "memories/kitchen/keeps-a-starter.md").write_text("Gave the starter away.\n")
    assert not _check(work, listing) and listing.asked == 1
    (work / "memories/kitchen/keeps-a-starter.md").write_text("Keeps a sourdough starter.\n")
    (work / "memories/kitchen/new.md").write_text("Not staged.\n")
    assert not _check(work, listing)


def test_a_memo_that_is_missing_damaged_or_of_no_checksum_vouches_for_nothing(
    work: Path,
) -> None:
    """No line, another line, or an index git wrote without a checksum: compare again."""
    git_dir = work / ".git"
    checksum = bytes(range(20))
    assert not vouched(git_dir, checksum, "k")
    vouch(git_dir, checksum, "k")
    assert vouched(git_dir, checksum, "k") and not vouched(git_dir, checksum, "j")
    (git_dir / "dreamgit" / "cache" / "index-vouched").write_bytes(b"\xff garbage")
    assert not vouched(git_dir, checksum, "k")
    vouch(git_dir, bytes(20), "k")  # index.skipHash: twenty zero bytes
    assert not vouched(git_dir, bytes(20), "k")


def test_a_cache_folder_that_cannot_be_written_costs_only_time(tmp_path: Path) -> None:
    """Without the cache folder nothing is kept, and nothing fails."""
    vouch(tmp_path / "absent", bytes(range(20)), "k")
    assert not vouched(tmp_path / "absent", bytes(range(20)), "k")


def _touch_every_memory(work: Path) -> None:
    """New times, same content: each file's stat data no longer matches its entry."""
    for file in (work / "memories").rglob("*.md"):
        file.write_bytes(file.read_bytes())


def test_more_touched_files_than_are_hashed_are_judged_by_git(
    work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Git's status looks at the files when it can (it hashes as many as it must)."""
    monkeypatch.setattr(leanworktree, "_MAX_HASHED", 1)
    _touch_every_memory(work)
    assert _check(work, _Listing(tree_blobs(work)))
    (work / "memories/travel/likes-trains.md").write_text("Likes day trains.\n")
    assert not _check(work, _Listing(tree_blobs(work)))


def test_without_git_the_files_are_looked_at_here(
    work: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No git on PATH: every file is looked at from Python, within its limit."""
    committed = tree_blobs(work)
    monkeypatch.setenv("PATH", os.fspath(tmp_path / "empty"))
    assert _check(work, _Listing(committed))
    monkeypatch.setattr(leanworktree, "_MAX_HASHED", 1)
    _touch_every_memory(work)
    assert not _check(work, _Listing(committed))  # too many to hash: a doubt


def test_line_ending_rules_leave_git_unasked(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where git may clean content that libgit2 reads raw, the files are looked at here."""
    git(work, "config", "core.autocrlf", "input")
    monkeypatch.setattr(leanworktree, "_MAX_HASHED", 1)
    _touch_every_memory(work)
    assert not _check(work, _Listing(tree_blobs(work)))


class _Parsed:
    """``parse_index``, counting its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, *args: object) -> object:
        self.calls += 1
        return gitindex.parse_index(*args)  # type: ignore[arg-type]


def test_a_plain_index_is_not_parsed_when_git_looks_at_the_files(
    work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An index of version 2 staging no attributes file is left to git's status, which
    compares it with HEAD: its entries are not read here, and an edit or a staged
    change is still seen."""
    listing, parsed = _Listing(tree_blobs(work)), _Parsed()
    monkeypatch.setattr(leanworktree, "parse_index", parsed)
    assert _check(work, listing) and _check(work, listing)
    starter = work / "memories/kitchen/keeps-a-starter.md"
    starter.write_text("Gave the starter away.\n")
    assert not _check(work, listing)
    git(work, "add", "memories/kitchen/keeps-a-starter.md")
    assert not _check(work, listing)
    assert parsed.calls == 0 and listing.asked == 0


def test_an_index_staging_attributes_is_read_every_time(
    work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Attributes under the agent's paths may change what git compares: never vouched."""
    (work / "memories" / ".gitattributes").write_text("*.md text\n")
    git(work, "add", "memories/.gitattributes")
    git(work, "-c", "user.name=a", "-c", "user.email=a@b.c", "commit", "-q", "-m", "attrs")
    listing, parsed = _Listing(tree_blobs(work)), _Parsed()
    monkeypatch.setattr(leanworktree, "parse_index", parsed)
    assert _check(work, listing)
    assert _check(work, listing) and parsed.calls == 2
