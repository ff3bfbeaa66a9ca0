"""The frame reader (extract/frame.py) gives the frames it gave when they were pinned, on
many sentences: every memory of a benchmark store and sentences made at random of the
words the reader treats apart (verbs, auxiliaries, determiners, prepositions, numbers,
dates, contractions, marks). Its speed-ups must read every sentence as before; a change
of what it reads is a change of the dream's answers, made on purpose, with the digest."""

from __future__ import annotations

import hashlib
import json
import random
import sys
from dataclasses import fields
from pathlib import Path
from typing import Any

from dreamgit.extract import verbs
from dreamgit.extract.frame import Frame, parse_frame

sys.path.insert(0, str(Path(__file__).parent / "bench"))

from corpus import generate

#: The digest of the corpus's frames as the reader gave them when it was last changed on
#: purpose (the frames of :func:`_sentences`, each as :func:`_plain` has it).
_PINNED = "63b060942b2df279b6aba2b33f480329df250da0cafcf52a2d93e181df521704"

_PIECES = (
    "user's I'm can't won't doesn't O'Brien Ana\u2019s isn\u2019t 3.11 $1,400 15:00 3pm 20% "
    "2026-03-04 May June Monday twenty-five billing-api node.js C++ no longer anymore now not "
    "these days Note: up down rather instead moved went got switched from meeting launch new "
    "current latest 's ( ) Python Berlin"
)
_MARKS = [" "] * 12 + [", ", "; ", ". ", " - ", " \u2014 ", ": ", "! ", "? ", "(", ") "]


def _sentences() -> list[str]:
    """The memories of a benchmark store, and as many sentences made at random."""
    memories = [m["text"] for m in generate(2000).memories]
    lists = sorted(
        verbs.AUXILIARIES
        | verbs.DETERMINERS
        | verbs.PREPOSITIONS
        | verbs.FRONT_WORDS
        | verbs.NUMBER_WORDS
        | verbs.DATE_WORDS
        | verbs.PAST_FORMS
        | verbs.PRONOUN_USER
        | verbs.CHANGE_VERBS
        | {"use", "uses", "used", "using", "prefers", "lives", "works", "tested", "reports"}
    )
    words = sorted({w for text in memories for w in text.split()})
    pieces = _PIECES.split()
    rng = random.Random(20261129)
    made = []
    for _ in range(len(memories)):
        parts = []
        for _k in range(rng.randint(1, 16)):
            r = rng.random()
            word = rng.choice(words if r < 0.4 else lists if r < 0.85 else pieces)
            parts.append((word.capitalize() if rng.random() < 0.1 else word) + rng.choice(_MARKS))
        text = "".join(parts).strip()
        made.append(text[:1].upper() + text[1:] if rng.random() < 0.5 else text)
    return memories + made


def _plain(value: Any) -> Any:
    """A frame's field as JSON holds it in one order: sets sorted, recursively."""
    if isinstance(value, frozenset):
        return sorted((_plain(v) for v in value), key=json.dumps)
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _digest(frames: list[Frame | None]) -> str:
    rows = [
        None if f is None else [_plain(getattr(f, field.name)) for field in fields(Frame)]
        for f in frames
    ]
    return hashlib.sha256(json.dumps(rows, ensure_ascii=False).encode()).hexdigest()


def test_frames_of_the_corpus_are_those_pinned() -> None:
    """Every sentence of the corpus has the frame the reader gave it when pinned."""
    sentences = _sentences()
    assert len(set(sentences)) > 3900
    frames = [parse_frame(text) for text in sentences]
    assert sum(f is not None for f in frames) > 2000
    assert _digest(frames) == _PINNED
