"""dreamgit's metadata for memories whose files cannot hold it (Hermes, OpenClaw).

A JSON file under ``.dreamgit/`` maps each memory id to the file it lives in, a
hash of its text (so the id is found again when the text is read back) and the
fields the agent's file has no room for: times, priority, key, sources. The agent
never reads it; its own files stay exactly as it would write them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from dreamgit.clock import format_time, parse_time
from dreamgit.errors import MemoryFileError
from dreamgit.model import Memory

__all__ = ["dump_sidecar", "fields_from", "meta_of", "read_sidecar", "restored_meta"]


def read_sidecar(text: str | None, *, path: str) -> dict[str, dict[str, Any]]:
    """Id → metadata from the sidecar's text ({} when there is none yet)."""
    if not text:
        return {}
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise MemoryFileError(
            path, f"is not valid JSON: {exc}", hint="restore it from git"
        ) from None
    entries = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(entries, dict):
        return {}
    return {str(k): v for k, v in entries.items() if isinstance(v, dict)}


def dump_sidecar(meta: Mapping[str, Mapping[str, Any]]) -> str:
    """The sidecar's text: sorted, so the same memories give the same bytes."""
    body = {"version": 1, "entries": dict(sorted(meta.items()))}
    return json.dumps(body, indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def meta_of(memory: Memory, sha: str) -> dict[str, Any]:
    """What the sidecar keeps of ``memory`` whose text hashes to ``sha``."""
    data: dict[str, Any] = {
        "file": memory.file,
        "sha": sha,
        "priority": memory.priority,
        "created": format_time(memory.created),
        "updated": format_time(memory.updated),
    }
    for name in ("tags", "sources", "supersedes", "superseded_by"):
        if getattr(memory, name):
            data[name] = list(getattr(memory, name))
    for name in ("valid_from", "valid_to"):
        moment = getattr(memory, name)
        if moment is not None:
            data[name] = format_time(moment)
    if memory.key:
        data["key"] = memory.key
    if memory.confidence != 1.0:
        data["confidence"] = memory.confidence
    return data


def fields_from(meta: Mapping[str, Any], now: datetime) -> dict[str, Any]:
    """The Memory fields a sidecar entry gives (unknown times read as ``now``)."""
    created = parse_time(meta["created"], what="created") if meta.get("created") else now
    return {
        "created": created,
        "updated": parse_time(meta["updated"], what="updated") if meta.get("updated") else created,
        "priority": str(meta.get("priority") or "normal"),
        "key": meta.get("key"),
        "tags": tuple(meta.get("tags") or ()),
        "sources": tuple(meta.get("sources") or ()),
        "supersedes": tuple(meta.get("supersedes") or ()),
        "valid_from": _time(meta, "valid_from"),
        "valid_to": _time(meta, "valid_to"),
        "superseded_by": tuple(meta.get("superseded_by") or ()),
        "confidence": float(meta.get("confidence", 1.0)),
    }


def _time(meta: Mapping[str, Any], name: str) -> datetime | None:
    return parse_time(meta[name], what=name) if meta.get(name) else None


def restored_meta(now: str | None, held: str | None, ident: str, path: str) -> dict[str, str]:
    """The sidecar change that brings ``ident``'s entry back as ``held`` had it, true
    again (no end of validity, nothing superseding it); none when there is nothing to keep."""
    meta = read_sidecar(now, path=path)
    entry = read_sidecar(held, path=path).get(ident)
    if entry is not None:
        meta[ident] = {k: v for k, v in entry.items() if k not in ("valid_to", "superseded_by")}
    return {path: dump_sidecar(meta)} if meta or now is not None else {}
