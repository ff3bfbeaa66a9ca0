"""``dreamgit prompts``: list the prompt templates and render one with the repository's data.

``prompts show NAME`` renders exactly what a dream would send (or, for
``summary``, the pull-request body of the last run), using the repository's
override from ``.dreamgit/prompts/`` when there is one, so a user editing a
template sees the result before any model is asked.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import click

from dreamgit.cli.render import emit_json, json_option
from dreamgit.cli.state import CliState, pass_state
from dreamgit.dream.status import pending_sessions
from dreamgit.errors import MemoryFileError, NotFoundError, UserError
from dreamgit.extract.duplicates import DupItem, find_duplicate_pairs, group_duplicates
from dreamgit.history.runrecords import read_runs
from dreamgit.history.summary import render_summary
from dreamgit.llm.context import consolidate_context, supersede_context
from dreamgit.llm.contract import answer_schema
from dreamgit.llm.proposals import Thresholds
from dreamgit.model import Memory, Session
from dreamgit.store import layout
from dreamgit.store.repo import MemoryRepo
from dreamgit.store.sessionfile import read_session
from dreamgit.templating import available_templates, render, template_file

__all__ = ["prompts"]

#: How similar memories must be to be shown together as a consolidate group.
_GROUP_SIMILARITY = 0.5


@click.group()
def prompts() -> None:
    """List the prompt templates, or render one with this repository's data."""


def _open(state: CliState) -> MemoryRepo:
    repo = MemoryRepo.open(state.path)
    repo.require_initialised()
    return repo


@prompts.command("list")
@json_option
@pass_state
def list_prompts(state: CliState, as_json: bool) -> None:
    """Bundled templates, and which ones this repository overrides."""
    overrides = _open(state).list_dir(layout.PROMPTS)
    names = available_templates()
    if as_json:
        emit_json([{"name": n, "overridden": template_file(n) in overrides} for n in names])
        return
    for name in names:
        file = template_file(name)
        click.echo(f"{name}\t{layout.PROMPTS}{file}" if file in overrides else f"{name}\tbundled")


@prompts.command("show")
@click.argument("name", required=False)
@click.option(
    "--schema",
    is_flag=True,
    help="Print the JSON Schema of the answer every prompt asks the model for, not a prompt.",
)
@click.option("--session", "session_ids", multiple=True, help="A session to gather from.")
@click.option("--memory", "memory_ids", multiple=True, help="A memory to include (repeatable).")
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=None,
    help="gather: this many prompts, one per pending session, oldest first (default 1); "
    "consolidate/supersede: at most this many memories (default 5).",
)
@pass_state
def show(
    state: CliState,
    name: str | None,
    schema: bool,
    session_ids: tuple[str, ...],
    memory_ids: tuple[str, ...],
    limit: int | None,
) -> None:
    """Render prompt NAME (gather, consolidate, supersede, reflect, system, repair, summary).

    gather is rendered exactly as a run sends it: one session per prompt, with
    the highest-ranked known memories (at most 200) and the rules' thresholds.
    --schema prints the JSON Schema of the answer ({"proposals": [...]}) instead.
    """
    if schema:
        emit_json(answer_schema())
        return
    if name is None:
        raise UserError(
            "prompts show needs the NAME of a prompt",
            hint="see `dreamgit prompts list`, or print the answer's schema with --schema",
        )
    repo = _open(state)
    now = state.now()
    overrides = repo.list_dir(layout.PROMPTS)
    base = template_file(name).removesuffix(".md.j2")
    if base == "summary":
        runs = read_runs(repo.store, repo.tip())
        if not runs:
            raise UserError("no dream run recorded yet", hint="run `dreamgit run` first")
        # A record on main got there by its run's merge: the stored file leaves that out.
        latest = {**runs[-1], "merged": True}
        click.echo(render_summary(latest, overrides=overrides), nl=False)
        return
    if base == "gather":
        _show_gather(repo, name, now, session_ids, limit or 1, overrides)
        return
    context = _context(repo, base, now, session_ids, memory_ids, limit or 5)
    click.echo(render(name, context, overrides=overrides), nl=False)


def _show_gather(
    repo: MemoryRepo,
    name: str,
    now: datetime,
    session_ids: tuple[str, ...],
    limit: int,
    overrides: dict[str, str],
) -> None:
    """The gather prompts a run would send first: same memories, thresholds and limits."""
    from dreamgit.dream.llm_phase import gather_prompt_context, known_for_gather
    from dreamgit.ruleset.repo_rules import repo_ruleset

    rules = repo_ruleset(repo)
    sessions = _sessions(repo, session_ids, limit, now)
    if not sessions:
        raise UserError(
            "no pending session to gather from",
            hint="log one with `dreamgit log`, or name one with --session ID",
        )
    known = known_for_gather(repo.memories(now=now), rules, now)
    thresholds = Thresholds.from_mapping(rules.proposals.as_dict())
    for n, session in enumerate(sessions, start=1):
        if len(sessions) > 1:
            click.echo(f"===== gather prompt {n} of {len(sessions)}: session {session.id} =====")
        context = gather_prompt_context(
            session,
            known,
            now=now,
            thresholds=thresholds,
            max_adds=rules.limits.max_adds_per_run,
        )
        click.echo(render(name, context, overrides=overrides), nl=False)


def _thresholds(repo: MemoryRepo) -> Thresholds:
    # The rule set's proposals section; the config may carry one while rules are wired.
    section = repo.config().get("proposals")
    return Thresholds.from_mapping(section) if isinstance(section, dict) else Thresholds()


def _context(
    repo: MemoryRepo,
    name: str,
    now: datetime,
    session_ids: tuple[str, ...],
    memory_ids: tuple[str, ...],
    limit: int,
) -> dict[str, Any]:
    thresholds = _thresholds(repo)
    memories = repo.memories(now=now)
    chosen = _pick(memories, memory_ids)
    if name == "consolidate":
        group = chosen or _similar_group(memories, limit)
        return consolidate_context(group, now=now, thresholds=thresholds)
    if name == "supersede":
        newer, older = (chosen[0], chosen[1:]) if chosen else _supersede_pair(memories, limit)
        return supersede_context(newer, older, now=now, thresholds=thresholds)
    if name == "reflect":
        return _reflect_context(repo, memories, now, thresholds)
    if name == "repair":
        return {"error": 'proposals[0].confidence: expected a number from 0 to 1, got "high"'}
    # system and repository-only templates get no data of their own.
    return {}


def _reflect_context(
    repo: MemoryRepo, memories: list[Memory], now: datetime, thresholds: Thresholds
) -> dict[str, Any]:
    """The reflect prompt as a run sends it: the window's memories with their sightings."""
    from dreamgit.dream.llm_reflect import reflect_prompt_context, window_sightings
    from dreamgit.dream.reflect.settings import reflect_settings
    from dreamgit.dream.reflect.sightings import session_days
    from dreamgit.recall.settings import load_settings

    settings = reflect_settings(load_settings(repo).reflect)
    days = session_days(repo.session_paths(repo.tip()))
    seen = window_sightings(memories, days, settings, now)
    return reflect_prompt_context({m.id: m for m in memories}, seen, settings, thresholds, now)


def _sessions(
    repo: MemoryRepo, wanted: tuple[str, ...], limit: int, now: datetime
) -> list[Session]:
    """The sessions named, else the pending ones in the order a run sends them (oldest first)."""
    paths = repo.session_paths() if wanted else pending_sessions(repo, repo.tip())
    ids = list(wanted) if wanted else sorted(paths)
    sessions: list[Session] = []
    for ident in ids:
        data = repo.store.read_path(repo.tip(), paths[ident]) if ident in paths else None
        if data is None:
            raise NotFoundError(
                f"no session with id {ident}", hint="list sessions with `dreamgit status`"
            )
        try:
            sessions.append(read_session(data, path=paths[ident], fallback_time=now))
        except MemoryFileError:
            if wanted:
                raise
            continue  # a run reports an unreadable session and sends it to no model
    if wanted:
        return sessions
    return sorted(sessions, key=lambda s: (s.created, s.id))[:limit]


def _pick(memories: list[Memory], wanted: tuple[str, ...]) -> list[Memory]:
    by_id = {m.id: m for m in memories}
    for ident in wanted:
        if ident not in by_id:
            raise NotFoundError(
                f"no active memory with id {ident}", hint="list ids with `dreamgit memories`"
            )
    return [by_id[i] for i in wanted]


def _similar_group(memories: list[Memory], limit: int) -> list[Memory]:
    """The first group of similar memories, as a dream would send it."""
    ordered = sorted(memories, key=lambda m: (m.created, m.id))
    items = [DupItem.from_memory(m) for m in ordered]
    pairs = find_duplicate_pairs(items, threshold=_GROUP_SIMILARITY)
    groups = group_duplicates(items, pairs)
    if not groups:
        raise UserError(
            "no group of similar memories to show",
            hint="name the memories with --memory ID (repeatable)",
        )
    by_id = {m.id: m for m in memories}
    return [by_id[i] for i in groups[0][:limit]]


def _supersede_pair(memories: list[Memory], limit: int) -> tuple[Memory, list[Memory]]:
    """The newest memory that shares a key (else a topic) with older ones, and those."""
    newest_first = sorted(memories, key=lambda m: (m.created, m.id), reverse=True)
    for by_key in (True, False):
        for newer in newest_first:
            older = [
                m
                for m in newest_first
                if m.created < newer.created
                and (
                    (newer.key is not None and m.key == newer.key)
                    if by_key
                    else m.topic == newer.topic
                )
            ]
            if older:
                return newer, older[:limit]
    raise UserError(
        "no memory with older ones of the same key or topic to show",
        hint="name the newer memory first, then older ones, with --memory ID",
    )
