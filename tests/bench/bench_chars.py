"""Where a kept memory's characters go: counts by kind of overhead, no sentences printed.

Usage::

    python tests/bench/bench_quality.py --memory-root DIR        # keep the memories
    python tests/bench/bench_chars.py DIR [--eval-dir DIR] [--set locomo]

Over the memory files ``bench_quality.py`` wrote (the text the scorer reads and counts as
size), each character is charged to the first kind that claims it, in this order:
``lead`` (a session note's "Name — "), ``name-again`` (a speaker's name, or "The user",
said again in a memory that already named them), ``attribution`` (the verb that reports
who said it: "says", "mentioned that", "and others"), ``date-again`` (a date the same memory
already gave), ``date-frame`` (the words that tie a date on: "on", "as of", "in the week
before"), ``date`` (a date's first saying), ``filler`` (adverbs and hedges that add nothing
a question asks: the adverbs ``phrasing`` drops after a subject, "you know", "I think"),
``separator`` (note joints "; ", " — " and the full stop), ``repeat`` (a whole item whose
content words mostly repeat an earlier item of the same conversation, the scorer's
near-duplicate test); the rest is ``content``. Speakers' names come from each
conversation's ``conversation.json``. Counts only.

With ``--extracted``, the same count runs over every statement the rules extractor makes
of the conversations' sessions (each read alone, before the gather budget): what the
budget chooses from, beside what it kept.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_quality import default_eval_dir, load_scorer  # the sibling bench's

from dreamgit.dream.gather.phrasing import ADVERBS

KINDS = (
    "lead",
    "name-again",
    "attribution",
    "date-again",
    "date-frame",
    "date",
    "filler",
    "separator",
    "repeat",
    "content",
)
_MONTH = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November"
    r"|December)"
)
_DATE = re.compile(
    rf"\b(?:\d{{1,2}}\s+{_MONTH}\s+\d{{4}}|{_MONTH}\s+\d{{4}}|\d{{4}}-\d{{2}}-\d{{2}}"
    r"|(?:spring|summer|autumn|fall|winter)\s+\d{4}|(?<![\d,.])(?:19|20)\d\d(?![\d,.]))"
)
_DATE_FRAME = re.compile(
    r"\b(?:(?:the\s+)?(?:week|weekend|night|day|morning|evening|month|year)s?\s+"
    r"(?:before|after|of)\s+|(?:a\s+few|two|three|\d+)\s+(?:days|weeks|months)\s+before\s+"
    r"|as\s+of\s+|(?:on|in|by|since|from|until)\s+)(?=" + _DATE.pattern[2:] + ")",
    re.I,
)
_FILLER = re.compile(
    r"\b(?:" + "|".join(sorted(ADVERBS)) + r"|you\s+know|i\s+think(?:\s+that)?|kind\s+of"
    r"|sort\s+of|i\s+mean|so\s+much|pretty)\b,?\s*",
    re.I,
)
_ATTRIBUTION = r"\s+(?:says|said|mentioned|shared|explained|told\s+\w+|thinks)(?:\s+that)?\b"
_SEPARATOR = re.compile(r"; | \u2014 |\.\s*$")


def _claim(owner: list[str], start: int, end: int, kind: str) -> None:
    for k in range(start, end):
        if owner[k] == "content":
            owner[k] = kind


def charge(text: str, names: list[str]) -> list[str]:
    """The kind each character of one memory's ``text`` is charged to."""
    owner = ["content"] * len(text)
    lead = re.match(r"^[^\u2014;]{1,40} \u2014 ", text)
    if lead:
        _claim(owner, 0, lead.end(), "lead")
    who = "|".join(re.escape(n) for n in [*names, "The user", "the user"])
    seen_name = bool(lead)
    for m in re.finditer(rf"\b(?:{who})(?:'s)?\b", text):
        if seen_name:
            _claim(owner, m.start(), m.end(), "name-again")
        seen_name = True
    for m in re.finditer(rf"\b(?:{who})(?P<verb>{_ATTRIBUTION})", text):
        _claim(owner, m.start("verb"), m.end("verb"), "attribution")
    for m in re.finditer(r"\s+and\s+others\b", text):
        _claim(owner, m.start(), m.end(), "attribution")
    dates: set[str] = set()
    for m in _DATE.finditer(text):
        kind = "date-again" if m.group() in dates else "date"
        dates.add(m.group())
        _claim(owner, m.start(), m.end(), kind)
    for m in _DATE_FRAME.finditer(text):
        _claim(owner, m.start(), m.end(), "date-frame")
    for m in _FILLER.finditer(text):
        _claim(owner, m.start(), m.end(), "filler")
    for m in _SEPARATOR.finditer(text):
        _claim(owner, m.start(), m.end(), "separator")
    return owner


def _statements(conv_dir: Path) -> list[str]:
    """The text of each statement the rules extractor makes of the conversation's sessions."""
    from bench_quality import session_time

    from dreamgit.dream.gather.extract import extract_candidates

    out = []
    for path in sorted((conv_dir / "sessions").glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        created = session_time(path, text)
        out += [c.text for c in extract_candidates(text, session_id=path.stem, created=created)]
    return out


def tally(
    memory_root: Path, prepared: Path, s: ModuleType, *, extracted: bool = False
) -> collections.Counter[str]:
    """Characters of every conversation's memory (or, ``extracted``, of the statements the
    extractor makes of its sessions), by kind; ``files`` and ``chars`` too."""
    out: collections.Counter[str] = collections.Counter()
    for conv in sorted(p.name for p in memory_root.iterdir() if p.is_dir()):
        conv_dir = prepared / "conversations" / conv
        meta_path = conv_dir / "conversation.json"
        names = json.loads(meta_path.read_text(encoding="utf-8")).get("speakers", [])
        if extracted:
            texts = [text + "\n" for text in _statements(conv_dir)]
        else:
            paths = sorted((memory_root / conv).glob("*.md"))
            texts = [p.read_text(encoding="utf-8") for p in paths]
        seen: list[frozenset[str]] = []
        for text in texts:
            out["files"] += 1
            out["chars"] += len(text)
            words = frozenset(s.tokens(text))
            repeated = len(words) >= 3 and any(
                len(words & old) / len(words | old) >= 0.7 for old in seen
            )
            seen.append(words)
            if repeated:
                out["repeat"] += len(text.rstrip("\n"))
                out["content"] += len(text) - len(text.rstrip("\n"))
                continue
            out.update(charge(text, names))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("memory_root", type=Path)
    parser.add_argument("--eval-dir", type=Path, default=default_eval_dir())
    parser.add_argument("--set", default="locomo")
    parser.add_argument(
        "--extracted", action="store_true", help="count the statements extraction makes instead"
    )
    args = parser.parse_args()
    prepared = args.eval_dir / args.set
    counts = tally(args.memory_root, prepared, load_scorer(args.eval_dir), extracted=args.extracted)
    total = counts["chars"] or 1
    what = "statements" if args.extracted else "memories"
    print(f"{counts['files']} {what}, {counts['chars']} characters")
    for kind in KINDS:
        print(f"{kind:<12}{counts[kind]:>9}{counts[kind] / total:>8.1%}")


if __name__ == "__main__":
    main()
