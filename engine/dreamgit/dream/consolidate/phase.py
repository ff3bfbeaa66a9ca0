"""Consolidate: newer facts supersede older ones, near-duplicates merge into one.

Supersession comes first: a newer memory with the same ``key`` (a pair rule
with ``action: supersede`` decides), an explicit change statement gathered
this run ("switched from Flask to FastAPI"), or a newer value of the same
subject and relation (``update.py``: "is on Python 3.12" after "... 3.11",
"moved to 22 January" after "is on 15 January"; time order decides). Then
near-duplicates, found by the duplicate finder (and notes that only add a
qualifier to another: ``find_contained_pairs``) without comparing all pairs,
merge when a pair rule with ``action: merge`` holds; the finder's guards
already refused opposite polarity and different numbers, dates, names and keys.
Protected and core memories are never removed or rewritten; what was skipped
for that is listed as a decision.

A session note (``session_notes.py``) is read statement by statement: a newer value retires
the statement, and the note is rewritten without it (op ``replace``); notes never merge
with each other but absorb a memory that repeats one of their statements, and a note
that states a newer value supersedes like any memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from operator import attrgetter

from dreamgit.dream import session_notes
from dreamgit.dream.consolidate.contained_pairs import contained_pairs
from dreamgit.dream.consolidate.finder_views import FinderViews
from dreamgit.dream.consolidate.judged_pairs import duplicate_pairs
from dreamgit.dream.consolidate.merge_text import merge_ids, merge_memories
from dreamgit.dream.consolidate.retire import NoteStatements, protected_skip, supersede
from dreamgit.dream.consolidate.supersede import find_change_supersessions
from dreamgit.dream.consolidate.update import find_updates
from dreamgit.dream.envs import memory_env_once
from dreamgit.dream.limits import Budget
from dreamgit.dream.vet import evaluation_error
from dreamgit.dream.workset import Operation, WorkingSet, snap
from dreamgit.dsl import ExpressionError
from dreamgit.extract.candidate import Candidate
from dreamgit.extract.duplicates import DupItem, find_duplicate_pairs, group_duplicates
from dreamgit.extract.guards import subsumes
from dreamgit.model import Memory
from dreamgit.records import Decision
from dreamgit.ruleset import Rule, RuleSet

__all__ = ["ConsolidateResult", "plan_consolidate"]


def _first_rule(
    rules: Sequence[Rule],
    action: str,
    a: Memory,
    b: Memory,
    now: datetime,
    decisions: list[Decision],
) -> Rule | None:
    """The first ``action`` rule that holds for the pair; a rule failing on it is a decision."""
    # each memory's names computed as a rule reads them, once per dream (a pair rule reads
    # a few: building every name of both, dates out of the text included, cost more)
    env = {"a": memory_env_once(a, now), "b": memory_env_once(b, now)}
    for rule in rules:
        if rule.action != action:
            continue
        try:
            holds = rule.when.evaluate(env)
        except ExpressionError as exc:
            problem = evaluation_error(
                a.path, f"{a.id} and {b.id}", rule.name, rule.location, exc.reason
            )
            decisions.append(
                {
                    "phase": "consolidate",
                    "memories": [a.id, b.id],
                    "accepted": False,
                    "reason": problem.message,
                }
            )
            return None
        if holds:
            return rule
    return None


def plan_consolidate(
    ws: WorkingSet,
    ruleset: RuleSet,
    *,
    now: datetime,
    budget: Budget,
    threshold: float,
    fresh: Sequence[tuple[Memory, Candidate]] = (),
) -> ConsolidateResult:
    """Plan supersessions, then merges."""
    result = ConsolidateResult()
    ops, decisions = result.ops, result.decisions
    _supersede_by_key(ws, ruleset, now, budget, ops, decisions)
    result.unsettled = _supersede_by_change(ws, ruleset, now, budget, fresh, ops, decisions)
    _supersede_by_value(ws, ruleset, now, budget, ops, decisions)
    _merge_duplicates(ws, ruleset, now, budget, threshold, ops, decisions)
    _absorb_into_notes(ws, ruleset, now, budget, threshold, ops, decisions)
    return result


@dataclass
class ConsolidateResult:
    """Operations, decisions, and sessions whose change statements must wait for a later run."""

    ops: list[Operation] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    unsettled: set[str] = field(default_factory=set)


def _supersede_by_key(
    ws: WorkingSet,
    ruleset: RuleSet,
    now: datetime,
    budget: Budget,
    ops: list[Operation],
    decisions: list[Decision],
) -> None:
    by_key: dict[str, list[Memory]] = {}
    for memory in ws.active.values():
        if memory.key:
            by_key.setdefault(memory.key, []).append(memory)
    for key in sorted(by_key):
        group = sorted(by_key[key], key=lambda m: (m.created, m.id))
        newest = group[-1]
        for old in group[:-1]:
            if old.id not in ws.active or newest.id not in ws.active:
                continue
            rule = _first_rule(ruleset.consolidate, "supersede", old, newest, now, decisions)
            if rule is None or protected_skip(ruleset, old, "supersession", decisions):
                continue
            if ruleset.is_protected(newest):
                continue
            supersede(
                ws,
                old,
                ws.active[newest.id],
                rule=rule.name,
                reason=f"Same key {key}; the newer memory wins",
                budget=budget,
                ops=ops,
            )


def _supersede_by_change(
    ws: WorkingSet,
    ruleset: RuleSet,
    now: datetime,
    budget: Budget,
    fresh: Sequence[tuple[Memory, Candidate]],
    ops: list[Operation],
    decisions: list[Decision],
) -> set[str]:
    """Explicit change statements gathered this run retire the memories they contradict.

    Returns the sessions whose supersessions the limits deferred: they stay
    pending, so the next run offers the same change again.
    """
    live = [(m, c) for m, c in fresh if m.id in ws.active]
    unsettled: set[str] = set()
    if not any(c.change for _, c in live):
        return unsettled
    new_ids = {m.id for m, _ in live}
    older = (m for m in ws.active.values() if m.id not in new_ids)
    existing, parts = session_notes.as_statements(_dated(m, now) for m in older)
    plan = find_change_supersessions([c for _, c in live], existing, protected=ruleset.is_protected)
    retired = NoteStatements(parts)
    for item in plan.supersessions:
        if item.kind != "change" or not isinstance(item.new, int):
            continue  # same-key supersession is the pair rules' job
        old_id = item.old_id if item.old_id is not None else live[item.old_index or 0][0].id
        new = ws.active.get(live[item.new][0].id)
        reason = f"Change statement: {item.reason}"
        if new is None or retired.take(old_id, new.id, reason):
            continue
        old = ws.active.get(old_id)
        if old is None or old.id == new.id:
            continue
        done = supersede(
            ws, old, new, rule="supersede-by-change", reason=reason, budget=budget, ops=ops
        )
        if not done:
            unsettled.add(live[item.new][1].session_id)
    deferred = retired.apply(ws, ruleset, "supersede-by-change", now, budget, ops, decisions)
    unsettled.update(c.session_id for m, c in live if m.id in deferred)
    for skipped in plan.skipped:
        decisions.append(
            {
                "phase": "consolidate",
                "memories": [i for i in (skipped.supersession.old_id,) if i is not None],
                "accepted": False,
                "reason": f"supersession skipped: {skipped.why}",
            }
        )
    return unsettled


def _supersede_by_value(
    ws: WorkingSet,
    ruleset: RuleSet,
    now: datetime,
    budget: Budget,
    ops: list[Operation],
    decisions: list[Decision],
) -> None:
    """A newer value of one subject and relation retires the older memory (``update.py``)."""
    statements, parts = session_notes.as_statements(ws.active.values())
    retired = NoteStatements(parts)
    for update in find_updates([_dated(m, now) for m in statements]):
        old = ws.active.get(session_notes.memory_of(update.old, parts))
        new = ws.active.get(session_notes.memory_of(update.new, parts))
        if old is None or new is None or old.id == new.id or ruleset.is_protected(new):
            continue
        if old.key and new.key and old.key != new.key:
            continue  # two slots the user named apart
        reason = (
            f"Newer value of the same subject and relation ({update.reason}); "
            f"decided by time order: {new.id} is newer than {old.id}"
        )
        if retired.take(update.old, new.id, reason):
            continue
        if protected_skip(ruleset, old, "supersession", decisions):
            continue
        named = update.named if update.new == new.id else ""  # a whole memory, not a note's
        supersede(
            ws,
            old,
            new,
            rule="supersede-newer-value",
            reason=reason,
            budget=budget,
            ops=ops,
            text=named,
        )
    retired.apply(ws, ruleset, "supersede-newer-value", now, budget, ops, decisions)


#: When an adopted entry whose files give no time was written, for time order: before
#: anything dreamgit gathered or was told (the folder held it when it was adopted).
_UNKNOWN_TIME = datetime(1970, 1, 1, tzinfo=UTC)


def _dated(memory: Memory, now: datetime) -> Memory:
    """``memory`` as time order sees it: an entry of an adopted folder (Hermes, Claude Code
    files without dreamgit's front matter) is read with ``now`` as its time, which would
    make it newer than every session; it counts as older than all of them."""
    unknown = memory.created >= now and not memory.sources
    return replace(memory, created=_UNKNOWN_TIME) if unknown else memory


#: Merge passes per run: a later pass joins what an earlier merge brought together
#: (A~B merged first, then C that matched B), so the store settles in one run.
MERGE_PASSES = 3

#: Oldest first, then by id: the merge passes' order (read in C, not by a lambda).
_TIME_ORDER = attrgetter("created", "id")
_ID = attrgetter("id")


def _merge_duplicates(
    ws: WorkingSet,
    ruleset: RuleSet,
    now: datetime,
    budget: Budget,
    threshold: float,
    ops: list[Operation],
    decisions: list[Decision],
) -> None:
    survivors: set[str] | None = None  # None: the first pass looks at every group
    skipped: list[Decision] = []
    views = FinderViews(threshold)  # each memory's item and signature, once per run
    for _ in range(MERGE_PASSES):
        ordered = sorted(
            (m for m in ws.active.values() if not session_notes.is_note(m)), key=_TIME_ORDER
        )
        items, signs = views.of(ordered)
        merged_now: set[str] = set()
        pairs = duplicate_pairs(ordered, items, threshold, signs)
        known = {(a, b) for a, b, _s in pairs}
        contained = [p for p in contained_pairs(items, signs) if (p[0], p[1]) not in known]
        restated = {frozenset(p[:2]) for p in contained}
        if contained:  # the finder's pairs come in the items' order: so must the rest
            position = dict(zip(map(_ID, items), range(len(items)), strict=True))
            pairs += contained
            pairs.sort(key=lambda p: (position[p[0]], position[p[1]]))
        for group_ids in group_duplicates(items, pairs):
            if survivors is not None and not survivors.intersection(group_ids):
                continue
            survivor = _merge_group(ws, ruleset, group_ids, now, budget, ops, skipped, restated)
            if survivor is not None:
                merged_now.add(survivor)
        if not merged_now:
            break
        survivors = merged_now
    seen: set[str] = set()
    for decision in skipped:  # a protected group is met again in later passes: say it once
        if decision["reason"] not in seen:
            seen.add(decision["reason"])
            decisions.append(decision)


def _absorb_into_notes(
    ws: WorkingSet,
    ruleset: RuleSet,
    now: datetime,
    budget: Budget,
    threshold: float,
    ops: list[Operation],
    decisions: list[Decision],
) -> None:
    """A memory that says again what a statement of a session note says (an agent or a
    person wrote it) is absorbed by the note: one merge, the note's text kept, the sources
    of both. The finder's guards and the merge rules decide, statement against memory."""
    ordered = sorted(ws.active.values(), key=lambda m: (m.created, m.id))
    statements, parts = session_notes.as_statements(ordered)
    if not parts:
        return
    seen = {m.id: m for m in statements}
    items = [DupItem.from_memory(m) for m in statements]
    for a, b, _score in find_duplicate_pairs(items, threshold=threshold, involving=parts):
        if (a in parts) == (b in parts):
            continue  # two memories (the other merges' work) or two statements
        statement, other_id = (a, b) if a in parts else (b, a)
        note = ws.active.get(session_notes.memory_of(statement, parts))
        other = ws.active.get(other_id)
        if note is None or other is None or session_notes.is_note(other):
            continue
        rule = _first_rule(ruleset.consolidate, "merge", seen[statement], other, now, decisions)
        if rule is None or protected_skip(ruleset, other, "merge", decisions):
            continue
        if ruleset.is_protected(note):
            continue  # a protected note is never rewritten, not even its sources
        merged = replace(
            note,
            sources=tuple(sorted({*note.sources, *other.sources})),
            tags=tuple(sorted({*note.tags, *other.tags})),
            updated=max(note.updated, other.updated),
        )
        op = Operation(
            op="merge",
            phase="consolidate",
            rule=rule.name,
            memories=[note.id, other.id],
            summary=f"merge: {other.id} into the session note {note.id}",
            changes={},
            before=[snap(note), snap(other)],
            after=[snap(merged)],
            detail="It says again what the note says; it stays in history "
            f"(dreamgit restore {other.id}).",
        )
        if budget.admit(op):
            op.changes = {**ws.file_for_removal(other), **ws.file_for_update(note, merged)}
            ops.append(op)


def _merge_group(
    ws: WorkingSet,
    ruleset: RuleSet,
    group_ids: list[str],
    now: datetime,
    budget: Budget,
    ops: list[Operation],
    decisions: list[Decision],
    restated: set[frozenset[str]],
) -> str | None:
    """Merge one group the finder proposed, as far as the rules allow; the survivor's id.

    A restatement (one note is the other plus a qualifier, ``find_contained_pairs``)
    merges under the built-in rule ``merge-restatement`` when no merge rule holds:
    its word overlap is below the rules' similarity by construction.
    """
    group = [ws.active[i] for i in group_ids if i in ws.active]
    protected = [m for m in group if protected_skip(ruleset, m, "merge", decisions)]
    if protected:  # every protected member is recorded, not only the first
        return None
    anchor = group[0]
    # each member's rule judged once: the first member's names the merge
    joining = [
        (m, rule)
        for m in group[1:]
        if (rule := _first_rule(ruleset.consolidate, "merge", anchor, m, now, decisions))
        or frozenset((anchor.id, m.id)) in restated
    ]
    if not joining:
        return None
    members = [anchor, *(m for m, _rule in joining)]
    rule = joining[0][1]
    name = rule.name if rule is not None else "merge-restatement"
    return _merge(ws, members, rule=name, now=now, budget=budget, ops=ops)


def _keys_of_the_fuller(group: list[Memory]) -> list[Memory]:
    """``group`` with the key of a member another member says more than dropped: "works as
    a data engineer at Northwind" (``user.role``) answers "works at Northwind"'s slot
    (``user.employer``) too, and the merged memory keeps the fuller one's key."""
    keys = {m.key for m in group if m.key}
    if len(keys) < 2:
        return group
    return [
        replace(m, key=None)
        if m.key and any(o.key != m.key and subsumes(o.text, m.text) for o in group)
        else m
        for m in group
    ]


def _merge(
    ws: WorkingSet,
    group: list[Memory],
    *,
    rule: str,
    now: datetime,
    budget: Budget,
    ops: list[Operation],
) -> str | None:
    keyed = _keys_of_the_fuller(group)
    if len({m.key for m in keyed if m.key}) > 1:
        return None  # two slots the user named apart
    refused = budget.refusal("merge")  # a rule's merge is no removal and adds no text
    if refused is not None:  # deferred: who merges is all the record says of it
        first, others = merge_ids(keyed)
        budget.defer("merge", rule, [first.id, *others], refused)
        return None
    fields = merge_memories(keyed, now=now)
    survivor = ws.active[fields.id]
    representative = ws.active[fields.representative]
    merged = replace(
        survivor,
        text=fields.text,
        name=representative.name if representative.text == fields.text else survivor.name,
        description=representative.description or survivor.description,
        priority=fields.priority,
        key=fields.key,
        tags=fields.tags,
        sources=fields.sources,
        created=fields.created,
        updated=fields.updated,
        confidence=fields.confidence,
        recalls=fields.recalls,
        valid_from=min(m.valid_since for m in group),  # true since its first telling
    )
    absorbed = [ws.active[i] for i in fields.absorbed]
    op = Operation(
        op="merge",
        phase="consolidate",
        rule=rule,
        memories=[survivor.id, *fields.absorbed],
        summary=f"merge: {len(group)} memories into {survivor.id}",
        changes={},
        before=[snap(m) for m in group],
        after=[snap(merged)],
        detail="Merged near-duplicates; the absorbed memories stay in history "
        f"(dreamgit restore {' / '.join(fields.absorbed)}).",
    )
    if not budget.admit(op):
        return None
    changes: dict[str, bytes | None] = {}
    for memory in absorbed:
        changes.update(ws.file_for_removal(memory))
    changes.update(ws.file_for_update(survivor, merged))
    op.changes = changes
    ops.append(op)
    return survivor.id
