"""Real coding-agent session files read by role, for bench_agent.py: who wrote which text, when.

Two formats are read from their structure, independently of dreamgit's own reader (the
bench must not measure the engine with the engine's parser): SpecStory's Markdown
exports of Cursor chats (``_**User**_`` / ``_**Assistant**_`` turn markers, newer
exports with a time or a mode in the marker) and Claude Code's JSONL session files (a
record's ``type``, ``isMeta``, ``isCompactSummary``, and its content blocks: ``text``,
``tool_use``, ``tool_result``). Every piece of text gets a role: ``user`` (typed by the
person), ``assistant``, ``tool`` (tool calls and results) or ``harness`` (what the
harness injected). A session's time comes from its file name
(``YYYY-MM-DD_HH-MM``), else its header or first record; sessions are grouped into
nights by that date.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

__all__ = ["SessionFile", "Turn", "discover", "nights", "read_claude_jsonl", "read_specstory"]

_SPECSTORY_TURN = re.compile(r"^_\*\*(User|Assistant|Agent)\b[^*\n]*\*\*_[ \t]*$", re.M)
_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})(.*)$")
# One-line tool reports Cursor writes inside an assistant turn.
_TOOL_LINE = re.compile(r"^(?:Read file:|Cancelled\s*$|Model provided invalid arguments)")
_FILE_TIME = re.compile(r"^(\d{4})-(\d{2})-(\d{2})_(\d{2})-(\d{2})")
_HEADER_TIME = re.compile(r"\((\d{4})[-/](\d{1,2})[-/](\d{1,2})[ T](\d{1,2}):(\d{2})")
# Text Claude Code writes into a user record that the person never typed.
_INJECTED = re.compile(
    r"^\s*(?:<(?:command-|local-command-|bash-|system-reminder|ide_|task-notification|"
    r"user-prompt-submit-hook)|Caveat: The messages below|\[Request interrupted)"
)


@dataclass(frozen=True)
class Turn:
    """One stretch of a session's text and who wrote it."""

    role: str  # user | assistant | tool | harness
    text: str


@dataclass(frozen=True)
class SessionFile:
    """A session file found in a folder: its path, format and time."""

    path: Path
    kind: str  # specstory | claude-code
    when: datetime


def read_specstory(text: str) -> list[Turn]:
    """The turns of a SpecStory export; text before the first marker is the harness's."""
    turns: list[Turn] = []
    marks = list(_SPECSTORY_TURN.finditer(text))
    head = text[: marks[0].start()] if marks else text
    if head.strip():
        turns.append(Turn("harness", head))
    for mark, after in zip(marks, [*marks[1:], None], strict=True):
        body = text[mark.end() : after.start() if after else len(text)]
        body = body.strip().removesuffix("---").strip()
        if mark.group(1) == "User":
            turns.append(Turn("user", body))
        else:
            turns.extend(_assistant_turns(body))
    return turns


def _tool_lines(lines: list[str]) -> list[bool]:
    """Which lines of an assistant turn a tool wrote: fenced blocks (a closing fence as
    long as its opening, CommonMark's rule), ``<details>`` blocks, one-line reports."""
    marks: list[bool] = []
    fence = ""
    details = False
    for line in lines:
        opened = _FENCE.match(line)
        if fence:
            marks.append(True)
            if opened and opened[1][0] == fence[0] and len(opened[1]) >= len(fence):
                fence = "" if not opened[2].strip() else fence
        elif details:
            marks.append(True)
            details = "</details>" not in line
        elif opened:
            marks.append(True)
            fence = opened[1]
        elif line.lstrip().startswith("<details>"):
            marks.append(True)
            details = "</details>" not in line
        else:
            marks.append(bool(_TOOL_LINE.match(line)))
    return marks


def _assistant_turns(body: str) -> Iterable[Turn]:
    """An assistant turn's prose, and each tool block inside it as a ``tool`` turn."""
    lines = body.splitlines()
    run: list[str] = []
    role = ""
    for line, by_tool in zip(lines, _tool_lines(lines), strict=True):
        now = "tool" if by_tool else "assistant"
        if now != role and run:
            if "".join(run).strip():
                yield Turn(role, "\n".join(run))
            run = []
        role = now
        run.append(line)
    if run and "".join(run).strip():
        yield Turn(role, "\n".join(run))


def _blocks(content: object) -> Iterable[tuple[str, str]]:
    """(block type, text) of a message's content: a string, or a list of blocks."""
    if isinstance(content, str):
        yield "text", content
        return
    if not isinstance(content, list):
        return
    for block in content:
        if not isinstance(block, dict):
            continue
        kind = str(block.get("type", ""))
        if kind == "text":
            yield "text", str(block.get("text", ""))
        elif kind == "tool_use":
            yield "tool", json.dumps(block.get("input", {}), ensure_ascii=False)
        elif kind == "tool_result":
            inner = block.get("content")
            yield "tool", "\n".join(t for _, t in _blocks(inner)) if inner else ""


def read_claude_jsonl(text: str) -> list[Turn]:
    """The turns of a Claude Code session file, each record by its type and flags."""
    turns: list[Turn] = []
    for line in text.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if not isinstance(record, dict):
            continue
        message = record.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        kind = record.get("type")
        for block, body in _blocks(content):
            if not body.strip():
                continue
            if block == "tool":
                role = "tool"
            elif kind == "assistant":
                role = "assistant"
            elif kind != "user" or record.get("isMeta") or record.get("isCompactSummary"):
                role = "harness"
            else:
                role = "harness" if _INJECTED.match(body) else "user"
            turns.append(Turn(role, body))
    return turns


def read_turns(session: SessionFile) -> list[Turn]:
    """The turns of a session file in its format."""
    text = session.path.read_text(encoding="utf-8", errors="replace")
    return read_specstory(text) if session.kind == "specstory" else read_claude_jsonl(text)


def _jsonl_time(path: Path) -> datetime | None:
    with path.open(encoding="utf-8", errors="replace") as stream:
        for line in stream:
            try:
                stamp = json.loads(line).get("timestamp")
            except (ValueError, AttributeError):
                continue
            if isinstance(stamp, str) and stamp:
                return datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone(UTC)
    return None


def _markdown_time(path: Path) -> datetime | None:
    found = _FILE_TIME.match(path.name)
    if found is None:
        with path.open(encoding="utf-8", errors="replace") as stream:
            found = _HEADER_TIME.search(stream.read(2000))
    if found is None:
        return None
    year, month, day, hour, minute = (int(g) for g in found.groups())
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


def discover(folder: Path) -> list[SessionFile]:
    """Every SpecStory ``*.md`` and Claude Code ``*.jsonl`` under ``folder``, oldest first.

    A file whose time cannot be found stops the bench with its path: a replay night
    by night needs every session's date.
    """
    found: list[SessionFile] = []
    for path in sorted(folder.rglob("*")):
        if path.suffix == ".jsonl":
            when, kind = _jsonl_time(path), "claude-code"
        elif path.suffix == ".md" and _SPECSTORY_TURN.search(path.read_text(errors="replace")):
            when, kind = _markdown_time(path), "specstory"
        else:
            continue
        if when is None:
            raise SystemExit(
                f"{path}: no session time (file name YYYY-MM-DD_HH-MM, a '(date time)' "
                "header, or a JSONL timestamp); rename the file or leave it out"
            )
        found.append(SessionFile(path, kind, when))
    found.sort(key=lambda s: (s.when, s.path.name))
    return found


def nights(sessions: list[SessionFile]) -> list[list[SessionFile]]:
    """The sessions grouped by the calendar date they started on, in order."""
    grouped: dict[str, list[SessionFile]] = {}
    for session in sessions:
        grouped.setdefault(session.when.date().isoformat(), []).append(session)
    return list(grouped.values())
