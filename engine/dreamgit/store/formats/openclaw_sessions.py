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

from dreamgit.clock import parse_time
from dreamgit.errors import UserError
from dreamgit.store.formats.harness import strip_harness
from dreamgit.store.formats.turns import AgentSession, Turn, json_record, read_folder, text_of

__all__ = ["is_openclaw_session", "read_openclaw_session", "read_openclaw_sessions"]

KIND = "openclaw"
_ROLES = {"user": "user", "assistant": "assistant"}


def is_openclaw_session(records: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the first records of a JSONL file are an OpenClaw transcript's."""
    return any(r.get("type") == "session" and "id" in r for r in records[:1]) and any(
        r.get("type") == "message" and isinstance(r.get("message"), dict) for r in records
    )


def _time(value: object) -> Any:
    try:
        return parse_time(value, what="timestamp") if isinstance(value, str) else None
    except UserError:
        return None


def read_openclaw_session(data: str, *, label: str, problems: list[str]) -> AgentSession:
    """The turns of one transcript's text; bad lines are reported with ``label`` and line."""
    session = AgentSession(KIND, Path(label).stem, label)
    for number, raw in enumerate(data.splitlines(), start=1):
        if not raw.strip():
            continue
        record = json_record(raw, at=f"{label}:{number}", problems=problems)
        if record is None:
            continue
        if record.get("type") == "session":
            session.id = str(record.get("id") or session.id)
            session.created = session.created or _time(record.get("timestamp"))
            continue
        message = record.get("message")
        if record.get("type") != "message" or not isinstance(message, dict):
            continue
        role = _ROLES.get(str(message.get("role")))
        text = strip_harness(text_of(message.get("content"))).text if role else ""
        if role and text:
            when = _time(record.get("timestamp"))
            session.created = session.created or when
            session.turns.append(Turn(role, KIND, text, when))
    return session


def read_openclaw_sessions(folder: Path) -> tuple[list[AgentSession], list[str]]:
    """Every transcript with turns under ``folder`` (oldest first), and the problems met."""
    return read_folder(
        folder,
        "*.jsonl",
        lambda text, label, problems: read_openclaw_session(text, label=label, problems=problems),
        hint="give the folder of OpenClaw's transcripts, e.g. ~/.openclaw/agents/main/sessions/",
    )
