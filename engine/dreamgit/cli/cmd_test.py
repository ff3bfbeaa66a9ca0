"""``dreamgit test``: run the memory tests like a test runner; ``test add`` writes one."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from dreamgit.cli.opening import open_repo
from dreamgit.cli.render import emit_json, json_option, warn
from dreamgit.cli.state import CliState, pass_state
from dreamgit.errors import UserError

if TYPE_CHECKING:
    from dreamgit.store.repo import MemoryRepo

__all__ = ["test"]


@click.group(invoke_without_command=True)
@click.option(
    "--rev",
    default=None,
    metavar="REV",
    help="Test this run (its branch or its state after it), branch or commit; default: main.",
)
@json_option
@pass_state
@click.pass_context
def test(ctx: click.Context, state: CliState, rev: str | None, as_json: bool) -> None:
    """Run the memory tests (.dreamgit/tests.yaml and derived ones) through recall.

    Exit status 1 when a test fails or the tests file has a problem.
    """
    if ctx.invoked_subcommand is not None:
        return
    from dreamgit.report.testrun import collect_tests, run_tests

    repo = open_repo(state)
    at = _resolve(repo, rev) if rev else repo.tip()
    now = state.now()
    outcome = run_tests(repo, collect_tests(repo, at, now=now), at, now=now)
    if as_json:
        emit_json(outcome.to_json())
    else:
        for problem in outcome.problems:
            warn(problem)
        for result in outcome.results:
            mark = "PASS" if result.passed else "FAIL"
            why = f" — {result.why()}" if not result.passed else ""
            click.echo(f"{mark}  {result.test.name}{why}")
        passed = len(outcome.results) - len(outcome.failed)
        click.echo(f"{passed} passed, {len(outcome.failed)} failed ({rev or 'main'})")
    if outcome.failed or outcome.problems:
        what = f"{len(outcome.failed)} of {len(outcome.results)} memory tests failed"
        if outcome.problems:
            what += f"; the tests file has {len(outcome.problems)} problem(s)"
        raise UserError(what, hint="`dreamgit test --json` shows each test's answer size and why")


def _resolve(repo: MemoryRepo, rev: str) -> str | None:
    """The commit a run id, branch or revision names (as ``diff`` reads its sides)."""
    from dreamgit.history.memdiff import resolve_side
    from dreamgit.history.runs import list_runs

    return resolve_side(repo, rev, list_runs(repo)).commit


@test.command("add")
@click.argument("query")
@click.option("--expect", multiple=True, metavar="TEXT", help="The answer must hold TEXT.")
@click.option("--not", "forbid", multiple=True, metavar="OLD", help="The answer must not hold OLD.")
@json_option
@pass_state
def add(
    state: CliState, query: str, expect: tuple[str, ...], forbid: tuple[str, ...], as_json: bool
) -> None:
    """Add a test to .dreamgit/tests.yaml (one commit on main)."""
    from dreamgit.report.testrun import add_test

    made = add_test(open_repo(state), query, list(expect), list(forbid), now=state.now())
    if as_json:
        emit_json(made.to_json())
    else:
        click.echo(f"added test {made.name!r}")
