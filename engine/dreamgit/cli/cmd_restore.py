"""``restore``: bring a memory back from history, the latest version or the one asked for.

A version is what one removal left in history, numbered from 1, oldest first
(``store.versions``); ``show ID --history`` prints those numbers and ``restore ID
--version N`` takes them.
"""

from __future__ import annotations

import click

from dreamgit.cli.opening import open_repo
from dreamgit.cli.render import emit_json, json_option
from dreamgit.cli.state import CliState, pass_state
from dreamgit.store import restoring


@click.command()
@click.argument("memory_id")
@click.option(
    "--version",
    "version",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Bring back version N (1 = the oldest removal; `show ID --history` numbers them).",
)
@click.option(
    "--commit",
    "commit",
    metavar="REV",
    default=None,
    help="Bring back the version that commit REV holds (an id, a branch, main~N).",
)
@json_option
@pass_state
def restore(
    state: CliState, memory_id: str, version: int | None, commit: str | None, as_json: bool
) -> None:
    """Bring back a forgotten, pruned or superseded memory from history.

    An id can leave and come back more than once (the same text added again
    reuses its id); each removal leaves a version. Without --version or --commit
    the latest comes back.
    """
    if version is not None and commit is not None:
        raise click.UsageError("give --version or --commit, not both")
    repo = open_repo(state)
    done = restoring.restore_version(
        repo, memory_id, now=state.now(), version=version, commit=commit
    )
    memory, chosen, total = done.memory, done.version, len(done.versions)
    if as_json:
        emit_json(
            {
                **memory.to_dict(),
                "version": chosen.number or None,
                "versions": total,
                "from_commit": chosen.held_in,
            }
        )
        return
    where = f"restored {memory.id} ({memory.path})"
    if commit is not None:
        click.echo(f"{where} as commit {chosen.held_in[:12]} held it")
    elif total > 1 and (version is not None or done.others):
        click.echo(f"{where}: version {chosen.number} of {total}")
    else:
        click.echo(where)
    if version is None and commit is None and done.others:
        click.echo(
            f"note: {len(done.others)} older version(s) differ from it; "
            f"`dreamgit show {memory.id} --history` lists them. To bring one back instead: "
            f"`dreamgit forget {memory.id}`, then `dreamgit restore {memory.id} --version N`"
        )
