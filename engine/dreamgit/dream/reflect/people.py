"""The people of the window: who speaks in its sessions, background to every theme.

A chat between two people names them in nearly every memory it leaves, and an agent's
sessions say "The user" and "the agent" in as many: what the sessions are *about* is
never who is talking. The people are read from each session's structure, the way
gathering reads it (:func:`~dreamgit.dream.gather.transcript.speaker_paragraphs`):
the names that open ``Name: text`` turns, and for the roles of an agent's session the
words the dream writes for them (:data:`ROLE_WORDS`) and the user's name once a memory
(key ``user.name``) says it. What comes back are canonical words, as themes compare
them.
"""

from __future__ import annotations

from collections.abc import Iterable

from dreamgit.dream.gather.compact import known_user_name
from dreamgit.dream.gather.transcript import speaker_paragraphs
from dreamgit.extract.speakers import AGENT, NOBODY, UNMARKED, USER
from dreamgit.model import Memory
from dreamgit.textsim import tokenize

__all__ = ["ROLE_WORDS", "people_words"]

#: How gathering writes the roles of an agent's session as a memory's subject ("The user
#: prefers …", "… asked the agent to …"); "none" and "" are text before any marked turn
#: and a transcript with no speakers at all: nobody to leave out.
ROLE_WORDS = {USER: "The user", AGENT: "the agent", NOBODY: "", UNMARKED: ""}


def people_words(transcripts: Iterable[str], memories: Iterable[Memory]) -> frozenset[str]:
    """The canonical words naming the people who speak in ``transcripts``."""
    speakers: set[str] = set()
    for text in transcripts:
        speakers.update(who for who, _ in speaker_paragraphs(text))
    names = {ROLE_WORDS.get(who, who) for who in speakers}
    if USER in speakers:
        names.add(known_user_name(memories) or "")
    return frozenset(t.norm for name in names for t in tokenize(name))
