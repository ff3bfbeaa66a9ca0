"""Recall tracking: prune rules on recall signals act only where recalls are recorded."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from click.testing import CliRunner

from dreamgit.api import DreamEngine
from dreamgit.cli import cli
from dreamgit.store import layout
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW, NOW_TEXT

STALE_RULE = (
    "prune:\n"
    "  - name: never-recalled\n"
    '    when: "priority == normal and age > 30d and recall.count == 0"\n'
)
LATER = NOW + timedelta(days=60)


def _repo(tmp_path: Path, config: str) -> tuple[MemoryRepo, str, str]:
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    text = (repo.read_text(layout.CONFIG) or "") + config
    repo.commit_main("config", lambda _t: {layout.CONFIG: text.encode()}, now=NOW)
    eng = DreamEngine(repo, now=NOW)
    used = eng.add_memory("Has two cats named Miso and Tofu", topic="pets").id
    unused = eng.add_memory("Drives an old blue bicycle", topic="travel").id
    return repo, used, unused


def _active(repo: MemoryRepo) -> set[str]:
    return {m.id for m in repo.memories(now=LATER)}


def test_a_recall_signal_rule_does_nothing_where_recalls_are_not_recorded(
    tmp_path: Path,
) -> None:
    """Without recorded recalls every memory looks unrecalled: the rule stays off."""
    repo, used, unused = _repo(tmp_path, STALE_RULE)
    DreamEngine(repo, now=LATER).dream(force=True)
    assert _active(repo) == {used, unused}


def test_the_rule_prunes_only_the_unrecalled_where_recalls_are_recorded(tmp_path: Path) -> None:
    """Once a recall was recorded, the memory nobody recalled goes; the recalled one stays."""
    repo, used, _unused = _repo(tmp_path, STALE_RULE)
    DreamEngine(repo, now=LATER - timedelta(days=1)).recall("cats", top_k=1)
    DreamEngine(repo, now=LATER).dream(force=True)
    assert _active(repo) == {used}


def test_the_config_can_switch_tracking_on(tmp_path: Path) -> None:
    """recall: {tracked: true} applies the rule before any recall is recorded."""
    repo, _used, _unused = _repo(tmp_path, STALE_RULE + "recall:\n  tracked: true\n")
    DreamEngine(repo, now=LATER).dream(force=True)
    assert _active(repo) == set()


def test_recalls_recorded_is_a_rule_name(tmp_path: Path) -> None:
    """A rule can say `recalls_recorded` itself; false where nothing is recorded."""
    rule = 'prune:\n  - name: tracked-only\n    when: "recalls_recorded and age > 30d"\n'
    repo, used, unused = _repo(tmp_path, rule)
    DreamEngine(repo, now=LATER).dream(force=True)
    assert _active(repo) == {used, unused}


def test_status_says_whether_recall_tracking_is_in_use(tmp_path: Path) -> None:
    """The text and JSON status report tracking and signals waiting."""
    repo, _used, _unused = _repo(tmp_path, "")
    path = str(repo.store.workdir)
    runner = CliRunner()
    out = runner.invoke(cli, ["--repo", path, "--now", NOW_TEXT, "status"]).output
    assert "recall tracking:  not in use — prune rules reading recall.* are off\n" in out
    DreamEngine(repo, now=NOW).recall("cats")
    out = runner.invoke(cli, ["--repo", path, "--now", NOW_TEXT, "status"]).output
    assert "recall tracking:  not in use" in out  # a spooled signal is not yet recorded
    DreamEngine(repo, now=NOW).dream()
    out = runner.invoke(cli, ["--repo", path, "--now", NOW_TEXT, "status"]).output
    assert (
        "recall tracking:  in use — 1 memories recalled, 0 signal(s) waiting for a dream\n" in out
    )
