"""Everyday commands: init, add, show, memories, topics, forget, status."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import click

from dreamgit.cli.history_view import one_line, print_lineage, removed_versions_of
from dreamgit.cli.opening import open_repo
from dreamgit.cli.render import emit_json, json_option, warn
from dreamgit.cli.state import CliState, pass_state
from dreamgit.cli.statusview import status_output
from dreamgit.clock import format_time
from dreamgit.dream.statusviews import follow_status_view
from dreamgit.errors import NotARepositoryError, NotFoundError, UserError
from dreamgit.model import MEMORY_TYPES, PRIORITIES, Memory
from dreamgit.recall.views import follow_view
from dreamgit.store.formats import FORMAT_NAMES
from dreamgit.store.repo import MemoryRepo


@click.command()
@click.argument("path", required=False, type=click.Path(file_okay=False, path_type=Path))
@click.option("--bare", is_flag=True, help="Create a bare repository (no work tree).")
@click.option(
    "--github",
    is_flag=True,
    help="Also commit .github/workflows/dream.yml for scheduled dreams "
    "(into an existing memory repository too).",
)
@click.option(
    "--log-from",
    "log_from",
    type=(click.Choice(["claude-code"]), str),
    multiple=True,
    metavar="AGENT PATH",
    help="With --github: the workflow first logs AGENT's sessions committed under PATH "
    "(inside the repository). Repeatable.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMAT_NAMES),
    default=None,
    help="The memory format (default: detected from the files already there).",
)
@json_option
@pass_state
def init(
    state: CliState,
    path: Path | None,
    bare: bool,
    github: bool,
    log_from: tuple[tuple[str, str], ...],
    fmt: str | None,
    as_json: bool,
) -> None:
    """Create a memory repository, or adopt the files a folder holds (git init if needed).

    With --github, an existing memory repository gets the scheduled workflow
    added; running it again changes nothing, and a workflow someone edited is
    never overwritten.
    """
    if log_from and not github:
        raise click.UsageError("--log-from goes with --github (for cron: install-cron --log-from)")
    if github:
        from dreamgit.integrations.github import WORKFLOW_PATH, add_workflow, workflow_text

        workflow_text(log_from=log_from)  # a bad --log-from stops before anything is written
    target = path or state.path
    existed = github and _is_memory_repo(target)
    lines = []
    if existed:
        repo = MemoryRepo.open(target)
        lines.append(f"{target} is already a memory repository")
    else:
        repo = MemoryRepo.init(target, bare=bare, now=state.fixed_now(), format=fmt)
        if repo.adopted is not None and (repo.adopted.files or repo.adopted.format != "dreamgit"):
            lines.append(repo.adopted.message)
        lines.append(f"initialised memory repository in {target}")
    commit, workflow = None, None
    if github:
        commit = add_workflow(repo, now=state.now(), log_from=log_from)
        workflow = "added" if commit else "already there"
        lines.append(f"{WORKFLOW_PATH}: {workflow}")
    if as_json:
        emit_json(
            {"path": str(target), "created": not existed, "workflow": workflow, "commit": commit}
        )
        return
    for line in lines:
        click.echo(line)


def _is_memory_repo(path: Path) -> bool:
    try:
        MemoryRepo.open(path).require_initialised()
    except NotARepositoryError:
        return False
    return True


@click.command()
@click.argument("text")
@click.option("--topic", required=True, help="Topic folder, e.g. preferences.")
@click.option("--priority", type=click.Choice(PRIORITIES), default="normal", show_default=True)
@click.option("--tag", "tags", multiple=True, help="A tag (repeatable).")
@click.option("--key", default=None, help="A slot: a newer memory with the same key supersedes.")
@click.option("--type", "kind", type=click.Choice(MEMORY_TYPES), default="user", show_default=True)
@json_option
@pass_state
def add(
    state: CliState,
    text: str,
    topic: str,
    priority: str,
    tags: tuple[str],
    key: str | None,
    kind: str,
    as_json: bool,
) -> None:
    """Add a memory by hand; prints its id.

    The same checks as MCP's remember: text that reads like an instruction to a model
    is refused, and text an active memory already says reinforces that memory.
    """
    from dreamgit.integrations.remember import remember

    repo = open_repo(state)
    done = remember(
        repo, text, topic=topic, priority=priority, tags=tags, key=key, type=kind, now=state.now()
    )
    follow_view(repo)  # the next recall answers from the derived store
    follow_status_view(repo)  # and the next status
    if as_json:
        emit_json({**done.memory.to_dict(), "reinforced": done.reinforced})
        return
    if done.reinforced:
        warn(f"{done.memory.id} already says this: reinforced it instead of adding a second one")
    click.echo(done.memory.id)


@click.command()
@click.argument("memory_id")
@click.option("--as-of", "as_of", metavar="WHEN", help="As main held it then (date, time or age).")
@click.option(
    "--history",
    "with_history",
    is_flag=True,
    help="Every commit that touched it, and its removed versions (for restore --version).",
)
@json_option
@pass_state
def show(
    state: CliState, memory_id: str, as_of: str | None, with_history: bool, as_json: bool
) -> None:
    """Show one memory (now, as of a time, or its whole lineage)."""
    repo = open_repo(state)
    if with_history:
        from dreamgit.history.lineage import lineage

        steps = lineage(repo, memory_id)
        versions = removed_versions_of(repo, memory_id, now=state.now())
        print_lineage(steps, wanted=memory_id, versions=versions, as_json=as_json)
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
    width = max((len(f"{m.topic}/{m.slug}") for m in found), default=0)
    for m in found:
        where = f"{m.topic}/{m.slug}"
        click.echo(f"{m.id}  {m.priority:<9} {where:<{width}}  {one_line(m.text)}")


def _as_of(repo: MemoryRepo, state: CliState, as_of: str | None) -> tuple[str | None, datetime]:
    """(main's commit then, the time) for ``--as-of``; (None, now) without it."""
    now = state.now()
    if as_of is None:
        return None, now
    from dreamgit.history.asof import main_as_of, parse_when

    when = parse_when(as_of, now=now)
    return main_as_of(repo, when), when


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
@click.argument("ids", nargs=-1)
@click.option("--match", default=None, help="Memories whose text holds TEXT (see --regex).")
@click.option("--regex", is_flag=True, help="Read --match as a regular expression.")
@click.option("--older-than", default=None, help="Memories created longer ago (30d, 12h, 2w).")
@click.option("--topic", default=None, help="Memories of this topic.")
@click.option("--session", default=None, help="Memories gathered from this session id.")
@click.option("--dry-run", is_flag=True, help="List what would be forgotten; change nothing.")
@json_option
@pass_state
def forget(
    state: CliState,
    ids: tuple[str],
    match: str | None,
    regex: bool,
    older_than: str | None,
    topic: str | None,
    session: str | None,
    dry_run: bool,
    as_json: bool,
) -> None:
    """Remove memories from the active set, by id or by pattern, in one commit
    (history keeps them: see restore)."""
    if not ids and not (match or older_than or topic or session):
        raise click.UsageError(
            "forget needs ids or at least one of --match, --older-than, --topic, --session"
        )
    repo = open_repo(state)
    kept: list[Memory] = []
    if ids and (match or older_than or topic or session):
        raise UserError("forget takes ids or a pattern, not both", hint="run it once for each")
    if ids and dry_run:
        gone = [repo.get_memory(ident, now=state.now()) for ident in ids]
    elif ids:
        from dreamgit.store import operations  # the secret scanner: only for a write

        gone = operations.forget(repo, ids, now=state.now())
    else:
        from dreamgit.recall.forgetting import ForgetFilter, forget_matching

        spec = ForgetFilter.written(
            match=match, regex=regex, older_than=older_than, topic=topic, session=session
        )
        gone, kept = forget_matching(repo, spec, now=state.now(), dry_run=dry_run)
    if gone and not dry_run:
        follow_view(repo)  # the next recall answers from the derived store
    for m in kept:
        warn(f"kept {m.id} ({m.path}): protected; forget it by id if you mean it")
    if as_json:
        emit_json([{"id": m.id, "path": m.path} for m in gone])
        return
    for m in gone:
        click.echo(f"{'would forget' if dry_run else 'forgot'} {m.id} ({m.path})")
    if not gone:
        click.echo("nothing matches", err=True)


@click.command()
@json_option
@pass_state
def status(state: CliState, as_json: bool) -> None:
    """Counts, topics, pending sessions, last run, and whether a dream is due."""
    # The same lines a plain `dreamgit status` prints without click (cli/statusrun.py).
    lines, problems = status_output(state.path, state.now(), as_json=as_json)
    for problem in problems:
        warn(problem)
    for line in lines:
        click.echo(line)
