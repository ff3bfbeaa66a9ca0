"""The model's part of the reflect phase: lessons it draws from what recurs, as proposals.

With an LLM configured, the ``reflect`` prompt shows the model the memories seen in the
reflect window with their sightings (days and sessions) and asks for lessons under the
proposal contract: ``add`` proposals whose ``sources`` are the sessions they rest on.
Each is judged like every other proposal (sources among the sightings shown,
injection-shaped text refused, thresholds, the run's limits), at most
``reflect.llm.max_insights`` per run; every verdict is a decision of the run. What
passes becomes a staged ``instruction`` memory tagged ``lesson``, exactly as the rules'
lessons: one reflect operation, listed in ``MEMORY.md`` only once promoted.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import date, datetime
from typing import Any

from dreamgit.dream.limits import Budget
from dreamgit.dream.llm_phase import LLMRun, day_of
from dreamgit.dream.reflect.phase import LESSON_TOPIC, PHASE, gate_open
from dreamgit.dream.reflect.recurring import LESSON
from dreamgit.dream.reflect.settings import ReflectSettings
from dreamgit.dream.reflect.sightings import Sighting, session_days, sightings, window_start
from dreamgit.dream.workset import Operation, WorkingSet, snap
from dreamgit.extract.candidate import Candidate, candidate_memory_fields
from dreamgit.ids import memory_id
from dreamgit.llm.context import memory_view
from dreamgit.llm.proposals import Decision, Proposal, Thresholds
from dreamgit.model import Memory
from dreamgit.ruleset import RuleSet
from dreamgit.store.operations import unique_slug

__all__ = ["llm_reflect", "reflect_prompt_context", "window_sightings"]

RULE = "llm-reflect-lesson"


def llm_reflect(
    llm: LLMRun,
    ws: WorkingSet,
    settings: ReflectSettings,
    ruleset: RuleSet,
    *,
    sessions: Mapping[str, str],
    now: datetime,
    budget: Budget,
) -> list[Operation]:
    """Ask the model for lessons about the window's memories; the accepted ones as operations."""
    if not settings.enabled or settings.max_insights == 0 or ws.format.name != "dreamgit":
        return []
    days = session_days(sessions)
    seen = window_sightings(ws.active.values(), days, settings, now)
    if not seen or not gate_open(settings, days, len(ws.active), now):
        return []
    context = reflect_prompt_context(ws.active, seen, settings, llm.thresholds, now)
    answer = llm.ask("reflect", context, group="reflect")
    if answer.status == "deferred":
        llm.defer(answer, budget)
    if answer.status != "answered":
        return []
    most = settings.max_insights
    cited = {s.session: s for found in seen.values() for s in found}
    accepted = llm.judge(
        replace(answer, proposals=answer.proposals[:most]),
        allowed_ops=frozenset({"add"}),
        known={i: ws.active[i] for i in seen},
        ruleset=ruleset,
        budget=budget,
        sources=set(cited),
    )
    for p in answer.proposals[most:]:  # the verdicts keep the answer's order
        over = Decision(p, False, f"reflect.llm.max_insights: at most {most} insights a run")
        llm.decisions.append({"phase": "llm", "group": answer.group, **over.to_dict()})
    ops = []
    for proposal in accepted:
        lesson = _lesson(proposal, ws.slugs(LESSON_TOPIC), cited, now)
        op = _operation(lesson, [cited[s] for s in proposal.sources], proposal, llm)
        if budget.admit(op):
            op.changes = ws.file_for_new(lesson)
            ops.append(op)
    return ops


def window_sightings(
    memories: Iterable[Memory], days: Mapping[str, date], settings: ReflectSettings, now: datetime
) -> dict[str, list[Sighting]]:
    """Memory id → its sightings in the reflect window, for each memory seen there."""
    since = window_start(days, now, settings.window_days)
    return {
        m.id: found
        for m in sorted(memories, key=lambda m: m.id)
        if (found := sightings(m, days, since=since, now=now))
    }


def reflect_prompt_context(
    memories: Mapping[str, Memory],
    seen: Mapping[str, list[Sighting]],
    settings: ReflectSettings,
    thresholds: Thresholds,
    now: datetime,
) -> dict[str, Any]:
    """The variables of the reflect prompt (``prompts show reflect`` renders the same)."""
    return {
        "now": day_of(now).date().isoformat(),
        "memories": [_view(memories[i], s) for i, s in seen.items()],
        "max_insights": settings.max_insights,
        "thresholds": {"add_min": thresholds.add_min},
    }


def _view(memory: Memory, seen: list[Sighting]) -> dict[str, Any]:
    sighted = [{"day": s.day.isoformat(), "session": s.session} for s in seen]
    return {**memory_view(memory), "sightings": sighted}


def _lesson(p: Proposal, taken: set[str], cited: Mapping[str, Sighting], now: datetime) -> Memory:
    first = min(cited[s] for s in p.sources)
    candidate = Candidate(
        text=p.text or "",
        topic=LESSON_TOPIC,
        priority=p.priority or "high",
        type="feedback",
        tags=(LESSON,),
        key=p.key,
        confidence=p.confidence if p.confidence is not None else 0.0,
        session_id=first.session,
        created=now,
        change=None,
        pattern="llm",
    )
    fields = candidate_memory_fields(candidate)
    fields["slug"] = unique_slug(fields["slug"], taken)
    fields["sources"] = tuple(sorted(p.sources))
    return Memory(
        id=memory_id(LESSON_TOPIC, candidate.text, *sorted(p.sources)),
        created=candidate.created,
        updated=candidate.created,
        **fields,
    )


def _operation(lesson: Memory, evidence: list[Sighting], p: Proposal, llm: LLMRun) -> Operation:
    """The reflect operation of an accepted lesson, its file changes not yet made."""
    return Operation(
        op="reflect",
        phase=PHASE,
        rule=RULE,
        memories=[lesson.id],
        summary=f"reflect: lesson {lesson.id} proposed by the model ({lesson.path})",
        changes={},
        after=[snap(lesson)],
        new_chars=len(lesson.text),
        source="llm",
        model=llm.adapter.model or None,
        detail=f"Proposed by the model: {p.reason}\nSightings: "
        + "; ".join(s.render() for s in sorted(evidence)),
    )
