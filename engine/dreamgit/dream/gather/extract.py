"""Deterministic gathering: what the people of a session said, as candidate memories.

A session becomes turns with a speaker (:mod:`.transcript`): a user's turns and
each named person's in a chat between people; an assistant's words are never
evidence of a person's fact. This module walks the turns sentence by sentence,
each read with what was said before it (:mod:`.said_before`). A user's sentence
first meets the explicit patterns (:mod:`.pattern_memories`); every other
declarative clause becomes a statement with a kind and a salience
(:mod:`.statement_memories`), and what a request states in passing is lifted out
of it (:mod:`.said_in_passing`). A numbered reply is read against the agent's points
(:mod:`.numbered_answers`), and a project rule file the user names is kept
(:mod:`.rule_pointers`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cache, partial

from dreamgit.dream.gather.as_said import AsSaid
from dreamgit.dream.gather.attribution import Voice
from dreamgit.dream.gather.clause import Clause, continuation
from dreamgit.dream.gather.explicit import MAX_SENTENCE, dedupe, sentences
from dreamgit.dream.gather.informal import spelled_out
from dreamgit.dream.gather.lifted import serves_aim_before
from dreamgit.dream.gather.list_items import listed_on, more_of_a_list
from dreamgit.dream.gather.not_facts import after_dismissal, chatter
from dreamgit.dream.gather.numbered_answers import answer_candidate, numbered_answers
from dreamgit.dream.gather.pattern_memories import pattern_candidates
from dreamgit.dream.gather.quoted_back import QuotedBack
from dreamgit.dream.gather.rule_pointers import rule_pointers, without_rule_files_after
from dreamgit.dream.gather.said_before import SaidBefore, asked
from dreamgit.dream.gather.said_in_passing import lifted_candidates
from dreamgit.dream.gather.salience import common_words
from dreamgit.dream.gather.statement_memories import statement_candidate
from dreamgit.dream.gather.statements import clauses
from dreamgit.dream.gather.to_the_agent import as_order
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
        quoted=QuotedBack(turns),
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
    quoted: QuotedBack  # the agent's words a person copies back to it
    session_id: str
    created: datetime
    user_name: str | None
    author: str
    seen: set[tuple[str, str]] = field(default_factory=set)
    rules_named: set[str] = field(default_factory=set)  # "@name.mdc" rule files pointed to


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
    seen, common = session.seen, session.common
    others = tuple(p for p in session.people if p != speaker)
    is_user, speaker, voice = _voice(session, speaker, others, subject)
    # the voice is passed at each call: a name said in this turn names what follows
    statement = partial(
        statement_candidate,
        speaker=speaker or USER,
        session_id=session.session_id,
        created=session.created,
        reply=asked(session.turns, turn),
        common=common,
    )
    budget = MAX_TURN_CHARS
    # The last statement of the sentence before, and where its memory is in ``out``.
    last: tuple[Clause, int] | None = None
    context = SaidBefore.at(session.turns, turn)
    split = _own_sentences(session, turn, paragraphs, is_user=is_user)
    who = speaker if not is_user else session.user_name or "user"
    prior = ""  # the sentence before in this turn: the aim a preference may serve
    answering = _answers(session, turn, paragraphs, split, speaker, who, subject) if is_user else {}
    out.extend(answering.get(-1, []))
    if is_user:  # "@never-skip-tests.mdc": a project rule the user holds the agent to
        out.extend(_pointed_rules(session, turn, paragraphs, speaker, subject))
    for number, paragraph in enumerate(paragraphs):
        if number in answering:  # "2. keep the currency code": read with the point it answers
            continue
        for sentence in session.said.english(
            paragraph, paragraphs, split, speaker=speaker or USER, who=who, turn=turn
        ):
            if is_user:  # "… before any merge @ci-first.mdc": the rule file is its own memory
                sentence = as_order(without_rule_files_after(sentence))
                if not sentence.strip():
                    continue
            before, prior = prior, sentence
            budget -= len(sentence)
            sentence = after_dismissal(context.read(sentence, others, common, session.people))
            if not sentence or (speaker, sentence) in seen:
                continue
            seen.add((speaker, sentence))
            if chatter(sentence, others):
                continue
            found: list[Candidate] = []
            read = _user_patterns(session, sentence, before, subject) if is_user else None
            if read is not None:
                found, subject = read
                voice = Voice(subject, "the agent", team=True, common=common)
            if found or budget < 0:
                out.extend(replace(c, turn=turn) for c in found)
                if is_user and found:  # a value said inside a request is the value now
                    out.extend(lifted_candidates(sentence, found, statement, voice, turn))
                last = None
                continue
            if is_user and more_of_a_list(sentence):
                # "… has groupings by event. and a like button that counts likes": an item
                # of what the sentence before listed, no statement alone
                joined = None if last is None else listed_on(last[0], sentence)
                last = _rewritten_before(out, last, joined, voice, statement, turn) or last
                continue
            joined = None if last is None else continuation(last[0], sentence, others=others)
            moved = _rewritten_before(out, last, joined, voice, statement, turn)
            if moved is not None:  # the memory before, with what this sentence adds
                last = moved
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


def _own_sentences(
    session: _Session, turn: int, paragraphs: list[str], *, is_user: bool
) -> Callable[[str], Iterator[str]]:
    """How a paragraph of the turn is cut into its speaker's sentences, never the agent's
    words pasted back into the turn. An agent's user writes requests as one long run-on
    sentence ("I'm trying to …, so I prefer …, how can I …"): its clauses are read, the
    patterns only in short ones."""
    longest = _LONGEST_REQUEST if is_user else MAX_SENTENCE
    # each paragraph cut once, whether the copies were looked for in it first or not
    split = cache(lambda paragraph: tuple(sentences(paragraph, longest=longest)))
    copied = session.quoted.copied(paragraphs, split, turn)
    return lambda paragraph: (s for s in split(paragraph) if s not in copied)


def _user_patterns(
    session: _Session, sentence: str, before: str, subject: str
) -> tuple[list[Candidate], str] | None:
    """What the patterns read in a user's short sentence, and whom the memories name after
    it; None for a sentence they do not read: a long one, or a preference that serves the
    aim said just before (read with it, as a statement)."""
    if len(sentence) > MAX_SENTENCE or serves_aim_before(sentence, before):
        return None
    return pattern_candidates(
        sentence,
        subject,
        session.session_id,
        session.created,
        learn_name=session.user_name is None,
    )


def _pointed_rules(
    session: _Session, turn: int, paragraphs: list[str], speaker: str | None, subject: str
) -> list[Candidate]:
    """The project rules (``@name.mdc``) the user's turn points the agent to, each once a
    session."""
    return rule_pointers(
        paragraphs,
        session.rules_named,
        subject=subject,
        speaker=speaker or USER,
        session_id=session.session_id,
        created=session.created,
        turn=turn,
    )


def _answers(
    session: _Session,
    turn: int,
    paragraphs: list[str],
    split: Callable[[str], Iterable[str]],
    speaker: str,
    who: str,
    subject: str,
) -> dict[int, list[Candidate]]:
    """The paragraphs of a user's numbered reply to the agent's numbered points (read
    here, not sentence by sentence), and under ``-1`` the memories of their answers."""
    if turn == 0 or session.turns[turn - 1][0] != AGENT:
        return {}
    taken, answers = numbered_answers(
        session.turns[turn - 1][1], asked(session.turns, turn), paragraphs
    )
    found: dict[int, list[Candidate]] = {k: [] for k in taken}
    for answer in answers:
        # an answer in a language the English rules do not read is kept as said
        english = session.said.english(
            answer.answer, paragraphs, split, speaker=speaker or USER, who=who, turn=turn
        )
        said = " ".join(english).strip()
        if said:
            made = answer_candidate(
                answer,
                said,
                subject=subject,
                speaker=speaker or USER,
                session_id=session.session_id,
                created=session.created,
                common=session.common,
            )
            found.setdefault(-1, []).append(replace(made, turn=turn))
    return found


def _rewritten_before(
    out: list[Candidate],
    last: tuple[Clause, int] | None,
    joined: Clause | None,
    voice: Voice,
    statement: Callable[[Clause, Voice], Candidate | None],
    turn: int,
) -> tuple[Clause, int] | None:
    """The statement before joined with this sentence, its memory in ``out`` rewritten.

    None, and ``out`` as it was, when there is no statement before, the sentence does not
    join it, or the joined clause makes no memory.
    """
    made = None if joined is None else statement(joined, voice)
    if last is None or joined is None or made is None:
        return None
    out[last[1]] = replace(made, turn=turn)
    return (joined, last[1])
