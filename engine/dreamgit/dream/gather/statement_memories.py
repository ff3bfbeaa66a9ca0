"""The statement path of gathering: one clause someone said, as a memory about whom it concerns.

A declarative clause (:mod:`.statements` gives its kind) has its relative dates made
absolute (:mod:`.dates`), is written in the speaker's voice (:mod:`.attribution`:
"The user prefers …", "Ben says …") and gets a salience (:mod:`.salience`); a clause
too short, too long or with fewer content words than names is no memory.
"""

from __future__ import annotations

from datetime import datetime

from dreamgit.dream.gather.attribution import Voice, attribute, instruction
from dreamgit.dream.gather.clause import Clause
from dreamgit.dream.gather.dates import DATE_WORDS, resolve_dates
from dreamgit.dream.gather.explicit import MAX_TEXT
from dreamgit.dream.gather.not_facts import addressed_to_listener
from dreamgit.dream.gather.salience import salience
from dreamgit.extract.candidate import TOPIC_TYPES, Candidate
from dreamgit.textsim import NOT, features

__all__ = ["statement_candidate"]

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
_STATEMENT_CONFIDENCE = 0.8

#: Content words a statement needs besides the names of who speaks and who listens;
#: one more when it is said to the listener ("I'm excited to tell you"): chat, mostly.
_MIN_INFORMATIVE = 2
_GLUE = features("others says") | {NOT}


def _informative(memory: str, voice: Voice) -> frozenset[str]:
    """The content words of ``memory`` besides the names of who speaks and who listens."""
    return features(memory) - features(f"{voice.subject} {voice.listener}") - _GLUE


def statement_candidate(
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
