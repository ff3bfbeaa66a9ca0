"""The ``log`` command: record a transcript, or an agent's own session files read by role."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from dreamgit.cli.opening import open_repo
from dreamgit.cli.render import emit_json, json_option, warn
from dreamgit.cli.state import CliState, pass_state
from dreamgit.errors import UserError
from dreamgit.store import agentlog, operations
from dreamgit.store.agentlog import agent_name
from dreamgit.store.formats.agent_files import (
    AGENT_KINDS,
    by_role,
    may_be_agent_file,
)
from dreamgit.store.sessionfile import check_size, check_transcript, read_transcript


@click.command()
@click.argument("text", required=False)
@click.option("--file", "file", type=click.Path(dir_okay=False, path_type=Path), help="Read it.")
@click.option("--summary", default="", help="A one-line summary of the session.")
@click.option("--tag", "tags", multiple=True, help="A tag (repeatable).")
@click.option(
    "--from",
    "origin",
    type=click.Choice(AGENT_KINDS),
    default=None,
    help="Read an agent's own session files from the PATH given as TEXT: Claude Code's "
    "or Codex's *.jsonl folder, SpecStory's .specstory/history/, Aider's chat history.",
)
@json_option
@pass_state
def log(
    state: CliState,
    text: str | None,
    file: Path | None,
    summary: str,
    tags: tuple[str, ...],
    origin: str | None,
    as_json: bool,
) -> None:
    """Record a session transcript (TEXT, --file, or stdin); prints its id.

    A Claude Code or Codex JSONL session, a SpecStory export or an Aider history is
    recognised and read by role. With --from KIND PATH, logs every session of that
    agent under PATH not logged yet, and the new turns of a session that grew.
    """
    if origin is not None:
        _log_from(state, origin, text)
        return
    if text is not None and file is not None:
        raise click.UsageError("give the transcript as TEXT or --file, not both")
    if file is not None:
        try:
            with file.open("rb") as stream:
                transcript = read_transcript(stream, source=str(file), larger=may_be_agent_file)
        except OSError as exc:
            raise UserError(f"{file}: cannot read: {exc.strerror}") from None
        source = str(file)
    elif text is not None:
        transcript = check_transcript(text.encode("utf-8", "surrogateescape"), source="TEXT")
        source = "TEXT"
    else:
        if sys.stdin.isatty():
            raise click.UsageError("give the transcript as TEXT, --file F, or on stdin (a pipe)")
        transcript = read_transcript(sys.stdin.buffer, source="stdin", larger=may_be_agent_file)
        source = "stdin"
    transcript, tags = _by_role(transcript, source, tags)
    repo = open_repo(state)
    session = operations.log_session(repo, transcript, now=state.now(), summary=summary, tags=tags)
    if as_json:
        emit_json({"id": session.id, "path": session.path, "chars": len(session.text)})
        return
    click.echo(session.id)


def _by_role(transcript: str, source: str, tags: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """An agent's session file as marked turns (and its agent as a tag); other text as is."""
    read = by_role(transcript, source=source)
    for problem in read.problems:
        warn(problem)
    if read.kind is not None and read.kind not in tags:
        tags = (*tags, read.kind)
    return check_size(read.text, source=source), tags


def _log_from(state: CliState, origin: str, folder: str | None) -> None:
    if folder is None:
        raise click.UsageError(f"--from {origin} needs the folder of its session files")
    repo = open_repo(state)
    done, problems = agentlog.log_agent_path(
        repo, origin, Path(folder).expanduser(), now=state.now()
    )
    for problem in problems:
        warn(problem)
    for session in done.sessions:
        click.echo(session.id)
    click.echo(
        f"logged {len(done.sessions)} {agent_name(origin)} session(s); "
        f"{done.unchanged} already logged",
        err=True,
    )
