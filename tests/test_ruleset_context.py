"""`explain`: every rule applied to one memory, with the values it read and the verdict."""

from __future__ import annotations

from datetime import timedelta

from dreamgit.ruleset import load_bundled, load_ruleset
from dreamgit.ruleset.explain import explain
from test_ruleset import NOW, memory


def test_explain_covers_protection_every_rule_and_the_rank() -> None:
    """One entry for protection, each gather/consolidate/prune rule, and the rank score."""
    rs = load_bundled("default")
    items = explain(rs, memory(priority="low", age=timedelta(days=8)), NOW)
    assert [(i.section, i.rule) for i in items] == [
        ("protected", "protected"),
        *[("gather", r.name) for r in rs.gather],
        *[("consolidate", r.name) for r in rs.consolidate],
        *[("prune", r.name) for r in rs.prune],
        ("rank", "rank"),
    ]
    expire_low = next(i for i in items if i.rule == "expire-low")
    assert expire_low.result is True
    assert expire_low.expression == "priority == low and age > 7d and recalls == 0"
    assert {k: str(v) for k, v in expire_low.values.items()} == {
        "priority": "low",
        "age": "8 days, 0:00:00",
        "recalls": "0",
    }
    assert isinstance(items[-1].result, float)


def test_pair_rules_need_another_memory() -> None:
    """Without others a consolidate rule says so; with others it names the first match."""
    rs = load_bundled("default")
    alone = explain(rs, memory("m-1"), NOW)
    merge = next(i for i in alone if i.rule == "merge-near-duplicates")
    assert (merge.result, merge.note) == (None, "compares two memories; none to pair with")
    twin = memory("m-2")
    other = memory("m-3", text="Something else entirely")
    paired = explain(rs, memory("m-1"), NOW, others=[memory("m-1"), other, twin])
    merge = next(i for i in paired if i.rule == "merge-near-duplicates")
    assert (merge.result, merge.note) == (True, "matches b = m-2")
    assert merge.values["a.topic"] == merge.values["b.topic"] == "preferences"
    supersede = next(i for i in paired if i.rule == "supersede-same-key")
    assert (supersede.result, supersede.note) == (False, "no match among 2 other memories")


def test_protected_memories_are_marked_where_a_prune_rule_holds() -> None:
    """A core memory matching a prune rule is explained as protected, never pruned."""
    rs = load_ruleset('prune:\n  - name: everything\n    when: "true"\n')
    items = explain(rs, memory(priority="core"), NOW)
    assert items[0].result is True
    everything = next(i for i in items if i.rule == "everything")
    assert (everything.result, everything.note) == (True, "protected: never pruned")


def test_a_rule_failing_at_run_time_is_explained_not_raised() -> None:
    """A run-time error in one rule shows as a note; explain still returns every rule."""
    rs = load_ruleset('prune:\n  - name: risky\n    when: "log(recalls) > 1"\n')
    risky = next(i for i in explain(rs, memory(recalls=0), NOW) if i.rule == "risky")
    assert risky.result is None
    assert risky.note == "error: log() failed: log of 0 (it needs a number above 0)"
