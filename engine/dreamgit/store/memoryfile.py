"""Memory files: ``memories/<topic>/<slug>.md`` to :class:`Memory` and back.

The front matter is Claude Code's (``name``, ``description``, ``metadata.type``)
plus everything of ours under ``dream:``. A file without a ``dream:`` block is
still a memory: its id is derived from its path, its priority is ``normal``,
and its times are unknown, which is read as "now" so that age rules never
prune a file dreamgit has not yet seen written. Claude's older shape, with a
top-level ``type:``, is read too.

Parsing goes through a plain record (JSON-safe) so the scan can cache it by
blob id; :func:`memory_from_record` adds what the path says.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, date, datetime
from typing import Any

from dreamgit.clock import format_time, parse_time
from dreamgit.errors import MemoryFileError, UserError
from dreamgit.ids import NAME_PATTERN, memory_id
from dreamgit.model import MEMORY_TYPES, PRIORITIES, Memory

__all__ = [
    "Shared",
    "created_at",
    "decode_text",
    "memory_from_record",
    "memory_of_values",
    "parse_full_record",
    "parse_memory_record",
    "render_memory",
    "rewrite_memory",
    "split_memory_path",
]

_PATH = re.compile(r"memories/([^/]+)/([^/]+)\.md\Z")
#: A path whose topic and slug are both names (``NAME_PATTERN``), matched at once: the
#: path of nearly every memory file, so most paths cost one match, not three.
_NAMED_PATH = re.compile(r"memories/([a-z0-9][a-z0-9_-]*)/([a-z0-9][a-z0-9_-]*)\.md\Z")


def split_memory_path(path: str) -> tuple[str, str]:
    """``memories/<topic>/<slug>.md`` → (topic, slug); anything else is a MemoryFileError."""
    named = _NAMED_PATH.match(path)
    if named is not None:
        return named[1], named[2]
    match = _PATH.match(path)
    if not match or not NAME_PATTERN.match(match[1]) or not NAME_PATTERN.match(match[2]):
        raise MemoryFileError(
            path,
            "not a memory file path",
            hint="memory files live at memories/<topic>/<slug>.md with lower-case names",
        )
    return match[1], match[2]


def decode_text(data: bytes, *, path: str) -> str:
    """UTF-8 text of a file, or a MemoryFileError naming the first bad byte."""
    if b"\x00" in data:
        raise MemoryFileError(path, "is a binary file, not Markdown text", hint=_MOVE_HINT)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise MemoryFileError(
            path,
            f"is not UTF-8 text (bad byte 0x{data[exc.start]:02x} at offset {exc.start})",
            line=line,
            hint="save the file as UTF-8",
        ) from None


_MOVE_HINT = "move it out of memories/ (memories are Markdown files)"


def _line_of(raw: str | None, key: str) -> int | None:
    if raw is None:
        return None
    pattern = re.compile(rf"^\s*{re.escape(key)}\s*:", re.MULTILINE)
    match = pattern.search(raw)
    return raw.count("\n", 0, match.start()) + 2 if match else None


def _time(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        moment = value if value.tzinfo else value.replace(tzinfo=UTC)
        return format_time(moment)
    if isinstance(value, date):
        return format_time(datetime(value.year, value.month, value.day, tzinfo=UTC))
    return format_time(parse_time(str(value), what="time"))


def _strings(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, list | tuple):
        return [str(item) for item in value]
    raise TypeError("must be a list")


def parse_memory_record(text: str, *, path: str) -> dict[str, Any]:
    """Parse a memory file into a JSON-safe record; broken files raise MemoryFileError.

    A file in the shape dreamgit writes is read by one match (``store/plainrecord.py``,
    ~10x faster: a build of the derived store after a clone reads every file); any other
    file by :func:`parse_full_record`, which gives the same record for those too.
    """
    # Not at import: a recall answered from the derived store reads no file.
    from dreamgit.store.plainrecord import plain_record

    found = plain_record(text)
    return parse_full_record(text, path=path) if found is None else found


def parse_full_record(text: str, *, path: str) -> dict[str, Any]:
    """:func:`parse_memory_record` through the front-matter parser, whatever the shape."""
    from dreamgit.store import frontmatter  # ruamel: not for readers of parsed records

    doc = frontmatter.parse(text, path=path)
    meta = doc.meta
    dream = meta.get("dream") or {}
    if not isinstance(dream, dict):
        raise MemoryFileError(
            path, "'dream' must be a mapping", line=_line_of(doc.raw_meta, "dream")
        )
    metadata = meta.get("metadata")
    kind = metadata.get("type") if isinstance(metadata, dict) else meta.get("type")
    record: dict[str, Any] = {
        "id": dream.get("id"),
        "topic": None if dream.get("topic") is None else str(dream.get("topic")),
        "front_matter": doc.raw_meta is not None,
        "name": str(meta.get("name") or ""),
        "description": str(meta.get("description") or ""),
        "type": str(kind or "user"),
        "priority": str(dream.get("priority") or "normal"),
        "key": dream.get("key"),
        "text": doc.body.strip(),
        "confidence": dream.get("confidence", 1.0),
        "recalls": dream.get("recalls", 0),
    }
    field = ""
    try:
        for field in ("created", "updated", "valid_from", "valid_to"):
            record[field] = _time(dream.get(field))
        for field in ("tags", "sources", "supersedes", "superseded_by"):
            record[field] = _strings(dream.get(field))
        field = "tags"
        if "tags" not in dream and meta.get("tags") is not None:
            # Hand-written files (Claude Code's among them) keep tags at the top level.
            record["tags"] = _strings(meta.get("tags"))
        field = "confidence"
        record["confidence"] = float(record["confidence"])
        field = "recalls"
        record["recalls"] = int(record["recalls"])
    except (TypeError, ValueError, OverflowError, UserError) as exc:
        # OverflowError: `recalls: .inf`, or a time that leaves datetime's range in UTC.
        reason = exc.message if isinstance(exc, UserError) else str(exc)
        raise MemoryFileError(
            path, f"dream.{field}: {reason}", line=_line_of(doc.raw_meta, field)
        ) from None
    _check_record(record, path=path, raw=doc.raw_meta)
    return record


def _check_record(record: dict[str, Any], *, path: str, raw: str | None) -> None:
    from dreamgit.store.plainrecord import CONTROL, SAFE_ID  # as parse_memory_record

    if record["priority"] not in PRIORITIES:
        raise MemoryFileError(
            path,
            f"dream.priority: {record['priority']!r} is not a priority",
            line=_line_of(raw, "priority"),
            hint="use one of " + ", ".join(PRIORITIES),
        )
    if record["type"] not in MEMORY_TYPES:
        record["type"] = "user"
    if record["id"] is not None:
        record["id"] = str(record["id"])
        if not SAFE_ID.match(record["id"]):
            raise MemoryFileError(
                path,
                "dream.id: an id is one word of letters, digits, '.', '_' and '-' "
                "(no spaces, line breaks or commas)",
                line=_line_of(raw, "id"),
                hint="give it an id like m-7f3k2q9d, or remove the line to have one made",
            )
    if record["key"] is not None:
        record["key"] = str(record["key"])
    # Values that commit trailers may repeat: one line each, or a forged trailer could follow.
    for field in ("key", "tags", "sources", "supersedes", "superseded_by"):
        values = record[field] if isinstance(record[field], list) else [record[field]]
        # One search over the values joined: the pattern is one character, so it finds
        # one in the whole exactly when it is in a part (a search per value cost ~3 %
        # of building the derived store).
        if CONTROL.search("".join(v for v in values if v is not None)):
            raise MemoryFileError(
                path,
                f"dream.{field}: a line break or control character is not allowed here",
                line=_line_of(raw, field),
                hint="keep each value on one line",
            )


def created_at(
    said: str | None, now: datetime, times: dict[str, datetime] | None = None
) -> datetime:
    """When a memory whose record says ``created: said`` was created (``now`` when the
    record does not say)."""
    return _parsed(said, "created", times) if said else now


def _parsed(text: str, what: str, times: dict[str, datetime] | None) -> datetime:
    """``parse_time(text)``, through ``times`` (text → time) when given: memories written
    by one run share their times, and share one object for each."""
    if times is None:
        return _record_time(text, what)
    found = times.get(text)
    if found is None:
        found = times[text] = _record_time(text, what)
    return found


def _record_time(text: str, what: str) -> datetime:
    """``parse_time(text)`` of a record's time: one call for the ``…Z`` a record holds
    (a fifth of ``parse_time``'s cost, the same time), ``parse_time`` for any other."""
    try:
        found = datetime.fromisoformat(text)
    except ValueError:
        return parse_time(text, what=what)
    return found if found.tzinfo is UTC else parse_time(text, what=what)


class Shared:
    """What the memories made by one read share: one object per distinct time, and per
    distinct topic, key, tag, source and list of them (one each, not one per memory)."""

    __slots__ = ("times", "words")

    def __init__(self) -> None:
        self.times: dict[str, datetime] = {}
        self.words: dict[Any, Any] = {}


#: Types and priorities as the one string each (a record's are new strings each).
_NAMED = {name: name for name in (*PRIORITIES, *MEMORY_TYPES)}
#: A confidence of 1.0, the usual one, held once.
_SURE = 1.0


def memory_from_record(
    record: Mapping[str, Any],
    *,
    path: str,
    now: datetime,
    shared: Shared | None = None,
) -> Memory:
    """The Memory a record stands for at ``path``; unknown times read as ``now``.

    ``shared``, given by a caller that makes many memories, parses each distinct time
    once and holds it and each distinct word once.
    """
    return memory_of_values(
        path, now, shared, record["id"], record["name"], record["description"],
        record["type"], record["priority"], record["key"], record["text"],
        record["confidence"], record["recalls"], record["created"], record["updated"],
        # Records cached before the validity fields existed have none.
        record.get("valid_from"), record.get("valid_to"), record["tags"],
        record["sources"], record["supersedes"], record.get("superseded_by"),
    )  # fmt: skip


def memory_of_values(
    path: str,
    now: datetime,
    shared: Shared | None,
    ident: str | None,
    name: str,
    description: str,
    kind: str,
    priority: str,
    key: str | None,
    text: str,
    confidence: float,
    recalls: int,
    created: str | None,
    updated: str | None,
    valid_from: str | None,
    valid_to: str | None,
    tags: list[str] | None,
    sources: list[str] | None,
    supersedes: list[str] | None,
    superseded_by: list[str] | None,
) -> Memory:
    """The Memory of a record's values (``memory_from_record`` or ``store/recordrow.py``'s
    ``memory_from_row``) at ``path``, each repeated value held once: the
    times and words through ``shared``; a type, a priority, a name equal to the slug, a
    description equal to the text and a confidence of 1.0 as one object each."""
    topic, slug = split_memory_path(path)
    times = None if shared is None else shared.times
    made = created_at(created, now, times)
    # Most memories were never updated: the time is parsed once and held once.
    changed = _parsed(updated, "updated", times) if updated and updated != created else made
    if shared is not None:
        words = shared.words
        topic = words.setdefault(topic, topic)
        if key is not None:
            key = words.setdefault(key, key)
    else:
        words = None
    return Memory(
        ident or memory_id("path", path), topic, slug, text, made, changed,
        slug if name == slug else name, text if description == text else description,
        _NAMED.get(kind, kind), _NAMED.get(priority, priority), key,
        _held(tags, words) if tags else (), _held(sources, words) if sources else (),
        _held(supersedes, words) if supersedes else (),
        None if not valid_from else _parsed(valid_from, "valid_from", times),
        None if not valid_to else _parsed(valid_to, "valid_to", times),
        _held(superseded_by, words) if superseded_by else (),
        _SURE if confidence == _SURE and type(confidence) is float else confidence,
        recalls,
    )  # fmt: skip


def _held(values: list[str], words: dict[Any, Any] | None) -> tuple[str, ...]:
    """``values`` as a tuple; with ``words``, each value and the tuple itself held once."""
    if words is None:
        return tuple(values)
    found = tuple([words.setdefault(value, value) for value in values])
    held: tuple[str, ...] = words.setdefault(found, found)
    return held


def _dream_block(memory: Memory) -> dict[str, Any]:
    block: dict[str, Any] = {
        "id": memory.id,
        "topic": memory.topic,
        "priority": memory.priority,
    }
    if memory.key:
        block["key"] = memory.key
    block["tags"] = list(memory.tags)
    block["created"] = memory.created
    block["updated"] = memory.updated
    block["sources"] = list(memory.sources)
    if memory.supersedes:
        block["supersedes"] = list(memory.supersedes)
    if memory.valid_from is not None:
        block["valid_from"] = memory.valid_from
    if memory.valid_to is not None:
        block["valid_to"] = memory.valid_to
    if memory.superseded_by:
        block["superseded_by"] = list(memory.superseded_by)
    block["confidence"] = memory.confidence
    if memory.recalls:
        block["recalls"] = memory.recalls
    return block


def render_memory(memory: Memory) -> str:
    """The text of a new memory file (by the YAML dumper only when it is not plain)."""
    from dreamgit.store.plainfront import plain_document

    meta = {
        "name": memory.name or memory.slug,
        "description": memory.description or _first_line(memory.text),
        "metadata": {"type": memory.type},
        "dream": _dream_block(memory),
    }
    plain = plain_document(meta, memory.text)
    if plain is not None:
        return plain
    from dreamgit.store import frontmatter  # ruamel: a process that adds one memory rarely

    return frontmatter.dump_new(meta, memory.text)


def rewrite_memory(old_text: str, memory: Memory, *, path: str) -> str:
    """Rewrite an existing file for ``memory``: our keys updated, everything else kept."""
    from dreamgit.store import frontmatter

    def edit(data: Any) -> None:
        data["name"] = memory.name or data.get("name") or memory.slug
        data["description"] = memory.description or _first_line(memory.text)
        metadata = data.get("metadata")
        if isinstance(metadata, dict):
            metadata["type"] = memory.type
        elif "type" in data:
            data["type"] = memory.type
        else:
            data["metadata"] = {"type": memory.type}
        block = data.get("dream")
        fresh = _dream_block(memory)
        if isinstance(block, dict):
            for key in [k for k in block if k in _OURS and k not in fresh]:
                del block[key]
            for key, value in fresh.items():
                if block.get(key) != value:
                    block[key] = frontmatter.styled(value)
        else:
            data["dream"] = frontmatter.styled(fresh)

    old_body = frontmatter.parse(old_text, path=path).body
    body = None if old_body.strip() == memory.text else memory.text
    return frontmatter.rewrite(old_text, path=path, edit=edit, body=body)


_OURS = frozenset(
    [
        "id",
        "topic",
        "priority",
        "key",
        "tags",
        "created",
        "updated",
        "sources",
        "supersedes",
        "valid_from",
        "valid_to",
        "superseded_by",
        "confidence",
        "recalls",
    ]
)


def _first_line(text: str, limit: int = 150) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"
