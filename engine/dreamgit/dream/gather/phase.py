"""Gather: new memories from the sessions no dream has read yet.

Candidates come from the deterministic extractor. Each one meets the rule
set's gather rules (a rule that holds rejects it; so does text shaped like an
instruction to a model, see ``llm/injection.py``), then the memories already
known: a candidate that says again what an active memory says reinforces it
(its session joins the memory's sources) instead of adding a copy. A session
is consumed only when every candidate of it was handled, so a candidate
deferred by the run's limits is gathered again by the next run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from dreamgit.dream import session_notes
from dreamgit.dream.gather.compact import compact, known_user_name
from dreamgit.dream.gather.normal_forms import normal_forms
from dreamgit.dream.gather.rules_extractor import RulesExtractor
from dreamgit.dream.gather.sharing import done_with_content_words
from dreamgit.dream.gather.twins import known_duplicates
from dreamgit.dream.limits import Budget
from dreamgit.dream.workset import Operation, WorkingSet, snap
from dreamgit.dsl import ExpressionError
from dreamgit.extract.candidate import Candidate, candidate_memory_fields
from dreamgit.extract.extractor import ExtractionContext, Extractor
from dreamgit.ids import memory_id
from dreamgit.llm.injection import instruction_shape
from dreamgit.model import Memory, Session
from dreamgit.records import Decision
from dreamgit.ruleset import Rule, RuleSet
from dreamgit.ruleset.context import memory_env
from dreamgit.store.formats.turns import TURN_MARK
from dreamgit.store.operations import unique_slug

__all__ = ["GatherResult", "plan_gather", "rejecting_rule"]


@dataclass
class GatherResult:
    """What gather planned: operations, consumed sessions, new memories and decisions."""

    ops: list[Operation] = field(default_factory=list)
    consumed: list[str] = field(default_factory=list)
    added: list[Memory] = field(default_factory=list)
    #: Each added memory with the candidate it came from (change statements need both).
    fresh: list[tuple[Memory, Candidate]] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)


def _memory_for(candidate: Candidate, taken: set[str]) -> Memory:
    fields = candidate_memory_fields(candidate)
    fields["slug"] = unique_slug(fields["slug"], taken)
    return Memory(
        id=memory_id(candidate.topic, candidate.text, candidate.session_id),
        created=candidate.created,
        updated=candidate.created,
        **fields,
    )


def _instruction(candidate: Candidate) -> str | None:
    """Why a candidate is never stored: it reads as an instruction to a model, if it does."""
    shape = instruction_shape(candidate.text)
    return None if shape is None else f"no-instructions (shaped like an instruction: {shape})"


def _never_fits(ruleset: RuleSet, memory: Memory, env: Mapping[str, object]) -> str | None:
    """Why a candidate can never become a memory: too long for any run, or unranked."""
    if len(memory.text) > ruleset.limits.max_new_chars_per_run:
        return "max_new_chars_per_run (longer than one run may add)"
    try:
        ruleset.rank.evaluate(env)
    except ExpressionError as exc:  # every memory is ranked: one rank cannot order is refused
        return f"rank ({ruleset.rank_location}), which cannot be evaluated for it: {exc.reason}"
    return None


def _due(ruleset: RuleSet, memory: Memory, env: Mapping[str, object]) -> str | None:
    """Why a candidate would leave as soon as it came: a prune rule already holds for it."""
    if ruleset.is_protected(memory):
        return None
    for rule in ruleset.prune:
        holds = _holds(rule, env)
        if holds is not False:
            return holds if isinstance(holds, str) else f"{rule.name} (already due for pruning)"
    return None


def _in_its_days_note(
    ws: WorkingSet, ruleset: RuleSet, candidate: Candidate, now: datetime, at_work: set[str]
) -> Candidate | None:
    """``candidate`` as a statement of its session's note, when a prune rule would retire it
    at once (a plan whose day was over when it was read) and none retires it from a note:
    what was said that day stays in that day's note. None when no note may hold it."""
    if not session_notes.can_hold(candidate) or session_notes.working(candidate, at_work):
        return None
    noted = replace(candidate, tags=tuple(sorted({*candidate.tags, session_notes.TAG})))
    memory = ws.place(_memory_for(noted, set()))
    return noted if _due(ruleset, memory, memory_env(memory, now)) is None else None


def rejecting_rule(
    ruleset: RuleSet, candidate: Candidate, now: datetime, memory: Memory | None = None
) -> str | None:
    """The name of the first gather rule that rejects ``candidate``, or None."""
    return _rejecting(ruleset, candidate, memory_env(memory or _memory_for(candidate, set()), now))


def _rejecting(ruleset: RuleSet, candidate: Candidate, names: Mapping[str, object]) -> str | None:
    """:func:`rejecting_rule` on the memory's rule environment ``names``."""
    env = dict(names, kind=candidate.kind, salience=candidate.salience, speaker=candidate.speaker)
    for rule in ruleset.gather:
        holds = _holds(rule, env)
        if holds is not False:
            return holds if isinstance(holds, str) else rule.name
    return None


def _holds(rule: Rule, env: Mapping[str, object]) -> bool | str:
    """Whether a rule holds for a candidate; a rule that fails on it rejects it, saying why."""
    try:
        return bool(rule.when.evaluate(env))
    except ExpressionError as exc:
        return f"{rule.name} ({rule.location}), which cannot be evaluated for it: {exc.reason}"


def plan_gather(
    ws: WorkingSet,
    sessions: Sequence[Session],
    ruleset: RuleSet,
    *,
    now: datetime,
    budget: Budget,
    threshold: float,
    proposed: Sequence[Candidate] = (),
    model: str | None = None,
    model_only: frozenset[str] = frozenset(),
    language: str = "",
) -> GatherResult:
    """Plan the gather phase over ``sessions`` (oldest first) against the working set.

    ``proposed`` are candidates an LLM found (already judged by the rules); they
    meet the same gather rules, duplicate checks and limits as the extracted ones.
    The English rules read every session but those in ``model_only`` (ids of sessions
    in another language that the model alone reads, ``extract: by-language``);
    ``language`` is the config's ``language:``, a session's when the detectors are unsure.
    """
    result = GatherResult()
    user_name = known_user_name(ws.active.values())  # once a run: a pass over every memory
    found = _candidates(
        ws, sessions, ruleset, now, result, user_name, proposed, model_only, language
    )
    done_with_content_words()  # compared with every known memory: the rest reads features
    known = known_duplicates(ws, [memory for memory, _ in found], threshold, user_name)
    added: dict[str, Operation] = {}
    incomplete: set[str] = set()
    for memory, candidate in found:
        session = candidate.session_id
        twin = known.get(memory.id)
        if twin in added:
            _fold_into_add(ws, added[twin], memory)
            continue
        if twin is not None and twin not in ws.active:  # its twin was deferred: so is it
            incomplete.add(session)
            continue
        if twin is not None:
            if not _reinforce(ws, ws.active[twin], memory, ruleset, budget, result):
                incomplete.add(session)
            continue
        op = Operation(
            op="add",
            phase="gather",
            rule=f"gather-{candidate.pattern}",
            memories=[memory.id],
            summary=f"add: {memory.id} {memory.topic}/{memory.slug}",
            changes={},
            after=[snap(memory)],
            new_chars=len(memory.text),
            detail=f"From session {session}.",
            source="llm" if candidate.pattern == "llm" else "rules",
            model=model if candidate.pattern == "llm" else None,
        )
        if not ws.fits(memory) or not budget.admit(op):
            incomplete.add(session)  # over the agent's own budget or the run's limits
            continue
        op.changes = ws.file_for_new(memory)
        op.after = [snap(ws.active[memory.id])]
        added[memory.id] = op
        result.ops.append(op)
        result.added.append(memory)
        result.fresh.append((memory, candidate))
    result.consumed = [s.id for s in sessions if s.id not in incomplete]
    return result


def _candidates(
    ws: WorkingSet,
    sessions: Sequence[Session],
    ruleset: RuleSet,
    now: datetime,
    result: GatherResult,
    user_name: str | None,
    proposed: Sequence[Candidate] = (),
    model_only: frozenset[str] = frozenset(),
    language: str = "",
) -> list[tuple[Memory, Candidate]]:
    """Every candidate of every session, oldest session first, that no gather rule rejects.

    The extractor's candidates of a session come first, then the LLM's; ``user_name`` is
    the name the known memories give the user (None: none gives it).
    """
    found: list[tuple[Memory, Candidate]] = []
    seen: set[str] = set()
    by_session: dict[str, list[Candidate]] = {}
    for candidate in proposed:
        by_session.setdefault(candidate.session_id, []).append(candidate)
    # A note's statements are known one by one: "brother works at Apple now" is news
    # beside a note that says "brother works at Google" among other things.
    known = [
        text
        for memory in ws.active.values()
        for text in session_notes.facts(memory) or [memory.text]
    ]
    said = normal_forms([memory.text for memory in ws.active.values()], (user_name,))
    ordered = sorted(sessions, key=lambda s: (s.created, s.id))
    at_work = {s.id for s in ordered if TURN_MARK.search(s.text)}  # an agent's own files
    admitted: list[Candidate] = []
    for session in ordered:
        if session.id in model_only:
            continue
        context = ExtractionContext(user_name=user_name, language=language)
        extracted = _RULES.extract(session, context).candidates
        user_name = user_name or known_user_name(_as_memories(extracted))
        # The rules judge first, so the budget goes to what they would keep.
        admitted.extend(
            ok for c in extracted if (ok := _admitted(ws, ruleset, c, now, result, at_work))
        )
    # One budget for the run's sessions: a session full of facts may take what a session
    # of small talk leaves, and the run keeps its most salient statements.
    kept, over, repeats = compact(
        admitted,
        sum(_session_budget(ruleset, session) for session in ordered),
        known,
        min_novelty=ruleset.budgets.gather_min_novelty,
        said_before=said,
    )
    _record_left_out(result, over, repeats)
    by_origin: dict[str, list[Candidate]] = {}
    for candidate in session_notes.join(kept, at_work):
        by_origin.setdefault(candidate.session_id, []).append(candidate)
    slugs = _Slugs(ws)
    for session in ordered:
        proposals = [
            ok
            for c in by_session.get(session.id, [])
            if (ok := _admitted(ws, ruleset, c, now, result, at_work))
        ]
        for candidate in [*by_origin.get(session.id, []), *proposals]:
            taken = slugs.taken(candidate.topic)
            # Placed where the format keeps it, so duplicate checks see the topics
            # the format's own memories have (Hermes: user / memory).
            memory = ws.place(_memory_for(candidate, taken))
            if memory.id in seen:
                continue
            if memory.id in ws.active:
                # Gathered by an earlier run whose change statement could not be applied
                # then (limits): its session is pending again, so offer the change again.
                if candidate.change is not None:
                    result.fresh.append((ws.active[memory.id], candidate))
                continue
            seen.add(memory.id)
            found.append((memory, candidate))
            slugs.found.add(memory.slug)
    return found


class _Slugs:
    """The slugs a new memory may not take: its topic's in the working set, which does not
    change while the run's candidates are placed (read once: a folder of thousands), and
    those of the memories found so far in any topic."""

    def __init__(self, ws: WorkingSet) -> None:
        self._ws = ws
        self._topics: dict[str, set[str]] = {}
        self.found: set[str] = set()

    def taken(self, topic: str) -> set[str]:
        if topic not in self._topics:
            self._topics[topic] = self._ws.slugs(topic)
        return self._topics[topic] | self.found


def _record_left_out(
    result: GatherResult, over: Sequence[Candidate], repeats: Sequence[Candidate]
) -> None:
    """The run record's line for each statement the budget or the repeat check left out."""
    for reason, left_out in ((_OVER_BUDGET, over), (_REPEATS, repeats)):
        result.decisions.extend(
            {
                "phase": "gather",
                "candidate": candidate.text,
                "accepted": False,
                "reason": reason,
                "session": candidate.session_id,
            }
            for candidate in left_out
        )


#: The English rules: every session meets them, with or without a model.
_RULES: Extractor = RulesExtractor()

_OVER_BUDGET = "over the run's gather budget (gather_chars_ratio): more salient statements took it"
_REPEATS = "repeats what memory holds (gather_min_novelty): most of its words are known"


def _session_budget(ruleset: RuleSet, session: Session) -> float:
    """The characters of new memory one session brings to its run's gather budget."""
    return max(
        ruleset.budgets.gather_chars_ratio * len(session.text), ruleset.budgets.gather_min_chars
    )


def _admitted(
    ws: WorkingSet,
    ruleset: RuleSet,
    candidate: Candidate,
    now: datetime,
    result: GatherResult,
    at_work: set[str],
) -> Candidate | None:
    """``candidate`` as it may become a memory (a past plan as a statement of its day's
    note); when it may not, None and the decision says which rule."""
    memory = ws.place(_memory_for(candidate, set()))
    if memory.id in ws.active:
        return candidate  # known already: what happens to it is decided with the memory
    # one environment for the three checks (each built every name of it anew before)
    env = memory_env(memory, now)
    rule = _rejecting(ruleset, candidate, env) or _never_fits(ruleset, memory, env)
    rule = rule or _instruction(candidate)
    if rule is None:
        rule = _due(ruleset, memory, env)
        if rule is None:
            return candidate
        noted = _in_its_days_note(ws, ruleset, candidate, now, at_work)
        if noted is not None:
            return noted
    result.decisions.append(
        {
            "phase": "gather",
            "candidate": candidate.text,
            "accepted": False,
            "reason": f"rejected by rule {rule}",
            "session": candidate.session_id,
        }
    )
    return None


def _as_memories(candidates: Sequence[Candidate]) -> list[Memory]:
    """The name statements among ``candidates``, as memories (for the user's name)."""
    return [_memory_for(c, set()) for c in candidates if c.key == "user.name"]


def _fold_into_add(ws: WorkingSet, op: Operation, repeat: Memory) -> None:
    """A fact said twice in this run's sessions: one add, with both sessions as sources."""
    first = ws.active[op.memories[0]]
    merged = replace(
        first,
        sources=tuple(sorted({*first.sources, *repeat.sources})),
        tags=tuple(sorted({*first.tags, *repeat.tags})),
    )
    op.changes = ws.file_for_new(merged)
    op.after = [snap(merged)]


def _reinforce(
    ws: WorkingSet,
    known: Memory,
    memory: Memory,
    ruleset: RuleSet,
    budget: Budget,
    result: GatherResult,
) -> bool:
    """Add the new session to a known memory's sources; False when the limits said no."""
    source = memory.sources[0]
    if source in known.sources or ruleset.is_protected(known):
        return True  # nothing to add, or a protected memory dreams never touch
    updated = replace(
        known,
        sources=tuple(sorted({*known.sources, source})),
        tags=tuple(sorted({*known.tags, *memory.tags})),
        updated=max(known.updated, memory.created),
    )
    op = Operation(
        op="reinforce",
        phase="gather",
        rule="gather-known-fact",
        memories=[known.id],
        summary=f"reinforce: {known.id} seen again in {source}",
        changes={},
        before=[snap(known)],
        after=[snap(updated)],
    )
    if not budget.admit(op):
        return False
    op.changes = ws.file_for_update(known, updated)
    result.ops.append(op)
    return True
