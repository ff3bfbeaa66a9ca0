"""The end of a Claude Code session file: its last whole line and the id of a record.

How far a session file was logged is a byte offset checked by the id (``uuid``) of the
record that ends there (``.dreamgit/logged.json``). The reader that goes on from there
(``store/formats/claude_sessions.py``) and the session-end hook that asks, without
opening git, whether anything came after it (``integrations/hookreads.py``) read that
id alike. Standard library only: the hook imports this at every session end.
"""

from __future__ import annotations

import json
from pathlib import Path

__all__ = ["last_line", "record_id"]

#: How much of a file's end is read to find its last line; a longer line is a doubt.
_TAIL = 256 * 1024


def record_id(line: bytes) -> str | None:
    """The ``uuid`` of the JSON record on ``line``, or None (not JSON, no string id)."""
    try:
        record = json.loads(line)
    except ValueError:
        return None
    found = record.get("uuid") if isinstance(record, dict) else None
    return found if isinstance(found, str) else None


def last_line(path: Path, size: int) -> bytes | None:
    """A file's last line, when the file is ``size`` bytes long and ends with a whole line;
    else (or when it cannot be read) None."""
    try:
        with path.open("rb") as file:
            if file.seek(0, 2) != size:
                return None
            start = max(0, size - _TAIL)
            file.seek(start)
            tail = file.read()
    except OSError:
        return None
    if len(tail) != size - start or not tail.endswith(b"\n"):
        return None
    cut = tail.rfind(b"\n", 0, len(tail) - 1)
    if cut < 0 and start > 0:
        return None  # a last line longer than the tail read
    return tail[cut + 1 :]
