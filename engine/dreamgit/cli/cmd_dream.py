"""Dream commands: run, review (a dry run that writes nothing) and compact."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from dreamgit.cli.opening import open_repo
from dreamgit.cli.progress import progress_reporter
from dreamgit.cli.render import emit_json, json_option, warn
from dreamgit.cli.state import CliState, pass_state
from dreamgit.errors import DreamgitError, TestsBrokeError
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
    state: CliState,
    rules: str | None,
    llm: str | None,
    no_llm: bool,
    *,
    as_json: bool,
    **options: Any,
) -> RunRecord:
    # The dream machinery (rules, extraction) loads here, not when the CLI starts.
    from dreamgit.dream.run import dream
    from dreamgit.report.gate import memory_gate
    from dreamgit.ruleset.repo_rules import ruleset_option_value

    repo = open_repo(state)
    from dreamgit.ruleset.repo_rules import EDITED_NOTE, edited_config

    if rules is None and edited_config(repo) is not None:
        warn(EDITED_NOTE)
    with progress_reporter(enabled=not as_json) as progress:
        record = dream(
            repo,
            now=state.now(),
            ruleset=ruleset_option_value(repo, rules),
            llm=None if no_llm else llm,
            use_config_llm=not no_llm,
            progress=progress,
            check=memory_gate,
            **options,
        )
    if record.get("merged"):
        from dreamgit.recall.views import follow_view

        follow_view(repo)  # the first recall after the dream answers from the derived store
    return record


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
        more = [f"{deferred['more']} more"] if deferred.get("more") else []
        what = " ".join([deferred["op"], *deferred["memories"], *more])
        click.echo(f"deferred: {what} ({deferred['reason']})")
    click.echo(
        f"memories: {record['memories_before']} → {record['memories_after']}; "
        f"sessions gathered: {len(record['sessions'])}"
    )


@click.command()
@click.option("--force", is_flag=True, help="Run even if the gate says no dream is due.")
@click.option(
    "--no-merge",
    is_flag=True,
    help="Leave dream/<run-id> for review; don't merge.",
)
@click.option(
    "--push",
    "remote",
    default=None,
    metavar="REMOTE",
    help="Push the dream branch (main instead, once the dream was merged); delete there "
    "the branches this run replaced (only where they still are as this run saw them).",
)
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
    """Run a dream cycle on dream/<run-id>, merged into main unless --no-merge.

    A branch an earlier --no-merge run left for review is replaced: this run
    dreams its sessions again with the new ones and deletes it, unless someone
    committed to it (then it and its sessions are left alone).
    """
    record = _dream(state, rules, llm, no_llm, as_json=as_json, force=force, merge=not no_merge)
    branch = record["branch"]
    # What the run did is told (and its summary written) before pushing: a push that
    # fails must not hide a run that already happened, perhaps already merged.
    if summary is not None:
        from dreamgit.report.markdown import run_summary

        body = run_summary(open_repo(state), record, now=state.now())
        summary.write_text(body, encoding="utf-8")
    if not as_json:
        print_ops(record)
        print_tests(record)
        if branch:
            main = open_repo(state).branch
            state_text = f"merged into {main}" if record["merged"] else "left for review"
            click.echo(f"dream {record['run_id']}: {state_text} ({branch})")
        for replaced in record.get("replaced", []):
            click.echo(f"replaced {replaced['branch']}: its sessions are dreamed again in this run")
    if not remote:
        if as_json:
            emit_json(record)
        _raise_if_held(record)
        return
    # A merged run's branch is gone: what it changed is on main, so main is pushed.
    target = open_repo(state).branch if record["merged"] else branch
    failure = _push(state, target, remote) if branch and target else None
    if failure is None and branch:
        _drop_replaced(state, record, remote)
    pushed = {"remote": remote, "branch": target, "pushed": bool(branch) and failure is None}
    if as_json:
        emit_json({**record, "push": {**pushed, "error": failure and failure.message}})
    elif pushed["pushed"]:
        click.echo(f"pushed {target} to {remote}")
    if failure is not None:
        raise failure
    _raise_if_held(record)


def print_tests(record: RunRecord) -> None:
    """The memory tests' line of a run, and each test it broke."""
    tests = record.get("tests")
    if not tests:
        return
    click.echo(
        f"memory tests ({tests['gate']}): {tests['passed']} passed, {tests['failed']} failed, "
        f"{tests['new']} new"
    )
    for broken in tests["broken"]:
        click.echo(f"  broke: {broken['name']} — {broken['why']}")


def _raise_if_held(record: RunRecord) -> None:
    tests = record.get("tests") or {}
    if tests.get("held"):
        names = ", ".join(repr(b["name"]) for b in tests["broken"])
        raise TestsBrokeError(
            f"dream {record['run_id']} broke memory tests that pass on main ({names}): "
            f"left for review on {record['branch']}",
            hint="if the change is right, fix the tests and `dreamgit merge RUN`; "
            "else `dreamgit discard RUN`",
        )


def _push(state: CliState, branch: str, remote: str) -> DreamgitError | None:
    """Push ``branch``; the error, if it failed, for the caller to raise after telling."""
    from dreamgit.history.push import push_branch

    try:
        push_branch(open_repo(state), branch, remote=remote)
    except DreamgitError as exc:
        return exc
    return None


def _drop_replaced(state: CliState, record: RunRecord, remote: str) -> None:
    """Delete on the remote the branches this run replaced (closing their pull requests)."""
    from dreamgit.history.push import delete_remote_branch

    for replaced in record.get("replaced", []):
        name = replaced["branch"]
        if not delete_remote_branch(
            open_repo(state), name, remote=remote, expected=replaced["tip"]
        ):
            warn(
                f"{name} on {remote} was not deleted (gone already, or someone pushed to it); "
                "this run's branch holds its sessions"
            )


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
    record = _dream(state, rules, llm, no_llm, as_json=as_json, force=force, apply=False)
    if as_json:
        emit_json(record)
        return
    print_ops(record)
    for replaced in record.get("replaced", []):
        click.echo(f"would replace {replaced['branch']}: its sessions would be dreamed again")


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
    record = _dream(state, rules, llm, no_llm, as_json=as_json, gather=False, merge=not no_merge)
    if as_json:
        emit_json(record)
    else:
        print_ops(record)
        print_tests(record)
    _raise_if_held(record)
