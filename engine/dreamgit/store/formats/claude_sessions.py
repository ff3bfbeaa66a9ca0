"""Claude Code session files (``<session-id>.jsonl``) as ``User:``/``Assistant:`` turns.

Each line of a Claude Code session file is one JSON event. User and assistant
messages carry their text either as a string or as a list of content blocks;
only ``text`` blocks count (tool calls, tool results, thinking and meta messages
are skipped). A line that is not JSON is reported with its file and line, and
the rest of the file is still read.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from dreamgit.clock import parse_time
from dreamgit.errors import UserError

__all__ = ["ClaudeSession", "read_claude_sessions"]

_SPEAKERS = {"user": "User", "assistant": "Assistant"}
#: Text Claude Code itself puts in a user turn (slash commands and their output).
_NOT_SAID = ("<command-", "<local-command-", "Caveat: The messages below")


@dataclass
class ClaudeSession:
    """One Claude Code session: its id, first time, and the turns as text."""

    id: str
    source: str
    created: datetime | None = None
    turns: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        """The transcript: one ``User:`` or ``Assistant:`` paragraph per message."""
        return "\n\n".join(self.turns) + "\n"


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return "" if content.lstrip().startswith(_NOT_SAID) else content.strip()
    if isinstance(content, list):
        parts = [
            str(block.get("text", "")).strip()
            for block in content
            if isinstance(block, dict) and block.get("type") == "text"
        ]
        return "\n\n".join(p for p in parts if p and not p.startswith(_NOT_SAID))
    return ""


def _read_file(path: Path, label: str, problems: list[str]) -> ClaudeSession | None:
    try:
        data = path.read_bytes()
    except OSError as exc:
        problems.append(f"{label}: cannot read: {exc.strerror}")
        return None
    session = ClaudeSession(id=path.stem, source=label)
    for number, raw in enumerate(data.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            event = json.loads(raw)
        except ValueError as exc:
            problems.append(
                f"{label}:{number}: not a JSON line ({exc.__class__.__name__}); skipped"
            )
            continue
        if not isinstance(event, dict):
            problems.append(f"{label}:{number}: not a JSON object; skipped")
            continue
        if isinstance(event.get("sessionId"), str) and event["sessionId"]:
            session.id = event["sessionId"]
        message = event.get("message")
        speaker = _SPEAKERS.get(str(event.get("type")))
        if speaker is None or not isinstance(message, dict) or event.get("isMeta"):
            continue
        text = _text_of(message.get("content"))
        if not text:
            continue
        if session.created is None and event.get("timestamp"):
            try:
                session.created = parse_time(str(event["timestamp"]), what="timestamp")
            except UserError:
                problems.append(f"{label}:{number}: timestamp is not a time; skipped")
        session.turns.append(f"{speaker}: {text}")
    return session if session.turns else None


def read_claude_sessions(folder: Path) -> tuple[list[ClaudeSession], list[str]]:
    """Every session with text under ``folder`` (oldest first), and the problems met."""
    if not folder.is_dir():
        raise UserError(
            f"{folder}: no such directory",
            hint="give the folder of Claude Code's session files, "
            "e.g. ~/.claude/projects/<project>/",
        )
    problems: list[str] = []
    found: list[ClaudeSession] = []
    files: Iterable[Path] = sorted(folder.rglob("*.jsonl"))
    for path in files:
        session = _read_file(path, str(path), problems)
        if session is not None:
            found.append(session)
    found.sort(key=lambda s: (s.created.timestamp() if s.created else 0.0, s.id))
    return found, problems
