"""Dream branches left for review own their sessions; the next dream replaces them; discard."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from dreamgit.cli import cli
from dreamgit.dream.run import dream
from dreamgit.errors import UserError
from dreamgit.gitstore import Identity
from dreamgit.history.branches import discard_run, held_sessions, review_branches
from dreamgit.history.runmerge import merge_run
from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW, git

PERSON = Identity("Ada Reviewer", "ada@example.com")
FACTS = [
    "User: I prefer green tea in the morning.",
    "User: My name is Ada.",
    "User: I switched from Flask to FastAPI.",
    "User: I prefer vim over emacs.",
    "User: I live in Lisbon.",
    "User: I prefer dark mode in every editor.",
]


def _at(hours: float) -> datetime:
    return NOW + timedelta(hours=hours)


def _cli(repo: MemoryRepo, when: datetime, *args: str) -> Result:
    where = repo.store.workdir or repo.store.git_dir
    return CliRunner().invoke(cli, ["--repo", str(where), "--now", when.isoformat(), *args])


def _log(repo: MemoryRepo, texts: list[str], hours: float) -> list[str]:
    return [operations.log_session(repo, t, now=_at(hours)).id for t in texts]


@pytest.fixture
def reviewed(tmp_path: Path) -> tuple[MemoryRepo, dict[str, object]]:
    """Three sessions dreamed with merge=False: one branch awaiting review."""
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    _log(repo, FACTS[:3], 0)
    record = dream(repo, now=_at(1), merge=False)
    assert record["branch"] and not record["merged"]
    return repo, dict(record)


def test_sessions_a_review_branch_holds_are_not_new_to_the_gate_or_status(
    reviewed: tuple[MemoryRepo, dict[str, object]],
) -> None:
    """After a --no-merge run, status says no dream is due and counts the sessions as held."""
    repo, record = reviewed
    assert held_sessions(repo) == set(record["sessions"])  # type: ignore[arg-type]
    report = json.loads(_cli(repo, _at(5), "status", "--json").stdout)
    assert (report["pending_sessions"], report["held_sessions"], report["due"]) == (0, 3, False)
    assert "0 new session(s)" in report["reason"]
    skipped = dream(repo, now=_at(5), merge=False)
    assert skipped["skipped"] is True
    assert [b.name for b in review_branches(repo)] == [record["branch"]]


def test_status_names_the_commands_that_accept_or_drop_a_review_branch(
    reviewed: tuple[MemoryRepo, dict[str, object]],
) -> None:
    """The awaiting-review line offers merge and discard, not revert (which refuses it)."""
    repo, record = reviewed
    text = _cli(repo, _at(5), "status").stdout
    run_id = record["run_id"]
    assert (
        f"awaiting review:  dream/{run_id} (accept: dreamgit merge {run_id}; "
        f"drop: dreamgit discard {run_id})\n"
    ) in text
    assert "sessions:         3 (0 pending, 3 held for review)\n" in text


def test_next_no_merge_run_replaces_the_open_branch_with_old_and_new_sessions(
    reviewed: tuple[MemoryRepo, dict[str, object]],
) -> None:
    """Night two builds one branch from main with both nights' sessions; night one's is gone."""
    repo, first = reviewed
    newer = _log(repo, FACTS[3:], 20)
    review = _cli(repo, _at(26), "review")
    assert f"would replace {first['branch']}: its sessions would be dreamed again\n" in (
        review.stdout
    )
    result = _cli(repo, _at(26), "run", "--no-merge")
    assert result.exit_code == 0, result.output
    assert f"replaced {first['branch']}: its sessions are dreamed again in this run\n" in (
        result.stdout
    )
    branches = review_branches(repo)
    assert len(branches) == 1 and branches[0].name != first["branch"]
    assert set(branches[0].sessions) == set(first["sessions"]) | set(newer)  # type: ignore[arg-type]
    assert repo.store.tip(str(first["branch"])) is None
    diary = repo.read_text("DREAMS.md", branches[0].tip) or ""
    assert f"replaces `{first['branch']}` (its sessions are dreamed again here)" in diary
    merge_run(repo, branches[0].run_id, now=_at(27))  # no conflict on DREAMS.md
    assert held_sessions(repo) == set()
    assert dream(repo, now=_at(40), force=True)["sessions"] == []


def test_a_merged_run_replaces_the_open_branch_too(
    reviewed: tuple[MemoryRepo, dict[str, object]],
) -> None:
    """A run that merges takes the review branch's sessions to main and drops that branch."""
    repo, first = reviewed
    _log(repo, FACTS[3:], 20)
    tip = repo.store.tip(str(first["branch"]))
    record = dream(repo, now=_at(26))
    assert record["merged"] and record["replaced"] == [{"branch": first["branch"], "tip": tip}]
    assert repo.store.branches("dream/") == {}


def test_a_branch_someone_committed_to_is_kept_and_its_sessions_left_to_it(
    reviewed: tuple[MemoryRepo, dict[str, object]],
) -> None:
    """A person's commit on the review branch: the next dream keeps it and skips its sessions."""
    repo, first = reviewed
    branch = str(first["branch"])
    tip = repo.store.tip(branch) or ""
    tree = repo.store.build_tree(tip, {"notes/review.md": b"checked the merge\n"})
    repo.store.commit(branch, parents=[tip], tree=tree, message="review", who=PERSON, when=_at(2))
    newer = _log(repo, FACTS[3:], 20)
    record = dream(repo, now=_at(26), merge=False)
    assert set(record["sessions"]) == set(newer)
    assert "replaced" not in record
    assert repo.store.tip(branch) is not None
    assert len(review_branches(repo)) == 2


def test_discard_drops_the_branch_and_its_sessions_are_pending_again(
    reviewed: tuple[MemoryRepo, dict[str, object]],
) -> None:
    """`dreamgit discard RUN` deletes the branch; status counts its sessions as pending."""
    repo, first = reviewed
    result = _cli(repo, _at(2), "discard", str(first["run_id"]))
    assert (result.exit_code, result.stdout) == (
        0,
        f"discarded {first['branch']}; 3 sessions pending again\n",
    )
    assert repo.store.branches("dream/") == {}
    report = json.loads(_cli(repo, _at(5), "status", "--json").stdout)
    assert (report["pending_sessions"], report["held_sessions"], report["due"]) == (3, 0, True)


def test_discard_refuses_a_branch_a_person_committed_to(
    reviewed: tuple[MemoryRepo, dict[str, object]],
) -> None:
    """Someone's commit on the branch: discard names it and leaves the branch."""
    repo, first = reviewed
    branch = str(first["branch"])
    tip = repo.store.tip(branch) or ""
    tree = repo.store.build_tree(tip, {"notes/review.md": b"checked\n"})
    mine = repo.store.commit(
        branch, parents=[tip], tree=tree, message="review", who=PERSON, when=_at(2)
    )
    with pytest.raises(UserError) as caught:
        discard_run(repo, str(first["run_id"]))
    assert caught.value.render() == (
        f"{branch} has 1 commit(s) the dream did not make "
        f"(newest {mine[:12]} by Ada Reviewer <ada@example.com>: 'review'); not discarded\n"
        f"hint: merge it with `dreamgit merge {first['run_id']}`, or delete it yourself with "
        f"`git branch -D {branch}` if that work may go"
    )
    assert repo.store.tip(branch) == mine


def test_discard_refuses_a_merged_run(tmp_path: Path) -> None:
    """A run on main has no branch to drop: the hint names revert."""
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    _log(repo, FACTS[:3], 0)
    record = dream(repo, now=_at(1))
    result = _cli(repo, _at(2), "discard", str(record["run_id"]))
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: run {record['run_id']} is merged into main: there is no branch to discard\n"
        f"hint: undo it with `dreamgit revert {record['run_id']}`\n",
    )
    assert git(tmp_path / "mem", "branch", "--list", "dream/*") == ""


def test_discard_drops_a_branch_a_crashed_run_left(tmp_path: Path) -> None:
    """An abandoned branch of dream commits (no record) is discarded like a reviewed one."""
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    main = repo.tip() or ""
    run_id = "20261201T000000Z-dead"
    tree = repo.store.build_tree(main, {"memories/x/half.md": b"half a dream\n"})
    message = f"add: half\n\nDream-Run: {run_id}\nDream-Op: add"
    who = Identity("dreamgit", "dreamgit@localhost")
    repo.store.commit(
        f"dream/{run_id}", parents=[main], tree=tree, message=message, who=who, when=NOW
    )
    result = _cli(repo, _at(2), "discard", run_id)
    assert (result.exit_code, result.stdout) == (0, f"discarded dream/{run_id}\n")
    assert repo.store.branches("dream/") == {}
