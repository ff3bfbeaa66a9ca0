"""Health: a documented 0..1 figure in status and run records; low health re-reads sessions."""

from __future__ import annotations

from pathlib import Path

from dreamgit.api import DreamEngine
from dreamgit.store import layout
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW

NOTHING = "User: ok.\nAssistant: sure."
FACT = "User: I moved to Porto last spring and I prefer green tea over coffee."


def _repo(tmp_path: Path, config: str = "") -> tuple[MemoryRepo, DreamEngine]:
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    if config:
        text = (repo.read_text(layout.CONFIG) or "") + config
        repo.commit_main("config", lambda _t: {layout.CONFIG: text.encode()}, now=NOW)
    return repo, DreamEngine(repo, now=NOW)


def test_status_reports_health_as_the_mean_of_its_parts(tmp_path: Path) -> None:
    """Parts are 0..1; the score is their mean; duplicates lower it."""
    _, eng = _repo(tmp_path)
    eng.add_memory("Prefers green tea over coffee", topic="preferences")
    eng.add_memory("Prefers green tea over coffee!", topic="preferences")
    health = eng.status()["health"]
    assert health["parts"]["duplicates"] == 0.5
    assert health["parts"]["index"] == 1.0
    parts = health["parts"].values()
    assert health["score"] == round(sum(parts) / len(parts), 3)


def test_yield_and_recall_hit_rate_are_measured(tmp_path: Path) -> None:
    """A session that gave nothing halves the yield; a recall that found nothing halves hits."""
    _, eng = _repo(tmp_path)
    eng.log_session(FACT)
    eng.log_session(NOTHING)
    eng.dream(force=True)
    eng.recall("tea")
    eng.recall("zebra crossing")
    eng.dream(force=True)
    parts = eng.status()["health"]["parts"]
    assert parts["yield"] == 0.5
    assert parts["recall_hits"] == 0.5


def test_every_run_record_carries_health(tmp_path: Path) -> None:
    """run's record (and the stored one) has the health figure."""
    repo, eng = _repo(tmp_path)
    eng.log_session(FACT)
    record = eng.dream(force=True)
    assert set(record["health"]) == {"score", "parts"}
    stored = repo.list_dir(layout.RUNS)
    assert all('"health"' in text for text in stored.values())


def test_low_health_re_reads_a_session_that_yielded_nothing_once(tmp_path: Path) -> None:
    """Below recover_below the next dream reads an older empty session again, never twice."""
    _, eng = _repo(tmp_path, "health:\n  recover_below: 1.01\n  recover_sessions: 1\n")
    empty = eng.log_session(NOTHING)
    eng.dream(force=True)
    eng.log_session(FACT)
    second = eng.dream(force=True)
    assert second["reread"] == [empty.id]
    assert empty.id in second["sessions"]
    third = eng.dream(force=True)
    assert "reread" not in third
