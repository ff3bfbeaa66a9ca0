"""The agent's own words, quoted back to it in a user's turn: not the user's statements.

A user of a coding agent pastes what the agent wrote earlier in the session into a turn
("tomorrow, go through these first:" and the agent's findings, copied). Read
as the user's prose, each copied line becomes "The user says …" — the agent's words,
relabelled as the user's. What tells such a sentence is the session itself, in any
language: most of its run of words stands in an agent's turn before it. A sentence is
compared by its word sequences of :data:`_GRAM` words (each CJK character a word), lower
case, punctuation and list marks aside; one with fewer words than :data:`_FEWEST` is
never judged so (a short "yes, the second one" shares words with anything). One copied
sentence alone in a turn is the user's pick of what the agent offered ("Use SQLite for
the cache, as you proposed"), a choice of theirs, and stays; two or more are a pasted
block.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

from dreamgit import lazyre
from dreamgit.dream.gather.language import CJK
from dreamgit.extract.speakers import AGENT

__all__ = ["QuotedBack"]

#: How many words a compared sequence has.
_GRAM = 4
#: The fewest words a sentence judged as quoted back has.
_FEWEST = 8
#: The share of a sentence's sequences an agent's turn before it holds when it is a copy.
_SHARE = 0.8
_TOKEN = lazyre.compile(f"[{CJK}]|[^\\W_{CJK}]+")


def _words(text: str) -> list[str]:
    return [w.lower() for w in _TOKEN.findall(text)]


def _grams(words: Sequence[str]) -> list[tuple[str, ...]]:
    return [tuple(words[k : k + _GRAM]) for k in range(len(words) - _GRAM + 1)]


@dataclass
class QuotedBack:
    """A session's agent turns, asked whether a person's sentence copies one before it."""

    turns: list[tuple[str, list[str]]]

    @cached_property
    def _said_first(self) -> dict[tuple[str, ...], int]:
        """Each word sequence an agent said, and the first turn it said it in (built on
        need: most turns copy nothing and many sessions have no agent turn before)."""
        first: dict[tuple[str, ...], int] = {}
        for number, (speaker, paragraphs) in enumerate(self.turns):
            if speaker != AGENT:
                continue
            for paragraph in paragraphs:
                for gram in _grams(_words(paragraph)):
                    first.setdefault(gram, number)
        return first

    def copied(
        self, paragraphs: list[str], split: Callable[[str], Iterable[str]], turn: int
    ) -> frozenset[str]:
        """The sentences of turn ``turn`` (its ``paragraphs``, cut by ``split``) that
        copy the agent's words: none when fewer than two do."""
        if not any(s == AGENT for s, _ in self.turns[:turn]):
            return frozenset()
        found = frozenset(s for p in paragraphs for s in split(p) if self._quoted(s, turn))
        return found if len(found) >= 2 else frozenset()

    def _quoted(self, sentence: str, turn: int) -> bool:
        """Whether ``sentence``, said in turn ``turn``, copies what the agent said before,
        whole or after a colon ("… in order: Routing: the routes file was …", a lead-in and
        a heading run into the copied line)."""
        after_colon = sentence.rpartition(": ")[2]
        return self._copy(sentence, turn) or (
            after_colon != sentence and self._copy(after_colon, turn)
        )

    def _copy(self, text: str, turn: int) -> bool:
        words = _words(text)
        if len(words) < _FEWEST:
            return False
        first = self._said_first
        grams = _grams(words)
        held = sum(1 for gram in grams if first.get(gram, turn) < turn)
        return held >= _SHARE * len(grams)
