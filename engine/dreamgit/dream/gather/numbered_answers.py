"""A user's numbered reply, each item read against the agent's numbered point it answers.

An agent ends its turn with numbered points or questions ("2. **Currency handling?**
Should amounts keep their code?"); the user answers in kind: "1. both, CSV by default
2. keep the currency code on every amount". Alone, "2. keep the currency code …" says
nothing of what it is about, and read as a sentence it comes out garbled. By structure only —
the agent's turn holds numbered items and asks something, the user's paragraphs open
with the same numbers — each answer is paired with its point's title, and kept as the
user said it, with what it answers: ``The user's answer to "Currency handling?": "keep the
currency code …"``. An answer that is itself a question, or too short to stand with its
point (fewer words than its title's, or than four unless three say no to something:
"never drop copies"), or chat glue, gives nothing; a numbered list the user
writes after an agent's turn that asked nothing, or whose numbers the agent never used,
is read as it always was.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from dreamgit import lazyre
from dreamgit.dream.gather.not_facts import chatter, states_nothing
from dreamgit.dream.gather.salience import salience
from dreamgit.dream.gather.transcript import NumberedItem
from dreamgit.extract.candidate import TOPIC_TYPES, Candidate
from dreamgit.extract.names import possessive

__all__ = ["Answer", "answer_candidate", "numbered_answers"]

_BOLD = lazyre.compile(r"^(?:\*\*|__)(?P<title>[^*_\n]+?)(?:\*\*|__)")
_MARKS = lazyre.compile(r"\*\*|__|`")
_ASIDE = lazyre.compile(r"\s*\([^()]*\)")
#: The longest point title kept whole (words): longer, it would outweigh the answer.
_LONGEST_TITLE = 16
#: The fewest words an answer has to say something beside its point ("by month and account").
_FEWEST_ANSWER_WORDS = 4
#: The fewest words of a negated answer, a rule said short ("never drop copies" to
#: "Duplicates?"); never glue ("no worries, thanks"). A short answer that
#: is not negated ("just the ids") is a bare phrase: kept from four words, as before.
_FEWEST_NEGATED_WORDS = 3
_NEGATED = lazyre.compile(r"^(?:don'?t|do\s+not|never|no|not)\b", re.IGNORECASE)
#: As sure as a statement: the words are the user's, the pairing is by structure.
_CONFIDENCE = 0.8
#: The fewest numbered paragraphs that make a reply a numbered one.
_FEWEST_ANSWERS = 2


@dataclass(frozen=True)
class Answer:
    """One numbered item of a user's reply and the title of the point it answers."""

    paragraph: int  # index of the user's paragraph holding it
    point: str
    answer: str


def _title(text: str) -> str | None:
    """A point's title: its bold lead if it has one, else its first line, plain."""
    bold = _BOLD.match(text.strip())
    title = bold["title"] if bold is not None else text
    title = _ASIDE.sub("", _MARKS.sub("", title)).strip(" :-").rstrip(".")
    if not title or len(title.split()) > _LONGEST_TITLE:
        return None
    return title


def points(paragraphs: list[str]) -> dict[int, str]:
    """The agent's numbered points by number; a number used twice names its last point."""
    found: dict[int, str] = {}
    for paragraph in paragraphs:
        if isinstance(paragraph, NumberedItem):
            title = _title(paragraph)
            if title is not None:
                found[paragraph.number] = title
            else:
                found.pop(paragraph.number, None)
    return found


def _stands(answer: Answer) -> bool:
    """Whether an answer says something with its point: not a question, a few words (three
    when they say no to something, not chat glue), and no fewer than the point's title
    (the memory is the user's words first)."""
    words = len(answer.answer.split())
    if "?" in answer.answer or words < len(answer.point.split()):
        return False
    if words >= _FEWEST_ANSWER_WORDS:
        return True
    said = answer.answer
    return (
        words >= _FEWEST_NEGATED_WORDS
        and _NEGATED.match(said) is not None
        and not chatter(said)
        and not states_nothing(said, to_agent=True)
    )


def numbered_answers(
    asked: list[str], asked_something: bool, reply: list[str]
) -> tuple[set[int], list[Answer]]:
    """The paragraphs of ``reply`` that answer the numbered points of ``asked`` (the
    agent's turn just before; ``asked_something``: it ended with a question), and the
    answers that stand with their point. ``(set(), [])`` when the reply is not such."""
    found = points(asked)
    if not found or not (asked_something or any(t.endswith("?") for t in found.values())):
        return set(), []
    numbered = [(k, p.number) for k, p in enumerate(reply) if isinstance(p, NumberedItem)]
    matched = [(k, n) for k, n in numbered if n in found]
    if len(matched) < _FEWEST_ANSWERS or numbered[0][1] != 1:
        return set(), []
    answers = [
        Answer(k, found[n], re.sub(r"\s+", " ", reply[k]).strip().rstrip(" .;")) for k, n in matched
    ]
    return {k for k, _ in matched}, [a for a in answers if _stands(a)]


def answer_candidate(
    answer: Answer,
    said: str,
    *,
    subject: str,
    speaker: str,
    session_id: str,
    created: datetime,
    common: frozenset[str],
) -> Candidate:
    """The memory of one answer: the point and what ``subject`` answered (``said``: the
    answer's words the English rules read), both quoted as written, a decision; the
    answer must be the longer part (see :func:`numbered_answers`)."""
    return Candidate(
        text=f'{possessive(subject)} answer to "{answer.point}": "{said}".',
        topic="decisions",
        priority="normal",
        type=TOPIC_TYPES["decisions"],
        tags=(),
        key=None,
        confidence=_CONFIDENCE,
        session_id=session_id,
        created=created,
        change=None,
        pattern="numbered-answer",
        kind="decision",
        salience=salience(
            f"{answer.point} {said}", "decision", dated=False, reply=True, common=common
        ),
        speaker=speaker,
        subject=subject,
    )
