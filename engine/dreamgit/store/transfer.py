"""Export and import: memories as JSON, JSON Lines, Markdown, or another agent's files.

``export`` writes the active memories of a repository in one of the exchange
formats (``json``, ``jsonl``, ``markdown``: one file) or as a folder in an agent's
format (``claude-code``, ``hermes``, ``openclaw``, ``dreamgit``), keeping ids,
times, sources and priorities wherever the target can hold them. ``import`` reads
any of these back and writes the memories into a repository of any format, one
commit; a memory whose id is already there is skipped, so importing twice adds
nothing the second time.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

from dreamgit.clock import parse_time
from dreamgit.errors import MemoryFileError, UserError
from dreamgit.ids import NAME_PATTERN, slugify
from dreamgit.model import MEMORY_TYPES, PRIORITIES, Memory, priority_rank
from dreamgit.store.formats import FORMAT_NAMES, MemoryFormat, Source, Texts, get_format
from dreamgit.store.memoryfile import decode_text, memory_from_record, parse_memory_record
from dreamgit.store.secrets import redact_text, safe_path

__all__ = ["EXCHANGE", "export_files", "export_text", "read_export", "to_files", "unplaced"]

#: Single-file exchange formats (Daydreams exports episodes as JSON, JSONL and Markdown).
EXCHANGE: tuple[str, ...] = ("json", "jsonl", "markdown")

_MD_HEAD = re.compile(r"^## (?P<id>\S+) · (?P<topic>\S+)\s*$")
_MD_META = re.compile(r"^<!-- dreamgit:memory (?P<json>\{.*\}) -->\s*$")


def _record(memory: Memory) -> dict[str, Any]:
    data = memory.to_dict()
    data.pop("path", None)
    data["slug"] = memory.slug
    return data


def _moment(data: Mapping[str, Any], name: str) -> datetime | None:
    """An optional time of an exported memory (exports before validity have none)."""
    return parse_time(str(data[name]), what=name) if data.get(name) else None


def _memory(data: Mapping[str, Any], *, where: str) -> Memory:
    """A Memory from an exported record; a missing or bad field names ``where``."""
    try:
        text = str(data["text"]).strip()
        topic = str(data.get("topic") or "imported")
        created = parse_time(str(data["created"]), what="created")
        priority = str(data.get("priority") or "normal")
        kind = str(data.get("type") or "user")
        if priority not in PRIORITIES:
            raise ValueError(f"priority {priority!r} is not one of {', '.join(PRIORITIES)}")
        return Memory(
            id=str(data["id"]),
            topic=topic if NAME_PATTERN.match(topic) else slugify(topic),
            slug=str(data.get("slug") or slugify(text)),
            text=text,
            created=created,
            updated=parse_time(str(data.get("updated") or data["created"]), what="updated"),
            name=str(data.get("name") or ""),
            description=str(data.get("description") or ""),
            type=kind if kind in MEMORY_TYPES else "user",
            priority=priority,
            key=data.get("key") or None,
            tags=tuple(str(t) for t in data.get("tags") or ()),
            sources=tuple(str(s) for s in data.get("sources") or ()),
            supersedes=tuple(str(s) for s in data.get("supersedes") or ()),
            valid_from=_moment(data, "valid_from"),
            valid_to=_moment(data, "valid_to"),
            superseded_by=tuple(str(s) for s in data.get("superseded_by") or ()),
            confidence=float(data.get("confidence", 1.0)),
            recalls=int(data.get("recalls", 0)),
        )
    except KeyError as exc:
        raise UserError(f"{where}: memory has no {exc.args[0]!r}", hint="export it again") from None
    except (TypeError, ValueError, UserError) as exc:
        reason = exc.message if isinstance(exc, UserError) else str(exc)
        raise UserError(f"{where}: {reason}", hint="export it again") from None


def export_text(memories: Iterable[Memory], kind: str) -> str:
    """The memories as one ``json``, ``jsonl`` or ``markdown`` document."""
    records = [_record(m) for m in memories]
    if kind == "json":
        return json.dumps(records, indent=2, ensure_ascii=False) + "\n"
    if kind == "jsonl":
        return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    out = ["# Memories", ""]
    for record in records:
        meta = {k: v for k, v in record.items() if k not in ("id", "topic", "text")}
        out += [
            f"## {record['id']} · {record['topic']}",
            f"<!-- dreamgit:memory {json.dumps(meta, ensure_ascii=False)} -->",
            "",
            record["text"],
            "",
        ]
    return "\n".join(out)


def to_files(
    memories: Iterable[Memory], fmt: MemoryFormat, *, left_out: list[Memory] | None = None
) -> dict[str, str]:
    """The files a fresh folder of format ``fmt`` holds for ``memories``.

    A memory that would push a file over the budget its agent loads (Hermes'
    characters) is not written; it goes to ``left_out`` instead.
    """
    texts = Texts(lambda _path: None)
    written: dict[str, str | None] = {}
    taken: set[str] = set()
    for memory in memories:
        placed = fmt.place(unplaced(memory), taken)
        changes = fmt.add(texts, placed)
        trial = Texts(texts.get)
        trial.put(changes)
        if fmt.overflow(trial, changes) is not None:
            if left_out is not None:
                left_out.append(memory)
            continue
        texts.put(changes)
        written.update(changes)
        taken.add(placed.path)
    return {path: text for path, text in written.items() if text is not None}


def unplaced(memory: Memory) -> Memory:
    """A memory without the file of the format it came from (the target places it)."""
    slug = memory.slug if NAME_PATTERN.match(memory.slug) else slugify(memory.name or memory.text)
    return replace(memory, file="", slug=slug)


def export_files(
    memories: list[Memory], kind: str, *, left_out: list[Memory] | None = None
) -> dict[str, str]:
    """Files of an export: one document for an exchange format, a folder for an agent's
    (what its budgets cannot hold goes to ``left_out``, best kept first).

    Names and texts are scanned like a commit: a hand-written memory file that git
    took in unscanned leaves no credential in an export.
    """
    files = _export_files(memories, kind, left_out)
    return {safe_path(path): redact_text(text)[0] for path, text in files.items()}


def _export_files(
    memories: list[Memory], kind: str, left_out: list[Memory] | None
) -> dict[str, str]:
    if kind in EXCHANGE:
        name = {"json": "memories.json", "jsonl": "memories.jsonl", "markdown": "memories.md"}
        return {name[kind]: export_text(memories, kind)}
    ranked = sorted(memories, key=lambda m: (-priority_rank(m.priority), m.id))
    files = to_files(ranked, get_format({"format": kind}), left_out=left_out)
    if kind == "claude-code":
        files["MEMORY.md"] = "".join(
            f"- [{m.name or m.slug}]({path}) — {m.description or m.text[:80]}\n"
            for path, m in _placed(ranked, get_format({"format": kind}))
        )
    return files


def _placed(memories: list[Memory], fmt: MemoryFormat) -> list[tuple[str, Memory]]:
    taken: set[str] = set()
    found = []
    for memory in memories:
        placed = fmt.place(unplaced(memory), taken)
        taken.add(placed.path)
        found.append((placed.path, placed))
    return found


def read_export(kind: str, path: Path, *, now: datetime) -> list[Memory]:
    """The memories an export (or another agent's folder) holds."""
    if kind in EXCHANGE:
        return _read_document(kind, path)
    if kind not in FORMAT_NAMES:
        raise UserError(
            f"{kind!r} is not a format dreamgit imports",
            hint="use one of " + ", ".join((*EXCHANGE, *FORMAT_NAMES)),
        )
    if not path.is_dir():
        raise UserError(f"{path}: no such directory", hint=f"give the folder of the {kind} memory")
    files = {
        p.relative_to(path).as_posix(): p
        for p in sorted(path.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(path).parts
    }
    blobs = {rel: rel for rel in files}

    def read_blob(rel: str) -> bytes:
        return files[rel].read_bytes()

    def record(rel: str, _blob: str) -> dict[str, object]:
        return parse_memory_record(decode_text(read_blob(rel), path=rel), path=rel)

    fmt = get_format({"format": kind})
    if kind == "dreamgit":
        found: list[Memory] = []
        for rel in blobs:
            if fmt.memory_path(rel):
                found.append(memory_from_record(record(rel, rel), path=rel, now=now))
        return found
    memories, broken = fmt.scan(Source(blobs, read_blob, record), now=now)
    if broken:
        raise broken[0]
    return memories


def _read_document(kind: str, path: Path) -> list[Memory]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{path}: cannot read: {exc}") from None
    if kind == "json":
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise MemoryFileError(str(path), f"is not valid JSON: {exc.args[0]}") from None
        if not isinstance(data, list):
            raise UserError(f"{path}: a JSON export is a list of memories")
        return [_memory(d, where=f"{path}: item {k + 1}") for k, d in enumerate(data)]
    if kind == "jsonl":
        found = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                found.append(_memory(json.loads(line), where=f"{path}:{number}"))
            except ValueError:
                raise MemoryFileError(str(path), "is not a JSON line", line=number) from None
        return found
    return _read_markdown(text, path)


def _read_markdown(text: str, path: Path) -> list[Memory]:
    found: list[Memory] = []
    current: dict[str, Any] | None = None
    body: list[str] = []
    start = 0

    def flush() -> None:
        if current is not None:
            current["text"] = "\n".join(body).strip()
            found.append(_memory(current, where=f"{path}:{start}"))

    for number, line in enumerate(text.splitlines(), start=1):
        head = _MD_HEAD.match(line)
        if head is not None:
            flush()
            current, body, start = {"id": head["id"], "topic": head["topic"]}, [], number
            continue
        meta = _MD_META.match(line)
        if meta is not None and current is not None and not body:
            try:
                current.update(json.loads(meta["json"]))
            except ValueError:
                raise MemoryFileError(
                    str(path), "memory metadata is not JSON", line=number
                ) from None
            continue
        if current is not None:
            body.append(line)
    flush()
    return found
