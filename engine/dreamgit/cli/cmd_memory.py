"""Everyday commands: init, log, add, show, memories, topics, forget, restore, status."""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import click

from dreamgit.cli.render import emit_json, json_option, warn
from dreamgit.cli.state import CliState, pass_state
from dreamgit.clock import format_time
from dreamgit.errors import NotFoundError, UserError
from dreamgit.model import MEMORY_TYPES, PRIORITIES
from dreamgit.store import operations
from dreamgit.store.formats import FORMAT_NAMES
from dreamgit.store.repo import MemoryRepo
from dreamgit.store.sessionfile import check_transcript

if TYPE_CHECKING:
    from dreamgit.history.lineage import Step


def open_repo(state: CliState) -> MemoryRepo:
    """The memory repository named by --repo, checked to be one."""
    repo = MemoryRepo.open(state.path)
    repo.require_initialised()
    return repo


@click.command()
@click.argument("path", required=False, type=click.Path(file_okay=False, path_type=Path))
@click.option("--bare", is_flag=True, help="Create a bare repository (no work tree).")
@click.option(
    "--github", is_flag=True, help="Also write .github/workflows/dream.yml for scheduled dreams."
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMAT_NAMES),
    default=None,
    help="The memory format (default: detected from the files already there).",
)
@pass_state
def init(state: CliState, path: Path | None, bare: bool, github: bool, fmt: str | None) -> None:
    """Create a memory repository, or adopt the files a folder holds (git init if needed)."""
    target = path or state.path
    repo = MemoryRepo.init(target, bare=bare, now=state.fixed_now(), format=fmt)
    if repo.adopted is not None and (repo.adopted.files or repo.adopted.format != "dreamgit"):
        click.echo(repo.adopted.message)
    if github:
        from dreamgit.integrations.github import add_workflow

        add_workflow(repo, now=state.now())
    click.echo(f"initialised memory repository in {target}")


@click.command()
@click.argument("text", required=False)
@click.option("--file", "file", type=click.Path(dir_okay=False, path_type=Path), help="Read it.")
@click.option("--summary", default="", help="A one-line summary of the session.")
@click.option("--tag", "tags", multiple=True, help="A tag (repeatable).")
@click.option(
    "--from",
    "origin",
    type=click.Choice(["claude-code"]),
    default=None,
    help="Read an agent's own session files from the folder TEXT names (Claude Code's *.jsonl).",
)
@pass_state
def log(
    state: CliState,
    text: str | None,
    file: Path | None,
    summary: str,
    tags: tuple[str],
    origin: str | None,
) -> None:
    """Record a session transcript (TEXT, --file, or stdin); prints its id.

    With --from claude-code DIR, logs every Claude Code session under DIR not logged yet.
    """
    if origin is not None:
        _log_from(state, origin, text)
        return
    if text is not None and file is not None:
        raise click.UsageError("give the transcript as TEXT or --file, not both")
    if file is not None:
        try:
            data = file.read_bytes()
        except OSError as exc:
            raise UserError(f"{file}: cannot read: {exc.strerror}") from None
        transcript = check_transcript(data, source=str(file))
    elif text is not None:
        transcript = check_transcript(text.encode("utf-8", "surrogateescape"), source="TEXT")
    else:
        if sys.stdin.isatty():
            raise click.UsageError("give the transcript as TEXT, --file F, or on stdin (a pipe)")
        transcript = check_transcript(sys.stdin.buffer.read(), source="stdin")
    repo = open_repo(state)
    session = operations.log_session(repo, transcript, now=state.now(), summary=summary, tags=tags)
    click.echo(session.id)


def _log_from(state: CliState, origin: str, folder: str | None) -> None:
    from dreamgit.store.formats.claude_sessions import read_claude_sessions

    if folder is None:
        raise click.UsageError(f"--from {origin} needs the folder of its session files")
    sessions, problems = read_claude_sessions(Path(folder).expanduser())
    for problem in problems:
        warn(problem)
    repo = open_repo(state)
    logged = operations.log_claude_sessions(repo, sessions, now=state.now())
    for session in logged:
        click.echo(session.id)
    skipped = len(sessions) - len(logged)
    click.echo(f"logged {len(logged)} Claude Code session(s); {skipped} already logged", err=True)


@click.command()
@click.argument("text")
@click.option("--topic", required=True, help="Topic folder, e.g. preferences.")
@click.option("--priority", type=click.Choice(PRIORITIES), default="normal", show_default=True)
@click.option("--tag", "tags", multiple=True, help="A tag (repeatable).")
@click.option("--key", default=None, help="A slot: a newer memory with the same key supersedes.")
@click.option("--type", "kind", type=click.Choice(MEMORY_TYPES), default="user", show_default=True)
@pass_state
def add(
    state: CliState,
    text: str,
    topic: str,
    priority: str,
    tags: tuple[str],
    key: str | None,
    kind: str,
) -> None:
    """Add a memory by hand; prints its id."""
    repo = open_repo(state)
    memory = operations.add_memory(
        repo, text, topic=topic, priority=priority, tags=tags, key=key, type=kind, now=state.now()
    )
    click.echo(memory.id)


@click.command()
@click.argument("memory_id")
@click.option("--as-of", "as_of", metavar="WHEN", help="As main held it then (date, time or age).")
@click.option("--history", "with_history", is_flag=True, help="Every commit that touched it.")
@json_option
@pass_state
def show(
    state: CliState, memory_id: str, as_of: str | None, with_history: bool, as_json: bool
) -> None:
    """Show one memory (now, as of a time, or its whole lineage)."""
    repo = open_repo(state)
    if with_history:
        from dreamgit.history.lineage import lineage

        _print_lineage(lineage(repo, memory_id), as_json=as_json)
        return
    at, now = _as_of(repo, state, as_of)
    if as_of is None:
        memory = repo.get_memory(memory_id, now=now)
    else:
        found = (
            [m for m in repo.snapshot(now=now, at=at).memories if m.id == memory_id] if at else []
        )
        if not found:
            raise NotFoundError(
                f"no active memory with id {memory_id} as of {format_time(now)}",
                hint=f"`dreamgit show {memory_id} --history` shows when it was active",
            )
        memory = found[0]
    if as_json:
        emit_json(memory.to_dict())
        return
    if repo.format.shared_files:  # one entry of a file that holds many (Hermes, OpenClaw)
        click.echo(memory.text)
        return
    click.echo(repo.read_text(memory.path, at) or "", nl=False)


@click.command()
@click.option("--topic", default=None, help="Only this topic.")
@click.option(
    "--as-of", "as_of", metavar="WHEN", help="As main held them then (date, time or age)."
)
@json_option
@pass_state
def memories(state: CliState, topic: str | None, as_of: str | None, as_json: bool) -> None:
    """List active memories (now, or as of a time)."""
    repo = open_repo(state)
    at, now = _as_of(repo, state, as_of)
    snapshot = repo.snapshot(now=now, at=at) if at is not None or as_of is None else None
    found = [] if snapshot is None else snapshot.memories
    for broken in [] if snapshot is None else snapshot.broken:
        warn(broken.render())
    found = [m for m in found if topic is None or m.topic == topic]
    if as_json:
        emit_json([m.to_dict() for m in found])
        return
    for m in found:
        click.echo(f"{m.id}  {m.priority:<9} {m.topic}/{m.slug}  {_one_line(m.text)}")


def _as_of(repo: MemoryRepo, state: CliState, as_of: str | None) -> tuple[str | None, datetime]:
    """(main's commit then, the time) for ``--as-of``; (None, now) without it."""
    now = state.now()
    if as_of is None:
        return None, now
    from dreamgit.history.asof import main_as_of, parse_when

    when = parse_when(as_of, now=now)
    return main_as_of(repo, when), when


def _print_lineage(steps: list[Step], *, as_json: bool) -> None:
    if as_json:
        emit_json([s.to_json() for s in steps])
        return
    for step in steps:
        what = f"{step.op} ({step.relation})" if step.relation else step.op
        run = f"  run {step.run}" if step.run else ""
        click.echo(f"{step.time}  {step.commit[:12]}  {step.memory}  {what}  [{step.rule}]{run}")
        if step.sources:
            click.echo(f"    sources: {', '.join(step.sources)}")
        click.echo(f"    {_one_line(step.text, 100) if step.text is not None else '(not active)'}")


def _one_line(text: str, width: int = 70) -> str:
    line = " ".join(text.split())
    return line if len(line) <= width else line[: width - 1] + "…"


@click.command()
@json_option
@pass_state
def topics(state: CliState, as_json: bool) -> None:
    """List topics with their number of memories."""
    repo = open_repo(state)
    counts: dict[str, int] = {}
    for m in repo.snapshot(now=state.now()).memories:
        counts[m.topic] = counts.get(m.topic, 0) + 1
    if as_json:
        emit_json([{"topic": t, "memories": n} for t, n in sorted(counts.items())])
        return
    for t, n in sorted(counts.items()):
        click.echo(f"{t}\t{n}")


@click.command()
@click.argument("ids", nargs=-1, required=True)
@pass_state
def forget(state: CliState, ids: tuple[str]) -> None:
    """Remove memories from the active set (history keeps them: see restore)."""
    repo = open_repo(state)
    for m in operations.forget(repo, ids, now=state.now()):
        click.echo(f"forgot {m.id} ({m.path})")


@click.command()
@click.argument("memory_id")
@pass_state
def restore(state: CliState, memory_id: str) -> None:
    """Bring back a forgotten, pruned or superseded memory from history."""
    repo = open_repo(state)
    memory = operations.restore(repo, memory_id, now=state.now())
    click.echo(f"restored {memory.id} ({memory.path})")


@click.command()
@json_option
@pass_state
def status(state: CliState, as_json: bool) -> None:
    """Counts, topics, pending sessions, last run, and whether a dream is due."""
    from dreamgit.dream.status import repo_status  # loads the rules engine: only when asked

    repo = MemoryRepo.open(state.path)
    report = repo_status(repo, now=state.now())
    if as_json:
        emit_json(report)
        return
    click.echo(f"memories:         {report['memories']} in {len(report['topics'])} topic(s)")
    click.echo(f"sessions:         {report['sessions']} ({report['pending_sessions']} pending)")
    click.echo(f"last dream:       {report['last_run'] or 'never'}")
    click.echo(f"dream due:        {'yes' if report['due'] else 'no'} — {report['reason']}")
    for name in report["awaiting_review"]:
        click.echo(f"awaiting review:  {name} (dreamgit merge / revert)")
    for name in report["running"]:
        click.echo(f"dreaming now:     {name}")
    for name in report["abandoned"]:
        click.echo(f"abandoned dream:  {name} (a run that did not finish; main was not changed)")
