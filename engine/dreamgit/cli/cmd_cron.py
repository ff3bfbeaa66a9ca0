"""``dreamgit install-cron``: schedule nightly dreams on this machine with cron.

Installing twice leaves one entry; installing with another schedule replaces it;
``--remove`` takes it out again. ``--print`` shows the entry without touching the
crontab, for schedulers other than cron.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import click

from dreamgit.cli.state import CliState, pass_state
from dreamgit.errors import NotARepositoryError, UserError
from dreamgit.integrations import cron
from dreamgit.store.repo import MemoryRepo

__all__ = ["install_cron"]

DEFAULT_SCHEDULE = "17 3 * * *"


@click.command("install-cron")
@click.option(
    "--schedule",
    default=DEFAULT_SCHEDULE,
    show_default=True,
    help="Five cron fields in the machine's local time, or a macro such as @daily.",
)
@click.option("--print", "print_only", is_flag=True, help="Print the entry; change nothing.")
@click.option("--remove", is_flag=True, help="Remove this repository's entry instead.")
@click.option(
    "--log-from",
    "log_from",
    type=(click.Choice(cron.LOG_ORIGINS), click.Path(file_okay=False)),
    multiple=True,
    metavar="AGENT PATH",
    help="First log the sessions of AGENT under PATH (claude-code: a project's folder of "
    "*.jsonl), then dream. Repeatable; adds to the config's log: list.",
)
@click.option("--json", "as_json", is_flag=True, help="Report as JSON.")
@pass_state
def install_cron(
    state: CliState,
    schedule: str,
    print_only: bool,
    remove: bool,
    log_from: tuple[tuple[str, str], ...],
    as_json: bool,
) -> None:
    """Run `dreamgit run` on this repository from your crontab (idempotent), after
    logging the agent sessions --log-from and the config's `log:` list name.

    Cron starts jobs with an almost empty environment: an LLM adapter that needs an
    API key must find it in the repository's configuration, not in your shell.
    """
    repo = state.path.expanduser().resolve()
    if not repo.is_dir():
        raise UserError(f"{state.path}: no such directory", hint="pass --repo PATH")
    if remove:
        if print_only:
            raise click.UsageError("--print and --remove do not go together")
        new_text, changed = cron.uninstall(repo, crontab_text=cron.read_crontab())
        if changed:
            cron.write_crontab(new_text)
        _report(
            as_json,
            {"removed": changed, "repo": str(repo)},
            "removed" if changed else "no dreamgit entry for this repository",
        )
        return
    log = cron.default_log_path(repo, env=os.environ)
    sources = [*_configured(repo), *log_from]
    entry = cron.crontab_line(
        schedule=schedule, repo=repo, command=cron.nightly_command(repo, sources), log=log
    )
    if print_only:
        _report(as_json, {"entry": entry, "log": str(log)}, entry)
        return
    new_text, changed = cron.install(entry, crontab_text=cron.read_crontab())
    if changed:
        cron.write_crontab(new_text)
    verdict = "installed" if changed else "already installed"
    _report(
        as_json,
        {"installed": True, "changed": changed, "entry": entry, "log": str(log)},
        f"{verdict}:\n{entry}\nlog: {log}",
    )


def _configured(repo: Path) -> list[tuple[str, str]]:
    """The config's ``log:`` list, when ``repo`` is a memory repository already."""
    try:
        memory = MemoryRepo.open(repo)
    except NotARepositoryError:
        return []
    return cron.configured_sources(memory.config())


def _report(as_json: bool, data: dict[str, object], text: str) -> None:
    click.echo(json.dumps(data, indent=2, sort_keys=True) if as_json else text)
