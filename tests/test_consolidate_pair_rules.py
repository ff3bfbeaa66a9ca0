"""Consolidate's pair rules: each memory's names computed only as a rule reads them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from dreamgit.dream.consolidate.phase import _first_rule
from dreamgit.dream.envs import forget_envs
from dreamgit.model import Memory
from dreamgit.records import Decision
from dreamgit.ruleset import load_ruleset
from dreamgit.store.config import DEFAULT_CONFIG

NOW = datetime(2026, 5, 6, 7, 0, tzinfo=UTC)
TEXT = "The harbour festival closes on 31 December 9999."


def _memory(ident: str, hours: int) -> Memory:
    when = NOW - timedelta(hours=hours)
    return Memory(id=ident, topic="plans", slug=ident, text=TEXT, created=when, updated=when)


def test_a_pair_rule_reads_only_the_names_it_names() -> None:
    """Two copies of a plan whose day no calendar holds (reading its day fails) still
    merge by the merge rule, which reads their topics and texts, never their days."""
    ruleset = load_ruleset(DEFAULT_CONFIG)
    decisions: list[Decision] = []
    a, b = _memory("m-pair0001", 2), _memory("m-pair0002", 1)
    rule = _first_rule(ruleset.consolidate, "merge", a, b, NOW, decisions)
    assert rule is not None and rule.action == "merge"
    assert "a.topic == b.topic" in rule.when.text
    assert decisions == []
    forget_envs()
