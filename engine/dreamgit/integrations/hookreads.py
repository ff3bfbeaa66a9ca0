"""What the Claude Code hooks read from a memory repository without libgit2; None on any doubt.

A hook runs at every session start, compaction and session end, and importing pygit2
(and YAML) to read two small files costs more than the rest of the hook. The commit
dreamgit works on is found from git's own files (``store/headref.py``) and its files
are read from loose objects (``store/looseobjects.py``): the configuration, MEMORY.md,
and ``.dreamgit/logged.json``, which says how far each session file was logged, so a
session-end with nothing new to log answers without opening git at all. The commit is
HEAD's branch's, as the full path takes it, when the configuration there names no other
branch (``branch:`` read as one plain line; anything else about it is a doubt). Every
function answers None where it cannot be sure, and the caller takes the full path.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import NamedTuple

from dreamgit.store import layout
from dreamgit.store.headref import Head, read_head
from dreamgit.store.looseobjects import committed_file
from dreamgit.store.sessiontail import last_line, record_id

__all__ = ["MemoryHead", "committed_text", "logged_up_to_date", "memory_head"]

#: ``branch: NAME`` as one plain top-level line, NAME a plain YAML string (a letter first,
#: so never a number, and no quotes, anchors or flow values to interpret).
_BRANCH_LINE = re.compile(r"branch:[ \t]+([A-Za-z][A-Za-z0-9._/-]*)[ \t]*")
#: Plain words YAML reads as something other than a string.
_NOT_STRINGS = frozenset({"null", "true", "false", "yes", "no", "on", "off", "y", "n"})


class MemoryHead(NamedTuple):
    """The commit of the branch dreamgit works on, and its committed configuration."""

    head: Head
    config: str


def memory_head(folder: Path) -> MemoryHead | None:
    """HEAD's branch's commit and configuration, when that branch is the one dreamgit
    works on (its configuration names no other), else None."""
    head = read_head(folder)
    if head is None:
        return None
    config = committed_file(head.git_dir, head.commit, layout.CONFIG)
    if config is None:
        return None  # packed, or HEAD's branch holds none: the full path looks further
    text = config.decode("utf-8", errors="replace")
    named = _named_branch(text)
    if named is None or named not in ("", head.branch):
        return None
    return MemoryHead(head, text)


def _named_branch(config: str) -> str | None:
    """The branch a configuration names ("" for none), or None when a plain reading of its
    lines cannot be sure (the full path reads it as YAML)."""
    said = [line.partition("#")[0].rstrip() for line in config.splitlines()]
    mentions = [line for line in said if "branch" in line]
    if not mentions:
        return ""
    found = _BRANCH_LINE.fullmatch(mentions[0]) if len(mentions) == 1 else None
    if found is None or found[1].lower() in _NOT_STRINGS:
        return None
    return found[1]


def committed_text(folder: Path, path: str) -> str | None:
    """A file of the commit dreamgit works on, read without libgit2; None on any doubt.

    The configuration and ``.dreamgit/`` files are where every format keeps them; any
    other path is a doubt when the configuration names a format (it may keep its index
    elsewhere).
    """
    found = memory_head(folder)
    if found is None:
        return None
    if path == layout.CONFIG:
        return found.config
    said = " ".join(line.partition("#")[0] for line in found.config.splitlines())
    if not path.startswith(".dreamgit/") and "format" in said:
        return None
    data = committed_file(found.head.git_dir, found.head.commit, path)
    return None if data is None else data.decode("utf-8", errors="replace")


def logged_up_to_date(folder: Path, transcript: Path) -> bool:
    """Whether a Claude Code session file holds nothing past what was logged of it: it
    ends where ``logged.json`` says it was read to, on the record logged last. False on
    any doubt (the file unread, never logged, its record unlike what a log writes).

    When it holds, ``log --from claude-code`` would find no new turn and change nothing,
    so the hook has nothing to commit (``store/formats/claude_sessions.py`` reads on from
    the same offset, checked by the same record id).
    """
    if transcript.suffix != ".jsonl":
        return False
    text = committed_text(folder, layout.LOGGED)
    try:
        state = json.loads(text) if text else None
    except ValueError:
        return False
    files = state.get("claude-code") if isinstance(state, dict) else None
    entry = files.get(transcript.stem) if isinstance(files, dict) else None
    if not isinstance(entry, dict) or set(entry) != {"offset", "last", "parts"}:
        return False  # what the next log would write differs: let it
    offset, last, parts = entry["offset"], entry["last"], entry["parts"]
    if type(offset) is not int or type(parts) is not int or not isinstance(last, str | None):
        return False
    if offset < 1:
        return False
    line = last_line(transcript, offset)
    return line is not None and (last is None or record_id(line) == last)
