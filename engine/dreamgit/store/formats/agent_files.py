"""Which agent wrote a session file, and its turns: one entry point for every reader.

``log --from KIND PATH`` reads an agent's folder (Claude Code, Codex and OpenClaw
JSONL, SpecStory exports, Aider's history); ``log --file`` and stdin recognise the same
sources from the text itself, never from the file's name alone, and fall back to
the text as it is (a plain ``User:`` / ``Assistant:`` or ``Name:`` transcript).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from dreamgit.store.formats.aider import is_aider, read_aider, read_aider_sessions
from dreamgit.store.formats.claude_sessions import (
    is_claude_session,
    read_claude_data,
    read_claude_sessions,
)
from dreamgit.store.formats.codex_sessions import (
    is_codex_rollout,
    read_codex_rollout,
    read_codex_sessions,
)
from dreamgit.store.formats.openclaw_sessions import (
    is_openclaw_session,
    read_openclaw_session,
    read_openclaw_sessions,
)
from dreamgit.store.formats.specstory import is_specstory, read_specstory, read_specstory_sessions
from dreamgit.store.formats.turns import AgentSession, Progress, read_on

__all__ = ["AGENT_KINDS", "read_agent_folder", "read_agent_text"]

#: The agents whose own session files ``log --from`` reads.
AGENT_KINDS = ("claude-code", "codex", "specstory", "aider", "openclaw")


def read_agent_folder(
    kind: str, path: Path, logged: Mapping[str, Progress] | None = None
) -> tuple[list[AgentSession], list[str]]:
    """The sessions an agent's folder (or Aider's history file) holds, each from where
    ``logged`` (by file key) says it was logged to, and the problems met."""
    if kind == "claude-code":
        return read_claude_sessions(path, logged)
    if kind == "codex":
        found, problems = read_codex_sessions(path)
    elif kind == "specstory":
        found, problems = read_specstory_sessions(path)
    elif kind == "openclaw":
        found, problems = read_openclaw_sessions(path)
    else:
        found, problems = read_aider_sessions(path)
    logged = logged or {}
    kept = []
    for session in found:
        session.key = session.key or session.id
        if read_on(session, logged.get(session.key), problems):
            kept.append(session)
    return kept, problems


def _first_records(text: str) -> list[dict[str, Any]]:
    records = []
    for line in text.splitlines()[:20]:
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict):
            records.append(record)
    return records


def read_agent_text(text: str, *, label: str) -> tuple[list[AgentSession], list[str]] | None:
    """The sessions in ``text`` when an agent's file shape is recognised, else None."""
    problems: list[str] = []
    if text.lstrip().startswith("{"):
        records = _first_records(text)
        if is_openclaw_session(records):
            return [read_openclaw_session(text, label=label, problems=problems)], problems
        if is_codex_rollout(records):
            return [read_codex_rollout(text, label=label, problems=problems)], problems
        if is_claude_session(records):
            found = read_claude_data(
                text.encode("utf-8"), key=Path(label).stem, label=label, problems=problems
            )
            return ([found] if found is not None else []), problems
        return None
    if is_aider(text):
        return read_aider(text, label=label), problems
    if is_specstory(text):
        return [read_specstory(text, label=label)], problems
    return None
