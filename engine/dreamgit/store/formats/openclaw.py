"""OpenClaw workspaces: curated ``MEMORY.md``, daily notes ``memory/YYYY-MM-DD.md`` as evidence.

``MEMORY.md`` is durable memory a person curates: its entries (bullets and
paragraphs, under their ``##`` headings) are read as ``core`` memories, which no
dream merges, supersedes or prunes; only promotion adds to it, inside a fence.
Daily notes are evidence, like sessions: a note is pending again when its own
text changes. What a dream stages goes into the note of the day it came from,
as OpenClaw's own dreaming does: candidates in a ``## Light Sleep`` block, the
run's reflection in a ``## REM Sleep`` block, each inside dreamgit's fence so it
is never read back as evidence. Candidates are the memories a dream merges,
supersedes and prunes; their ids and fields live in ``.dreamgit/openclaw.json``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Container
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime

from dreamgit.clock import utcnow
from dreamgit.errors import MemoryFileError
from dreamgit.ids import memory_id, session_id, slugify
from dreamgit.model import AGENT_WRITTEN, Memory, Session
from dreamgit.store.formats.base import Budget, Changes, MemoryFormat, Source, Texts
from dreamgit.store.formats.reinsert import reinsert
from dreamgit.store.formats.sidecar import (
    dump_sidecar,
    fields_from,
    meta_of,
    read_sidecar,
    restored_meta,
)

__all__ = ["LIGHT", "REM", "OpenClawFormat", "note_date"]

MEMORY = "MEMORY.md"
SIDECAR = ".dreamgit/openclaw.json"
#: OpenClaw truncates each bootstrap file it injects (``bootstrapMaxChars``, newer docs).
MEMORY_CHARS = 12_000
LIGHT = ("## Light Sleep", "<!-- dreamgit:generated light-sleep — staged candidates -->")
REM = ("## REM Sleep", "<!-- dreamgit:generated rem-sleep — what the dream saw -->")
PROMOTED = "<!-- dreamgit:generated promoted — moved here from the daily notes -->"
CLOSE = "<!-- /dreamgit:generated -->"
_DATED = re.compile(r"memory/(\d{4})-(\d{1,2})-(\d{1,2})\.md\Z")
_BULLET = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+")


def note_date(path: str) -> date | None:
    """The day a daily note is for; None when ``path`` is not named like one.

    A name shaped like a date that is not one (``memory/2026-13-45.md``) is an error.
    """
    match = _DATED.match(path)
    if match is None:
        return None
    try:
        return date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        raise MemoryFileError(
            path,
            f"is named like a daily note, but {match[1]}-{match[2]}-{match[3]} is not a date",
            line=1,
            hint="daily notes are named memory/YYYY-MM-DD.md; rename it or move it elsewhere",
        ) from None


def _find_block(lines: list[str], fence: tuple[str, str]) -> tuple[int, int] | None:
    """Line range (heading .. close) of a fenced block, or None."""
    for k, line in enumerate(lines):
        if line.strip() == fence[1]:
            end = next((j for j in range(k + 1, len(lines)) if lines[j].strip() == CLOSE), None)
            if end is None:
                return None
            start = k - 1 if k and lines[k - 1].strip() == fence[0] else k
            return start, end
    return None


def _block_items(text: str, fence: tuple[str, str]) -> list[str]:
    lines = text.split("\n")
    found = _find_block(lines, fence)
    if found is None:
        return []
    return [_BULLET.sub("", ln).strip() for ln in lines[found[0] : found[1]] if _BULLET.match(ln)]


def _crlf(text: str) -> bool:
    """Whether every line of ``text`` ends with CRLF (a file written on Windows)."""
    return "\r\n" in text and "\n" not in text.replace("\r\n", "")


def _with_block(text: str, fence: tuple[str, str], body: list[str]) -> str:
    """``text`` with the block's body replaced (appended when absent, removed when empty),
    in the file's own line endings."""
    if _crlf(text):
        return _with_block(text.replace("\r\n", "\n"), fence, body).replace("\n", "\r\n")
    lines = text.split("\n")
    found = _find_block(lines, fence)
    block = [fence[0], fence[1], *body, CLOSE] if body else []
    if found is not None:
        start, end = found
        if not body and start > 0 and lines[start - 1] == "":
            start -= 1  # the blank line dreamgit put before the heading goes with it
        return "\n".join(lines[:start] + block + lines[end + 1 :])
    if not body:
        return text
    head = text if text.endswith("\n") or not text else text + "\n"
    return head + ("\n" if head else "") + "\n".join(block) + "\n"


def strip_blocks(text: str) -> str:
    """A note without dreamgit's blocks: what a person or OpenClaw wrote."""
    for fence in (LIGHT, REM):
        text = _with_block(text, fence, [])
    return text


def _sha(file: str, text: str) -> str:
    return hashlib.sha256(f"{file}\x1f{text}".encode()).hexdigest()[:16]


def _flat(text: str) -> str:
    return " ".join(text.split())


class OpenClawFormat(MemoryFormat):
    """An OpenClaw workspace (``~/.openclaw/workspace``)."""

    name = "openclaw"
    title = "OpenClaw workspace (curated MEMORY.md, daily notes memory/YYYY-MM-DD.md)"
    index_path = ""
    index_style = ""
    diary_path = ""
    agent_paths = (MEMORY, "memory/")
    strict = True
    sidecar_path = SIDECAR
    shared_files = True
    durable_path = MEMORY

    def memory_path(self, path: str) -> bool:
        """``MEMORY.md`` and the daily notes (their Light Sleep candidates)."""
        return path == MEMORY or _DATED.match(path) is not None

    def role(self, path: str) -> str:
        """Curated memory, daily notes, or a file dreamgit leaves alone."""
        if path == MEMORY:
            return (
                "curated memory: never changed by a dream, except promoted entries added in "
                "a fenced block"
            )
        if _DATED.match(path):
            return (
                "a daily note: evidence a dream reads; it adds Light Sleep and REM Sleep "
                "blocks below your text, which stays as written"
            )
        return "not memory: left as it is"

    def count(self, source: Source) -> int:
        """Curated entries plus staged candidates."""
        return len(self.scan(source, now=utcnow())[0])

    def scan(self, source: Source, *, now: datetime) -> tuple[list[Memory], list[MemoryFileError]]:
        """Curated entries (core) and every staged candidate of every daily note."""
        memories: list[Memory] = []
        broken: list[MemoryFileError] = []
        curated = source.text(MEMORY)
        if curated is not None:
            memories += _curated(curated, now)
        meta = read_sidecar(source.text(SIDECAR), path=SIDECAR)
        by_sha = {(m.get("file"), m.get("sha")): i for i, m in meta.items()}
        used: set[str] = set()
        for path in sorted(source.files):
            try:
                if note_date(path) is None:
                    continue
            except MemoryFileError as exc:
                broken.append(exc)
                continue
            seen: dict[str, int] = {}
            for text in _block_items(source.text(path) or "", LIGHT):
                seen[text] = seen.get(text, 0) + 1  # ids never depend on position
                ident = by_sha.get((path, _sha(path, text)))
                if ident is None or ident in used:
                    ident = memory_id("openclaw", path, text, str(seen[text]))
                used.add(ident)
                fields = fields_from(meta.get(ident, {}), now)
                memories.append(
                    Memory(
                        id=ident,
                        topic=str(meta.get(ident, {}).get("topic") or "notes"),
                        slug=slugify(text),
                        text=text,
                        file=path,
                        **fields,
                    )
                )
        return memories, broken

    def evidence(self, source: Source) -> dict[str, str]:
        """Each daily note, under an id that changes when its own text changes."""
        found = {}
        for path, blob in source.files.items():
            day = note_date(path)
            if day is None:
                continue
            own = strip_blocks(source.read_blob(blob).decode("utf-8", errors="replace"))
            if not own.strip():
                continue  # only dreamgit's own blocks: nothing a person or OpenClaw wrote
            moment = datetime(day.year, day.month, day.day, tzinfo=UTC)
            found[session_id(moment, "openclaw", path, own)] = path
        return found

    def read_session(self, ident: str, path: str, text: str, fallback: datetime) -> Session:
        """A daily note as evidence: its own text, at the start of its day, written by the
        agent (its "I" is the agent's)."""
        day = note_date(path)
        if day is None:
            return super().read_session(ident, path, text, fallback)
        moment = datetime(day.year, day.month, day.day, tzinfo=UTC)
        return Session(
            ident, moment, strip_blocks(text), summary=f"daily note {path}", tags=(AGENT_WRITTEN,)
        )

    def place(self, memory: Memory, taken: Container[str]) -> Memory:
        """A new candidate is staged in the note of the day its evidence is from."""
        return replace(memory, file=f"memory/{memory.created:%Y-%m-%d}.md", text=_flat(memory.text))

    def add(self, texts: Texts, memory: Memory) -> Changes:
        """Stage the candidate in its day's Light Sleep block."""
        items = [*_block_items(texts.get(memory.file) or "", LIGHT), _flat(memory.text)]
        return self._write(texts, memory.file, items, put=memory)

    def update(self, texts: Texts, old: Memory, new: Memory) -> Changes:
        """Rewrite a staged candidate where it stands."""
        if old.file == MEMORY:
            return {}  # curated memory changes only by promotion
        items = _block_items(texts.get(old.file) or "", LIGHT)
        position = items.index(old.text) if old.text in items else len(items)
        items[position : position + 1] = [_flat(new.text)]
        return self._write(texts, old.file, items, put=replace(new, file=old.file))

    def remove(self, texts: Texts, memory: Memory) -> Changes:
        """Drop a staged candidate (curated entries are never removed by a dream)."""
        if memory.file == MEMORY:
            return {}
        items = [i for i in _block_items(texts.get(memory.file) or "", LIGHT) if i != memory.text]
        return self._write(texts, memory.file, items, drop=memory.id)

    def forget(self, texts: Texts, memory: Memory) -> Changes:
        """A person may forget a curated entry too: its lines leave MEMORY.md."""
        if memory.file != MEMORY:
            return self.remove(texts, memory)
        curated = texts.get(MEMORY) or ""
        gone = _lines_of(curated, memory.id)
        lines = curated.split("\n")
        return {MEMORY: "\n".join(ln for k, ln in enumerate(lines) if k not in gone)}

    def restore(self, texts: Texts, memory: Memory, held: Texts) -> Changes:
        """A curated entry's lines, or a candidate's bullet, back between their neighbours."""
        if memory.file == MEMORY:
            old = held.get(MEMORY) or ""
            now = (texts.get(MEMORY) or "").split("\n")
            return {MEMORY: "\n".join(reinsert(old.split("\n"), now, _lines_of(old, memory.id)))}
        old_items = _block_items(held.get(memory.file) or "", LIGHT)
        mine = {k for k, item in enumerate(old_items) if item == memory.text}
        items = reinsert(old_items, _block_items(texts.get(memory.file) or "", LIGHT), mine)
        changes = self._write(texts, memory.file, items)
        return {**changes, **restored_meta(changes[SIDECAR], held.get(SIDECAR), memory.id, SIDECAR)}

    def promote(self, texts: Texts, memory: Memory) -> Changes:
        """Move a staged candidate into MEMORY.md's promoted fence: the only way it changes."""
        changes = self.remove(texts, memory)
        curated = texts.get(MEMORY) or ""
        if _crlf(curated):
            promoted = _promoted(curated.replace("\r\n", "\n"), memory)
            changes[MEMORY] = promoted.replace("\n", "\r\n")
        else:
            changes[MEMORY] = _promoted(curated, memory)
        return changes

    def reflection(self, texts: Texts, entry: str, now: datetime) -> Changes:
        """The run's reflection, in the REM Sleep block of today's note."""
        path = f"memory/{now:%Y-%m-%d}.md"
        body = [ln for ln in entry.strip().split("\n") if ln.strip() not in (CLOSE,)]
        return {path: _with_block(texts.get(path) or "", REM, body)}

    def budgets(self) -> list[Budget]:
        """OpenClaw injects at most about 12,000 characters of MEMORY.md."""
        return [Budget(MEMORY, chars=MEMORY_CHARS)]

    def _write(
        self,
        texts: Texts,
        path: str,
        items: list[str],
        *,
        put: Memory | None = None,
        drop: str = "",
    ) -> Changes:
        meta = read_sidecar(texts.get(SIDECAR), path=SIDECAR)
        meta.pop(drop, None)
        if put is not None:
            meta[put.id] = {**meta_of(put, _sha(path, _flat(put.text))), "topic": put.topic}
        return {
            path: _with_block(texts.get(path) or "", LIGHT, [f"- {i}" for i in items]),
            SIDECAR: dump_sidecar(meta),
        }


@dataclass(frozen=True)
class _Curated:
    """One entry of MEMORY.md: its id, heading topic, text, and the lines it spans."""

    id: str
    topic: str
    text: str
    #: Indexes into ``text.split("\n")`` of the file.
    lines: tuple[int, ...]


def _promoted(curated: str, memory: Memory) -> str:
    """MEMORY.md (LF endings) with ``memory`` added to the promoted fence."""
    lines = curated.split("\n")
    start = next((k for k, ln in enumerate(lines) if ln.strip() == PROMOTED), None)
    entry = f"- {_flat(memory.text)}"
    if start is None:
        head = curated if curated.endswith("\n") or not curated else curated + "\n"
        return f"{head}\n{PROMOTED}\n{entry}\n{CLOSE}\n"
    end = next(j for j in range(start + 1, len(lines)) if lines[j].strip() == CLOSE)
    return "\n".join([*lines[:end], entry, *lines[end:]])


def _curated_entries(text: str) -> list[_Curated]:
    """MEMORY.md's entries: bullets and paragraphs, each under its heading's topic."""
    topic, current, spans = "memory", list[str](), list[int]()
    entries: list[tuple[str, str, tuple[int, ...]]] = []

    def flush() -> None:
        if current:
            entries.append((topic, " ".join(current), tuple(spans)))
            current.clear()
            spans.clear()

    for number, line in enumerate(text.split("\n")):
        stripped = line.strip()
        if stripped.startswith(("<!--", "#")) or not stripped:
            flush()
            if stripped.startswith("#"):
                topic = slugify(stripped.lstrip("#")) or "memory"
            continue
        if _BULLET.match(line):
            flush()
            stripped = _BULLET.sub("", line).strip()
        current.append(stripped)
        spans.append(number)
    flush()
    seen: dict[str, int] = {}
    found = []
    for topic_name, entry, lines in entries:
        seen[entry] = seen.get(entry, 0) + 1
        ident = memory_id("openclaw", MEMORY, entry, str(seen[entry]))
        found.append(_Curated(ident, topic_name, entry, lines))
    return found


def _curated(text: str, now: datetime) -> list[Memory]:
    """MEMORY.md's entries as core memories (no dream merges, supersedes or prunes them)."""
    return [
        Memory(
            id=entry.id,
            topic=entry.topic,
            slug=slugify(entry.text),
            text=entry.text,
            created=now,
            updated=now,
            priority="core",
            file=MEMORY,
        )
        for entry in _curated_entries(text)
    ]


def _lines_of(text: str, ident: str) -> set[int]:
    """The lines (of ``text.split("\n")``) of MEMORY.md's entry ``ident``."""
    return {n for e in _curated_entries(text) if e.id == ident for n in e.lines}
