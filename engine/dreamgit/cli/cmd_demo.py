"""``dreamgit demo``: build a sample memory repository, dream once, show the result."""

from __future__ import annotations

from pathlib import Path

import click

from dreamgit.cli.cmd_dream import print_ops
from dreamgit.cli.render import emit_json, json_option


@click.command()
@click.argument("path", required=False, default="dreamgit-demo", type=click.Path(path_type=Path))
@json_option
def demo(path: Path, as_json: bool) -> None:
    """Create a demo memory repository (default ./dreamgit-demo) and run a dream on it."""
    from dreamgit.demo import build_demo
    from dreamgit.dream.status import repo_status

    result = build_demo(path)
    repo = result.repo
    if as_json:
        report = repo_status(repo, now=result.dreamed_at)
        emit_json({"path": str(path), "run": result.record, "status": report})
        return
    click.echo(f"Demo memory repository: {path}\n")
    click.echo("== dreamgit run (the dream's operations, each one commit)")
    print_ops(result.record)
    click.echo("\n== dreamgit status")
    report = repo_status(repo, now=result.dreamed_at)
    click.echo(
        f"{report['memories']} memories in {', '.join(report['topics'])}; "
        f"{report['sessions']} sessions, {report['pending_sessions']} pending; "
        f"last dream {report['last_run']}"
    )
    click.echo("\n== dreamgit memories")
    for m in repo.memories(now=result.dreamed_at):
        click.echo(f"{m.id}  {m.priority:<9} {m.topic}/{m.slug}")
    click.echo("\n== git log --oneline")
    tip = repo.tip()
    for info in repo.store.walk(tip or "", first_parent=False):
        click.echo(f"{info.id[:7]} {info.subject}")
    click.echo(f"\nLook around: cd {path} && git log --stat, or dreamgit --repo {path} --help")
