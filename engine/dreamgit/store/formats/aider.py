"""Aider's chat history (``.aider.chat.history.md``) read by role.

Aider appends every chat to one Markdown file: ``# aider chat started at <time>``
opens a chat, a user's input is written as ``#### `` lines, Aider's own messages and
command output as ``> `` lines, and the model's reply as plain text. A user's line
that is an Aider command (``#### /add file.py``) is the harness's, as are the quoted
lines and a confirmation Aider asked that the history wrote as a user's line with the
answer typed to it (``#### Add file to the chat? (Y)es/(N)o … [Yes]: all``); each chat
of the file becomes one session.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

from dreamgit.clock import parse_time
from dreamgit.errors import UserError
from dreamgit.store.formats.harness import strip_harness
from dreamgit.store.formats.turns import AgentSession, Turn

__all__ = ["is_aider", "read_aider", "read_aider_sessions"]

KIND = "aider"
_STARTED = re.compile(r"^# aider chat started at (?P<at>[^\n]+?)[ \t]*$", re.MULTILINE)
_USER = "#### "
# Aider's yes/no question with the answer typed to it: "… (Y)es/(N)o/… [Yes]: all".
_CONFIRM = re.compile(r"\(Y\)es/\(N\)o\b.*\[(?:Yes|No)\]:\s*\S*\s*$")


def is_aider(text: str) -> bool:
    """Whether ``text`` is an Aider chat history."""
    return _STARTED.search(text[:4000]) is not None


def _time(value: str) -> datetime | None:
    try:
        return parse_time(value.strip().replace(" ", "T", 1), what="timestamp")
    except UserError:
        return None


def _turns(chat: str) -> list[Turn]:
    turns: list[Turn] = []
    role, lines = "", list[str]()

    def close() -> None:
        text = "\n".join(lines).strip()
        if role == "user":
            text = strip_harness(text).text
        if role and text:
            turns.append(Turn(role, KIND, text))

    for line in chat.splitlines():
        if line.startswith(_USER) and _CONFIRM.search(line):
            continue  # Aider's question with the answer typed to it
        if line.startswith(_USER) or line.rstrip() == "####":
            said = line[len(_USER) :] if line.startswith(_USER) else ""
            if role != "user":
                close()
                role, lines = "user", []
            if not said.lstrip().startswith("/"):
                lines.append(said)
        elif line.startswith(">"):
            continue  # Aider's own messages and command output
        else:
            if role == "user" and line.strip():
                close()
                role, lines = "assistant", []
            if role:
                lines.append(line)
    close()
    return turns


def read_aider(text: str, *, label: str) -> list[AgentSession]:
    """One session per chat of a history file, in order."""
    starts = list(_STARTED.finditer(text))
    out = []
    for n, (start, after) in enumerate(zip(starts, [*starts[1:], None], strict=True), start=1):
        chat = text[start.end() : after.start() if after else len(text)]
        turns = _turns(chat)
        if turns:
            created = _time(start["at"])
            ident = f"{Path(label).name}#{start['at'].strip() or n}"
            out.append(AgentSession(KIND, ident, label, created=created, turns=turns))
    return out


def read_aider_sessions(path: Path) -> tuple[list[AgentSession], list[str]]:
    """The chats of a history file, or of ``.aider.chat.history.md`` in a folder."""
    target = path / ".aider.chat.history.md" if path.is_dir() else path
    try:
        text = target.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(
            f"{target}: cannot read: {getattr(exc, 'strerror', None) or exc}",
            hint="give Aider's .aider.chat.history.md or the folder that holds it",
        ) from None
    return read_aider(text, label=str(target)), []
