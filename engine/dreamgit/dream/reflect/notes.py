"""The day's notes: reflections as lines of a ``## Reflections`` block.

``notes/YYYY-MM-DD.md`` is a file people may write in too: a dream only adds lines
at the end of its ``## Reflections`` block (made at the end of the file when
missing) and never touches the rest. The notes are generated text: they are never
read back as evidence for memories.
"""

from __future__ import annotations

from datetime import date, datetime

from dreamgit.store import layout

__all__ = ["HEADING", "notes_path", "with_reflection"]

HEADING = "## Reflections"


def notes_path(day: date) -> str:
    """The day's notes file: ``notes/YYYY-MM-DD.md`` (``day`` a date or a time)."""
    return f"{layout.NOTES}{day:%Y-%m-%d}.md"


def with_reflection(text: str | None, line: str, now: datetime) -> str | None:
    """The notes with ``- line`` at the end of the Reflections block; None when it is there.

    ``text`` is the notes as they are ("" or None: no notes yet that day).
    """
    entry = f"- {line}"
    if not text:  # no notes yet that day
        return f"# Notes {now:%Y-%m-%d}\n\n{HEADING}\n\n{entry}\n"
    lines = text.split("\n")
    if entry in lines:
        return None
    try:
        start = next(k for k, ln in enumerate(lines) if ln.strip() == HEADING)
    except StopIteration:
        head = text if text.endswith("\n") or not text else text + "\n"
        return f"{head}\n{HEADING}\n\n{entry}\n"
    end = next((k for k in range(start + 1, len(lines)) if lines[k].startswith("#")), len(lines))
    last = max((k for k in range(start + 1, end) if lines[k].strip()), default=start)
    at = last + 1
    if last == start:  # an empty block: a blank line after the heading first
        lines[at:at] = ["", entry]
    else:
        lines[at:at] = [entry]
    out = "\n".join(lines)
    return out if out.endswith("\n") else out + "\n"
