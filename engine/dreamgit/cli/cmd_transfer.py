"""Export and import: `dreamgit export --format F [--out DIR]`, `dreamgit import --from F PATH`."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import click

from dreamgit.cli.opening import open_repo
from dreamgit.cli.render import warn
from dreamgit.cli.state import CliState, pass_state
from dreamgit.errors import UserError
from dreamgit.model import Memory
from dreamgit.store import operations
from dreamgit.store.formats import FORMAT_NAMES
from dreamgit.store.repo import MemoryRepo
from dreamgit.store.transfer import EXCHANGE, export_files, read_export

_KINDS = click.Choice([*EXCHANGE, *FORMAT_NAMES])


@click.command("export")
@click.option("--format", "kind", type=_KINDS, required=True, help="What to write.")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder to write into (json/jsonl/markdown go to stdout without it).",
)
@pass_state
def export(state: CliState, kind: str, out: Path | None) -> None:
    """Write the active memories as JSON, JSON Lines, Markdown, or an agent's files."""
    repo = open_repo(state)
    memories = repo.memories(now=_export_time(state, repo))
    left_out: list[Memory] = []
    files = export_files(memories, kind, left_out=left_out)
    if left_out:
        warn(
            f"left out {len(left_out)} of {len(memories)} memories that {kind}'s budgets "
            f"cannot hold (lowest priority first): {', '.join(m.id for m in left_out)}"
        )
    if out is None:
        if kind not in EXCHANGE:
            raise click.UsageError(f"--format {kind} writes a folder: give --out DIR")
        click.echo(next(iter(files.values())), nl=False)
        return
    if out.exists() and any(out.iterdir()):
        raise UserError(f"{out} is not empty", hint="export into a new or empty folder")
    for rel, text in sorted(files.items()):
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    click.echo(f"exported {len(memories) - len(left_out)} memories as {kind} to {out}")


def _export_time(state: CliState, repo: MemoryRepo) -> datetime:
    """--now, else the time of main's tip: a memory with no recorded times (a hand-written
    file) exports with that one, so the same repository exports the same bytes."""
    fixed, tip = state.fixed_now(), repo.tip()
    if fixed is not None or tip is None:
        return fixed or state.now()
    return datetime.fromtimestamp(repo.store.commit_info(tip).time, UTC)


@click.command("import")
@click.option("--from", "kind", type=_KINDS, required=True, help="What PATH holds.")
@click.argument("path", type=click.Path(path_type=Path))
@pass_state
def import_(state: CliState, kind: str, path: Path) -> None:
    """Add the memories of an export (or another agent's folder) to this repository."""
    repo = open_repo(state)
    memories = read_export(kind, path, now=state.now())
    added = operations.import_memories(repo, memories, origin=kind, now=state.now())
    for memory in added:
        click.echo(memory.id)
    click.echo(
        f"imported {len(added)} of {len(memories)} memories ({len(memories) - len(added)} "
        "already there)",
        err=True,
    )
