"""Turns read from an agent's structured session, and how a session file keeps them.

A reader of a structured source (Claude Code or Codex JSONL, a SpecStory or Aider
export) knows who wrote each message. The session file keeps that knowledge: each
turn opens with one marker line, ``<!-- dreamgit:turn role=user source=claude-code
at=2026-11-20T10:04:00Z -->``, and the gather phase reads the roles from those lines
only: inside a marked turn no ``Name:`` line, heading or quote starts a new speaker.
Roles are ``user`` and ``assistant``; harness text never becomes a turn.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from dreamgit.clock import format_time, parse_time
from dreamgit.errors import UserError

__all__ = [
    "ROLES",
    "TURN_MARK",
    "AgentSession",
    "Progress",
    "Turn",
    "files_under",
    "json_record",
    "json_records",
    "parse_mark",
    "read_folder",
    "read_on",
    "render_turns",
    "text_of",
    "time_of",
]

ROLES = ("user", "assistant")

#: A turn marker line of a session file (see the module docstring).
TURN_MARK = re.compile(
    r"^<!-- dreamgit:turn role=(?P<role>[a-z]+) source=(?P<source>[a-z0-9._-]+)"
    r"(?: at=(?P<at>\S+))? -->[ \t]*$",
    re.MULTILINE,
)


@dataclass(frozen=True)
class Turn:
    """One message of a session: who wrote it, read from where, when, and its text."""

    role: str
    source: str
    text: str
    at: datetime | None = None


def _mark(turn: Turn) -> str:
    at = f" at={format_time(turn.at)}" if turn.at is not None else ""
    return f"<!-- dreamgit:turn role={turn.role} source={turn.source}{at} -->"


def render_turns(turns: list[Turn]) -> str:
    """The transcript of a session file: a marker line, then the text, for each turn."""
    return "".join(f"{_mark(turn)}\n{turn.text.strip()}\n\n" for turn in turns)


def parse_mark(line: str) -> str | None:
    """The role a turn marker line names, or None when the line is not a marker."""
    found = TURN_MARK.match(line)
    return found["role"] if found else None


@dataclass
class AgentSession:
    """One session read from an agent's own files, or the part of it not logged yet.

    ``kind`` names the agent (``claude-code``, ``codex``, ``specstory``, ``aider``);
    ``id`` is the agent's own session id. A reader that reads files incrementally
    sets ``start`` and ``end`` (byte offsets of what this read covered) and ``last``
    (the id of the last record read), which the next read checks before it goes on;
    ``key`` names the file those offsets belong to (its name, without the folder).
    """

    kind: str
    id: str
    label: str
    key: str = ""
    created: datetime | None = None
    turns: list[Turn] = field(default_factory=list)
    start: int = 0
    end: int = 0
    last: str | None = None

    @property
    def text(self) -> str:
        """The session file's transcript: one marked turn per message."""
        return render_turns(self.turns)

    def add(self, role: str, text: str, at: datetime | None) -> None:
        """Append a turn of this agent's; the first turn's time is the session's if unset.

        An assistant's reply written as several records (one per text block, between
        tool calls) is one turn.
        """
        self.created = self.created or at
        last = self.turns[-1] if self.turns else None
        if last is not None and last.role == role == "assistant":
            self.turns[-1] = Turn(role, self.kind, f"{last.text}\n\n{text}", last.at)
        else:
            self.turns.append(Turn(role, self.kind, text, at))


def json_record(raw: str | bytes, *, at: str, problems: list[str]) -> dict[str, object] | None:
    """One JSONL line as an object; anything else is reported at ``at`` (file:line), skipped."""
    try:
        record = json.loads(raw)
    except ValueError as exc:
        problems.append(f"{at}: not a JSON line ({exc.__class__.__name__}); skipped")
        return None
    if not isinstance(record, dict):
        problems.append(f"{at}: not a JSON object; skipped")
        return None
    return record


@dataclass(frozen=True)
class Progress:
    """How far a session file was logged: where (a byte offset in a Claude Code file, a
    number of turns elsewhere) and the last record's id (for turns, a digest of its text)."""

    offset: int
    last: str | None


def _digest(turn: Turn) -> str:
    return hashlib.sha1(f"{turn.role}\n{turn.text}".encode()).hexdigest()[:16]


def read_on(session: AgentSession, progress: Progress | None, problems: list[str]) -> bool:
    """Keep only the turns after ``progress`` in ``session``, counted in turns.

    For sources rewritten or appended as a session goes on (SpecStory, Codex, Aider):
    the turn logged last must still be where it was. Returns False (and says why in
    ``problems``) when it is not: the session changed and is not logged again.
    """
    turns = session.turns
    start, last = (progress.offset, progress.last) if progress is not None else (0, None)
    if start and (start > len(turns) or _digest(turns[start - 1]) != last):
        problems.append(
            f"{session.label}: changed since it was logged (the last turn logged is not "
            "where it was); not logged again"
        )
        return False
    session.turns = turns[start:]
    session.start, session.end = start, len(turns)
    session.last = _digest(turns[-1]) if turns else None
    return True


def read_folder(
    folder: Path,
    pattern: str,
    read: Callable[[str, str, list[str]], AgentSession | None],
    *,
    hint: str,
) -> tuple[list[AgentSession], list[str]]:
    """``read(text, label, problems)`` on every file matching ``pattern`` under ``folder``:
    the sessions with turns, oldest first, and the problems met (``hint`` says which
    folder to give when it does not exist)."""
    problems: list[str] = []
    found = []
    for path in files_under(folder, pattern, hint=hint):
        try:
            text = path.read_bytes().decode("utf-8")
        except OSError as exc:
            problems.append(f"{path}: cannot read: {exc.strerror}")
            continue
        except UnicodeDecodeError as exc:
            problems.append(f"{path}: not UTF-8 text (offset {exc.start}); skipped")
            continue
        session = read(text, str(path), problems)
        if session is not None and session.turns:
            found.append(session)
    found.sort(key=lambda s: (s.created.timestamp() if s.created else 0.0, s.id))
    return found, problems


def text_of(content: object, kinds: tuple[str, ...] = ("text",)) -> str:
    """A message's text: a string as it is, or the blocks of the given types, joined."""
    if isinstance(content, str):
        return content
    blocks = content if isinstance(content, list) else []
    parts = [
        str(block.get("text", ""))
        for block in blocks
        if isinstance(block, dict) and block.get("type") in kinds
    ]
    return "\n\n".join(p for p in parts if p.strip())


def json_records(data: str, *, label: str, problems: list[str]) -> Iterator[dict[str, object]]:
    """The objects of a JSONL text in order; other lines are reported as ``label:line``."""
    for number, raw in enumerate(data.splitlines(), start=1):
        if raw.strip():
            record = json_record(raw, at=f"{label}:{number}", problems=problems)
            if record is not None:
                yield record


def time_of(value: object) -> datetime | None:
    """A record's ISO-8601 time, or None when it has none or it is not a time."""
    try:
        return parse_time(value, what="timestamp") if isinstance(value, str) else None
    except UserError:
        return None


def files_under(path: Path, pattern: str, *, hint: str) -> list[Path]:
    """The files matching ``pattern`` under a folder, in order, or the one file ``path``
    names (a hook gives the one session it is about); a UserError when neither exists."""
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise UserError(f"{path}: no such directory", hint=hint)
    return sorted(path.rglob(pattern))
