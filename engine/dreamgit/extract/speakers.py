"""Who says a turn of a session, as every layer that reads one writes it.

A chat between people names each turn's speaker (``Sam: …``), and the name is the speaker.
Besides names, a turn is by one of four roles: the user, the agent, nobody (a marked
transcript's text before its first turn, or a turn of another role, a tool's) and
unmarked (a transcript that marks no speaker at all, where every line counts as the
user's). A candidate's ``speaker`` is the user or a person's name.
"""

from __future__ import annotations

from typing import Final

__all__ = ["AGENT", "NOBODY", "ROLES", "UNMARKED", "USER", "by_people", "by_the_user"]

USER: Final = "user"
AGENT: Final = "agent"
#: A marked transcript's text before its first turn, or a turn of another role (a tool's).
NOBODY: Final = "none"
#: A transcript that marks no speaker at all: every line counts as the user's.
UNMARKED: Final = ""
#: The roles that are no person's name.
ROLES: Final = frozenset({UNMARKED, USER, AGENT, NOBODY})


def by_people(speaker: str) -> bool:
    """Whether a turn is said by the user or a person of a chat (not the agent, not nobody)."""
    return speaker not in (AGENT, NOBODY)


def by_the_user(speaker: str) -> bool:
    """Whether a turn is the user's own: marked as the user's, or in an unmarked transcript."""
    return speaker in (UNMARKED, USER)
