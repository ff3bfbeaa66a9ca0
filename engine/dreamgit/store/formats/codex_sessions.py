"""Codex CLI rollouts (``rollout-<time>-<id>.jsonl``) read by role, from their items.

A rollout line is ``{"timestamp", "type", "payload"}``: ``session_meta`` names the
session, ``response_item`` payloads of type ``message`` are the turns (role ``user``
or ``assistant``; ``developer`` and ``system`` messages are the harness's), and
function calls, their output, reasoning, compaction and ``event_msg`` echoes are
never turns. Older rollouts hold the items directly (``{"type": "message", "role":
…}``) after a first line of metadata. Inside a user's text the harness shapes
(``<environment_context>``, ``<user_instructions>``, AGENTS.md) are removed.
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

__all__ = ["is_codex_rollout", "read_codex_rollout", "read_codex_sessions"]

KIND = "codex"
_ROLES = {"user": "user", "assistant": "assistant"}
_TEXT_BLOCKS = ("input_text", "output_text", "text")
_ENVELOPES = frozenset({"session_meta", "response_item", "event_msg", "turn_context", "compacted"})


def is_codex_rollout(records: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the first records of a JSONL file are a Codex rollout's."""
    for record in records:
        if record.get("type") in _ENVELOPES and isinstance(record.get("payload"), dict):
            return True
        if record.get("record_type") == "state":
            return True
    return False


def read_codex_rollout(data: str, *, label: str, problems: list[str]) -> AgentSession:
    """The turns of one rollout's text; bad lines are reported with ``label`` and line."""
    session = AgentSession(KIND, Path(label).stem, label)
    for number, record in enumerate(json_records(data, label=label, problems=problems), 1):
        payload = record.get("payload") if record.get("type") in _ENVELOPES else record
        if not isinstance(payload, dict):
            continue
        if record.get("type") == "session_meta" or (number == 1 and "type" not in record):
            if isinstance(payload.get("id"), str):
                session.id = payload["id"]
            session.created = session.created or time_of(payload.get("timestamp"))
            continue
        if record.get("type") not in (None, "response_item", "message"):
            continue
        role = _ROLES.get(str(payload.get("role")))
        if payload.get("type") != "message" or role is None:
            continue
        text = strip_harness(text_of(payload.get("content"), _TEXT_BLOCKS)).text
        if text:
            session.add(role, text, time_of(record.get("timestamp")))
    return session


def read_codex_sessions(folder: Path) -> tuple[list[AgentSession], list[str]]:
    """Every rollout with turns under ``folder`` (oldest first), and the problems met."""
    return read_folder(
        folder,
        "*.jsonl",
        lambda text, label, problems: read_codex_rollout(text, label=label, problems=problems),
        hint="give the folder of Codex's rollouts, e.g. ~/.codex/sessions/",
    )
