"""The one planning function ``review``, ``run`` and ``compact`` share.

It reads the main tip once, builds the working set, and runs the phases in
order (gather → consolidate → reflect → prune → index), each seeing what the previous
planned. Nothing is written here; :mod:`dreamgit.dream.apply` commits the plan.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from dreamgit.dream.consolidate.count_memo import keeping_counts
from dreamgit.dream.consolidate.frame_memo import keeping_frames
from dreamgit.dream.consolidate.judged_pairs import keeping_pairs
from dreamgit.dream.consolidate.phase import plan_consolidate
from dreamgit.dream.consolidate.update_memo import keeping_updates
from dreamgit.dream.envs import forget_envs, values_each
from dreamgit.dream.gather.choice import pick_extractors
from dreamgit.dream.gather.phase import GatherResult, plan_gather
from dreamgit.dream.health import health_report, recovery_sessions
from dreamgit.dream.index import (
    CLAUDE_INDEX_LINES,
    is_generated,
    render_agent_index,
    render_index,
)
from dreamgit.dream.limits import Budget
from dreamgit.dream.ordering import index_key
from dreamgit.dream.prune import plan_prune
from dreamgit.dream.reflect import plan_reflect
from dreamgit.dream.reflect.recurring import LESSON
from dreamgit.dream.reflect.settings import reflect_settings
from dreamgit.dream.status import pending_sessions
from dreamgit.dream.vet import vet_memories
from dreamgit.dream.word_memo import keeping_words
from dreamgit.dream.workset import Deferred, Operation, WorkingSet
from dreamgit.dsl import Expression
from dreamgit.errors import MemoryFileError
from dreamgit.extract.candidate import Candidate
from dreamgit.extract.duplicates import DEFAULT_THRESHOLD
from dreamgit.model import Memory, Session, plural, priority_rank
from dreamgit.recall.fold import recall_tracking
from dreamgit.recall.settings import PromotionSettings, Settings, load_settings
from dreamgit.records import Decision
from dreamgit.ruleset import RuleSet
from dreamgit.store.repo import MemoryRepo
from dreamgit.store.sessionfile import decode_session

if TYPE_CHECKING:
    from dreamgit.dream.llm_phase import LLMRun

__all__ = ["Plan", "Progress", "plan_dream", "silent"]

#: Told each phase as it starts ("gathering from 12 sessions"); the CLI shows it on a terminal.
Progress = Callable[[str], None]


def silent(_message: str) -> None:
    """The progress reporter that reports nothing (library calls, --json, pipes)."""


@dataclass
class Plan:
    """Everything one dream would do, computed from one commit of main."""

    base: str | None
    ops: list[Operation]
    sessions: list[str]
    memories_before: int
    memories_after: int
    deferred: list[Deferred] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    broken: list[MemoryFileError] = field(default_factory=list)
    #: What the model was asked and answered, with the budget spent (None without an LLM).
    llm: dict[str, Any] | None = None
    #: The memory's health at the base (dream/health.py).
    health: dict[str, Any] | None = None
    #: Older sessions read again because health was low.
    reread: list[str] = field(default_factory=list)

    @property
    def is_empty(self) -> bool:
        """True when the dream would change nothing (no operation, no session consumed)."""
        return not self.ops and not self.sessions


def _health(
    repo: MemoryRepo,
    ruleset: RuleSet,
    memories: list[Memory],
    base: str | None,
    now: datetime,
    settings: Settings,
    gather: bool,
) -> tuple[dict[str, Any], list[str]]:
    """Memory health, and the sessions a gathering dream reads again while it is low."""
    health = health_report(repo, ruleset, memories, at=base, now=now)
    if not gather:
        return health, []
    reread = recovery_sessions(
        repo,
        memories,
        at=base,
        health=health["score"],
        below=settings.recover_below,
        count=settings.recover_sessions,
    )
    return health, reread


def _prune(
    repo: MemoryRepo,
    ws: WorkingSet,
    ruleset: RuleSet,
    *,
    base: str | None,
    now: datetime,
    budget: Budget,
) -> list[Operation]:
    """Pruning's operations, told whether recalls are recorded here (their signals count)."""
    tracked = recall_tracking(repo, base)["in_use"]
    return plan_prune(ws, ruleset, now=now, budget=budget, recalls_recorded=tracked)


def _working_set(repo: MemoryRepo, memories: list[Memory], base: str | None) -> WorkingSet:
    """The memories a dream changes, read at ``base`` (with every file, in another
    agent's format, whose memories may sit anywhere)."""
    fmt = repo.format
    return WorkingSet(
        memories,
        lambda path: repo.read_text(path, base) or "",
        fmt,
        files=repo.store.files(base) if fmt.name != "dreamgit" else (),
    )


def _budget(ruleset: RuleSet) -> Budget:
    """The run limits of ``ruleset``, as the budget every phase draws on."""
    limits = ruleset.limits
    return Budget(
        limits.max_changes_per_run,
        limits.max_adds_per_run,
        limits.max_new_chars_per_run,
        limits.max_removals_per_run,
    )


def _gather(
    ws: WorkingSet,
    sessions: list[Session],
    ruleset: RuleSet,
    now: datetime,
    budget: Budget,
    llm: LLMRun | None,
    config: Mapping[str, Any],
) -> tuple[GatherResult, list[str]]:
    """Gathering's plan: each session read by the extractors the ``extract:`` setting picks
    for it (the rules, the model, or both), and the sessions it consumed (not those the model
    has still to answer for)."""
    language = str(config.get("language") or "")
    by_rules, by_model = pick_extractors(
        sessions, config.get("extract"), model=llm is not None, language=language
    )
    proposed: list[Candidate] = []
    waiting: set[str] = set()
    if llm is not None:
        from dreamgit.dream.llm_phase import llm_candidates  # only with a model

        proposed, waiting = llm_candidates(llm, ws, by_model, ruleset, now=now, budget=budget)
    gathered = plan_gather(
        ws,
        sessions,
        ruleset,
        now=now,
        budget=budget,
        threshold=DEFAULT_THRESHOLD,  # the finder's floor; the merge rules decide among pairs
        proposed=proposed,
        model=llm.adapter.model if llm is not None else None,
        model_only=frozenset(s.id for s in sessions) - {s.id for s in by_rules},
        language=language,
    )
    return gathered, [s for s in gathered.consumed if s not in waiting]


def _sessions(
    repo: MemoryRepo,
    base: str | None,
    now: datetime,
    exclude: frozenset[str],
    reread: list[str],
) -> tuple[list[Session], list[MemoryFileError]]:
    found, broken = [], []
    paths = repo.session_paths(base)
    wanted = {**{i: paths[i] for i in reread if i in paths}, **pending_sessions(repo, base)}
    for ident, path in sorted(wanted.items()):
        if ident in exclude:
            continue
        data = repo.store.read_path(base, path) or b""
        try:
            # Strictly decoded: binary or non-UTF-8 bytes are reported, never consumed.
            text = decode_session(data, path=path)
            found.append(repo.format.read_session(ident, path, text, now))
        except MemoryFileError as exc:
            broken.append(exc)
    return found, broken


def plan_dream(
    repo: MemoryRepo,
    ruleset: RuleSet,
    *,
    now: datetime,
    gather: bool = True,
    at: str | None = None,
    llm: LLMRun | None = None,
    exclude: frozenset[str] = frozenset(),
    progress: Progress = silent,
) -> Plan:
    """Plan a dream against main's tip, or the commit ``at`` (``gather=False``: compact only).

    With ``llm``, the model's proposals join the deterministic ones, judged by the rules.
    Sessions in ``exclude`` are not gathered (a dream branch under review owns them).
    What each memory says is framed, and its counts and words read, as in the runs before
    (``frame_memo``, ``count_memo``, ``word_memo``), the merge passes judge only the
    pairs with a new or changed memory (``judged_pairs``), and the newer-value check
    compares only the subjects whose memories changed (``update_memo``).
    """
    git_dir = repo.store.git_dir
    with (
        keeping_frames(git_dir),
        keeping_pairs(git_dir),
        keeping_counts(git_dir),
        keeping_words(git_dir),
        keeping_updates(git_dir),
    ):
        return _plan(
            repo,
            ruleset,
            now=now,
            gather=gather,
            at=at,
            llm=llm,
            exclude=exclude,
            progress=progress,
        )


def _plan(
    repo: MemoryRepo,
    ruleset: RuleSet,
    *,
    now: datetime,
    gather: bool,
    at: str | None,
    llm: LLMRun | None,
    exclude: frozenset[str],
    progress: Progress,
) -> Plan:
    base = at if at is not None else repo.tip()
    progress("reading memories")
    snapshot = repo.snapshot(now=now, at=base)
    settings = load_settings(repo)
    # A memory some rule cannot evaluate is reported and left out; the rest dream on.
    memories, unusable = vet_memories(
        snapshot.memories, ruleset, now, also=_index_reads(settings.promotion)
    )
    ws = _working_set(repo, memories, base)
    budget = _budget(ruleset)
    ops: list[Operation] = []
    decisions: list[Decision] = []
    consumed: list[str] = []
    broken = [*snapshot.broken, *unusable]
    fresh: list[tuple[Memory, Candidate]] = []
    health, reread = _health(repo, ruleset, snapshot.memories, base, now, settings, gather)
    read: list[Session] = []
    if gather:
        sessions, unreadable = _sessions(repo, base, now, exclude, reread)
        read = list(sessions)
        broken += unreadable
        progress(
            f"gathering from {plural(len(sessions), 'session')} "
            f"({plural(len(snapshot.memories), 'memory')} known)"
        )
        gathered, consumed = _gather(ws, sessions, ruleset, now, budget, llm, repo.config())
        ops += gathered.ops
        decisions += gathered.decisions
        fresh = gathered.fresh
    progress(f"consolidating {plural(len(ws.active), 'memory')}")
    consolidated = plan_consolidate(
        ws, ruleset, now=now, budget=budget, threshold=DEFAULT_THRESHOLD, fresh=fresh
    )
    ops += consolidated.ops
    decisions += consolidated.decisions
    consumed = [s for s in consumed if s not in consolidated.unsettled]
    if llm is not None:
        from dreamgit.dream.llm_phase import llm_consolidate  # only with a model

        touched = {i for op in ops for i in op.memories if i in ws.active}
        ops += llm_consolidate(
            llm, ws, ruleset, now=now, budget=budget, touched=touched, sessions=read
        )
    if consumed:  # a dream with nothing new to read has nothing new to reflect on
        progress("reflecting")
        ops += _reflect(repo, base, ws, settings.reflect, ruleset, now=now, budget=budget, llm=llm)
    if llm is not None:
        decisions += llm.decisions
    progress("pruning")
    ops += _prune(repo, ws, ruleset, base=base, now=now, budget=budget)
    progress("writing the index")
    index = _index_op(repo, base, ws, ruleset, now, before=memories)
    if index is not None and (ops or consumed or index.changes):
        ops.append(index)
    return Plan(
        base=base,
        ops=ops,
        sessions=consumed,
        memories_before=len(snapshot.memories),
        memories_after=len(ws.active) + len(unusable),  # left out, not removed
        deferred=budget.deferred,
        decisions=decisions,
        broken=broken,
        llm=llm.to_record() if llm is not None else None,
        health=health,
        reread=[s for s in reread if s in consumed],
    )


def _reflect(
    repo: MemoryRepo,
    base: str | None,
    ws: WorkingSet,
    section: dict[str, Any],
    ruleset: RuleSet,
    *,
    now: datetime,
    budget: Budget,
    llm: LLMRun | None,
) -> list[Operation]:
    """The reflect phase: the rules' reflections, then the model's lessons when one is set."""
    reflect = reflect_settings(section)
    paths = repo.session_paths(base)
    ops = plan_reflect(ws, reflect, sessions=paths, now=now)
    if llm is not None:
        from dreamgit.dream.llm_reflect import llm_reflect  # only with a model

        ops += llm_reflect(llm, ws, reflect, ruleset, sessions=paths, now=now, budget=budget)
    return ops


def _index_reads(promotion: PromotionSettings) -> tuple[Expression, ...]:
    """What :func:`indexed_memories` evaluates on every memory: vetting evaluates it too,
    while each memory's environment is at hand."""
    return () if promotion.index_staged else (promotion.candidates,)


def indexed_memories(repo: MemoryRepo, memories: list[Memory], now: datetime) -> list[Memory]:
    """The memories ``MEMORY.md`` lists: short-term ones (the promotion candidates below
    ``promote_to``) enter it only once promoted, unless the rules say
    ``promotion: {index_staged: true}``. A durable memory that became a candidate for a
    higher priority (a lasting truth) stays listed; a lesson (a correction the reflect
    phase made an instruction) is staged: listed only once promoted."""
    promotion = load_settings(repo).promotion
    if promotion.index_staged:
        return memories
    durable = priority_rank(promotion.promote_to)
    # the check's values vetting kept, read in one walk
    candidates = values_each(promotion.candidates, memories, now, walking=True)
    return [
        m
        for m, candidate in zip(memories, candidates, strict=True)
        if not candidate or (priority_rank(m.priority) >= durable and LESSON not in m.tags)
    ]


def _index_op(
    repo: MemoryRepo,
    base: str | None,
    ws: WorkingSet,
    ruleset: RuleSet,
    now: datetime,
    *,
    before: list[Memory],
) -> Operation | None:
    budgets = ruleset.budgets
    fmt = ws.format
    existing = repo.read_text(fmt.index_path, base) if fmt.index_path else None
    shown = indexed_memories(repo, list(ws.active.values()), now)
    if fmt.index_style == "dreamgit" and (existing is None or is_generated(existing)):
        result = render_index(
            shown,
            order=index_key(ruleset, now),
            index_chars=budgets.index_chars,
            index_line_chars=budgets.index_line_chars,
        )
    elif fmt.index_style:
        # An index someone wrote (Claude Code's, or a hand-made one adopted into
        # dreamgit's layout): their lines stay, dreamgit's go inside a fence.
        limit = next((b for b in fmt.budgets() if b.path == fmt.index_path), None)
        result = render_agent_index(
            existing,
            shown,
            order=index_key(ruleset, now),
            index_line_chars=budgets.index_line_chars,
            # the files the dream emptied: the paths at the start are not held through
            # the plan for this alone (at 100,000 memories a set of 4 MB at the peak)
            gone={m.path for m in before}.difference(ws.paths),
            max_lines=(limit.lines if limit else None) or CLAUDE_INDEX_LINES,
            max_bytes=(limit.chars if limit else None) or budgets.index_chars,
        )
    else:
        return None
    forget_envs()  # the index order is the plan's last reader of memories' rule names
    if existing == result.text:
        return None
    omitted = f", {len(result.omitted)} left out for the budget" if result.omitted else ""
    return Operation(
        op="index",
        phase="index",
        rule="index",
        memories=[],
        summary=f"index: {fmt.index_path} lists {plural(len(result.included), 'memory')}{omitted}",
        changes={fmt.index_path: result.text.encode("utf-8")},
    )
