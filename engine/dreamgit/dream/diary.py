"""Render ``DREAMS.md``, the human-readable diary of dream runs, newest first.

Each run becomes one section: when it ran, its id, what happened (merged, left for
review, or skipped and why), counts by operation, one line per operation with its
rule and memory ids, and the work deferred to the next dream. The full record stays
in ``.dreamgit/runs/<run-id>.json``; the diary is the page a person skims. Rendering
reads only the run record (a JSON-shaped mapping), so an old record still renders.
A section for a run id already in the diary is replaced, not repeated, so a retried
run leaves one entry.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import datetime
from itertools import pairwise
from typing import Any

from dreamgit.clock import parse_time
from dreamgit.dream.index import GENERATED_MARKER, is_generated
from dreamgit.errors import UserError

__all__ = ["mark_merged", "prepend_entry", "render_diary_entry"]

_HEADER = (
    f"{GENERATED_MARKER}\n# Dreams\n\n"
    "Newest first. The full record of each run is in `.dreamgit/runs/<run-id>.json`.\n"
)
_HEADING = re.compile(r"^## (?:.* · )?run (\S+)\s*$")
#: Operations in the order a reader expects them; others follow alphabetically.
_OP_ORDER = ("add", "merge", "replace", "remove")
_MAX_IDS = 6
_MAX_SESSIONS = 10
_MAX_SUMMARY = 160
_WHITESPACE = re.compile(r"\s+")
#: The status an entry of a run left for review starts with (see ``_status``).
_LEFT_FOR_REVIEW = re.compile(r"^Left on `([^`\n]+)` for review", re.MULTILINE)


def render_diary_entry(record: Mapping[str, Any]) -> str:
    """One diary section for a run record (the dict ``run --json`` prints)."""
    run_id = _plain(record.get("run_id")) or "?"
    when = _when(record.get("now"))
    out = [f"## {when} · run {run_id}" if when else f"## run {run_id}", ""]
    if record.get("skipped"):
        reason = _plain(record.get("reason")) or "the gate did not hold"
        return "\n".join([*out, f"Skipped: {reason}", ""])
    ops: list[Mapping[str, Any]] = list(record.get("ops") or [])
    out += [_status(record, ops), ""]
    tests = record.get("tests")
    if isinstance(tests, Mapping):
        out += [_tests_line(tests), ""]
    if ops:
        out += [_op_line(i, op) for i, op in enumerate(ops, start=1)]
        out.append("")
    deferred: list[Mapping[str, Any]] = list(record.get("deferred") or [])
    if deferred:
        out += ["Deferred to the next dream:", *_deferred_lines(deferred, run_id), ""]
    decisions = record.get("decisions") or []
    if decisions:
        out += [f"{len(decisions)} decisions recorded in `.dreamgit/runs/{run_id}.json`.", ""]
    return "\n".join(out)


def prepend_entry(existing: str | None, entry: str) -> str:
    """DREAMS.md with ``entry`` on top: under the header, above every older entry.

    A section of the same run is dropped first. A DREAMS.md that dreamgit did not
    write (another tool's diary) is kept whole below the new entry.
    """
    run_id = _run_id(entry)
    rest = _body(existing or "")
    if run_id is not None:
        rest = "".join(s for s in _sections(rest) if _run_id(s) != run_id)
    parts = [_HEADER, entry.strip() + "\n"]
    if rest.strip():
        parts.append(rest.strip() + "\n")
    return "\n".join(parts)


def mark_merged(existing: str, run_id: str, *, how: str, when: datetime) -> str | None:
    """DREAMS.md with run ``run_id``'s entry saying it was merged after review; None if unchanged.

    A run left for review (``run --no-merge``) wrote "Left on `dream/…` for review";
    once ``dreamgit merge`` brought it in, that entry says when and how instead. The
    rest of the entry, and every other one, stays as it was.
    """
    sections = list(_sections(_body(existing)))
    for i, section in enumerate(sections):
        if _run_id(section) != run_id:
            continue
        status = _LEFT_FOR_REVIEW.search(section)
        if status is None:
            return None
        merged = (
            f"Merged {when:%Y-%m-%d %H:%M} UTC by `dreamgit merge` ({how}) "
            f"after review on `{status.group(1)}`"
        )
        sections[i] = section[: status.start()] + merged + section[status.end() :]
        head = existing[: len(existing) - len(_body(existing))]
        return head + "".join(sections)
    return None


def _when(now: Any) -> str:
    """``2026-11-22 03:00 UTC`` for the heading, or nothing when the time is unknown."""
    if not now:
        return ""
    try:
        moment = parse_time(str(now), what="a run's time")
    except UserError:
        return _plain(now)
    return f"{moment:%Y-%m-%d %H:%M} UTC"


def _status(record: Mapping[str, Any], ops: list[Mapping[str, Any]]) -> str:
    """``Merged · 41 → 43 memories · 3 new sessions · 4 operations: add 2, remove 2``."""
    if record.get("merged") or (record.get("branch") and record.get("merge_requested")):
        # The entry is written on the branch before the merge; it reaches main's
        # DREAMS.md only by that merge, so wherever it is read on main it is merged.
        parts = ["Merged"]
    elif record.get("branch"):
        parts = [f"Left on `{_plain(record['branch'])}` for review"]
    else:
        parts = ["Nothing to change" if not ops else "Not merged"]
    replaced = [f"`{_plain(_branch(b))}`" for b in record.get("replaced") or []]
    if replaced:
        parts.append(f"replaces {', '.join(replaced)} (its sessions are dreamed again here)")
    before, after = record.get("memories_before"), record.get("memories_after")
    if before is not None and after is not None:
        parts.append(f"{before} → {after} memories")
    sessions = [_plain(s) for s in record.get("sessions") or []]
    if sessions:
        shown = ", ".join(f"`{s}`" for s in sessions[:_MAX_SESSIONS])
        more = f" and {len(sessions) - _MAX_SESSIONS} more" if len(sessions) > _MAX_SESSIONS else ""
        parts.append(f"{_count(len(sessions), 'new session')} ({shown}{more})")
    counts = _counts(record.get("counts"), ops)
    if counts:
        listing = ", ".join(f"{op} {n}" for op, n in counts)
        parts.append(f"{_count(sum(n for _, n in counts), 'operation')}: {listing}")
    return " · ".join(parts)


def _tests_line(tests: Mapping[str, Any]) -> str:
    """``Memory tests: 5 passed, 1 failed, 2 new · broke: `editor` (missing 'helix')``."""
    line = (
        f"Memory tests ({_plain(tests.get('gate'))}): {tests.get('passed', 0)} passed, "
        f"{tests.get('failed', 0)} failed, {tests.get('new', 0)} new"
    )
    broken = [b for b in tests.get("broken") or [] if isinstance(b, Mapping)]
    if broken:
        listed = "; ".join(f"`{_plain(b.get('name'))}` ({_plain(b.get('why'))})" for b in broken)
        line += f" · broke: {listed}"
    return line


def _branch(item: Any) -> Any:
    """A replaced branch's name (records list ``{branch, tip}``)."""
    return item.get("branch") if isinstance(item, Mapping) else item


def _counts(given: Any, ops: list[Mapping[str, Any]]) -> list[tuple[str, int]]:
    """Counts by operation, from the record or else from its ops, in reading order."""
    counts: dict[str, int] = {}
    if isinstance(given, Mapping) and given:
        counts = {str(op): int(n) for op, n in given.items() if n}
    else:
        for op in ops:
            name = _plain(op.get("op")) or "?"
            counts[name] = counts.get(name, 0) + 1
    rank = {op: i for i, op in enumerate(_OP_ORDER)}
    return sorted(counts.items(), key=lambda item: (rank.get(item[0], len(rank)), item[0]))


def _op_line(position: int, op: Mapping[str, Any]) -> str:
    """``3. **merge** `m-1`, `m-2` — rule `merge-dupes` (consolidate): summary · `abc1234```."""
    number = op.get("n", position)
    line = f"{number}. **{_plain(op.get('op')) or '?'}** {_ids(op.get('memories'))}"
    line += _rule(op.get("rule"), op.get("phase"))
    summary = _plain(op.get("summary"))
    if summary:
        line += f": {_shorten(summary, _MAX_SUMMARY)}"
    commit = _plain(op.get("commit"))
    if commit:
        line += f" · `{commit[:7]}`"
    return line


#: Deferred operations the diary lists one a line; the rest are counted (a run over
#: 10,000 memories may defer 19,000 prunes: the record names 20 a rule and counts the rest).
DIARY_DEFERRED = 20


def _deferred_lines(deferred: list[Mapping[str, Any]], run_id: str) -> list[str]:
    lines = [_deferred_line(d) for d in deferred[:DIARY_DEFERRED]]
    rest = deferred[DIARY_DEFERRED:]
    if rest:
        counts: dict[str, int] = {}
        for item in rest:
            op = _plain(item.get("op")) or "?"
            counts[op] = counts.get(op, 0) + (_more(item) or 1)  # one, or those it counts
        each = ", ".join(f"{op} {n:,}" for op, n in sorted(counts.items()))
        total = sum(counts.values())
        lines.append(f"- … and {total:,} more ({each}): `.dreamgit/runs/{run_id}.json`")
    return lines


def _more(item: Mapping[str, Any]) -> int:
    """How many operations a deferred item counts without naming them (``more``), or 0."""
    more = item.get("more")
    return more if isinstance(more, int) and more > 0 else 0


def _deferred_line(item: Mapping[str, Any]) -> str:
    more = _more(item)
    counted = f"{more:,} more" if more else ""
    ids = _ids(item.get("memories")) if item.get("memories") or not counted else ""
    shown = " and ".join(part for part in (ids, counted) if part)
    line = f"- **{_plain(item.get('op')) or '?'}** {shown}"
    line += _rule(item.get("rule"), None)
    reason = _plain(item.get("reason"))
    return f"{line}: {reason}" if reason else line


def _rule(rule: Any, phase: Any) -> str:
    text = f" — rule `{_plain(rule)}`" if rule else ""
    return f"{text} ({_plain(phase)})" if phase else text


def _ids(ids: Any) -> str:
    names = [_plain(i) for i in (ids or [])] if not isinstance(ids, str) else [_plain(ids)]
    shown = ", ".join(f"`{i}`" for i in names[:_MAX_IDS])
    if len(names) > _MAX_IDS:
        shown += f" and {len(names) - _MAX_IDS} more"
    return shown or "(no memory)"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _plain(value: Any) -> str:
    """A value on one line, without backticks that would break the code spans around it."""
    if value is None:
        return ""
    return _WHITESPACE.sub(" ", str(value)).replace("`", "'").strip()


def _shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def _run_id(section: str) -> str | None:
    match = _HEADING.match(section.split("\n", 1)[0])
    return match.group(1) if match else None


def _body(existing: str) -> str:
    """What follows the header: the older entries (or a foreign file, whole)."""
    if existing.startswith(_HEADER):
        return existing[len(_HEADER) :]
    if not is_generated(existing):
        return existing
    # An older dreamgit header: everything before the first entry is ours to replace.
    start = re.search(r"^## ", existing, flags=re.MULTILINE)
    return existing[start.start() :] if start else ""


def _sections(text: str) -> Iterable[str]:
    """``text`` split before each ``## `` heading; the pieces join back to ``text``."""
    starts = [m.start() for m in re.finditer(r"^## ", text, flags=re.MULTILINE)]
    bounds = sorted({0, *starts, len(text)})
    return [text[a:b] for a, b in pairwise(bounds)]
