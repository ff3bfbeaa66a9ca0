"""The Python API as DESIGN.md shows it: MemoryRepo.init, DreamEngine, dream()."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from dreamgit import DreamEngine, DreamResult, MemoryRepo, UserError
from dreamgit.llm.scripted import ScriptedAdapter

NOW = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)


def test_engine_logs_a_switch_and_dreams_it_into_a_memory(tmp_path: Path) -> None:
    """log_session then dream(force=True) gives the run record and the new memory."""
    repo = MemoryRepo.init(tmp_path / "agent-memory", now=NOW)
    engine = DreamEngine(repo, now=NOW)
    engine.add_memory("Uses Flask for web services.", topic="tools")
    engine.log_session("User: I switched from Flask to FastAPI for web services.")
    result = engine.dream(force=True)
    assert result["merged"] is True
    assert (result["memories_before"], result["memories_after"]) == (1, 1)
    assert [m.text for m in engine.memories()] == [
        "The user uses FastAPI for web services (switched from Flask)."
    ]
    assert engine.review(force=True)["ops"] == []


def test_engine_with_an_llm_adapter_asks_it_during_the_dream(tmp_path: Path) -> None:
    """DreamEngine(repo, llm=adapter) sends each new session to the model."""
    repo = MemoryRepo.init(tmp_path / "agent-memory", now=NOW)
    model = ScriptedAdapter({})
    engine = DreamEngine(repo, now=NOW, llm=model)
    engine.log_session("User: I prefer green tea in the morning.")
    result = engine.dream(force=True)
    assert result["llm"]["requests"] == 1
    assert len(model.requests) == 1
    assert "green tea" in model.requests[0].messages[-1].content


def _readme_python() -> str:
    """The README's "From Python" snippet, as written."""
    text = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    start = text.index("From Python:")
    block = text[text.index("```python\n", start) + len("```python\n") :]
    return block[: block.index("```")]


def test_readme_python_snippet_runs_twice_in_the_same_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README snippet opens the repository it made the first time instead of failing."""
    monkeypatch.chdir(tmp_path)
    code = _readme_python()
    for _ in range(2):
        scope: dict[str, object] = {}
        exec(compile(code, "README.md", "exec"), scope)
    runs = DreamEngine(tmp_path / "agent-memory").status()["runs"]
    assert runs == 2


def test_open_or_init_creates_then_opens_without_a_second_init_commit(tmp_path: Path) -> None:
    """MemoryRepo.open_or_init makes a repository once; later calls open it as it is."""
    first = MemoryRepo.open_or_init(tmp_path / "m", now=NOW)
    tip = first.tip()
    second = MemoryRepo.open_or_init(tmp_path / "m", now=NOW)
    assert second.tip() == tip
    with pytest.raises(UserError, match="already a dreamgit memory repository"):
        MemoryRepo.init(tmp_path / "m", now=NOW)


def test_engine_accepts_a_path_and_a_positional_topic(tmp_path: Path) -> None:
    """DreamEngine("./path") opens the repository; add_memory(text, topic) works."""
    MemoryRepo.init(tmp_path / "m", now=NOW)
    engine = DreamEngine(str(tmp_path / "m"), now=NOW)
    memory = engine.add_memory("Prefers tea over coffee.", "preferences")
    assert memory.topic == "preferences"
    assert [m.id for m in DreamEngine(tmp_path / "m", now=NOW).memories()] == [memory.id]


def test_engine_on_a_folder_that_is_no_memory_repository_says_so(tmp_path: Path) -> None:
    """A path that is not a memory repository is a UserError, exported from dreamgit."""
    (tmp_path / "plain").mkdir()
    with pytest.raises(UserError, match=r"not a git repository|not a dreamgit"):
        DreamEngine(tmp_path / "plain")


def test_skipped_dream_says_so_and_why_as_attributes(tmp_path: Path) -> None:
    """A gated dream returns a result whose .skipped and .reason a caller can test."""
    engine = DreamEngine(MemoryRepo.init(tmp_path / "m", now=NOW), now=NOW)
    engine.log_session("User: I prefer green tea.")
    result = engine.dream()
    assert isinstance(result, DreamResult)
    assert result.skipped is True
    assert result.reason.startswith("gate not met (new_sessions >= 3")
    assert "1 new session(s)," in result.reason
    assert (result.run_id, result.changed, result.merged) == (None, False, False)
    forced = engine.dream(force=True)
    assert not forced.skipped and forced.changed and forced.merged
    assert forced.run_id == forced["run_id"]


def test_engine_restores_a_chosen_version_of_a_reused_id(tmp_path: Path) -> None:
    """DreamEngine.restore(id, version=1) brings back the first of two removed versions."""
    MemoryRepo.init(tmp_path / "m", now=NOW)
    engine = DreamEngine(tmp_path / "m", now=NOW)
    first = engine.add_memory("Allergic to penicillin", "health", priority="high")
    engine.forget(first.id)
    engine.add_memory("Allergic to penicillin", "health")
    engine.forget(first.id)
    assert engine.restore(first.id, version=1).priority == "high"
