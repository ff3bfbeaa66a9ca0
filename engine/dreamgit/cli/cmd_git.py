"""Review and undo through git: merge, discard, revert, diff and history.

The structural diff (``history.memdiff``, on deepdiff, which brings numpy and pydantic,
about 0.3 s of CPU) is imported by ``diff`` alone, so a merge, revert or history does
not pay for it.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import click

from dreamgit.cli.opening import open_repo
from dreamgit.cli.render import emit_json, json_option, warn
from dreamgit.cli.state import CliState, pass_state
from dreamgit.history.revert import revert_run
from dreamgit.history.runmerge import merge_run
from dreamgit.history.runs import RunInfo, find_run, list_runs
from dreamgit.model import plural

if TYPE_CHECKING:
    from dreamgit.history.memdiff import MemoryDiff

SHORT = 12
#: How a merge reached main, as the output and the diary say it.
_HOW = {"fast-forward": "fast-forward", "merge": "three-way merge"}


@click.command()
@click.argument("run_id", metavar="RUN")
@json_option
@pass_state
def merge(state: CliState, run_id: str, as_json: bool) -> None:
    """Merge a reviewed dream branch into main (three-way if main moved), then delete it."""
    from dreamgit.dream.diary import mark_merged

    now = state.now()

    def diary(text: str, run: str, how: str) -> str | None:
        return mark_merged(text, run, how=_HOW[how], when=now)

    repo = open_repo(state)
    outcome = merge_run(repo, run_id, now=now, diary=diary)
    if as_json:
        emit_json(outcome.to_json())
    elif outcome.how == "already":
        click.echo(f"run {outcome.run_id} is already merged into {repo.branch}")
    else:
        click.echo(f"merged {outcome.branch} into {repo.branch} ({_HOW[outcome.how]})")


@click.command()
@click.argument("run_id", metavar="RUN")
@json_option
@pass_state
def discard(state: CliState, run_id: str, as_json: bool) -> None:
    """Drop an unmerged dream branch; its sessions become pending again.

    For a run left for review (or whose merge conflicted). A branch someone
    committed to is refused; a merged run is undone with revert instead.
    """
    from dreamgit.history.branches import discard_run

    outcome = discard_run(open_repo(state), run_id)
    if as_json:
        emit_json(outcome.to_json())
        return
    pending = (
        f"; {plural(len(outcome.sessions), 'session')} pending again" if outcome.sessions else ""
    )
    click.echo(f"discarded {outcome.branch}{pending}")


@click.command()
@click.argument("run_id", metavar="RUN")
@click.option(
    "--op",
    "op",
    type=int,
    default=None,
    metavar="N",
    help="Revert only operation N (as `dreamgit history RUN` numbers them).",
)
@json_option
@pass_state
def revert(state: CliState, run_id: str, op: int | None, as_json: bool) -> None:
    """Undo a merged run (or one of its operations) with revert commits on main."""
    outcome = revert_run(open_repo(state), run_id, op=op, now=state.now())
    if as_json:
        emit_json(outcome.to_json())
        return
    for item in outcome.reverted:
        click.echo(
            f"reverted op {item['n']} {item['op']} ({item['commit'][:SHORT]}) "
            f"as {item['revert'][:SHORT]}"
        )
    for item in outcome.skipped:
        click.echo(f"skipped op {item['n']} {item['op']}: {item['reason']}")
    count = len(outcome.reverted)
    if count:
        click.echo(f"run {outcome.run_id}: {count} operation(s) reverted on main")
    else:
        click.echo(f"run {outcome.run_id}: nothing to revert")


def _value(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _print_diff(result: MemoryDiff) -> None:
    def side(label: str, commit: str | None) -> str:
        return f"{label} ({commit[:SHORT]})" if commit else f"{label} (nothing)"

    click.echo(
        f"memories: {side(result.a.label, result.a.commit)} → "
        f"{side(result.b.label, result.b.commit)}"
    )
    for memory in result.added:
        click.echo(f"+ {memory['id']}  {memory['path']}\n    {_value(memory['text'])}")
    for memory in result.removed:
        click.echo(f"- {memory['id']}  {memory['path']}\n    {_value(memory['text'])}")
    for memory in result.changed:
        click.echo(f"~ {memory['id']}  {memory['path']}")
        for name, values in memory["fields"].items():
            click.echo(f"    {name}: {_value(values['old'])} → {_value(values['new'])}")
    for where, paths in result.unreadable.items():
        for path in paths:
            warn(f"{path} at side {where.upper()} could not be read; left out")
    click.echo(
        f"{len(result.added)} added, {len(result.removed)} removed, {len(result.changed)} changed"
    )


@click.command()
@click.argument("a", required=False, metavar="[A]")
@click.argument("b", required=False, metavar="[B]")
@click.option("--since", metavar="WHEN", help="A is main as it was then (date, time, or 7d).")
@json_option
@pass_state
def diff(state: CliState, a: str | None, b: str | None, since: str | None, as_json: bool) -> None:
    """Compare memories between two runs or revisions (RUN: after it; RUN^: before it).

    A defaults to the state before the newest run on main (main~1 when there
    is no run), B to main; with --since, A is main as it was at that time.
    """
    from dreamgit.history.memdiff import memory_diff

    when = None
    if since is not None:
        if b is not None:
            raise click.UsageError("--since takes the place of A: give at most one revision (B)")
        from dreamgit.history.asof import parse_when

        when = parse_when(since, now=state.now(), what="--since")
        a, b = None, a
    result = memory_diff(open_repo(state), a, b, now=state.now(), since=when)
    if as_json:
        emit_json(result.to_json())
    else:
        _print_diff(result)


def _counts(run: RunInfo) -> str:
    return ", ".join(f"{op} {n}" for op, n in run.counts.items()) or "-"


def _tests(run: RunInfo) -> str:
    """``5 ok, 1 FAIL`` for a run's memory tests; ``-`` when it ran none."""
    tests = run.tests
    if tests is None:
        return "-"
    return (
        f"{tests['passed']} ok, {tests['failed']} FAIL"
        if tests["failed"]
        else f"{tests['passed']} ok"
    )


def _print_runs(runs: list[RunInfo]) -> None:
    if not runs:
        click.echo("no dream runs yet")
        return
    click.echo(f"{'run':<22} {'date':<20} {'status':<15} {'tests':<13} operations")
    for run in runs:
        line = (
            f"{run.run_id:<22} {run.date or '?':<20} {run.status:<15} {_tests(run):<13} "
            f"{_counts(run)}"
        )
        if run.reverted and run.status != "reverted":
            line += f"; reverted: {', '.join(str(n) for n in sorted(run.reverted))}"
        click.echo(line)


def _print_run(run: RunInfo) -> None:
    click.echo(f"run {run.run_id}  {run.date or '?'}  {run.status}")
    if run.branch:
        click.echo(f"branch {run.branch}")
    for op in run.ops:
        commit = str(op.get("commit") or "")[:SHORT]
        line = f"{op['n']:>3}  {op['phase']:<11} {op['op']:<10} {commit:<12}  {op['summary']}"
        if op["n"] in run.reverted:
            line += f"  [reverted by {run.reverted[op['n']][:SHORT]}]"
        click.echo(line)


def _run_json(run: RunInfo) -> dict[str, Any]:
    data = run.to_json()
    data["ops"] = [{**op, "reverted_by": run.reverted.get(int(op["n"]))} for op in run.ops]
    return data


@click.command()
@click.argument("run_id", required=False, metavar="[RUN]")
@json_option
@pass_state
def history(state: CliState, run_id: str | None, as_json: bool) -> None:
    """List dream runs with their date, operations and status; or one run's operations."""
    repo = open_repo(state)
    if run_id is not None:
        run = find_run(repo, run_id)
        if as_json:
            emit_json(_run_json(run))
        else:
            _print_run(run)
        return
    runs = list_runs(repo)
    if as_json:
        emit_json([run.to_json() for run in runs])
    else:
        _print_runs(runs)
