"""Running a dream: gate, plan, one commit per operation on ``dream/<run-id>``, merge.

The dream branch starts at the main tip the plan was made from. Each operation
becomes one commit with ``Dream-*`` trailers; the diary entry and the run
record come last. Main then moves by compare-and-swap (fast-forward, or a merge
commit when other writers got in meanwhile). A crash anywhere leaves main
either as it was or fully merged; the unfinished branch is reported by
``status`` as abandoned and a rerun starts afresh.
"""

from __future__ import annotations

import json
from contextlib import suppress
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

from dreamgit import faults
from dreamgit import trailers as tr
from dreamgit.clock import format_time
from dreamgit.dream.diary import prepend_entry, render_diary_entry
from dreamgit.dream.dreambranch import DreamBranch
from dreamgit.dream.gate import evaluate_gate
from dreamgit.dream.llm_setup import open_llm
from dreamgit.dream.plan import Plan, Progress, plan_dream, silent
from dreamgit.dream.reindex import renderer
from dreamgit.dream.status import dream_lock_path, gate_figures
from dreamgit.dream.workset import Operation
from dreamgit.errors import ConflictError, DreamgitError
from dreamgit.gitstore import StaleTipError
from dreamgit.gitstore.locks import try_exclusive
from dreamgit.history.branches import OpenBranch, review_branches
from dreamgit.history.mainmerge import merge_branch
from dreamgit.history.runrecords import read_runs, record_path
from dreamgit.ids import run_id as make_run_id
from dreamgit.jsontext import as_json
from dreamgit.model import plural
from dreamgit.recall.fold import fold_signals, signals_waiting
from dreamgit.records import RunRecord
from dreamgit.ruleset import RuleSet
from dreamgit.ruleset.repo_rules import repo_ruleset
from dreamgit.store import layout
from dreamgit.store.formats import Texts
from dreamgit.store.pausedgc import paused_gc
from dreamgit.store.repo import MemoryRepo
from dreamgit.store.secrets import redact_value

if TYPE_CHECKING:
    from dreamgit.dream.llm_phase import LLMRun
    from dreamgit.llm.base import LLMAdapter

__all__ = ["MemoryCheck", "dream"]


class MemoryCheck(Protocol):
    """The memory tests' verdict on a dream branch before it merges (``report.gate``).

    None when no tests run; else a mapping whose ``held`` says the run must be left
    for review. The check lives above the dream, so the caller hands it in.
    """

    def __call__(
        self, repo: MemoryRepo, *, base: str | None, tip: str, record: RunRecord, now: datetime
    ) -> dict[str, Any] | None: ...


def dream(
    repo: MemoryRepo,
    *,
    now: datetime,
    force: bool = False,
    merge: bool = True,
    gather: bool = True,
    apply: bool = True,
    ruleset: RuleSet | None = None,
    llm: LLMAdapter | str | None = None,
    use_config_llm: bool = True,
    progress: Progress = silent,
    check: MemoryCheck | None = None,
) -> RunRecord:
    """Run (or with ``apply=False`` only plan) one dream; returns the run record.

    ``llm`` names an adapter (or is one); without it the config's ``llm:`` is
    used unless ``use_config_llm`` is False, and without that the dream is
    deterministic. ``progress`` is told each phase as it starts. ``check`` runs
    the memory tests on the branch before the diary: a run it holds is not merged.
    """
    repo.require_initialised()
    run = partial(
        _dream,
        repo,
        now=now,
        force=force,
        merge=merge,
        gather=gather,
        apply=apply,
        ruleset=ruleset,
        llm=llm,
        use_config_llm=use_config_llm,
        progress=progress,
        check=check,
    )
    with paused_gc():  # the run's objects live until it ends: no full passes over them meanwhile
        if repo.indexer is not None:
            return run()
        repo.render_index_with(renderer(lambda: now))  # a merge with main's writes renders it
        try:
            return run()
        finally:
            repo.render_index_with(None)


def _dream(
    repo: MemoryRepo,
    *,
    now: datetime,
    force: bool,
    merge: bool,
    gather: bool,
    apply: bool,
    ruleset: RuleSet | None,
    llm: LLMAdapter | str | None,
    use_config_llm: bool,
    progress: Progress,
    check: MemoryCheck | None,
) -> RunRecord:
    rules = ruleset if ruleset is not None else repo_ruleset(repo)
    model = open_llm(repo, rules, llm, use_config=use_config_llm)
    if not apply:
        return _review(
            repo,
            rules,
            now=now,
            force=force,
            gather=gather,
            merge=merge,
            llm=model,
            progress=progress,
        )
    with try_exclusive(dream_lock_path(repo), busy="another dream is running in this repository"):
        resumed = _finish_interrupted(repo, now)
        # Recall signals are folded into the counters (one commit) even when the gate
        # then says no dream is due: an agent that only recalls still leaves counts.
        recall = {"signals": 0, "hits": 0, "memories": 0}
        if signals_waiting(repo):
            repo.advance_main(lambda _tip: None, now=now)  # commits the spooled signals
            folded = fold_signals(repo, now=now)
            recall = {"signals": folded.signals, "hits": folded.hits, "memories": folded.memories}
        open_branches = review_branches(repo) if gather else []
        if gather and not force:
            due, reason = _gate(repo, rules, now, open_branches)
            if not due:
                return {**_skipped(repo, now, reason), "resumed": resumed, "recall": recall}
        repo.advance_main(lambda _tip: None, now=now)  # commit agent edits first
        plan = plan_dream(
            repo,
            rules,
            now=now,
            gather=gather,
            llm=model,
            exclude=_kept(open_branches),
            progress=progress,
        )
        if plan.is_empty:
            record = _record(plan, run_id=None, now=now, commits=[], applied=True, merge=merge)
        else:
            replaced = [b for b in open_branches if b.replaceable]
            record = _apply(
                repo, plan, now=now, merge=merge, replaces=replaced, progress=progress, check=check
            )
            for branch in replaced:
                repo.store.delete_branch(branch.name, expected=branch.tip)
        return {**record, "resumed": resumed, "recall": recall}


def _kept(open_branches: list[OpenBranch]) -> frozenset[str]:
    """Sessions of branches a person committed to: theirs to merge, not to dream again.

    A branch holding only its run's commits is replaced instead: this dream
    gathers its sessions again with the new ones, from main as it is now.
    """
    return frozenset(s for b in open_branches if not b.replaceable for s in b.sessions)


def _review(
    repo: MemoryRepo,
    rules: RuleSet,
    *,
    now: datetime,
    force: bool,
    gather: bool,
    merge: bool,
    llm: LLMRun | None,
    progress: Progress,
) -> RunRecord:
    """Plan exactly what run would, on main plus any uncommitted agent edits; write nothing."""
    open_branches = review_branches(repo) if gather else []
    if gather and not force:
        due, reason = _gate(repo, rules, now, open_branches)
        if not due:
            return _skipped(repo, now, reason)
    at = repo.preview_agent_edits(now)
    plan = plan_dream(
        repo,
        rules,
        now=now,
        gather=gather,
        at=at,
        llm=llm,
        exclude=_kept(open_branches),
        progress=progress,
    )
    record = _record(plan, run_id=None, now=now, commits=[], applied=False, merge=merge)
    if not plan.is_empty:
        replaced = [b for b in open_branches if b.replaceable]
        if replaced:
            record["replaced"] = [{"branch": b.name, "tip": b.tip} for b in replaced]
        diary = _diary_op(repo, plan, record, at=at, now=now)
        record["ops"].append(diary.to_json(n=len(record["ops"]) + 1, commit=None))
        record["counts"]["diary"] = 1
    return record


def _finish_interrupted(repo: MemoryRepo, now: datetime) -> list[str]:
    """Merge dream branches a crash left complete but unmerged; tidy merged ones away.

    A branch whose record says it was to be merged finished all its commits,
    so merging it now is what its run would have done. Merging it instead of
    dreaming the same sessions again keeps facts from being applied twice.
    A branch that conflicts stays for a person, as ``status`` says.
    """
    resumed = []
    # Ref locks a killed dream left on its branch (we hold the dream lock: none is live).
    repo.store.clear_stale_ref_locks(f"refs/heads/{layout.DREAM_BRANCH_PREFIX}")
    main = repo.tip()
    for name, tip in repo.store.branches(layout.DREAM_BRANCH_PREFIX).items():
        if main is not None and repo.store.is_ancestor(tip, main):
            repo.store.delete_branch(name, expected=tip)
            continue
        run_id = name.removeprefix(layout.DREAM_BRANCH_PREFIX)
        record = next((r for r in read_runs(repo.store, tip) if r.get("run_id") == run_id), None)
        if record is None or not record.get("merge_requested"):
            continue
        try:
            merge_branch(
                repo,
                name,
                message=_merge_message(name, run_id, len(record.get("ops", []))),
                now=now,
                base=record.get("base"),
            )
        except ConflictError:
            continue
        repo.store.delete_branch(name, expected=tip)
        resumed.append(run_id)
        main = repo.tip()
    return resumed


def _merge_message(branch: str, run_id: str, n_ops: int) -> str:
    done = tr.trailers((tr.RUN, run_id), (tr.OP, "merge-run"))
    return f"dream: merge {branch} ({n_ops} operations)\n\n{done}\n"


def _gate(
    repo: MemoryRepo, rules: RuleSet, now: datetime, open_branches: list[OpenBranch]
) -> tuple[bool, str]:
    held = {s for b in open_branches for s in b.sessions}
    return evaluate_gate(rules, **gate_figures(repo, repo.tip(), held=held), now=now)


def _skipped(repo: MemoryRepo, now: datetime, reason: str) -> RunRecord:
    count = repo.format.count(repo.source(repo.tip()))
    return {
        "run_id": None,
        "branch": None,
        "now": format_time(now),
        "applied": False,
        "merged": False,
        "skipped": True,
        "reason": reason,
        "memories_before": count,
        "memories_after": count,
        "sessions": [],
        "counts": {},
        "ops": [],
        "deferred": [],
        "decisions": [],
        "broken": [],
    }


def _new_run_id(repo: MemoryRepo, plan: Plan, now: datetime) -> str:
    salt = 0
    while True:
        ident = make_run_id(now, plan.base or "", str(salt))
        if repo.store.tip(f"{layout.DREAM_BRANCH_PREFIX}{ident}") is None:
            return ident
        salt += 1


def _record(
    plan: Plan,
    *,
    run_id: str | None,
    now: datetime,
    commits: list[str | None],
    applied: bool,
    merge: bool,
) -> RunRecord:
    counts: dict[str, int] = {}
    for op in plan.ops:
        counts[op.op] = counts.get(op.op, 0) + 1
    record: RunRecord = {
        "run_id": run_id,
        "branch": f"{layout.DREAM_BRANCH_PREFIX}{run_id}" if run_id else None,
        "now": format_time(now),
        "base": plan.base,
        "applied": applied,
        "merge_requested": merge,
        "merged": False,
        "skipped": False,
        "reason": "nothing to do" if plan.is_empty else "",
        "memories_before": plan.memories_before,
        "memories_after": plan.memories_after,
        "sessions": plan.sessions,
        "counts": counts,
        "ops": [
            op.to_json(n=k + 1, commit=c)
            for k, (op, c) in enumerate(
                zip(plan.ops, commits or [None] * len(plan.ops), strict=True)
            )
        ],
        "deferred": [d.to_json() for d in plan.deferred],
        "decisions": plan.decisions,
        "broken": [b.render() for b in plan.broken],
    }
    if plan.llm is not None:
        record["llm"] = plan.llm
    if plan.health is not None:
        record["health"] = plan.health
    if plan.reread:
        record["reread"] = plan.reread
    # Decisions hold every proposal verbatim, rejected ones too: nothing leaves unscanned.
    clean: RunRecord = redact_value(record)
    return clean


def _diary_op(
    repo: MemoryRepo, plan: Plan, record: RunRecord, *, at: str | None, now: datetime
) -> Operation:
    """The diary entry's operation on top of ``at``; ``review`` shows it too, its run id to come."""
    run_id = record["run_id"] or "<run-id>"
    diary_path = repo.format.diary_path
    if diary_path:
        entry = prepend_entry(repo.read_text(diary_path, plan.base), render_diary_entry(record))
        changes: dict[str, bytes | None] = {diary_path: entry.encode("utf-8")}
    else:  # the format keeps reflections in the agent's own notes (OpenClaw's REM Sleep)
        texts = Texts(lambda path: repo.read_text(path, at))
        changes = texts.put(repo.format.reflection(texts, render_diary_entry(record), now))
    return Operation(
        op="diary",
        phase="diary",
        rule="diary",
        memories=[],
        summary=f"diary: dream {run_id}",
        changes=changes,
    )


#: The record's lists that grow with the store (a run over 10,000 memories may defer
#: 19,000 prunes): stored one item a line, which the C encoder writes, not indented.
_ITEM_A_LINE = frozenset({"ops", "deferred", "decisions"})


def _record_bytes(record: RunRecord) -> bytes:
    """The stored record: indented JSON, the long lists one compact item a line."""
    # Whether the run got merged is a fact about main, not about the branch: not stored.
    stored = [(k, v) for k, v in record.items() if k != "merged"]
    fields = []
    for key, value in stored:
        if key in _ITEM_A_LINE and isinstance(value, list) and value:
            items = ",\n".join(f"    {as_json(x)}" for x in value)
            text = f"[\n{items}\n  ]"
        else:
            text = json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n  ")
        fields.append(f"  {json.dumps(key, ensure_ascii=False)}: {text}")
    return ("{\n" + ",\n".join(fields) + "\n}\n").encode("utf-8")


def _record_op(run_id: str, record: RunRecord, *, summary: str) -> Operation:
    """The commit that writes (or rewrites) the run's record on its branch."""
    return Operation(
        op="record",
        phase="record",
        rule="record",
        memories=[],
        summary=summary,
        changes={record_path(run_id): _record_bytes(record)},
    )


def _apply(
    repo: MemoryRepo,
    plan: Plan,
    *,
    now: datetime,
    merge: bool,
    replaces: list[OpenBranch],
    progress: Progress,
    check: MemoryCheck | None = None,
) -> RunRecord:
    """Commit ``plan`` on its dream branch, test it, add diary and record, then merge."""
    store = repo.store
    run_id = _new_run_id(repo, plan, now)
    dream_branch = DreamBranch(repo, run_id=run_id, base=plan.base, now=now)
    commit, branch = dream_branch.commit, dream_branch.name
    commits: list[str | None] = []

    phase_done = ""
    progress(f"committing {plural(len(plan.ops), 'operation')} on {branch}")
    for op in plan.ops:
        if phase_done and op.phase != phase_done:
            faults.checkpoint(f"after-{phase_done}")
        commits.append(commit(op))
        faults.checkpoint(f"in-{op.phase}")
        phase_done = op.phase
    record = _record(plan, run_id=run_id, now=now, commits=commits, applied=True, merge=merge)
    if replaces:
        record["replaced"] = [{"branch": b.name, "tip": b.tip} for b in replaces]
    if check is not None:
        progress("running the memory tests")
    verdict = (
        check(repo, base=plan.base, tip=dream_branch.tip or "", record=record, now=now)
        if check
        else None
    )
    if verdict is not None:
        record["tests"] = verdict
        if verdict.get("held"):  # a broken test: left for review, whatever was asked
            merge = False
            record["merge_requested"] = False
            record["reason"] = f"left for review: {plural(len(verdict['broken']), 'test')} broke"
    diary = _diary_op(repo, plan, record, at=dream_branch.tip, now=now)
    commit(diary)
    record["ops"].append(diary.to_json(n=len(record["ops"]) + 1, commit=dream_branch.tip))
    record["counts"]["diary"] = 1
    hooks = store.commit_hooks()
    if hooks:  # said in the record too: the branch may be reviewed where no one saw the run
        record["hooks_skipped"] = hooks
    commit(_record_op(run_id, record, summary=f"record: dream {run_id}"))
    repo.wrote = True
    faults.checkpoint("before-merge")
    if merge:
        progress("merging into main")
        message = _merge_message(branch, run_id, len(record["ops"]))
        try:
            outcome = merge_branch(repo, branch, message=message, now=now, base=plan.base)
        except ConflictError as exc:
            # Main was rewritten meanwhile (a redact) or a writer's change conflicts: the
            # branch stays, and its record says the merge was refused and why.
            record["refused"] = exc.message
            # When the branch was rewritten too, `status` tells the refusal from its base.
            with suppress(DreamgitError, StaleTipError):
                commit(_record_op(run_id, record, summary=f"record: dream {run_id} (refused)"))
            raise
        faults.checkpoint("after-merge")
        store.delete_branch(branch, expected=dream_branch.tip or "")
        record["merged"] = True
        record["merge"] = outcome.how
    return record
