"""Log the sessions read from an agent's own files, each once, and resumed ones as they grow.

``log --from claude-code DIR`` (and codex, specstory, aider) commits the sessions not
logged yet in one commit. A session's id follows from the agent's own session id and
its first time, so a session logged once is recognised on every later call. How far
each file was read (byte offset and last record id) is kept in ``.dreamgit/logged.json``
in the same commit: when a session file grew after it was logged (a resumed Claude
Code session), only its new turns are logged, as a new part of that session.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from dreamgit import trailers as tr
from dreamgit.ids import session_id
from dreamgit.model import Session
from dreamgit.store import layout
from dreamgit.store.formats.agent_files import read_agent_folder
from dreamgit.store.formats.turns import AgentSession, Progress, Turn, render_turns
from dreamgit.store.repo import MemoryRepo
from dreamgit.store.sessionfile import MAX_SESSION_BYTES, render_session

__all__ = ["Logged", "agent_name", "log_agent_path", "log_agent_sessions", "logged_progress"]

_NAMES = {
    "claude-code": "Claude Code",
    "codex": "Codex",
    "specstory": "SpecStory",
    "aider": "Aider",
    "openclaw": "OpenClaw",
}


def agent_name(kind: str) -> str:
    """The agent's name as messages write it ("Claude Code" for ``claude-code``)."""
    return _NAMES.get(kind, kind)


@dataclass(frozen=True)
class Logged:
    """What a call logged: the new session files, and the sessions with nothing new."""

    sessions: tuple[Session, ...]
    unchanged: int


def _state(repo: MemoryRepo, tip: str | None) -> dict[str, Any]:
    raw = repo.store.read_path(tip, layout.LOGGED)
    try:
        doc = json.loads(raw) if raw else {}
    except ValueError:
        doc = {}  # a broken record only costs a re-read: sessions are never logged twice
    return doc if isinstance(doc, dict) else {}


def logged_progress(repo: MemoryRepo, kind: str) -> dict[str, Progress]:
    """How far each of an agent's session files was logged, by file key."""
    found = _state(repo, repo.tip()).get(kind)
    out: dict[str, Progress] = {}
    for key, entry in (found or {}).items():
        if isinstance(entry, dict) and isinstance(entry.get("offset"), int):
            last = entry.get("last")
            out[str(key)] = Progress(entry["offset"], last if isinstance(last, str) else None)
    return out


def log_agent_sessions(
    repo: MemoryRepo, sessions: Sequence[AgentSession], *, now: datetime
) -> Logged:
    """Log the sessions (or their new parts) not logged yet, in one commit."""
    result: list[Session] = []
    unchanged = [0]

    def build(tip: str | None) -> dict[str, bytes | None]:
        taken = repo.session_paths(tip)
        state = _state(repo, tip)
        before = _filled(state)
        result.clear()
        unchanged[0] = 0
        changes: dict[str, bytes | None] = {}
        for found in sessions:
            kept = state.setdefault(found.kind, {})
            entry = kept.get(found.key) if found.key else None
            if isinstance(entry, dict) and entry.get("offset") != found.start:
                unchanged[0] += 1  # another writer logged this part meanwhile
                continue
            new = _new_parts(found, entry, taken, now)
            if not new:
                unchanged[0] += 1
            for session in new:
                result.append(session)
                changes[session.path] = render_session(session).encode("utf-8")
            if found.key and found.end:
                if isinstance(entry, dict):
                    parts = int(entry.get("parts", 1)) + len(new)
                else:  # logged now, or by a dreamgit that kept no offsets
                    parts = max(len(new), 1) if found.turns else 0
                kept[found.key] = {"offset": found.end, "last": found.last, "parts": parts}
        if any(state.values()) and _filled(state) != before:  # else nothing to commit
            changes[layout.LOGGED] = (json.dumps(state, indent=1, sort_keys=True) + "\n").encode()
        return changes

    def message() -> str:
        kinds = sorted({agent_name(s.kind) for s in sessions}) or ["agent"]
        listing = ", ".join(s.id for s in result)
        return f"log: {len(result)} {'/'.join(kinds)} session(s)\n\n" + tr.trailers(
            (tr.OP, "log"), (tr.SESSION, listing)
        )

    repo.commit_main(message, build, now=now)
    return Logged(tuple(result), unchanged[0])


def _filled(state: dict[str, Any]) -> str:
    """The logging state as comparable text, agents with no file logged left out."""
    return json.dumps({kind: files for kind, files in state.items() if files}, sort_keys=True)


def log_agent_path(
    repo: MemoryRepo, kind: str, path: Path, *, now: datetime
) -> tuple[Logged, list[str]]:
    """Log what is new in an agent's session folder (or one session file), and the problems."""
    sessions, problems = read_agent_folder(kind, path, logged_progress(repo, kind))
    return log_agent_sessions(repo, sessions, now=now), problems


def _new_parts(
    found: AgentSession, entry: object, taken: dict[str, str], now: datetime
) -> list[Session]:
    """The session files for what ``found`` holds that is new (none when nothing is).

    Turns that would not fit one session file (:data:`MAX_SESSION_BYTES`) go on in the
    next part, so that a dream never meets a session larger than it reads.
    """
    name = agent_name(found.kind)
    parts = int(entry.get("parts", 1)) if isinstance(entry, dict) else 0
    out: list[Session] = []
    for n, turns in enumerate(_chunks(found.turns)):
        if found.start == 0 and n == 0:
            created = found.created or now
            ident = session_id(created, found.kind, found.id)
            summary = f"{name} session {found.id}"
        else:
            created = turns[0].at or now
            where = str(found.start) if n == 0 else f"{found.start}+{n}"
            ident = session_id(created, found.kind, found.id, where)
            summary = f"{name} session {found.id}, part {parts + len(out) + 1}"
        if ident in taken:
            continue
        text = render_turns(turns)
        out.append(Session(ident, created, text, summary=summary, tags=(found.kind,)))
    return out


def _chunks(turns: list[Turn]) -> list[list[Turn]]:
    """The turns in runs that each fit a session file (a turn alone is never split)."""
    out: list[list[Turn]] = []
    size = 0
    for turn in turns:
        length = len(render_turns([turn]).encode("utf-8", "surrogateescape"))
        if not out or size + length > MAX_SESSION_BYTES:
            out.append([])
            size = 0
        out[-1].append(turn)
        size += length
    return out
