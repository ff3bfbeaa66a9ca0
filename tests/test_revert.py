"""revert: undo a merged run, or one operation, on main; a conflict changes nothing."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from deepdiff import DeepDiff

import dreamgit.cli.cmd_git  # noqa: F401 - registers merge, revert, diff, history
from dreamgit.cli import cli
from dreamgit.errors import ConflictError, NotFoundError, UserError
from dreamgit.gitstore import GitStore, Identity
from dreamgit.history.revert import revert_run
from dreamgit.history.runs import find_run
from dreamgit.store import operations
from gitcheck import NOW_TEXT, fsck, git, subjects
from runs_support import Scenario, at, cached_three_runs, dream_at, state_of, touched_paths

WHO = Identity("Other Writer", "other@example.com")


@pytest.fixture
def scenario(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Scenario:
    """Three runs with agent writes between them; main checked out."""
    return cached_three_runs(tmp_path_factory, tmp_path / "mem")


def _memory_commits(record: dict[str, object]) -> list[str]:
    ops = record["ops"]
    assert isinstance(ops, list)
    return [op["commit"] for op in ops if op["op"] not in ("diary", "index")]


def _refs(path: Path) -> str:
    return git(path, "for-each-ref", "--format=%(refname) %(objectname)")


def _worktree(path: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(path)): p.read_bytes()
        for p in sorted(path.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(path).parts
    }


def test_reverting_a_run_after_two_later_runs_restores_the_files_it_touched(
    scenario: Scenario,
) -> None:
    """Run 1 undone after runs 2 and 3 and agent writes: its files read as before it ran."""
    repo, first = scenario.repo, scenario.runs[0]
    paths = touched_paths(repo, _memory_commits(first))
    assert len(paths) == 2  # the reinforced memory and the added one
    before = state_of(repo, first["base"], paths)
    everything_else = set(repo.store.files(repo.tip(), "memories/")) - paths
    kept_before = state_of(repo, repo.tip(), everything_else)

    outcome = revert_run(repo, first["run_id"], now=at(4))

    assert DeepDiff(before, state_of(repo, repo.tip(), paths)) == {}
    assert DeepDiff(kept_before, state_of(repo, repo.tip(), everything_else)) == {}
    assert [r["n"] for r in outcome.reverted] == [2, 1]  # newest first
    assert outcome.skipped == [
        {"n": 3, "op": "index", "reason": "MEMORY.md changed since; the next dream rewrites it"}
    ]
    assert git(scenario.path, "status", "--porcelain") == ""
    (added,) = touched_paths(repo, [first["ops"][1]["commit"]])
    assert not (scenario.path / added).exists()
    fsck(scenario.path)


def test_reverting_one_operation_restores_only_its_files(scenario: Scenario) -> None:
    """`--op 2` undoes the add of run 1 and leaves its reinforcement in place."""
    repo, first = scenario.repo, scenario.runs[0]
    add, reinforce = first["ops"][1], first["ops"][0]
    assert (add["op"], reinforce["op"]) == ("add", "reinforce")
    paths = touched_paths(repo, [add["commit"]])
    parent = repo.store.commit_info(add["commit"]).parents[0]
    reinforced = touched_paths(repo, [reinforce["commit"]])
    still = state_of(repo, repo.tip(), reinforced)

    outcome = revert_run(repo, first["run_id"], op=2, now=at(4))

    assert DeepDiff(state_of(repo, parent, paths), state_of(repo, repo.tip(), paths)) == {}
    assert DeepDiff(still, state_of(repo, repo.tip(), reinforced)) == {}
    assert [r["n"] for r in outcome.reverted] == [2]
    assert find_run(repo, first["run_id"]).reverted.keys() == {2}


def test_revert_commits_follow_git_and_carry_dream_trailers(scenario: Scenario) -> None:
    """Each revert commit says `Revert "<subject>"`, which commit it reverts, and the trailers."""
    first = scenario.runs[0]
    add = first["ops"][1]
    outcome = revert_run(scenario.repo, first["run_id"], op=2, now=at(4))
    new = outcome.reverted[0]["revert"]
    assert git(scenario.path, "log", "-1", "--format=%B", new) == (
        f'Revert "{add["summary"]}"\n\nThis reverts commit {add["commit"]}.\n\n'
        f"Dream-Op: revert\nDream-Run: {first['run_id']}\nDream-Reverts: {add['commit']}\n\n"
    )
    trailers = git(scenario.path, "log", "-1", "--format=%(trailers:key=Dream-Reverts,valueonly)")
    assert trailers.strip() == add["commit"]


def test_a_whole_run_moves_main_once(scenario: Scenario) -> None:
    """All revert commits land with one ref update: the reflog shows one step."""
    old = scenario.repo.tip()
    run_id = scenario.runs[0]["run_id"]
    outcome = revert_run(scenario.repo, run_id, now=at(4))
    assert len(outcome.reverted) == 2
    log = git(scenario.path, "reflog", "--format=%H %gs", "main").splitlines()
    assert log[:2] == [
        f"{outcome.main} dreamgit: revert {run_id}",
        f"{old} " + log[1].split(" ", 1)[1],
    ]
    assert subjects(scenario.path)[:2] == [
        f'Revert "{scenario.runs[0]["ops"][0]["summary"]}"',
        f'Revert "{scenario.runs[0]["ops"][1]["summary"]}"',
    ]
    assert "dreamgit-revert/" not in git(scenario.path, "branch", "--all")


def test_reverting_the_newest_run_also_restores_the_index(scenario: Scenario) -> None:
    """When nothing rewrote MEMORY.md since, its change is reverted too."""
    last = scenario.runs[2]
    index_before = scenario.repo.read_text("MEMORY.md", last["base"])
    outcome = revert_run(scenario.repo, last["run_id"], now=at(4))
    assert [r["op"] for r in outcome.reverted] == ["index", "add"]
    assert scenario.repo.read_text("MEMORY.md") == index_before
    assert (scenario.path / "MEMORY.md").read_text() == index_before


def test_a_conflicting_revert_changes_no_ref_and_no_file(scenario: Scenario) -> None:
    """Run 2's memory edited by hand since: the revert names the file and touches nothing."""
    repo, second = scenario.repo, scenario.runs[1]
    path = "memories/preferences/prefers-tabs-over-spaces.md"
    text = repo.read_text(path) or ""
    repo.commit_main(
        "hand edit", lambda _t: {path: text.replace("tabs", "TABS").encode()}, now=at(3)
    )
    refs, files = _refs(scenario.path), _worktree(scenario.path)

    with pytest.raises(ConflictError) as caught:
        revert_run(repo, second["run_id"], now=at(4))

    add = second["ops"][0]["commit"]
    assert caught.value.render() == (
        f"reverting operation 1 of run {second['run_id']} ({add[:12]}) conflicts with later "
        f"changes; nothing was changed\n  {path}\n"
        "hint: revert the later changes to these files first, or edit them by hand"
    )
    assert caught.value.paths == [path]
    assert _refs(scenario.path) == refs
    assert _worktree(scenario.path) == files
    assert git(scenario.path, "status", "--porcelain") == ""


def test_a_conflict_late_in_the_chain_discards_the_earlier_reverts(scenario: Scenario) -> None:
    """Run 1's reinforced memory edited since: the add's revert, made first, does not land."""
    repo, first = scenario.repo, scenario.runs[0]
    path = "memories/preferences/prefers-pytest-over-unittest.md"
    text = repo.read_text(path) or ""
    edited = text.replace("sources: [s-20261122-", "sources: [s-20261121-")
    assert edited != text
    repo.commit_main("hand edit", lambda _t: {path: edited.encode()}, now=at(3))
    refs = _refs(scenario.path)
    with pytest.raises(ConflictError) as caught:
        revert_run(repo, first["run_id"], now=at(4))
    assert caught.value.paths == [path]
    assert _refs(scenario.path) == refs


def test_undoing_a_change_to_a_removed_memory_never_touches_another_memory(
    scenario: Scenario,
) -> None:
    """Main removed the reinforced memory and added a look-alike: conflict, look-alike untouched."""
    repo, first = scenario.repo, scenario.runs[0]
    path = "memories/preferences/prefers-pytest-over-unittest.md"
    twin = "memories/preferences/pytest-for-python.md"
    copy = (repo.read_text(path) or "").replace("m-", "m-twin").replace("Prefers", "Likes")
    repo.commit_main("agent", lambda _tip: {path: None, twin: copy.encode()}, now=at(3))
    with pytest.raises(ConflictError) as caught:
        revert_run(repo, first["run_id"], op=1, now=at(4))
    assert caught.value.paths == [path]
    assert repo.read_text(twin) == copy


def test_reverting_again_reverts_nothing(scenario: Scenario) -> None:
    """A second revert of the same run makes no commit and says each op was already reverted."""
    run_id = scenario.runs[0]["run_id"]
    first = revert_run(scenario.repo, run_id, now=at(4))
    tip = scenario.repo.tip()
    again = revert_run(scenario.repo, run_id, now=at(5))
    assert again.reverted == [] and scenario.repo.tip() == tip
    by = {r["n"]: r["revert"][:12] for r in first.reverted}
    assert [s["reason"] for s in again.skipped] == [
        f"already reverted by {by[1]}",
        f"already reverted by {by[2]}",
        "MEMORY.md changed since; the next dream rewrites it",
    ]


def test_a_revert_retries_when_main_moves_during_it(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A push lands on main just before main would move: the reverts are redone on top of it."""
    bare = cached_three_runs(tmp_path_factory, tmp_path / "bare.git", bare=True)
    store, run_id = bare.repo.store, bare.runs[0]["run_id"]
    real_move = GitStore.move_branch
    pushed: list[str] = []

    def racing_move(self: GitStore, branch: str, **kwargs: Any) -> None:
        if not pushed:
            tip = store.tip("main")
            tree = store.build_tree(tip, {"notes/2026-11-25.md": b"pushed meanwhile\n"})
            pushed.append(
                store.commit(
                    "main", parents=[tip or ""], tree=tree, message="push", who=WHO, when=at(3, 5)
                )
            )
        real_move(self, branch, **kwargs)

    monkeypatch.setattr(GitStore, "move_branch", racing_move)
    outcome = revert_run(bare.repo, run_id, now=at(4))
    assert len(outcome.reverted) == 2
    assert store.is_ancestor(pushed[0], store.tip("main") or "")
    assert store.commit_info(outcome.reverted[0]["revert"]).parents == (pushed[0],)
    (added,) = touched_paths(bare.repo, [bare.runs[0]["ops"][1]["commit"]])
    assert added in store.files(pushed[0])
    assert added not in store.files(store.tip("main"))


def test_revert_works_in_a_bare_repository(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """No work tree: the same commits land on main."""
    bare = cached_three_runs(tmp_path_factory, tmp_path / "bare.git", bare=True)
    outcome = revert_run(bare.repo, bare.runs[0]["run_id"], now=at(4))
    assert len(outcome.reverted) == 2
    fsck(bare.path)


def test_a_run_not_on_main_cannot_be_reverted(scenario: Scenario) -> None:
    """A run left for review is dropped, not reverted; the message says so."""
    operations.log_session(scenario.repo, "User: I prefer vim over emacs.", now=at(3, 1))
    record = dream_at(scenario.repo, at(3, 2), merge=False)
    with pytest.raises(UserError) as caught:
        revert_run(scenario.repo, record["run_id"], now=at(4))
    assert caught.value.render() == (
        f"run {record['run_id']} is not merged into main (awaiting review); "
        "there is nothing to revert\n"
        f"hint: accept it with `dreamgit merge {record['run_id']}`, or drop it with "
        f"`dreamgit discard {record['run_id']}`"
    )


def test_a_crashed_run_cannot_be_reverted_either(scenario: Scenario) -> None:
    """A branch without a record is dropped and the dream run again."""
    store, main = scenario.repo.store, scenario.repo.tip() or ""
    branch = "dream/20261201T000000Z-dead"
    tree = store.build_tree(main, {"memories/x/half.md": b"half a dream\n"})
    store.commit(branch, parents=[main], tree=tree, message="add: half", who=WHO, when=at(4))
    with pytest.raises(UserError) as caught:
        revert_run(scenario.repo, "20261201T000000Z-dead", now=at(4))
    assert caught.value.render() == (
        "run 20261201T000000Z-dead is not merged into main (abandoned); "
        "there is nothing to revert\n"
        "hint: drop the branch instead: `dreamgit discard 20261201T000000Z-dead`, and run again"
    )


def test_an_operation_the_run_does_not_have_is_refused(scenario: Scenario) -> None:
    """`--op 9` of a run with four operations lists the valid numbers."""
    run_id = scenario.runs[0]["run_id"]
    with pytest.raises(UserError) as caught:
        revert_run(scenario.repo, run_id, op=9, now=at(4))
    assert caught.value.render() == (
        f"run {run_id} has no operation 9 (its operations: 1 to 4)\n"
        f"hint: `dreamgit history {run_id}` lists them"
    )


def test_an_unknown_run_is_refused(scenario: Scenario) -> None:
    """A run id nobody knows points at history."""
    with pytest.raises(NotFoundError) as caught:
        revert_run(scenario.repo, "20991231T000000Z-0000", now=at(4))
    assert caught.value.render() == (
        "no run '20991231T000000Z-0000'\nhint: list runs with `dreamgit history`"
    )


def test_cli_revert_prints_each_commit_and_json(scenario: Scenario) -> None:
    """`revert RUN` names each reverted op; `--json` gives the same as data; exit 0."""
    run_id = scenario.runs[0]["run_id"]
    base = ["--repo", str(scenario.path), "--now", NOW_TEXT]
    result = CliRunner().invoke(cli, [*base, "revert", run_id[:18], "--op", "2"])
    assert result.exit_code == 0, result.output
    add = scenario.runs[0]["ops"][1]["commit"]
    new = scenario.repo.tip() or ""
    assert result.output == (
        f"reverted op 2 add ({add[:12]}) as {new[:12]}\n"
        f"run {run_id}: 1 operation(s) reverted on main\n"
    )
    rest = CliRunner().invoke(cli, [*base, "revert", run_id, "--json"])
    data = json.loads(rest.output)
    assert [r["n"] for r in data["reverted"]] == [1]
    assert data["skipped"][0] == {"n": 2, "op": "add", "reason": f"already reverted by {new[:12]}"}
    assert data["main"] == scenario.repo.tip()


def test_cli_revert_conflict_exits_1_with_the_paths(scenario: Scenario) -> None:
    """A conflict is a user error on stderr, exit 1."""
    repo, second = scenario.repo, scenario.runs[1]
    path = "memories/preferences/prefers-tabs-over-spaces.md"
    text = (repo.read_text(path) or "").replace("tabs", "TABS")
    repo.commit_main("hand edit", lambda _t: {path: text.encode()}, now=at(3))
    result = CliRunner().invoke(cli, ["--repo", str(scenario.path), "revert", second["run_id"]])
    assert result.exit_code == 1
    assert f"conflicts with later changes; nothing was changed\n  {path}\n" in result.stderr


def test_a_scratch_ref_lock_left_by_a_killed_revert_does_not_block_the_next(
    scenario: Scenario, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A killed revert left its scratch ref and the ref's lock: the next revert clears both."""
    monkeypatch.setattr("dreamgit.gitstore.locks.STALE_LOCK_SECONDS", 0.1)
    repo, run_id = scenario.repo, scenario.runs[0]["run_id"]
    git(scenario.path, "update-ref", f"refs/heads/dreamgit-revert/{run_id}", "main")
    lock = repo.store.git_dir / "refs" / "heads" / "dreamgit-revert" / f"{run_id}.lock"
    lock.write_text("")
    outcome = revert_run(repo, run_id, now=at(4))
    assert outcome.reverted
    assert not lock.exists()
    assert repo.store.branches("dreamgit-revert/") == {}


def test_a_killed_revert_leaves_a_branch_the_next_write_removes(scenario: Scenario) -> None:
    """Killed before main moved: its scratch branch goes at the next write, saying so."""
    import os
    import subprocess

    from clikit import dreamgit_process

    run_id = scenario.runs[0]["run_id"]
    before = scenario.repo.tip()
    env = dict(os.environ, DREAMGIT_FAULT="revert-ref-update", DREAMGIT_REPO=str(scenario.path))
    killed = subprocess.run(
        [sys.executable, "-m", "dreamgit", "revert", run_id], env=env, capture_output=True
    )
    assert killed.returncode == -9
    left = scenario.repo.store.branches("dreamgit-revert/")
    assert list(left) == [f"dreamgit-revert/{run_id}"] and scenario.repo.tip() == before
    done = dreamgit_process(
        scenario.path, NOW_TEXT, "add", "Uses zstd for backups", "--topic", "ops"
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == (
        f"warning: removed branch dreamgit-revert/{run_id}, left by a revert of {run_id} that "
        f"was stopped before it finished; main never had its commits (run `dreamgit revert "
        f"{run_id}` again)\n"
    )
    assert scenario.repo.store.branches("dreamgit-revert/") == {}
    assert git(scenario.path, "rev-list", "--count", f"{before}..main").strip() == "1"
    assert revert_run(scenario.repo, run_id, now=at(4)).reverted
    fsck(scenario.path)
