"""Vetting evaluates every memory rule of a memory in one call (``dsl.evaluate_each``):
the values it keeps and the memories it reports are those of each rule evaluated alone."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamgit.dream import vet
from dreamgit.dream.envs import evaluate_once, forget_envs, rule_table
from dreamgit.dream.vet import vet_memories
from dreamgit.dsl import Expression, compile_expression
from dreamgit.model import Memory
from dreamgit.ruleset import RuleSet, load_bundled, load_ruleset
from dreamgit.ruleset.context import MEMORY_SCHEMA, memory_env

NOW = datetime(2026, 5, 6, 7, 0, tzinfo=UTC)

#: A user's own rules reading the fields the bundled ones do not (and one failing for
#: some memories: a division by the recalls).
USER_RULES = """\
extends: default
prune:
  - name: long-and-described
    when: "chars > 40 and description != '' and not superseded"
  - name: old-truth
    when: "valid_from > 30d and len(sources) == 0 and type == 'user'"
    score: "days(valid_from) / recalls"
rank: "rank(priority) + confidence - hours(idle) / 1000 + len(supersedes)"
"""

TEXTS = [
    "Prefers short answers.",
    "The review is on 2 May 2026 at 3pm.",
    "The demo is on 9 May 2026 at 10:30, a deadline for the board.",
    "Stand-up every Monday at 9am.",
    "Met Dana on 15 January 2026.",
    "The launch is on 31 December 9999 at 3pm.",
    "Uses a Kinesis keyboard and writes a long description of its layout here.",
]

MEMORIES = st.builds(
    lambda k, text, days, priority, recalls, confidence, tags, description, sources: Memory(
        id=f"m-{k:08x}",
        topic="prefs",
        slug=f"m{k}",
        text=text,
        created=NOW - timedelta(days=days),
        updated=NOW - timedelta(days=days / 2),
        priority=priority,
        recalls=recalls,
        confidence=confidence,
        tags=tags,
        description=description,
        sources=sources,
    ),
    st.integers(0, 1 << 30),
    st.sampled_from(TEXTS),
    st.sampled_from([-1.0, 0.0, 0.5, 1.5, 6.0, 8.0, 45.0, 400.0]),
    st.sampled_from(["ephemeral", "low", "normal", "high", "core"]),
    st.integers(0, 3),
    st.sampled_from([0.0, 0.4, 1.0]),
    st.lists(st.sampled_from(["lesson", "lasting-truth", "session-note", "x"]), max_size=2).map(
        tuple
    ),
    st.sampled_from(["", "a layout"]),
    st.sampled_from([(), ("s-20260501-aaaaaa",)]),
)


def _rule_sets() -> list[RuleSet]:
    user = load_ruleset(USER_RULES, filename="config.yaml", files=None)
    return [load_bundled("default"), load_bundled("conservative"), user]


RULE_SETS = _rule_sets()
INDEX_CHECK = compile_expression("priority <= low or 'lesson' in tags", MEMORY_SCHEMA)


def _expressions(ruleset: RuleSet) -> list[Expression]:
    found = [ruleset.rank]
    for rule in ruleset.prune:
        found += [rule.when] if rule.score is None else [rule.when, rule.score]
    return [*found, INDEX_CHECK]


def _vetted(
    memories: list[Memory], ruleset: RuleSet, *, at_once: bool
) -> tuple[list[str], list[str], list[list[Any]]]:
    """What vetting keeps and reports; ``at_once=False``: another phase placed an
    expression in the table first, so each rule is evaluated alone."""
    forget_envs()
    if not at_once:
        rule_table(NOW).place(compile_expression("chars > 1", MEMORY_SCHEMA))
    saved = vet._AT_ONCE_FROM
    vet._AT_ONCE_FROM = 0  # joined for any number of memories (the test's few)
    try:
        good, broken = vet_memories(memories, ruleset, NOW, also=[INDEX_CHECK])
    finally:
        vet._AT_ONCE_FROM = saved
    kept = [[evaluate_once(e, m, NOW) for e in _expressions(ruleset)] for m in good]
    forget_envs()
    return [m.id for m in good], [b.message for b in broken], kept


def _same(left: list[list[Any]], right: list[list[Any]]) -> bool:
    return len(left) == len(right) and all(
        len(a) == len(b)
        and all(
            type(x) is type(y)
            and (x == y or (isinstance(x, float) and math.isnan(x) == math.isnan(y)))
            for x, y in zip(a, b, strict=True)
        )
        for a, b in zip(left, right, strict=True)
    )


@given(st.lists(MEMORIES, min_size=1, max_size=8, unique_by=lambda m: m.id), st.integers(0, 2))
def test_vetting_at_once_keeps_and_reports_what_each_rule_alone_gives(
    memories: list[Memory], which: int
) -> None:
    """The bundled rule sets and a user's rules reading other fields, over generated
    memories: the same memories kept, the same reports, and each kept value the one the
    rule gives on the memory's whole environment."""
    ruleset = RULE_SETS[which]
    at_once = _vetted(memories, ruleset, at_once=True)
    alone = _vetted(memories, ruleset, at_once=False)
    assert at_once[:2] == alone[:2]
    assert _same(at_once[2], alone[2])
    good = {m.id: m for m in memories}
    expected = [
        [e.evaluate(memory_env(good[i], NOW)) for e in _expressions(ruleset)] for i in at_once[0]
    ]
    assert _same(at_once[2], expected)


def test_a_small_store_is_vetted_one_rule_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Below ``_AT_ONCE_FROM`` memories no joined function is built (its compiling would
    cost a small store's command more than it saves), and the same values are kept."""
    memories = [
        Memory(
            id=f"m-small{k:03d}", topic="t", slug=f"s{k}", text=f"Note {k} on 2 May 2026.",
            created=NOW - timedelta(days=k), updated=NOW - timedelta(days=k),
        )
        for k in range(3)
    ]  # fmt: skip
    joined = _vetted(memories, RULE_SETS[0], at_once=True)

    def refuse(_expressions: object) -> None:
        raise AssertionError("built for a small store")

    monkeypatch.setattr(vet, "evaluate_each", refuse)
    forget_envs()
    good, broken = vet_memories(memories, RULE_SETS[0], NOW, also=[INDEX_CHECK])
    kept = [[evaluate_once(e, m, NOW) for e in _expressions(RULE_SETS[0])] for m in good]
    forget_envs()
    assert ([m.id for m in good], [b.message for b in broken]) == tuple(joined[:2])
    assert _same(kept, joined[2])
