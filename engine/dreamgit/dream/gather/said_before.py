"""What the sentences before leave for the next one to be read with, within a turn.

The question someone else ended the turn before with makes a bare "Seven years now!"
an answer, and the options it listed make "let's go with the second one" a choice; a
thing, person or time named just before is what "it", "she" or "then" in
the next sentence stands for. :class:`SaidBefore` carries that from sentence to
sentence of one turn.
"""

from __future__ import annotations

from dataclasses import dataclass

from dreamgit.dream.gather.antecedents import (
    Asked,
    described,
    named_person,
    named_thing,
    ordered_thing,
    with_antecedent,
    with_existing_thing,
    with_person,
    with_subject,
)
from dreamgit.dream.gather.dates import DATE_WORDS
from dreamgit.dream.gather.explicit import sentences
from dreamgit.dream.gather.narrated_time import narrated_then, time_set, time_told
from dreamgit.dream.gather.not_facts import chatter
from dreamgit.dream.gather.offered_options import chosen, offered
from dreamgit.dream.gather.sentence_split import spoken
from dreamgit.dream.gather.short_answers import answered

__all__ = ["SaidBefore", "asked"]


def asked(turns: list[tuple[str, list[str]]], turn: int) -> bool:
    """Whether the turn before ``turn``, someone else's, ended with a question."""
    if turn == 0 or turns[turn - 1][0] == turns[turn][0] or not turns[turn - 1][1]:
        return False
    return turns[turn - 1][1][-1].rstrip().endswith("?")


def _question_before(turns: list[tuple[str, list[str]]], turn: int) -> str | None:
    """The question someone else ended the turn before with, if they did."""
    if not asked(turns, turn):
        return None
    return list(sentences(turns[turn - 1][1][-1]))[-1]


@dataclass
class SaidBefore:
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
    made: str | None = None  # the new thing the user's order before made ("a backup command")
    options: tuple[str, ...] = ()  # what someone else's turn just offered to choose from

    @classmethod
    def at(cls, turns: list[tuple[str, list[str]]], turn: int) -> SaidBefore:
        """What the turn before leaves for the first sentence of ``turn``."""
        question = _question_before(turns, turn)
        thing = None if question is None else named_thing(question)
        before = turns[turn - 1] if turn else None
        options = offered(before[1]) if before and before[0] != turns[turn][0] else ()
        return cls(question, thing, thing, options=options)

    def read(
        self,
        sentence: str,
        others: tuple[str, ...],
        common: frozenset[str],
        people: tuple[str, ...],
    ) -> str:
        """``sentence`` read with what came before it; what it leaves for the next one."""
        sentence = with_existing_thing(sentence)  # "there are X, this should …"
        if self.options:  # "let's go with the second one": the option it points at
            sentence, self.options = chosen(sentence, self.options) or sentence, ()
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
        ordered = ordered_thing(sentence)
        if self.made is not None:
            # "add a backup command. it should keep …": each "it" right after the order
            replaced = with_subject(sentence, self.made)
            sentence, self.made = (replaced, self.made) if replaced else (sentence, None)
        self.made = ordered or self.made
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
