"""Session transcripts: ``sessions/YYYY/MM/DD/<id>.md`` to :class:`Session` and back.

A session file is the transcript as the agent gave it, under front matter that
holds its id, time, summary and tags. Transcripts are checked on the way in:
empty, oversized or non-UTF-8 input is refused with a message saying what to do.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable
from datetime import datetime
from typing import BinaryIO

from dreamgit.clock import format_time, parse_time
from dreamgit.errors import MemoryFileError, UserError
from dreamgit.model import Session

__all__ = [
    "MAX_AGENT_FILE_BYTES",
    "MAX_SESSION_BYTES",
    "check_size",
    "check_transcript",
    "decode_session",
    "parse_session",
    "read_session",
    "read_transcript",
    "render_session",
]

#: Larger transcripts are refused: a dream reads every pending session whole.
MAX_SESSION_BYTES = 2 * 1024 * 1024
#: An agent's own session file may be larger: its tool output is left out when it is
#: read by role, and what is left must fit :data:`MAX_SESSION_BYTES`.
MAX_AGENT_FILE_BYTES = 64 * 1024 * 1024

_PATH = re.compile(r"sessions/\d{4}/\d{2}/\d{2}/(s-[0-9]{8}-[0-9a-f]{6})\.md\Z")


def read_transcript(
    stream: BinaryIO, *, source: str, larger: Callable[[bytes], bool] | None = None
) -> str:
    """Read and check a transcript from a file or pipe, never more than the limit allows.

    At most one byte past :data:`MAX_SESSION_BYTES` is read, so an endless input
    (``/dev/zero``, ``yes |``) is refused as too large instead of filling memory; when
    ``larger(first bytes)`` says the input is an agent's own session file, reading goes
    on to :data:`MAX_AGENT_FILE_BYTES` (its turns must fit a session when read by role).
    """
    limit = MAX_SESSION_BYTES
    chunks, size = [], 0
    while size <= limit:
        chunk = stream.read(limit + 1 - size)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
        at_first_limit = size > limit and limit == MAX_SESSION_BYTES
        if at_first_limit and larger is not None and larger(chunks[0]):
            limit = MAX_AGENT_FILE_BYTES
    if size > limit:
        raise _too_large(_known_size(stream), source, limit)
    return check_transcript(b"".join(chunks), source=source, limit=limit)


def _known_size(stream: BinaryIO) -> int | None:
    """The size of a regular file behind ``stream`` (None for pipes and devices)."""
    try:
        info = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) else None


def _too_large(size: int | None, source: str, limit: int = MAX_SESSION_BYTES) -> UserError:
    most = f"the {limit // 1024 // 1024} MB a session may hold"
    what = f"{size / 1024 / 1024:.1f} MB, more than" if size is not None else "more than"
    return UserError(
        f"{source}: session is {what} {most}",
        hint="split the transcript into several sessions, or log a summary of it",
    )


def check_size(text: str, *, source: str) -> str:
    """``text`` when it fits a session file (:data:`MAX_SESSION_BYTES`); else a UserError."""
    size = len(text.encode("utf-8", "surrogateescape"))
    if size > MAX_SESSION_BYTES:
        raise _too_large(size, source)
    return text


def check_transcript(data: bytes, *, source: str, limit: int = MAX_SESSION_BYTES) -> str:
    """Decode and check a transcript; ``source`` names where it came from for messages."""
    if len(data) > limit:
        raise _too_large(len(data), source, limit)
    if b"\x00" in data:
        raise UserError(f"{source}: session is binary data, not text", hint="log text only")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise UserError(
            f"{source}:{line}: session is not UTF-8 text "
            f"(bad byte 0x{data[exc.start]:02x} at offset {exc.start})",
            hint="convert it to UTF-8 first, e.g. with iconv",
        ) from None
    if not text.strip():
        raise UserError(f"{source}: session is empty", hint="log a transcript with some text")
    return text


def render_session(session: Session) -> str:
    """The text of a session file."""
    block: dict[str, object] = {"id": session.id, "created": session.created}
    if session.summary:
        block["summary"] = session.summary
    if session.tags:
        block["tags"] = list(session.tags)
    from dreamgit.store import frontmatter  # ruamel: not imported by opening a repository

    return frontmatter.dump_new({"dream": block}, session.text)


def _line_of_key(raw: str | None, key: str) -> int | None:
    """The file line of ``key:`` in the front matter (the fence is line 1)."""
    if raw is None:
        return None
    found = re.search(rf"^\s*{re.escape(key)}\s*:", raw, re.MULTILINE)
    return raw.count("\n", 0, found.start()) + 2 if found else None


def session_id_from_path(path: str) -> str | None:
    """The session id a path names, or None when it is not a session file."""
    match = _PATH.match(path)
    return match[1] if match else None


def decode_session(data: bytes, *, path: str) -> str:
    """A session file's text; binary or non-UTF-8 data is a MemoryFileError naming it.

    Such a file is never read with replacement characters and consumed as if it were
    a transcript: it is reported and stays pending until it is fixed.
    """
    if b"\x00" in data:
        raise MemoryFileError(path, "session file is binary data, not text", hint=_KEEP_HINT)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MemoryFileError(
            path,
            f"session file is not UTF-8 text (bad byte 0x{data[exc.start]:02x}"
            f" at offset {exc.start})",
            line=data[: exc.start].count(b"\n") + 1,
            hint=_KEEP_HINT,
        ) from None


def read_session(data: bytes, *, path: str, fallback_time: datetime) -> Session:
    """Read a session file's bytes (see :func:`decode_session`) into a :class:`Session`."""
    return parse_session(decode_session(data, path=path), path=path, fallback_time=fallback_time)


_KEEP_HINT = (
    "it stays pending and is not dreamed: convert it to UTF-8 text (or delete it) and commit"
)


def parse_session(text: str, *, path: str, fallback_time: datetime) -> Session:
    """Read a session file; a missing front matter gives the id from the path."""
    from dreamgit.store import frontmatter

    doc = frontmatter.parse(text, path=path)
    block = doc.meta.get("dream")
    block = block if isinstance(block, dict) else {}
    ident = str(block.get("id") or session_id_from_path(path) or "")
    if not ident:
        raise MemoryFileError(path, "session file has no id", hint="name it <id>.md")
    created = block.get("created")
    try:
        when = (
            parse_time(
                format_time(created) if isinstance(created, datetime) else str(created),
                what="dream.created",
            )
            if created
            else fallback_time
        )
    except UserError as exc:  # a session's own date: name the file, never stop the dream
        raise MemoryFileError(
            path,
            exc.message,
            line=_line_of_key(doc.raw_meta, "created"),
            hint="write it like 2026-11-22T03:00:00Z; the session stays pending until then",
        ) from None
    tags = block.get("tags") or []
    return Session(
        id=ident,
        created=when,
        text=doc.body,
        summary=str(block.get("summary") or ""),
        tags=tuple(str(t) for t in tags) if isinstance(tags, list) else (),
    )
