"""``dreamgit rules``: check a rule file, show the effective rules, explain them on a memory."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import click

from dreamgit.cli.render import emit_json, json_option
from dreamgit.cli.state import CliState, pass_state
from dreamgit.dsl import Priority
from dreamgit.errors import UserError
from dreamgit.ruleset import check_ruleset, load_ruleset
from dreamgit.ruleset.explain import RuleExplanation, explain
from dreamgit.ruleset.files import FolderFiles, RuleFiles
from dreamgit.ruleset.repo_rules import EDITED_NOTE, edited_config, repo_files
from dreamgit.store import layout
from dreamgit.store.repo import MemoryRepo

__all__ = ["rules"]


@click.group()
def rules() -> None:
    """Check, show and explain the rules a dream runs with."""


def _repo_config(state: CliState) -> tuple[MemoryRepo, str | None, RuleFiles]:
    """The config a dream runs with (main's tip) and the files it may extend (the same commit)."""
    repo = MemoryRepo.open(state.path)
    repo.require_initialised()
    tip = repo.tip()
    return repo, repo.read_text(layout.CONFIG, tip), repo_files(repo, tip)


def _file_root(state: CliState, file: Path) -> Path:
    """Where a checked FILE may extend files from: its repository's work tree, else its folder."""
    try:
        workdir = MemoryRepo.open(state.path).store.workdir
    except UserError:
        workdir = None
    if workdir is not None and file.resolve().is_relative_to(Path(workdir).resolve()):
        return Path(workdir)
    return file.parent


@rules.command("check")
@click.argument("file", required=False, type=click.Path(dir_okay=False, path_type=Path))
@json_option
@pass_state
def check(state: CliState, file: Path | None, as_json: bool) -> None:
    """Check FILE (default: the repository's config) and list every error; exit 1 if any.

    Without FILE, the config as edited in the work tree is checked, and a note
    says when it differs from the committed one, which is what dreams use.
    """
    files: RuleFiles
    note = None
    if file is not None:
        try:
            text: str | None = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) else str(exc)
            raise UserError(f"{file}: cannot read: {reason}") from None
        filename, files = str(file), FolderFiles(_file_root(state, file))
    else:
        repo, text, files = _repo_config(state)
        filename = layout.CONFIG
        edited = edited_config(repo)
        if edited is not None and repo.store.workdir is not None:
            # What the user edited is what they want checked; say which one dreams read.
            committed_errors = check_ruleset(text, filename=filename, files=files)
            text, files, note = edited, FolderFiles(Path(repo.store.workdir)), EDITED_NOTE
            if committed_errors:
                note += f"; the committed one has {len(committed_errors)} error(s)"
    errors = check_ruleset(text, filename=filename, files=files)
    if as_json:
        emit_json(
            {
                "file": filename,
                "checked": "committed" if note is None else "work tree",
                "note": note,
                "ok": not errors,
                "errors": [
                    {
                        "file": e.file,
                        "line": e.line,
                        "column": e.column,
                        "message": e.reason,
                        "hint": e.hint,
                    }
                    for e in errors
                ],
            }
        )
    else:
        for error in errors:
            click.echo(error.render())
        if errors:
            plural = "s" if len(errors) > 1 else ""
            click.echo(f"{filename}: {len(errors)} error{plural}")
        else:
            ruleset = load_ruleset(text, filename=filename, files=files)
            counts = ", ".join(
                f"{len(getattr(ruleset, s))} {s}" for s in ("gather", "consolidate", "prune")
            )
            click.echo(f"{filename}: ok ({counts} rules)")
        if note is not None:
            click.echo(f"note: {note}")
    if errors:
        click.get_current_context().exit(1)


@rules.command("show")
@json_option
@pass_state
def show(state: CliState, as_json: bool) -> None:
    """Print the effective rules: the repository's config merged with what it extends."""
    _, text, files = _repo_config(state)
    ruleset = load_ruleset(text, filename=layout.CONFIG, files=files)
    if as_json:
        emit_json({"sources": list(ruleset.sources), **ruleset.to_dict()})
    else:
        click.echo(ruleset.to_yaml(), nl=False)


@rules.command("explain")
@click.argument("memory_id", metavar="ID")
@json_option
@pass_state
def explain_cmd(state: CliState, memory_id: str, as_json: bool) -> None:
    """Show how every rule sees memory ID: the values it read and its result."""
    repo, text, files = _repo_config(state)
    ruleset = load_ruleset(text, filename=layout.CONFIG, files=files)
    now = state.now()
    memory = repo.get_memory(memory_id, now=now)
    items = explain(ruleset, memory, now, others=repo.memories(now=now))
    if as_json:
        emit_json({"id": memory.id, "path": memory.path, "rules": [_json(i) for i in items]})
        return
    click.echo(f"{memory.id}  {memory.path}  ({memory.priority})")
    for item in items:
        click.echo("")
        label = item.section if item.section == item.rule else f"{item.section} {item.rule}"
        click.echo(f"{label}: {format_value(item.result)}")
        click.echo(f"  {item.expression}")
        if item.values:
            shown = ", ".join(f"{k} = {format_value(v)}" for k, v in item.values.items())
            click.echo(f"  {shown}")
        if item.note:
            click.echo(f"  ({item.note})")


def format_value(value: object) -> str:
    """A value as ``rules explain`` prints it: yes/no, 3d 4h, 0.912, 'text'."""
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if value is None:
        return "-"
    if isinstance(value, timedelta):
        return _duration(value)
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, str):
        return repr(value if len(value) <= 60 else value[:57] + "...")
    if isinstance(value, tuple | list):
        return "[" + ", ".join(format_value(v) for v in value) + "]"
    return str(value)


def _duration(value: timedelta) -> str:
    seconds = int(value.total_seconds())
    sign = "-" if seconds < 0 else ""
    seconds = abs(seconds)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = [f"{days}d" if days else "", f"{hours}h" if hours else ""]
    if not days:
        parts.append(f"{minutes}m" if minutes else "")
    text = " ".join(p for p in parts if p)
    return sign + (text or f"{seconds}s")


def _json(item: RuleExplanation) -> dict[str, Any]:
    def plain(value: object) -> Any:
        if isinstance(value, Priority):
            return str(value)
        if isinstance(value, bool | int | float | str) or value is None:
            return value
        if isinstance(value, tuple | list):
            return [plain(v) for v in value]
        return format_value(value)

    return {
        "section": item.section,
        "rule": item.rule,
        "expression": item.expression,
        "result": plain(item.result),
        "values": {k: plain(v) for k, v in item.values.items()},
        "note": item.note,
    }
