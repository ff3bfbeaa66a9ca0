"""Claude Code session files (``<session-id>.jsonl``) read by role, from their structure.

Each line of a Claude Code session file is one JSON record. :func:`classify_record`
decides from the record's structure alone whether it is a turn and whose: only
``user`` and ``assistant`` records carry turns; a subagent's records
(``isSidechain``), harness messages (``isMeta``), compaction summaries
(``isCompactSummary``), API errors, tool results (``toolUseResult``, ``tool_result``
blocks) and tool calls or thinking never do; inside a user's text every harness
shape of :mod:`~dreamgit.store.formats.harness` is removed and the user's own words
around it kept. A file is read from a byte offset on: a session that grew after it
was logged is read again from where the last read stopped, checked by the id of the
last record read; a session resumed into a new file is read from after the history it
copied. A line that is not JSON is reported with its file and line, and the
rest of the file is still read; a last line still being written is left for later.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from dreamgit.store.formats.harness import strip_harness
from dreamgit.store.formats.turns import AgentSession, Progress, files_under, json_record, time_of
from dreamgit.store.sessiontail import record_id

__all__ = [
    "classify_record",
    "is_claude_session",
    "read_claude_data",
    "read_claude_file",
    "read_claude_sessions",
]

KIND = "claude-code"
_ROLES = {"user": "user", "assistant": "assistant"}


def is_claude_session(records: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the first records of a JSONL file are a Claude Code session's."""
    return any(
        isinstance(r.get("type"), str) and ("sessionId" in r or "leafUuid" in r or "uuid" in r)
        for r in records
    )


def _text_blocks(content: Any) -> str | None:
    """The text of a message's content; None when it holds a tool result."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    parts = []
    for block in content:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "tool_result":
            return None
        if block.get("type") == "text":
            parts.append(str(block.get("text", "")))
    return "\n\n".join(p for p in parts if p.strip())


def classify_record(record: Mapping[str, Any]) -> tuple[str | None, str]:
    """``(role, text)`` of a record that is a turn; ``(None, why)`` for any other.

    The role is ``user`` or ``assistant``; the text has every harness shape removed.
    """
    role = _ROLES.get(str(record.get("type")))
    message = record.get("message")
    if role is None or not isinstance(message, dict):
        return None, f"a {record.get('type')!s} record, not a message"
    for flag, why in (
        ("isSidechain", "a subagent's conversation"),
        ("isCompactSummary", "a compaction summary"),
        ("isMeta", "a message of the harness"),
        ("isApiErrorMessage", "an API error"),
        ("toolUseResult", "a tool result"),
    ):
        if record.get(flag):
            return None, why
    text = _text_blocks(message.get("content"))
    if text is None:
        return None, "a tool result"
    kept = strip_harness(text).text
    if not kept:
        return None, "harness text only" if text.strip() else "no text"
    return role, kept


def _resume_at(data: bytes, progress: Progress | None) -> int | None:
    """Where to go on reading; None when the file no longer holds what was logged."""
    if progress is None or progress.offset == 0:
        return 0
    offset = progress.offset
    if offset <= len(data) and data[offset - 1 : offset] == b"\n":
        previous = data[data.rfind(b"\n", 0, offset - 1) + 1 : offset]
        if progress.last is None or record_id(previous) == progress.last:
            return offset
    if progress.last is None:
        return None
    at = 0
    for line in data.splitlines(keepends=True):  # the offset moved: find the record by id
        at += len(line)
        if record_id(line) == progress.last:
            return at
    return None


def _parses(line: bytes) -> bool:
    try:
        json.loads(line)
    except ValueError:
        return False
    return True


def read_claude_file(
    path: Path,
    label: str,
    problems: list[str],
    progress: Progress | None = None,
    copied: frozenset[str] = frozenset(),
) -> AgentSession | None:
    """The turns of one session file after ``progress`` (all of it when None).

    Returns None when the file cannot be read or no longer holds the last record
    logged (reported in ``problems``); a session with no new turns is returned with
    no turns, so that how far it was read can still be kept.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        problems.append(f"{label}: cannot read: {exc.strerror}")
        return None
    return read_claude_data(
        data, key=path.stem, label=label, problems=problems, progress=progress, copied=copied
    )


def read_claude_data(
    data: bytes,
    *,
    key: str,
    label: str,
    problems: list[str],
    progress: Progress | None = None,
    copied: frozenset[str] = frozenset(),
) -> AgentSession | None:
    """The turns of a session file's bytes after ``progress``; see :func:`read_claude_file`.

    ``copied`` holds the ids of the records other files were logged up to: a session
    resumed into a new file starts with a copy of its history, and what comes up to
    such a record was logged with the file it was copied from.
    """
    start = _resume_at(data, progress)
    if start is None:
        problems.append(
            f"{label}: changed since it was logged (the last record logged is gone); "
            "not logged again"
        )
        return None
    session = AgentSession(KIND, key, label, key, start=start, end=start)
    session.last = progress.last if progress is not None else None
    number = data.count(b"\n", 0, start)
    at = start
    for raw in data[start:].splitlines(keepends=True):
        number += 1
        complete = raw.endswith(b"\n")
        if raw.strip():
            if not complete and not _parses(raw):
                break  # still being written: read it next time
            record = json_record(raw, at=f"{label}:{number}", problems=problems)
            if record is not None:
                _take(session, record)
                if record.get("uuid") in copied:
                    session.turns.clear()
                    session.created = None
        at += len(raw)
        session.end = at
    return session


def _take(session: AgentSession, record: Mapping[str, Any]) -> None:
    if isinstance(record.get("sessionId"), str) and record["sessionId"]:
        session.id = record["sessionId"]
    if isinstance(record.get("uuid"), str):
        session.last = record["uuid"]
    role, text = classify_record(record)
    if role is None:
        return
    session.add(role, text, time_of(record.get("timestamp")))


def read_claude_sessions(
    folder: Path, logged: Mapping[str, Progress] | None = None
) -> tuple[list[AgentSession], list[str]]:
    """Every session under ``folder`` (or in the one file it names), oldest first, each
    from where ``logged`` says its file was read to (keyed by file name without
    ``.jsonl``), and the problems met."""
    files = files_under(
        folder,
        "*.jsonl",
        hint="give the folder of Claude Code's session files, e.g. ~/.claude/projects/<project>/",
    )
    logged = logged or {}
    problems: list[str] = []
    found: list[AgentSession] = []
    copied = frozenset(progress.last for progress in logged.values() if progress.last)
    for path in files:
        progress = logged.get(path.stem)
        seen = copied if progress is None else frozenset()
        session = read_claude_file(path, str(path), problems, progress, seen)
        if session is not None and (session.turns or path.stem in logged):
            found.append(session)
    found.sort(key=lambda s: (s.created.timestamp() if s.created else 0.0, s.id))
    return found, problems
