"""A word diff of an operation's before → after text, for the report.

Words (runs of non-space) are compared with difflib; the result is a list of
segments, each ``("same" | "del" | "ins", text)``, that the HTML page shows as
struck and inserted text and the Markdown body as ``~~old~~`` and ``**new**``.
"""

from __future__ import annotations

from difflib import SequenceMatcher

__all__ = ["Segment", "word_diff"]

Segment = tuple[str, str]


def word_diff(before: str, after: str) -> list[Segment]:
    """The segments that turn ``before`` into ``after``, word by word."""
    old, new = before.split(), after.split()
    segments: list[Segment] = []
    matcher = SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            segments.append(("same", " ".join(old[i1:i2])))
            continue
        if i2 > i1:
            segments.append(("del", " ".join(old[i1:i2])))
        if j2 > j1:
            segments.append(("ins", " ".join(new[j1:j2])))
    return segments
