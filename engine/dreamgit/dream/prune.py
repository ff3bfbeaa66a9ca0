"""Prune: the lifecycle rules, then the per-topic and total budgets.

A memory leaves the active set when a prune rule holds for it (ephemeral after
a day, low after a week without recall, …). If a topic or the whole store is
still over its budget, the lowest-ranked memories (by the rule set's ``rank``)
go first. Protected topics and protected priorities (``core``) are never
pruned. Pruned memories stay in history: ``dreamgit restore ID``. A memory a rule
retires that no rule would retire from a note (a plan whose day is over) is rewritten
as the note of the day it was said instead (``session_notes.of_its_day``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from functools import partial

from dreamgit.dream import session_notes
from dreamgit.dream.envs import first_holding, first_holding_each
from dreamgit.dream.limits import Budget
from dreamgit.dream.ordering import RankKey, last_ranked, rank_key
from dreamgit.dream.workset import Operation, WorkingSet, snap
from dreamgit.model import Memory
from dreamgit.ruleset import Rule, RuleSet
from dreamgit.ruleset.context import reads_recall_signals

__all__ = ["plan_prune"]


def _prune_each(
    ws: WorkingSet, memories: list[Memory], rule: str, why: str, budget: Budget
) -> list[Operation]:
    """:func:`_prune` of each of ``memories`` in turn; once the limits refuse one, they
    refuse the rest for the same reason (a prune adds no characters and retires nothing on
    a model's word), which are deferred at once."""
    ops: list[Operation] = []
    for k, memory in enumerate(memories):
        refused = budget.refusal("prune")
        if refused is not None:
            budget.defer_counted("prune", rule, [m.id for m in memories[k:]], refused)
            break
        op = _admitted_prune(ws, memory, rule, why, budget)
        if op is not None:
            ops.append(op)
    return ops


def _prune(ws: WorkingSet, memory: Memory, rule: str, why: str, budget: Budget) -> Operation | None:
    # a store far over its budgets defers most of its prunes: said without building them
    refused = budget.refusal("prune")
    if refused is not None:
        budget.defer_counted("prune", rule, [memory.id], refused)
        return None
    return _admitted_prune(ws, memory, rule, why, budget)


def _admitted_prune(
    ws: WorkingSet, memory: Memory, rule: str, why: str, budget: Budget
) -> Operation | None:
    """The prune of ``memory`` once the limits have not refused prunes: built, then
    admitted by ``budget`` (None when it is not)."""
    op = Operation(
        op="prune",
        phase="prune",
        rule=rule,
        memories=[memory.id],
        summary=f"prune: {memory.id} {memory.topic}/{memory.slug}",
        changes={},
        before=[snap(memory)],
        detail=f"{why}. It stays in history: dreamgit restore {memory.id}",
    )
    if not budget.admit(op):
        return None
    op.changes = ws.file_for_removal(memory)
    return op


def _prune_statements(
    ws: WorkingSet, note: Memory, held: dict[int, Rule], now: datetime, budget: Budget
) -> Operation | None:
    """The session note ``note`` rewritten without the statements a prune rule holds for
    ("went rowing on 2 March; is planning a trip on 9 March": the plan goes once its day
    is over); the note as it was stays in history."""
    rest = session_notes.without(note, set(held))
    if rest is None:
        return None
    summary = f"replace: {note.id} without {len(held)} statement(s) a prune rule retires"
    why = "; ".join(sorted({f"Rule {r.name}: {r.when.text}" for r in held.values()}))
    rule = sorted({rule.name for rule in held.values()})[0]
    return _rewrite(ws, note, rest, now, budget, rule, summary, f"{why}. The note as it was")


def _rewrite(
    ws: WorkingSet,
    memory: Memory,
    rewritten: Memory,
    now: datetime,
    budget: Budget,
    rule: str,
    summary: str,
    was: str,
) -> Operation | None:
    """``memory`` replaced by ``rewritten`` as a prune rule asks; ``was`` says what stays in
    history."""
    revised = replace(rewritten, updated=max(memory.updated, now))
    op = Operation(
        op="replace",
        phase="prune",
        rule=rule,
        memories=[memory.id],
        summary=summary,
        changes={},
        before=[snap(memory)],
        after=[snap(revised)],
        detail=f"{was} stays in history.",
    )
    if not budget.admit(op):
        return None
    op.changes = ws.file_for_update(memory, revised)
    return op


def plan_prune(
    ws: WorkingSet,
    ruleset: RuleSet,
    *,
    now: datetime,
    budget: Budget,
    recalls_recorded: bool = False,
) -> list[Operation]:
    """Plan lifecycle pruning, then budget eviction.

    A rule that reads recall signals (``recall.*``) takes effect only where recalls
    are recorded (``recalls_recorded``): elsewhere every memory would look unrecalled.
    """
    ops: list[Operation] = []
    rules = [r for r in ruleset.prune if recalls_recorded or not reads_recall_signals(r)]
    tracked = recalls_recorded

    whens = [rule.when for rule in rules]

    def first_rule(memory: Memory) -> Rule | None:
        found = first_holding(whens, memory, now, recalls_recorded=tracked)
        return None if found is None else rules[found]

    # only the memories some rule may retire are put in order (oldest first), not all
    for memory in sorted(
        _may_go(ws, ruleset, rules, now, tracked), key=lambda m: (m.created, m.id)
    ):
        if session_notes.is_note(memory):
            statements, _parts = session_notes.as_statements([memory])
            # each statement is read with its note's fields ('session-note' in tags included)
            statements = [replace(s, tags=memory.tags) for s in statements]
        else:
            statements = [memory]  # what as_statements gives a memory that is not a note
        held = {k: rule for k, s in enumerate(statements) if (rule := first_rule(s)) is not None}
        if not held:
            continue
        if len(held) < len(statements):  # a note: only the statements a rule holds for go
            op = _prune_statements(ws, memory, held, now, budget)
        else:
            rule = held[0] if len(held) == 1 else first_rule(memory) or held[0]
            why = f"Rule {rule.name}: {rule.when.text}"
            dated = session_notes.of_its_day(memory)
            if dated is not None and first_rule(dated) is None:  # a plan whose day is over
                summary = f"replace: {memory.id} by the note of its day (a prune rule retires it)"
                op = _rewrite(ws, memory, dated, now, budget, rule.name, summary, f"{why}. It")
            else:
                op = _prune(ws, memory, rule.name, why, budget)
        if op is not None:
            ops.append(op)
    key = rank_key(ruleset, now)
    per_topic = ruleset.budgets.max_per_topic
    topics: dict[str, list[Memory]] = {}
    for memory in ws.active.values():
        topics.setdefault(memory.topic, []).append(memory)
    for topic in sorted(topics):
        excess = len(topics[topic]) - per_topic
        if excess <= 0:  # within its budget: nothing to rank
            continue
        why = f"Topic {topic} holds more than {per_topic} memories"
        lowest = partial(_lowest, excess=excess)
        ops += _evict(ws, topics[topic], lowest, "budget-per-topic", why, ruleset, key, budget)
    excess = len(ws.active) - ruleset.budgets.max_memories
    if excess > 0:
        why = f"More than {ruleset.budgets.max_memories} memories in all"
        everyone = list(ws.active.values())
        lowest = partial(_lowest, excess=excess)
        ops += _evict(ws, everyone, lowest, "budget-total", why, ruleset, key, budget)
    ops += _prune_to_file_budgets(ws, ruleset, key, budget)
    return ops


def _may_go(
    ws: WorkingSet, ruleset: RuleSet, rules: list[Rule], now: datetime, tracked: bool
) -> list[Memory]:
    """The unprotected active memories that are session notes or that one of ``rules``
    retires, in their order (their values vetting kept, found in one walk)."""
    unprotected = [m for m in ws.active.values() if not ruleset.is_protected(m)]
    notes = [session_notes.is_note(m) for m in unprotected]
    plain = [memory for memory, note in zip(unprotected, notes, strict=True) if not note]
    whens = [rule.when for rule in rules]
    holding = iter(first_holding_each(whens, plain, now, recalls_recorded=tracked))
    return [
        memory
        for memory, note in zip(unprotected, notes, strict=True)
        if note or next(holding) is not None
    ]


def _lowest(evictable: list[Memory], *, excess: int) -> list[Memory]:
    """The last ``excess`` of the ranked ``evictable`` memories (``excess`` > 0), all of
    them when protected memories alone fill the budget. The topic's cut was
    ``evictable[len(evictable) - excess:]``: a negative start wrapped around, so a topic
    holding more protected memories than its budget pruned fewer unprotected ones the
    further over it was (two protected, four not, a budget of one: one pruned)."""
    return evictable[-excess:]


def _evict(
    ws: WorkingSet,
    memories: list[Memory],
    lowest: Callable[[list[Memory]], list[Memory]],
    rule: str,
    why: str,
    ruleset: RuleSet,
    key: RankKey,
    budget: Budget,
) -> list[Operation]:
    """The lowest-ranked unprotected ``memories`` pruned, the lowest first
    (:func:`_prune_each`); ``lowest`` cuts them from the list in rank order. When the
    limits refuse prunes already and no more deferred prunes of ``rule`` would be named
    (``Budget.defer_counted`` names the first few), they are counted without ranking
    them (the cut's length does not depend on the order): a store far over its budgets
    sorted all its memories for a count (0.2 s at 100,000)."""
    evictable = [m for m in memories if not ruleset.is_protected(m)]
    refused = budget.refusal("prune")
    if refused is not None:
        _defer_lowest(evictable, lowest, rule, key, budget, refused)
        return []
    ranked = lowest(sorted(evictable, key=key))
    return _prune_each(ws, ranked[::-1], rule, why, budget)


def _defer_lowest(
    evictable: list[Memory],
    lowest: Callable[[list[Memory]], list[Memory]],
    rule: str,
    key: RankKey,
    budget: Budget,
    refused: str,
) -> None:
    """The cut of ``evictable`` deferred, when the limits refuse prunes already: what
    :func:`_prune_each` defers of the ranked cut, the lowest first, without ranking it.
    ``Budget.defer_counted`` names the first few (``ordering.last_ranked``: the head of
    the cut in a full ranking's order) and counts the rest (the cut's length does not
    depend on the order): the total budget sorted 100,000 memories to name 20."""
    cut = len(lowest(evictable))
    named = last_ranked(evictable, min(budget.named_left("prune", rule, refused), cut), key)
    budget.defer_counted("prune", rule, [m.id for m in named], refused)
    budget.count_deferred("prune", rule, cut - len(named), refused)


def _prune_to_file_budgets(
    ws: WorkingSet, ruleset: RuleSet, key: RankKey, budget: Budget
) -> list[Operation]:
    """Files the agent caps by characters (Hermes): lowest-ranked entries go until each fits."""
    ops: list[Operation] = []
    for path, _used, limit in ws.over_budget():
        evictable = sorted(
            (m for m in ws.active.values() if m.path == path and not ruleset.is_protected(m)),
            key=key,
        )
        for memory in reversed(evictable):
            if not any(p == path for p, _, _ in ws.over_budget()):
                break
            op = _prune(
                ws,
                memory,
                "budget-file-chars",
                f"{path} holds more than {limit} characters",
                budget,
            )
            if op is None:
                break
            ops.append(op)
    return ops
