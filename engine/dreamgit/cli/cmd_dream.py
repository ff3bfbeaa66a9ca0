"""Dream commands: run, review (a dry run that writes nothing) and compact."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from dreamgit.cli.cmd_memory import open_repo
from dreamgit.cli.render import emit_json, json_option, warn
from dreamgit.cli.state import CliState, pass_state
from dreamgit.records import RunRecord

rules_option = click.option(
    "--rules",
    "rules",
    default=None,
    metavar="NAME|FILE",
    help="Use this rule set (a bundled name or a file) instead of the repository's config.",
)


llm_option = click.option(
    "--llm",
    "llm",
    default=None,
    metavar="NAME",
    help="Let this LLM adapter propose (openai, anthropic, scripted, …); "
    "default: the config's llm: setting, if any.",
)
no_llm_option = click.option(
    "--no-llm", is_flag=True, help="Deterministic only, even if the config names an LLM."
)


def _dream(
    state: CliState, rules: str | None, llm: str | None, no_llm: bool, **options: Any
) -> RunRecord:
    # The dream machinery (rules, extraction) loads here, not when the CLI starts.
    from dreamgit.dream.run import dream
    from dreamgit.ruleset.repo_rules import ruleset_option_value

    repo = open_repo(state)
    return dream(
        repo,
        now=state.now(),
        ruleset=ruleset_option_value(repo, rules),
        llm=None if no_llm else llm,
        use_config_llm=not no_llm,
        **options,
    )


def print_ops(record: RunRecord) -> None:
    for item in record["broken"]:
        warn(item)
    if record["skipped"]:
        click.echo(f"skipped: {record['reason']}")
        return
    ops = record["ops"]
    if not ops:
        click.echo("nothing to do: the memory is settled")
        return
    click.echo(f"{'#':>3}  {'phase':<11} {'op':<10} {'rule':<28} summary")
    for op in ops:
        click.echo(
            f"{op['n']:>3}  {op['phase']:<11} {op['op']:<10} {op['rule']:<28} {op['summary']}"
        )
    for deferred in record["deferred"]:
        what = " ".join([deferred["op"], *deferred["memories"]])
        click.echo(f"deferred: {what} ({deferred['reason']})")
    click.echo(
        f"memories: {record['memories_before']} → {record['memories_after']}; "
        f"sessions gathered: {len(record['sessions'])}"
    )


@click.command()
@click.option("--force", is_flag=True, help="Run even if the gate says no dream is due.")
@click.option("--no-merge", is_flag=True, help="Leave dream/<run-id> for review; don't merge.")
@click.option("--push", "remote", default=None, metavar="REMOTE", help="Push the dream branch.")
@click.option(
    "--summary",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write a Markdown pull-request body for the run to this file.",
)
@rules_option
@llm_option
@no_llm_option
@json_option
@pass_state
def run(
    state: CliState,
    force: bool,
    no_merge: bool,
    remote: str | None,
    summary: Path | None,
    rules: str | None,
    llm: str | None,
    no_llm: bool,
    as_json: bool,
) -> None:
    """Run a dream cycle on dream/<run-id>, merged into main unless --no-merge."""
    record = _dream(state, rules, llm, no_llm, force=force, merge=not no_merge)
    branch = record["branch"]
    if remote and branch:
        from dreamgit.history.push import push_branch

        push_branch(open_repo(state), branch, remote=remote)
    if summary is not None and branch:
        from dreamgit.history.summary import render_summary

        summary.write_text(render_summary(record), encoding="utf-8")
    if as_json:
        emit_json(record)
        return
    print_ops(record)
    if branch:
        state_text = "merged into main" if record["merged"] else "left for review"
        click.echo(f"dream {record['run_id']}: {state_text} ({branch})")


@click.command()
@click.option("--force", is_flag=True, help="Plan even if the gate says no dream is due.")
@rules_option
@llm_option
@no_llm_option
@json_option
@pass_state
def review(
    state: CliState, force: bool, rules: str | None, llm: str | None, no_llm: bool, as_json: bool
) -> None:
    """Show the operations run would apply; writes nothing."""
    record = _dream(state, rules, llm, no_llm, force=force, apply=False)
    if as_json:
        emit_json(record)
        return
    print_ops(record)


@click.command()
@click.option("--no-merge", is_flag=True, help="Leave dream/<run-id> for review; don't merge.")
@rules_option
@llm_option
@no_llm_option
@json_option
@pass_state
def compact(
    state: CliState, no_merge: bool, rules: str | None, llm: str | None, no_llm: bool, as_json: bool
) -> None:
    """Consolidate and prune only (no gathering from sessions)."""
    record = _dream(state, rules, llm, no_llm, gather=False, merge=not no_merge)
    if as_json:
        emit_json(record)
        return
    print_ops(record)
