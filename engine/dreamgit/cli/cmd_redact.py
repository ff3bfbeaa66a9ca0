"""``dreamgit redact``: take a text, or one memory in every version, out of history."""

from __future__ import annotations

import click

from dreamgit.cli.opening import open_repo
from dreamgit.cli.render import emit_json, json_option
from dreamgit.cli.state import CliState, pass_state
from dreamgit.history.redact import Redaction, collect_garbage
from dreamgit.history.redact import redact as redact_history

SHORT = 12

REFLOG = (
    "- this repository's reflog still holds the old commits until they expire: run\n"
    "  `dreamgit redact --gc …` or `git reflog expire --expire=now --all && git gc --prune=now`;"
)
ELSEWHERE = (
    "- remotes keep the old history until you force-push every rewritten branch:\n"
    "  `git push --force-with-lease REMOTE {branches}`;\n"
    "- clones, forks and pull requests (and a forge's caches of them) keep their copies:\n"
    "  ask their owners to re-clone, and ask the forge to purge cached pull-request refs."
)


@click.command()
@click.argument("memory_id", metavar="[ID]", required=False)
@click.option("--match", "match", metavar="TEXT", help="Redact this text wherever it appears.")
@click.option("--regex", is_flag=True, help="Read --match as a regular expression (RE2).")
@click.option(
    "--case-sensitive", is_flag=True, help="Match case exactly (by default case is ignored)."
)
@click.option(
    "--dry-run", is_flag=True, help="List the commits and files affected; change nothing."
)
@click.option("--gc", is_flag=True, help="Then expire the reflog and prune the old objects.")
@json_option
@pass_state
def redact(
    state: CliState,
    memory_id: str | None,
    match: str | None,
    regex: bool,
    case_sensitive: bool,
    dry_run: bool,
    gc: bool,
    as_json: bool,
) -> None:
    """Rewrite history so a text (--match) or memory ID is gone from every managed branch."""
    repo = open_repo(state)
    report = redact_history(
        repo,
        now=state.now(),
        match=match,
        regex=regex,
        memory=memory_id,
        dry_run=dry_run,
        case_sensitive=case_sensitive,
    )
    if gc and not dry_run and report.refs:
        collect_garbage(repo)
    if as_json:
        emit_json(report.to_json())
        return
    _print(report, gc=gc)


def _print(report: Redaction, *, gc: bool) -> None:
    if not report.touched:
        click.echo("nothing to redact: no commit holds it")
        return
    verb = "would rewrite" if report.dry_run else "rewrote"
    for item in report.touched:
        where = ", ".join(item.files) if item.files else "(files unchanged)"
        note = "; message" if item.message else ""
        new = f" → {item.new[:SHORT]}" if item.new else ""
        click.echo(f"{item.commit[:SHORT]}{new}  {where}{note}")
    click.echo(
        f"{verb} {report.rewritten} commit(s); {len(report.touched)} held the text ({report.rule})"
    )
    if report.dry_run:
        return
    click.echo(f"recorded in {report.record} (what and when, never the text)")
    branches = " ".join(name.removeprefix("refs/heads/") for name in sorted(report.refs))
    click.echo("What this cannot reach, and what to do:")
    if not gc:
        click.echo(REFLOG)
    for ref in report.unmanaged:
        click.echo(f"- {ref.ref} is not dreamgit's to move and reaches the old history:")
        click.echo(f"  `{ref.command}`;")
    click.echo(ELSEWHERE.format(branches=branches))
