"""The LLM's part of a dream: it proposes, the rules dispose.

With an adapter configured, gather also asks the model about each new session
(``gather`` prompt), and consolidate asks about each group of similar memories
that this run touched (``consolidate`` prompt). Every answer is parsed
strictly and judged by :func:`~dreamgit.llm.proposals.validate_proposals`:
unknown ids, protected or core memories (also as the memory a supersession
keeps, since that rewrites it), thresholds and the run's limits. What passes
becomes an ordinary operation (``Dream-Source: llm``, ``Dream-Model:`` the
configured model); every verdict is a decision in the run record, in the
answer's order and naming its group. The run's character budget bounds the
cost; groups that do not fit are listed with the run's deferred work, and a
session whose gather prompt was deferred stays pending for the next run.
Removals need evidence the engine checks (``dream/evidence.py``) and are capped
by ``limits.max_removals_per_run``; text shaped like an instruction to a model
is never stored (``llm/injection.py``).
Prompts carry the run's day rather than its minute, so a review and the run
after it send the same prompts and the run is answered from the cache.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from dreamgit.dream.evidence import evidence_refusal
from dreamgit.dream.gather.compact import known_user_name
from dreamgit.dream.gather.prompt_view import as_statement, session_turns
from dreamgit.dream.limits import Budget
from dreamgit.dream.ordering import rank_key
from dreamgit.dream.workset import Deferred, Operation, WorkingSet, snap
from dreamgit.extract.candidate import Candidate
from dreamgit.extract.duplicates import DupItem, find_duplicate_pairs, group_duplicates
from dreamgit.extract.extractor import Extraction, ExtractionContext, Extractor
from dreamgit.llm.ask import Answer, CharBudget, ask
from dreamgit.llm.base import LLMAdapter
from dreamgit.llm.cache import AnswerCache
from dreamgit.llm.context import consolidate_context, gather_context
from dreamgit.llm.proposals import Decision, Proposal, Thresholds, validate_proposals
from dreamgit.model import Memory, Session, priority_rank
from dreamgit.records import Decision as RecordedDecision
from dreamgit.ruleset import RuleSet

__all__ = [
    "GROUP_SIMILARITY",
    "LLMExtractor",
    "LLMRun",
    "day_of",
    "gather_prompt_context",
    "known_for_gather",
    "llm_candidates",
    "llm_consolidate",
]

#: How alike memories must be to be sent to the model together.
GROUP_SIMILARITY = 0.5
#: At most this many known memories go with a gather prompt, the highest-ranked first.
KNOWN_IN_GATHER = 200


@dataclass
class LLMRun:
    """One run's model, cache, budget and what the model was asked and answered."""

    adapter: LLMAdapter
    budget: CharBudget
    thresholds: Thresholds
    cache: AnswerCache | None = None
    overrides: dict[str, str] = field(default_factory=dict)
    answers: list[dict[str, Any]] = field(default_factory=list)
    decisions: list[RecordedDecision] = field(default_factory=list)

    def ask(self, template: str, context: dict[str, Any], *, group: str) -> Answer:
        """Ask about one group, and remember the answer for the record."""
        answer = ask(
            self.adapter,
            template,
            context,
            group=group,
            budget=self.budget,
            cache=self.cache,
            overrides=self.overrides,
        )
        self.answers.append(answer.to_dict())
        return answer

    def judge(
        self,
        answer: Answer,
        *,
        allowed_ops: frozenset[str],
        known: dict[str, Memory],
        ruleset: RuleSet,
        budget: Budget,
        sources: set[str] | None = None,
        sessions: Mapping[str, Session] | None = None,
    ) -> list[Proposal]:
        """The proposals of ``answer`` the rules accept; every verdict is recorded as a decision.

        Decisions keep the answer's order and name the group they were asked about.
        """
        verdicts: dict[int, Decision] = {}
        candidates = []
        for p in answer.proposals:
            refusal = _refusal(p, allowed_ops, known, ruleset)
            if refusal is None:
                candidates.append(p)
            else:
                verdicts[p.index] = Decision(p, False, refusal)
        limits = budget.run_limits()
        accepted, rejected = validate_proposals(
            candidates,
            known_ids=set(known),
            is_protected=lambda i: ruleset.is_protected(known[i]),
            thresholds=self.thresholds,
            limits=limits,
            known_sources=sources,
            evidence=lambda p: evidence_refusal(p, known, sessions or {}),
        )
        verdicts.update((d.proposal.index, d) for d in [*accepted, *rejected])
        for index in sorted(verdicts):
            self.decisions.append(
                {"phase": "llm", "group": answer.group, **verdicts[index].to_dict()}
            )
        return [d.proposal for d in accepted]

    def defer(self, answer: Answer, budget: Budget, memories: Sequence[str] = ()) -> None:
        """List a group the run's LLM budget left unasked with the run's deferred work."""
        template = answer.group.split(" ", 1)[0]
        reason = f"{answer.group}: {answer.reason}"
        budget.deferred.append(
            Deferred(f"llm-{template}", "max_chars_per_run", list(memories), reason)
        )

    def to_record(self) -> dict[str, Any]:
        """The ``llm`` section of the run record."""
        return {
            "adapter": self.adapter.name,
            "model": self.adapter.model,
            **self.budget.to_dict(),
            "answers": self.answers,
        }


def _refusal(
    p: Proposal, allowed_ops: frozenset[str], known: dict[str, Memory], ruleset: RuleSet
) -> str | None:
    """Why a proposal is refused before the shared gates look at it, if it is."""
    if p.op not in allowed_ops:
        return f"{p.op} is not asked for here (only {', '.join(sorted(allowed_ops))})"
    if p.by is not None and p.by in known and ruleset.is_protected(known[p.by]):
        # Superseding by a memory rewrites it (its supersedes list): a protected one never is.
        return f"{p.by} is protected (core or a protected topic): never changed by a dream"
    return None


def day_of(now: datetime) -> datetime:
    """The start of the run's day (UTC): the time prompts are written at.

    Prompts show the day, not the minute, so a ``review`` and the ``run`` that
    follows it the same day send the same prompts and the run is answered from
    the cache: the same answers, at no cost.
    """
    return now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)


def _dated(context: dict[str, Any], day: datetime) -> dict[str, Any]:
    return {**context, "now": day.date().isoformat()}


def known_for_gather(memories: Iterable[Memory], ruleset: RuleSet, now: datetime) -> list[Memory]:
    """The memories sent with every gather prompt: the highest-ranked, at most 200."""
    return sorted(memories, key=rank_key(ruleset, day_of(now)))[:KNOWN_IN_GATHER]


def gather_prompt_context(
    session: Session,
    known: Sequence[Memory],
    *,
    now: datetime,
    thresholds: Thresholds,
    max_adds: int,
) -> dict[str, Any]:
    """The variables of the gather prompt a run sends for one session."""
    day = day_of(now)
    context = gather_context(
        [session], list(known), now=day, thresholds=thresholds, max_adds=max_adds
    )
    # The turns, speakers and date of the session, as the deterministic gatherer reads them.
    context["sessions"] = [{**context["sessions"][0], **session_turns(session)}]
    return _dated(context, day)


@dataclass
class LLMExtractor:
    """The model as an extractor: the gather prompt about one session, under the contract.

    The answer is parsed by the pydantic contract (``llm/contract.py``); each proposal
    is judged like every other (only ``add``, sources the session itself, thresholds,
    the run's limits) and every verdict is a decision of the run. What passes comes
    back as candidates in the rules' wording (speaker, dates); gathering then checks
    them as it checks the rules' (injection-shaped text, gather rules, budget).
    """

    llm: LLMRun
    ruleset: RuleSet
    now: datetime
    budget: Budget
    name: str = "llm"

    def extract(self, session: Session, context: ExtractionContext) -> Extraction:
        """The candidates the model proposed for ``session``, or deferred if not asked."""
        prompt = gather_prompt_context(
            session,
            context.known,
            now=self.now,
            thresholds=self.llm.thresholds,
            max_adds=context.max_adds,
        )
        answer = self.llm.ask("gather", prompt, group=f"gather {session.id}")
        if answer.status == "deferred":
            self.llm.defer(answer, self.budget)
            return Extraction(deferred=True)
        accepted = self.llm.judge(
            answer,
            allowed_ops=frozenset({"add"}),
            known={m.id: m for m in context.known},
            ruleset=self.ruleset,
            budget=self.budget,
            sources={session.id},
        )
        subject = context.user_name or "The user"
        return Extraction(
            [
                as_statement(_candidate(p, session), created=session.created, subject=subject)
                for p in accepted
            ]
        )


def llm_candidates(
    llm: LLMRun,
    ws: WorkingSet,
    sessions: Sequence[Session],
    ruleset: RuleSet,
    *,
    now: datetime,
    budget: Budget,
) -> tuple[list[Candidate], set[str]]:
    """Candidates the model found in each session; and the sessions whose prompt was deferred."""
    extractor: Extractor = LLMExtractor(llm, ruleset, now, budget)
    known = known_for_gather(ws.active.values(), ruleset, now)
    found: list[Candidate] = []
    deferred: set[str] = set()
    for session in sorted(sessions, key=lambda s: (s.created, s.id)):
        context = ExtractionContext(
            user_name=known_user_name(ws.active.values()),
            known=known,
            max_adds=max(budget.max_adds - budget.adds, 0),
        )
        extraction = extractor.extract(session, context)
        if extraction.deferred:
            deferred.add(session.id)
        found += extraction.candidates
    return found, deferred


def _candidate(p: Proposal, session: Session) -> Candidate:
    return Candidate(
        text=p.text or "",
        topic=p.topic or "notes",
        priority=p.priority or "normal",
        type=p.type or "user",
        tags=(),
        key=p.key,
        confidence=p.confidence if p.confidence is not None else 0.0,
        session_id=session.id,
        created=session.created,
        change=None,
        pattern="llm",
    )


def llm_consolidate(
    llm: LLMRun,
    ws: WorkingSet,
    ruleset: RuleSet,
    *,
    now: datetime,
    budget: Budget,
    touched: set[str],
    sessions: Sequence[Session] = (),
) -> list[Operation]:
    """Ask about each group of similar memories this run touched; apply what the rules accept.

    With each group go this run's sessions its memories came from, so a removal
    can quote what a session said (see ``dream/evidence.py``).
    """
    by_session = {s.id: s for s in sessions}
    day = day_of(now)
    ordered = sorted(ws.active.values(), key=lambda m: (m.created, m.id))
    items = [DupItem.from_memory(m) for m in ordered]
    pairs = find_duplicate_pairs(items, threshold=GROUP_SIMILARITY)
    ops: list[Operation] = []
    for ids in group_duplicates(items, pairs):
        if not touched.intersection(ids) or any(i not in ws.active for i in ids):
            continue
        group = {i: ws.active[i] for i in ids}
        said = sorted({s for m in group.values() for s in m.sources if s in by_session})
        context = consolidate_context(
            list(group.values()),
            now=day,
            thresholds=llm.thresholds,
            sessions=[by_session[s] for s in said],
        )
        answer = llm.ask("consolidate", _dated(context, day), group=f"consolidate {','.join(ids)}")
        if answer.status == "deferred":
            llm.defer(answer, budget, ids)
        if answer.status != "answered":
            continue
        accepted = llm.judge(
            answer,
            allowed_ops=frozenset({"merge", "replace", "remove", "supersede"}),
            known=group,
            ruleset=ruleset,
            budget=budget,
            sessions={s: by_session[s] for s in said},
        )
        for proposal in accepted:
            members = [ws.active[i] for i in proposal.ids if i in ws.active]
            if len(members) != len(proposal.ids) or proposal.by in proposal.ids:
                continue  # an earlier proposal of this group already took one of them
            after = _after(ws, proposal, members, now=now)
            op = _operation(proposal, members, after, model=llm.adapter.model)
            if budget.admit(op):
                op.changes = _apply(ws, members, after)
                ops.append(op)
    return ops


def _operation(p: Proposal, members: list[Memory], after: list[Memory], *, model: str) -> Operation:
    """The operation a proposal stands for, its file changes not yet made."""
    summary = {
        "merge": f"merge: {len(members)} memories into {after[0].id if after else ''}",
        "replace": f"replace: {members[0].id} rewritten",
        "remove": f"remove: {', '.join(p.ids)}",
        "supersede": f"supersede: {', '.join(p.ids)} by {p.by}",
    }[p.op]
    memories = [*(m.id for m in after), *(i for i in p.ids if i not in {m.id for m in after})]
    return Operation(
        op=p.op,
        phase="consolidate",
        rule=f"llm-{p.op}",
        memories=memories,
        summary=summary,
        changes={},
        before=[snap(m) for m in members],
        after=[snap(m) for m in after],
        new_chars=len(p.text or ""),
        source="llm",
        model=model or None,
        detail=f"Proposed by the model: {p.reason}",
    )


def _after(ws: WorkingSet, p: Proposal, members: list[Memory], *, now: datetime) -> list[Memory]:
    """The memories as they will be after the proposal (none for a removal)."""
    if p.op == "remove":
        return []
    if p.op == "supersede":
        newer = ws.active[p.by or ""]
        supersedes = tuple(sorted({*newer.supersedes, *p.ids}))
        return [replace(newer, supersedes=supersedes, valid_from=newer.valid_since)]
    survivor = min(members, key=lambda m: (m.created, m.id))
    text = (p.text or survivor.text).strip()
    priority = max((m.priority for m in members), key=priority_rank)
    return [
        replace(
            survivor,
            text=text,
            description=_one_line(text),
            priority=p.priority if p.priority and p.op == "replace" else priority,
            key=p.key or survivor.key,
            tags=tuple(sorted({t for m in members for t in m.tags})),
            sources=tuple(sorted({s for m in members for s in m.sources})),
            updated=now,
            valid_from=(
                min(m.valid_since for m in members) if p.op == "merge" else survivor.valid_from
            ),
        )
    ]


def _apply(ws: WorkingSet, members: list[Memory], after: list[Memory]) -> dict[str, bytes | None]:
    changes: dict[str, bytes | None] = {}
    keep = {m.id for m in after}
    for memory in members:
        if memory.id not in keep:
            changes.update(ws.file_for_removal(memory))
    for memory in after:
        changes.update(ws.file_for_update(ws.active[memory.id], memory))
    return changes


def _one_line(text: str, limit: int = 150) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"
