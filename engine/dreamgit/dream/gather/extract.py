"""Deterministic gathering: what the people of a session said, as candidate memories.

A session becomes turns with a speaker (:mod:`.transcript`): a user's turns and
each named person's in a chat between people; an assistant's words are never
evidence of a person's fact. This module walks the turns sentence by sentence,
each read with what was said before it (:mod:`.said_before`). A user's sentence
first meets the explicit patterns (:mod:`.pattern_memories`); every other
declarative clause becomes a statement with a kind and a salience
(:mod:`.statement_memories`), and what a request states in passing is lifted out
of it (:mod:`.said_in_passing`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import partial

from dreamgit.dream.gather.as_said import AsSaid
from dreamgit.dream.gather.attribution import Voice
from dreamgit.dream.gather.clause import Clause, continuation
from dreamgit.dream.gather.explicit import MAX_SENTENCE, dedupe, sentences
from dreamgit.dream.gather.informal import spelled_out
from dreamgit.dream.gather.lifted import serves_aim_before
from dreamgit.dream.gather.not_facts import chatter
from dreamgit.dream.gather.pattern_memories import pattern_candidates
from dreamgit.dream.gather.said_before import SaidBefore, asked
from dreamgit.dream.gather.said_in_passing import lifted_candidates
from dreamgit.dream.gather.salience import common_words
from dreamgit.dream.gather.statement_memories import statement_candidate
from dreamgit.dream.gather.statements import clauses
from dreamgit.dream.gather.transcript import speaker_paragraphs
from dreamgit.extract.candidate import Candidate
from dreamgit.extract.speakers import AGENT, ROLES, USER, by_people, by_the_user

__all__ = ["extract_candidates"]

#: Statements are read from this many characters of a turn: beyond them a turn is a
#: pasted document or log, not someone telling about themselves (explicit patterns
#: such as "remember that …" are still read everywhere).
MAX_TURN_CHARS = 20_000
#: The longest sentence of an agent's user that is read (clause by clause).
_LONGEST_REQUEST = 800

#: Typographic (curly) quotes, as phones and word processors write them, read as plain ones:
#: "I'm" typed with a right single quotation mark is "I'm", never "Ben" + "m".
_TYPOGRAPHIC = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})


def extract_candidates(
    text: str,
    *,
    session_id: str,
    created: datetime,
    user_name: str | None = None,
    author: str = "user",
    language: str = "",
) -> list[Candidate]:
    """Candidate memories from what the people in ``text`` said about themselves.

    Turns come from :func:`speaker_paragraphs`: a user's turns (or unmarked text)
    and each named person's turns in a chat between people; an assistant never
    counts, and the gather rules may narrow whose words count (``speaker``). A
    user's sentence first meets the explicit patterns (name, home, tools,
    changes…); every other declarative clause becomes a statement with a kind and
    a salience. Memories name whom they are about: the person's
    name, or for a user "The user" until ``user_name`` (or a name said in the
    session) is known. ``author`` says who wrote the text's unmarked lines: the user,
    or the agent in its own notes (an OpenClaw daily note), whose "I" stays the agent's
    and meets no pattern about the user. ``language`` is the repository's ``language:``,
    the session's language when the detectors are unsure of it ("" reads it as English).

    Pure and deterministic: the same text, id and time give the same candidates in
    the same order. Never raises on any input string.
    """
    turns = speaker_paragraphs(spelled_out(text.translate(_TYPOGRAPHIC)))
    session = _Session(
        turns=turns,
        people=tuple(dict.fromkeys(s for s, _ in turns if s not in ROLES)),
        common=common_words(text),
        said=AsSaid(turns, session_id, created, language),  # not English: kept as said
        session_id=session_id,
        created=created,
        user_name=user_name,
        author=author,
    )
    out: list[Candidate] = []
    subject = user_name or "The user"
    for turn, (speaker, paragraphs) in enumerate(turns):
        if not by_people(speaker):
            continue
        found, subject = _turn_candidates(session, turn, speaker, paragraphs, subject)
        out.extend(found)
    return dedupe([*out, *session.said.kept()])


@dataclass
class _Session:
    """What every turn of a session is read with; ``seen`` grows with the sentences read."""

    turns: list[tuple[str, list[str]]]
    people: tuple[str, ...]
    common: frozenset[str]
    said: AsSaid
    session_id: str
    created: datetime
    user_name: str | None
    author: str
    seen: set[tuple[str, str]] = field(default_factory=set)


def _voice(
    session: _Session, speaker: str, others: tuple[str, ...], subject: str
) -> tuple[bool, str, Voice]:
    """Whether a turn is the user's, who speaks it, and the voice its memories are in."""
    common = session.common
    is_user = by_the_user(speaker)
    if is_user and not speaker and session.author == "agent":  # the agent's notes: "I" is it
        return False, AGENT, Voice("The agent", "the user", team=True, common=common)
    if is_user:
        return True, speaker, Voice(subject, "the agent", team=True, common=common)
    return (
        False,
        speaker,
        Voice(speaker, others[0] if len(others) == 1 else "the others", common=common),
    )


def _turn_candidates(
    session: _Session, turn: int, speaker: str, paragraphs: list[str], subject: str
) -> tuple[list[Candidate], str]:
    """The candidates of one person's turn, and whom the user's memories name after it."""
    out: list[Candidate] = []
    seen, common, created, session_id = (
        session.seen,
        session.common,
        session.created,
        session.session_id,
    )
    others = tuple(p for p in session.people if p != speaker)
    is_user, speaker, voice = _voice(session, speaker, others, subject)
    # the voice is passed at each call: a name said in this turn names what follows
    statement = partial(
        statement_candidate,
        speaker=speaker or USER,
        session_id=session_id,
        created=created,
        reply=asked(session.turns, turn),
        common=common,
    )
    budget = MAX_TURN_CHARS
    # The last statement of the sentence before, and where its memory is in ``out``.
    last: tuple[Clause, int] | None = None
    context = SaidBefore.at(session.turns, turn)
    # An agent's user writes requests as one long run-on sentence ("I'm trying to …,
    # so I prefer …, how can I …"): its clauses are read, the patterns only in short ones
    split = partial(sentences, longest=_LONGEST_REQUEST if is_user else MAX_SENTENCE)
    who = speaker if not is_user else session.user_name or "user"
    prior = ""  # the sentence before in this turn: the aim a preference may serve
    for paragraph in paragraphs:
        for sentence in session.said.english(
            paragraph, paragraphs, split, speaker=speaker or USER, who=who, turn=turn
        ):
            before, prior = prior, sentence
            budget -= len(sentence)
            sentence = context.read(sentence, others, common, session.people)
            if (speaker, sentence) in seen:
                continue
            seen.add((speaker, sentence))
            if chatter(sentence, others):
                continue
            found: list[Candidate] = []
            # a preference that serves the aim said just before is read with it
            if (
                is_user
                and len(sentence) <= MAX_SENTENCE
                and not serves_aim_before(sentence, before)
            ):
                found, subject = pattern_candidates(
                    sentence, subject, session_id, created, learn_name=session.user_name is None
                )
                voice = Voice(subject, "the agent", team=True, common=common)
            if found or budget < 0:
                out.extend(replace(c, turn=turn) for c in found)
                if is_user and found:  # a value said inside a request is the value now
                    out.extend(lifted_candidates(sentence, found, statement, voice, turn))
                last = None
                continue
            joined = None if last is None else continuation(last[0], sentence, others=others)
            made = None if joined is None else statement(joined, voice)
            if last is not None and joined is not None and made is not None:
                out[last[1]] = replace(made, turn=turn)  # with what this sentence adds
                last = (joined, last[1])
                continue
            last = None
            start = len(out)
            for clause in clauses(sentence, others=others, to_agent=is_user, before=before):
                made = statement(clause, voice)
                if made is not None:
                    last = (clause, len(out))
                    out.append(replace(made, turn=turn))
            if is_user:
                out.extend(lifted_candidates(sentence, out[start:], statement, voice, turn))
    return out, subject
