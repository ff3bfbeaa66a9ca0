"""OpenClaw session transcripts (``agents/<agent>/sessions/<id>.jsonl``) read by role.

The first record, ``{"type": "session", "id", "timestamp"}``, names the session; each
``{"type": "message", "message": {"role", "content"}}`` after it is a turn when its
role is ``user`` or ``assistant`` (``toolResult`` messages, tool calls, thinking, model
changes and custom events never are). Inside a user's text the harness shapes are
removed as in every other source.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from dreamgit.store.formats.harness import strip_harness
from dreamgit.store.formats.turns import (
    AgentSession,
    json_records,
    read_folder,
    text_of,
    time_of,
)

__all__ = ["is_openclaw_session", "read_openclaw_session", "read_openclaw_sessions"]

KIND = "openclaw"
_ROLES = {"user": "user", "assistant": "assistant"}


def is_openclaw_session(records: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the first records of a JSONL file are an OpenClaw transcript's."""
    return any(r.get("type") == "session" and "id" in r for r in records[:1]) and any(
        r.get("type") == "message" and isinstance(r.get("message"), dict) for r in records
    )


def read_openclaw_session(data: str, *, label: str, problems: list[str]) -> AgentSession:
    """The turns of one transcript's text; bad lines are reported with ``label`` and line."""
    session = AgentSession(KIND, Path(label).stem, label)
    for record in json_records(data, label=label, problems=problems):
        if record.get("type") == "session":
            session.id = str(record.get("id") or session.id)
            session.created = session.created or time_of(record.get("timestamp"))
            continue
        message = record.get("message")
        if record.get("type") != "message" or not isinstance(message, dict):
            continue
        role = _ROLES.get(str(message.get("role")))
        text = strip_harness(text_of(message.get("content"))).text if role else ""
        if role and text:
            session.add(role, text, time_of(record.get("timestamp")))
    return session


def read_openclaw_sessions(folder: Path) -> tuple[list[AgentSession], list[str]]:
    """Every transcript with turns under ``folder`` (oldest first), and the problems met."""
    return read_folder(
        folder,
        "*.jsonl",
        lambda text, label, problems: read_openclaw_session(text, label=label, problems=problems),
        hint="give the folder of OpenClaw's transcripts, e.g. ~/.openclaw/agents/main/sessions/",
    )
