"""promote: OpenClaw's weighted signals and gates as rules; --explain shows what --apply does."""

from __future__ import annotations

import json
import math
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from dreamgit.api import DreamEngine
from dreamgit.cli import cli
from dreamgit.clock import format_time
from dreamgit.errors import ConfigError, NotFoundError
from dreamgit.model import Memory
from dreamgit.store import layout
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW, git

LATER = NOW + timedelta(days=16)


def _history(tmp_path: Path, extra_config: str = "") -> tuple[MemoryRepo, Memory]:
    """A low-priority memory recalled under 3 queries on 3 days, the last 14 days before LATER."""
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    if extra_config:
        config = (repo.read_text(layout.CONFIG) or "") + extra_config
        repo.commit_main("config", lambda _t: {layout.CONFIG: config.encode()}, now=NOW)
    memory = DreamEngine(repo, now=NOW).add_memory(
        "Has two cats named Miso and Tofu", topic="pets", priority="low"
    )
    DreamEngine(repo, now=NOW).add_memory("Drives an old blue bicycle", topic="travel")
    for day, query in enumerate(("cats", "Miso", "Tofu")):
        DreamEngine(repo, now=NOW + timedelta(days=day)).recall(query, top_k=1)
    DreamEngine(repo, now=NOW + timedelta(days=2)).dream(force=True)
    return repo, memory


def _cli(repo: MemoryRepo, *args: str) -> str:
    out = CliRunner().invoke(
        cli, ["--repo", str(repo.store.workdir), "--now", format_time(LATER), *args]
    )
    assert out.exit_code == 0, out.output
    return out.output


def test_signals_follow_openclaws_formulas(tmp_path: Path) -> None:
    """Frequency ln(1+n)/ln 11, recency halves in 14 days, diversity n/5, relevance the mean."""
    repo, memory = _history(tmp_path)
    doc = json.loads(_cli(repo, "promote", "--explain", memory.id, "--json"))
    values = {s["name"]: s["value"] for s in doc["signals"]}
    weights = {s["name"]: s["weight"] for s in doc["signals"]}
    assert weights == {
        "frequency": 0.24,
        "relevance": 0.30,
        "diversity": 0.15,
        "recency": 0.15,
        "consolidation": 0.10,
        "conceptual": 0.06,
    }
    assert values["frequency"] == pytest.approx(math.log(4) / math.log(11), abs=1e-6)
    assert values["recency"] == pytest.approx(0.5, abs=1e-6)
    assert values["diversity"] == pytest.approx(3 / 5)
    span = 0.55 * math.log(3) / math.log(5) + 0.45 * 2 / 7
    assert values["consolidation"] == pytest.approx(span, abs=1e-6)
    assert 0 < values["relevance"] <= 1
    assert doc["score"] == pytest.approx(sum(s["contribution"] for s in doc["signals"]), abs=1e-5)


def test_default_gates_hold_a_memory_below_the_minimum_score(tmp_path: Path) -> None:
    """With the scheduled-sweep gates (0.8) the memory stays; the explanation says why."""
    repo, memory = _history(tmp_path)
    doc = json.loads(_cli(repo, "promote", "--explain", memory.id, "--json"))
    gates = {g["name"]: g["passed"] for g in doc["gates"]}
    assert gates == {
        "min-score": False,
        "min-recall-count": True,
        "min-unique-queries": True,
        "max-age": True,
    }
    assert doc["promote"] is False
    assert _cli(repo, "promote") == "nothing to promote\n"


def test_explain_shows_exactly_the_figures_apply_acts_on(tmp_path: Path) -> None:
    """A user's lower min-score promotes it; --apply's figures equal --explain's; one commit."""
    repo, memory = _history(tmp_path, 'promotion:\n  gates:\n    min-score: "score >= 0.6"\n')
    explained = json.loads(_cli(repo, "promote", "--explain", memory.id, "--json"))
    preview = json.loads(_cli(repo, "promote", "--json"))
    applied = json.loads(_cli(repo, "promote", "--apply", "--json"))
    assert explained["promote"] is True
    assert [p["id"] for p in preview] == [a["id"] for a in applied] == [memory.id]
    commit = applied[0].pop("commit")
    assert applied[0] == explained == preview[0]
    body = git(repo.store.workdir, "log", "-1", "--format=%s%n%b", commit)  # type: ignore[arg-type]
    assert body.startswith(f"promote: {memory.id} to normal (score {explained['score']:.3f})\n")
    assert f"Dream-Score: {explained['score']:.6f}" in body
    assert "Dream-Op: promote" in body and f"Dream-Memory: {memory.id}" in body
    promoted = repo.get_memory(memory.id, now=LATER)
    assert promoted.priority == "normal"
    assert promoted.recalls == 3  # the counters, not written into the file twice
    assert _cli(repo, "promote", "--apply") == "nothing to promote\n"


def test_limit_caps_promotions(tmp_path: Path) -> None:
    """--limit 0 promotes nothing even when a memory qualifies."""
    repo, _memory = _history(tmp_path, 'promotion:\n  gates:\n    min-score: "score >= 0.6"\n')
    assert _cli(repo, "promote", "--apply", "--limit", "0") == "nothing to promote\n"


def test_explain_text_lists_every_signal_gate_and_the_result(tmp_path: Path) -> None:
    """The text form names each signal with value x weight, each gate, and the result."""
    repo, memory = _history(tmp_path)
    text = _cli(repo, "promote", "--explain", memory.id)
    assert "  frequency      value 0.578 x weight 0.240 = 0.139\n" in text
    assert "  gate min-score            FAIL  score >= 0.8\n" in text
    assert text.endswith("result: stay\n")


def test_a_wrong_gate_expression_is_reported_with_its_key(tmp_path: Path) -> None:
    """An unknown name in a gate is a ConfigError naming promotion.gates.<name>."""
    repo, _memory = _history(tmp_path)
    config = (repo.read_text(layout.CONFIG) or "") + 'promotion:\n  gates:\n    x: "scor > 1"\n'
    repo.commit_main("config", lambda _t: {layout.CONFIG: config.encode()}, now=NOW)
    with pytest.raises(ConfigError, match=r"promotion\.gates\.x: unknown name 'scor'"):
        DreamEngine(repo, now=LATER).promote()


def test_a_short_term_memory_enters_memory_md_only_once_promoted(tmp_path: Path) -> None:
    """The index leaves a candidate out; after --apply the next dream lists it."""
    repo, memory = _history(tmp_path, 'promotion:\n  gates:\n    min-score: "score >= 0.6"\n')
    assert memory.path not in (repo.read_text(layout.INDEX) or "")
    _cli(repo, "promote", "--apply")
    DreamEngine(repo, now=LATER).dream(force=True)
    assert f"({memory.path})" in (repo.read_text(layout.INDEX) or "")


def test_index_staged_lists_candidates_too(tmp_path: Path) -> None:
    """promotion: {index_staged: true} keeps the old behaviour: every memory is listed."""
    repo, memory = _history(tmp_path, "promotion:\n  index_staged: true\n")
    assert f"({memory.path})" in (repo.read_text(layout.INDEX) or "")


def test_a_memory_forgotten_before_its_promotion_commit_is_a_clear_error(
    tmp_path: Path,
) -> None:
    """Between planning and committing, the memory went away: nothing is written."""
    from dreamgit.recall import promotion

    repo, memory = _history(tmp_path, 'promotion:\n  gates:\n    min-score: "score >= 0.6"\n')
    (planned,) = promotion.plan_promotions(repo, now=LATER)
    DreamEngine(repo, now=LATER).forget(memory.id)
    tip = repo.tip()
    with pytest.raises(NotFoundError) as err:
        promotion._promote(repo, planned, "normal", now=LATER)
    assert err.value.render() == (
        f"{memory.path} went away before it could be promoted\nhint: run promote again"
    )
    assert repo.tip() == tip
