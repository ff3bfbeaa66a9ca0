"""Deterministic gathering: what the people of a session said, as candidate memories.

A session becomes turns with a speaker (:mod:`.transcript`): a user's turns and
each named person's in a chat between people; an assistant's words are never
evidence of a person's fact. A user's sentence first meets the explicit patterns
(:mod:`.explicit`: name, home, tools, changes, near dates, "remember that");
every other declarative clause becomes a statement with a kind and a salience
(:mod:`.statements`), its relative dates made absolute (:mod:`.dates`), written
as a memory that names whom it is about (:mod:`.attribution`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import partial

from dreamgit import lazyre
from dreamgit.dream.gather.antecedents import (
    Asked,
    described,
    named_person,
    named_thing,
    with_antecedent,
    with_person,
)
from dreamgit.dream.gather.as_said import AsSaid
from dreamgit.dream.gather.attribution import Voice, attribute, instruction
from dreamgit.dream.gather.clause import Clause, continuation
from dreamgit.dream.gather.dates import DATE_WORDS, resolve_dates
from dreamgit.dream.gather.explicit import (
    MAX_SENTENCE,
    MAX_TEXT,
    dedupe,
    explicit_candidates,
    sentences,
)
from dreamgit.dream.gather.informal import spelled_out
from dreamgit.dream.gather.lifted import serves_aim_before
from dreamgit.dream.gather.narrated_time import narrated_then, time_set, time_told
from dreamgit.dream.gather.not_facts import addressed_to_listener, chatter
from dreamgit.dream.gather.parts_in_requests import parts_in_request
from dreamgit.dream.gather.phrasing import finish
from dreamgit.dream.gather.said_in_requests import said_in_request
from dreamgit.dream.gather.salience import NAMED_PART_SALIENCE, common_words, salience
from dreamgit.dream.gather.sentence_split import spoken
from dreamgit.dream.gather.short_answers import answered
from dreamgit.dream.gather.statements import clauses
from dreamgit.dream.gather.transcript import speaker_paragraphs
from dreamgit.dream.gather.updates_in_requests import values_in_request
from dreamgit.extract.candidate import TOPIC_TYPES, Candidate
from dreamgit.extract.lexicon import lookup_tool
from dreamgit.extract.names import possessive
from dreamgit.extract.speakers import AGENT, ROLES, USER, by_people, by_the_user
from dreamgit.textsim import NOT, features

__all__ = ["extract_candidates"]

#: Statements are read from this many characters of a turn: beyond them a turn is a
#: pasted document or log, not someone telling about themselves (explicit patterns
#: such as "remember that …" are still read everywhere).
MAX_TURN_CHARS = 20_000
_PATTERN_KINDS = {
    "identity": "fact",
    "preferences": "preference",
    "tools": "fact",
    "projects": "fact",
    "decisions": "decision",
    "schedule": "plan",
    "notes": "fact",
    "facts": "fact",
}
_KIND_TOPICS = {
    "preference": "preferences",
    "instruction": "instructions",
    "decision": "decisions",
    "correction": "facts",
    "fact": "facts",
    "event": "events",
    "plan": "plans",
    "relationship": "people",
    "momentary": "notes",
}
#: Explicit statements a pattern recognised rank above any general statement.
_PATTERN_SALIENCE = 6.0
_STATEMENT_CONFIDENCE = 0.8
# A pattern's sentence that opens with its verb ("Lives in …", "No longer uses …").
# "Uses Vim", "Mostly uses PyTorch": a pattern's memory opens with its verb, or an adverb
_VERB_FIRST = lazyre.compile(
    r"^(?:[A-Z][a-z']*(?:s|ed)|No|Always|Never|Is|Has|Wants|Doesn't|Don't|Mostly|Mainly"
    r"|Usually|Often|Sometimes|Primarily|Also|Still|Currently|Generally|Typically|Rarely|Really"
    r"|Just|Definitely|Strongly|Totally|Had|Got|Went|Made|Took|Saw|Met|Bought|Found|Did|Won|Lost"
    r"|Ran|Wrote|Began|Built|Spent|Sold|Gave)$"
)
_NAME_IS = lazyre.compile(r"\bname is (?P<name>[A-Z][\w'-]*(?: [A-Z][\w'-]*){0,2})\.$")


_TRAILING_FILLER = lazyre.compile(
    r"[,;]?\s+(?:by\s+the\s+way|btw|haha+|lol|as\s+always|you\s+know|fyi)(?=\.$)", re.I
)


def _about(text: str, subject: str) -> str:
    """A pattern's subjectless memory ("Lives in Berlin.") about ``subject``, filler dropped."""
    text = _TRAILING_FILLER.sub("", text)
    if text.startswith("User's "):
        return possessive(subject) + text[len("User") + 2 :]
    if text.startswith("Their "):
        return possessive(subject) + " " + text[len("Their ") :]
    first = text.split(" ", 1)[0]
    if not _VERB_FIRST.match(first) or lookup_tool(first.rstrip(".,")) is not None:
        return text  # "The staging server is …": the sentence names its own subject
    return f"{subject} {text[0].lower()}{text[1:]}"


def _pattern_candidates(
    sentence: str, subject: str, session_id: str, created: datetime, *, learn_name: bool
) -> tuple[list[Candidate], str]:
    """The explicit statements of a user's sentence, and who the user is now known as."""
    found = explicit_candidates(sentence, session_id, created)
    if learn_name:
        named = next((_NAME_IS.search(c.text) for c in found if c.key == "user.name"), None)
        if named is not None:
            subject = named["name"].split()[0]
    out = []
    for c in found:
        kind = "correction" if c.pattern.startswith("correction+") else _PATTERN_KINDS[c.topic]
        if c.pattern == "instruction":
            kind = "instruction"  # "Never push to main": how the agent is to work
        if c.change is not None and kind == "fact":
            kind = "correction"
        about = "The user" if c.key == "user.name" else subject
        text = _about(c.text, about)
        if c.key is None:  # "is currently using Python 3.11": as of the session's day
            dated, changed = resolve_dates(text, created)
            text = finish(dated) if changed else text
        out.append(
            replace(
                c,
                text=text,
                kind=kind,
                salience=_PATTERN_SALIENCE,
                speaker=USER,
                subject=about,
            )
        )
    return out, subject


#: The longest sentence of an agent's user that is read (clause by clause).
_LONGEST_REQUEST = 800

#: Content words a statement needs besides the names of who speaks and who listens;
#: one more when it is said to the listener ("I'm excited to tell you"): chat, mostly.
_MIN_INFORMATIVE = 2
_GLUE = features("others says") | {NOT}


#: Typographic (curly) quotes, as phones and word processors write them, read as plain ones:
#: "I'm" typed with a right single quotation mark is "I'm", never "Ben" + "m".
_TYPOGRAPHIC = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})


def _informative(memory: str, voice: Voice) -> frozenset[str]:
    """The content words of ``memory`` besides the names of who speaks and who listens."""
    return features(memory) - features(f"{voice.subject} {voice.listener}") - _GLUE


def _statement_candidate(
    clause: Clause,
    voice: Voice,
    speaker: str,
    *,
    session_id: str,
    created: datetime,
    reply: bool,
    common: frozenset[str],
) -> Candidate | None:
    """One clause as a memory about whom it concerns, dates absolute; None when unfit."""
    text, dated = resolve_dates(clause.text, created)
    dated = dated or DATE_WORDS.search(clause.text) is not None
    memory = instruction(text, voice) if clause.instruction else attribute(text, voice)
    if len(memory) > MAX_TEXT or len(memory) < 12:
        return None
    needed = _MIN_INFORMATIVE + (not voice.team and addressed_to_listener(clause.text))
    if len(_informative(memory, voice)) < needed:
        return None
    topic = _KIND_TOPICS[clause.kind]
    return Candidate(
        text=memory,
        topic=topic,
        priority="high" if clause.kind == "instruction" else "normal",
        type=TOPIC_TYPES[topic],
        tags=(),
        key=None,
        confidence=_STATEMENT_CONFIDENCE,
        session_id=session_id,
        created=created,
        change=None,
        pattern=f"statement-{clause.kind}",
        kind=clause.kind,
        salience=salience(clause.text, clause.kind, dated=dated, reply=reply, common=common),
        speaker=speaker,
        subject=voice.subject,
    )


def _asked(turns: list[tuple[str, list[str]]], turn: int) -> bool:
    """Whether the turn before ``turn``, someone else's, ended with a question."""
    if turn == 0 or turns[turn - 1][0] == turns[turn][0] or not turns[turn - 1][1]:
        return False
    return turns[turn - 1][1][-1].rstrip().endswith("?")


def _question_before(turns: list[tuple[str, list[str]]], turn: int) -> str | None:
    """The question someone else ended the turn before with, if they did."""
    if not _asked(turns, turn):
        return None
    return list(sentences(turns[turn - 1][1][-1]))[-1]


def _lifted(
    sentence: str,
    made: list[Candidate],
    statement: Callable[[Clause, Voice], Candidate | None],
    voice: Voice,
    turn: int,
) -> list[Candidate]:
    """Candidates of the clauses a request ``sentence`` states in passing: a value
    (:func:`values_in_request`), what it asks to be written as true
    (:func:`said_in_request`) or what it says the project or a named part of it is or
    does (:func:`parts_in_request`), unless what the sentence already ``made`` says it all
    (a made "found out it was adjusted to 1,350" does not say what was adjusted, and
    "is trying to rework the board for the new deadline of 9 June" says it inside a task)."""
    kept = [features(c.text) for c in made]
    out: list[Candidate] = []
    # a part named in code marks or after "called" is a name the capitals do not show;
    # what the part does, said while asking for it, is how the project must be
    named = NAMED_PART_SALIENCE
    for lifted, bonus, spec in [
        *(
            (text, 0.0, False)
            for text in [*values_in_request(sentence), *said_in_request(sentence)]
        ),
        *((part.text, named, part.spec) for part in parts_in_request(sentence)),
    ]:
        read = clauses(lifted, to_agent=True)
        if spec:
            read = [_as_spec(clause) for clause in read]
        for c in (statement(clause, voice) for clause in read):
            said = features(c.text) if c is not None else frozenset()
            if c is not None and not any(_says_it(other, said) for other in kept):
                kept.append(said)
                out.append(replace(c, turn=turn, salience=c.salience + bonus))
    return out


def _as_spec(clause: Clause) -> Clause:
    """A clause saying what a part of the project does, as the specification it is: "the
    sync command uploads the cache" read as a fact or an event is the user's rule."""
    return replace(clause, kind="instruction") if clause.kind in ("fact", "event") else clause


def _says_it(made: frozenset[str], lifted: frozenset[str]) -> bool:
    """Whether a made candidate's words say what a lifted one does, and little more (a
    task around the value is more)."""
    return lifted <= made and len(made - lifted) <= _AROUND_A_VALUE


#: Words a sentence may hold beside a lifted value's and still be the same statement.
_AROUND_A_VALUE = 2


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
        _statement_candidate,
        speaker=speaker or USER,
        session_id=session_id,
        created=created,
        reply=_asked(session.turns, turn),
        common=common,
    )
    budget = MAX_TURN_CHARS
    # The last statement of the sentence before, and where its memory is in ``out``.
    last: tuple[Clause, int] | None = None
    context = _Before.at(session.turns, turn)
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
                found, subject = _pattern_candidates(
                    sentence, subject, session_id, created, learn_name=session.user_name is None
                )
                voice = Voice(subject, "the agent", team=True, common=common)
            if found or budget < 0:
                out.extend(replace(c, turn=turn) for c in found)
                if is_user and found:  # a value said inside a request is the value now
                    out.extend(_lifted(sentence, found, statement, voice, turn))
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
                out.extend(_lifted(sentence, out[start:], statement, voice, turn))
    return out, subject


@dataclass
class _Before:
    """What the sentences before in a turn leave for the next one to read.

    The question someone else just asked: "How long have you been painting?" makes a
    bare "Seven years now!" an answer, and "it" in the next sentence may stand for the
    thing it named.
    """

    question: str | None
    thing: Asked | None
    asked: Asked | None  # what the question named, for a bare description of it in the turn
    person: str | None = None  # the one person the sentence before named
    when: str | None = None  # the time the sentence before only told how it went
    then: str | None = None  # the past time the sentences before set ("last weekend")

    @classmethod
    def at(cls, turns: list[tuple[str, list[str]]], turn: int) -> _Before:
        """What the turn before leaves for the first sentence of ``turn``."""
        question = _question_before(turns, turn)
        thing = None if question is None else named_thing(question)
        return cls(question, thing, thing)

    def read(
        self,
        sentence: str,
        others: tuple[str, ...],
        common: frozenset[str],
        people: tuple[str, ...],
    ) -> str:
        """``sentence`` read with what came before it; what it leaves for the next one."""
        if self.question is not None:
            sentence = answered(self.question, sentence) or sentence
            if not chatter(sentence, others):
                self.question = None  # only the first thing said can be the answer
        if self.asked is not None and (description := described(spoken(sentence), self.asked)):
            sentence, self.asked = description, None  # "Super cozy and comfy."
        if self.thing is not None:
            sentence = with_antecedent(sentence, self.thing)
        if self.person is not None:
            sentence = with_person(sentence, self.person)
        if self.when is not None and not DATE_WORDS.search(sentence):
            # "Last night was a blast. We jammed till two": that night
            sentence = f"{sentence.rstrip(' .!')} {self.when}."
        elif self.then is not None and narrated_then(sentence):
            # "Last weekend I did something new. I ran a 5K": that weekend
            sentence = f"{sentence.rstrip(' .!')} {self.then}."
        else:
            self.then = None
        self.thing = named_thing(sentence)
        self.person = named_person(spoken(sentence), common, people)
        self.when = time_told(sentence)
        self.then = time_set(sentence) or self.then
        return sentence
