"""What a user's request states in passing, lifted out of it as statements of their own.

A request such as "set the timeout to 30 s in the sync command, which uploads the
cache" asks for work and says, in passing, a value (:mod:`.updates_in_requests`), what
it wants written as true (:mod:`.said_in_requests`), how the agent must always work
(:mod:`.orders_in_requests`) and what the project or a named part of it is or does
(:mod:`.parts_in_requests`). Each such clause becomes a statement of
its own unless what the sentence already gave says it all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from dreamgit.dream.gather.attribution import Voice
from dreamgit.dream.gather.clause import Clause
from dreamgit.dream.gather.orders_in_requests import orders_in_request
from dreamgit.dream.gather.parts_in_requests import parts_in_request
from dreamgit.dream.gather.said_in_requests import said_in_request
from dreamgit.dream.gather.salience import NAMED_PART_SALIENCE
from dreamgit.dream.gather.statements import clauses
from dreamgit.dream.gather.updates_in_requests import values_in_request
from dreamgit.extract.candidate import Candidate
from dreamgit.textsim import features

__all__ = ["lifted_candidates"]


def lifted_candidates(
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
    values = values_in_request(sentence)
    for lifted, bonus, spec in [
        *(
            (text, 0.0, False)
            for text in [*values, *said_in_request(sentence), *orders_in_request(sentence)]
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
                salience = c.salience + bonus
                if lifted in values:
                    salience = max(salience, _carried(said, made))
                out.append(replace(c, turn=turn, salience=salience))
    return out


def _carried(lifted: frozenset[str], made: list[Candidate]) -> float:
    """The weight of the statement of the request that carries a lifted value ("is trying
    to plan the week, and the weekly goal is 25 km"): the value weighs as much, and being
    shorter it goes first, so the request that only repeats it around a task is left out
    as a repeat rather than the value."""
    return max((c.salience for c in made if lifted <= features(c.text)), default=0.0)


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
