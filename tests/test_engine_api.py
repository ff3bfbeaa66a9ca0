"""The Python API as DESIGN.md shows it: MemoryRepo.init, DreamEngine, dream()."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from dreamgit import DreamEngine, MemoryRepo
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
