"""What ``show ID --history`` prints: a memory's lineage and the versions restore can bring back.

Each removal of the memory is numbered as ``restore ID --version N`` takes it
(``store.versions``), in the lineage and in a list of the removed versions with
what tells them apart (priority, tags, path) and, for a version a newer memory
replaced, what replaced it and when (``valid_to``, ``superseded_by``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import click

from dreamgit.cli.render import emit_json
from dreamgit.clock import format_time

if TYPE_CHECKING:
    from dreamgit.history.lineage import Step
    from dreamgit.model import Memory
    from dreamgit.store.repo import MemoryRepo
    from dreamgit.store.versions import Version

__all__ = ["one_line", "print_lineage", "removed_versions_of"]


def print_lineage(
    steps: list[Step], *, wanted: str, versions: list[Version], as_json: bool
) -> None:
    """The lineage ``show --history`` prints, each removal of ``wanted`` with its version."""
    numbers = {v.removed_in: v.number for v in versions}
    retired = {v.number: v.memory for v in versions}

    def number(step: Step) -> int | None:
        return numbers.get(step.commit) if step.memory == wanted and step.text is None else None

    if as_json:
        listed: list[dict[str, Any]] = []
        for step in steps:
            n = number(step)
            listed.append(step.to_json() if n is None else {**step.to_json(), **_end(n, retired)})
        emit_json(listed)
        return
    for step in steps:
        what = f"{step.op} ({step.relation})" if step.relation else step.op
        run = f"  run {step.run}" if step.run else ""
        click.echo(f"{step.time}  {step.commit[:12]}  {step.memory}  {what}  [{step.rule}]{run}")
        if step.sources:
            click.echo(f"    sources: {', '.join(step.sources)}")
        n = number(step)
        if step.text is not None:
            click.echo(f"    {one_line(step.text, 100)}")
        elif n is None:
            click.echo("    (not active)")
        else:
            click.echo(f"    (not active: removed version {n})")
    if versions:
        _print_versions(wanted, versions)


def _print_versions(wanted: str, versions: list[Version]) -> None:
    click.echo(
        f"removed versions of {wanted} (bring one back: dreamgit restore {wanted} --version N):"
    )
    for v in versions:
        tags = f"tags {', '.join(v.memory.tags)}" if v.memory.tags else "no tags"
        removed = v.removed_in[:12] if v.removed_in else "-"
        click.echo(
            f"  {v.number}  {_when(v.removed_at)}  removed in {removed}  "
            f"priority {v.memory.priority}, {tags}  {v.path}"
        )
        if v.memory.superseded_by:
            click.echo(f"     superseded by {', '.join(v.memory.superseded_by)}")


def _end(number: int, retired: dict[int, Memory]) -> dict[str, Any]:
    """A removal step's version and, when a newer memory replaced it, when and by what."""
    memory = retired[number]
    ended: dict[str, Any] = {"version": number}
    if memory.valid_to is not None:
        ended["valid_to"] = format_time(memory.valid_to)
        ended["superseded_by"] = list(memory.superseded_by)
    return ended


def _when(seconds: int) -> str:
    return format_time(datetime.fromtimestamp(seconds, UTC))


def one_line(text: str, width: int = 70) -> str:
    """``text`` on one line, cut to ``width`` characters with an ellipsis."""
    line = " ".join(text.split())
    return line if len(line) <= width else line[: width - 1] + "…"


def removed_versions_of(repo: MemoryRepo, ident: str, *, now: datetime) -> list[Version]:
    """The removed versions ``show --history`` numbers (none in a format without restore)."""
    if repo.format.name != "dreamgit":
        return []
    from dreamgit.store.versions import removed_versions

    return removed_versions(repo, ident, now=now)
