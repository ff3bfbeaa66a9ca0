"""Sentences in a language the English rules do not read, kept as their speaker said them.

The English rules rewrite a sentence around its subject ("I moved to Lisbon" → "The
user moved to Lisbon"); on German, Spanish or Chinese they would force the words into
English slots ("The user mudé a Lisboa"). So a sentence whose language
(:mod:`.language`) is not English never meets them. What is durable in it is told by
its structure alone, never by a word list of that language: a statement said by the
user or a person in the chat (not the assistant), not a question (``?``, ``？``, ``¿``),
not an exclamation, not code, not a line that opens a list (``:``) or an item of such a
list (a pasted plan's lines), not a sentence that names or attaches a file
(``pyrightconfig.json``, ``@plan.md``, ``.env``: in an agent's session, the work at
hand), short, with something in it. Such a sentence is kept word for word, its speaker
first in the form session notes use ("Lena — Ich bin Lehrerin."), the session's day in
the memory's own fields (``created``, its source), and tagged ``as-said`` and
``lang-<code>``. It gets no key (nothing was understood that could be superseded) and
the lowest salience the default gather rules admit, so that statements the English
rules understood win the budget; at most :data:`MAX_PER_SESSION` of a session are
kept: first those the speaker said in more than one turn (a standing request is said
again, a task of the moment is not), then those that carry a value (a number, a name
in Latin letters). An LLM extractor reads these languages better.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime

from dreamgit import lazyre
from dreamgit.dream.gather.language import (
    CJK,
    ENGLISH,
    FULL_STOPS,
    UNKNOWN,
    Languages,
    any_script_sentences,
    script_language,
)
from dreamgit.extract.candidate import TOPIC_TYPES, Candidate
from dreamgit.extract.speakers import by_people

__all__ = ["MAX_PER_SESSION", "SALIENCE", "AsSaid", "keeps"]

#: The most sentences kept as said from one session: a few, never a transcript.
MAX_PER_SESSION = 3
#: The default rules admit salience 2 and up (``skip-low-salience``): kept, but last.
SALIENCE = 2.0
_CONFIDENCE = 0.6
_TOPIC = "notes"
_MAX_CHARS = 160
#: The fewest words a sentence kept as said has, a number among them at most one short
#: of it (a CJK character counts two thirds of a word).
_MIN_WORDS = 3
_QUESTION = lazyre.compile(r"[?？¿؟\u037e]\s*$|^\s*¿")
_EXCLAIMED = lazyre.compile(r"[!！¡]\s*$")
#: A line ending with a colon opens what follows it (a list, a pasted block): no statement.
_OPENS = lazyre.compile(r"[:：]\s*$")
# Code, markup, paths and commands: marks prose in any language rarely has.
_CODE = lazyre.compile(r"[`{}<>=$\\|]|\(\)|->|::|^\s*[#/.~]|\w/\w+/|\w\.\w+\(")
#: A file named or attached: "pyrightconfig.json", "@plan.md", "@src", ".env"; not a
#: product named so ("Node.js", "Socket.io").
_NAMES_A_FILE = lazyre.compile(
    r"(?:^|(?<=\s))@\S|(?:^|(?<=\s))\.[a-z]\w+"
    r"|(?<![\w.-])(?![A-Z][a-z]+\.(?:js|io|ai|net)\b)[\w-]{2,}\.[a-z][a-z0-9]{0,4}\b(?![.-]?\w)"
)
#: What is compared when a sentence is said again: letters and digits, case and accents aside.
_NOT_LETTERS = lazyre.compile(r"[\W_]+")
_CJK = lazyre.compile(f"[{CJK}]")
#: Words of the scripts that space them (two letters or more), and numbers.
_WORD = lazyre.compile(f"[^\\W\\d_{CJK}]{{2,}}")
_NUMBER = lazyre.compile(r"\d+(?:[.,:]\d+)*")
# A value a statement carries: a number, or a name in Latin letters inside other text.
_VALUE = lazyre.compile(
    r"\d|[A-Za-z]{2,}(?=[^\x00-\x7f])|(?<=[^\x00-\x7f])\s?[A-Za-z]{2,}|(?<=\S\s)[A-Z]\w+"
)


def keeps(sentence: str) -> bool:
    """Whether ``sentence`` is shaped like a durable statement: not a question, an
    exclamation, code, a line opening a list (ending with a colon) or a sentence naming a
    file; short; with a few words (or CJK characters) in it."""
    text = sentence.strip()
    if not text or len(text) > _MAX_CHARS or _QUESTION.search(text) or _EXCLAIMED.search(text):
        return False
    if _CODE.search(text) or _OPENS.search(text) or _NAMES_A_FILE.search(text):
        return False
    words, numbers, cjk = _WORD.findall(text), _NUMBER.findall(text), len(_CJK.findall(text))
    if sum(map(len, [*words, *numbers])) + cjk < 0.6 * len(text.replace(" ", "")):
        return False  # mostly symbols: a log line, a formula
    said = len(words) + cjk * 2 / 3  # words that say something, numbers aside
    return said >= _MIN_WORDS - 1 and said + len(numbers) >= _MIN_WORDS


def _in_a_list(paragraph: str, paragraphs: list[str]) -> bool:
    """Whether ``paragraph`` is an item of a list its turn opened with a colon ("… will
    compare:" then lines with no full stop of their own): a part of a plan, not a statement."""
    if paragraph not in paragraphs:
        return False
    for before in reversed(paragraphs[: paragraphs.index(paragraph)]):
        if _OPENS.search(before):
            return True
        if before.rstrip().endswith(FULL_STOPS):
            return False
    return False


def _plain(sentence: str) -> str:
    """``sentence`` as compared with what the speaker said before: its letters and digits,
    lower case, accents dropped ("açoes" and "ações" are one word typed twice)."""
    bare = unicodedata.normalize("NFKD", sentence.casefold())
    return _NOT_LETTERS.sub(" ", "".join(c for c in bare if not unicodedata.combining(c))).strip()


def _stopped(sentence: str) -> str:
    """``sentence`` ending with a full stop of its script, as every memory does."""
    text = sentence.strip()
    if text.endswith(FULL_STOPS):
        return text
    return text + ("。" if _CJK.match(text[-1]) else ".")


@dataclass
class _Said:
    sentence: str
    language: str
    speaker: str
    who: str
    turn: int


@dataclass
class AsSaid:
    """One session's sentences, sorted into those the English rules read and those kept
    as said. Feed a turn's paragraphs through :meth:`english`, then take :meth:`kept`."""

    #: The session's turns as (speaker, paragraphs): the people's words tell its language.
    turns: list[tuple[str, list[str]]]
    session_id: str
    created: datetime
    #: The repository's ``language:``: a session's when the detectors are unsure.
    language: str = UNKNOWN
    _languages: Languages = field(init=False)
    _found: list[_Said] = field(default_factory=list, init=False)
    _seen: set[tuple[str, str]] = field(default_factory=set, init=False)
    #: The turns each (speaker, plain sentence) was said in.
    _turns_said: dict[tuple[str, str], set[int]] = field(default_factory=dict, init=False)
    #: Each turn's language, detected once (on first need) for all its paragraphs.
    _turn_languages: dict[int, Callable[[], str]] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self._languages = Languages(self._said_by_people, self.language)

    def _said_by_people(self) -> str:
        """What the people of the session said, without names or the assistant's words."""
        return "\n".join(p for who, ps in self.turns if by_people(who) for p in ps)

    def english(
        self,
        paragraph: str,
        paragraphs: list[str],
        split: Callable[[str], Iterable[str]],
        *,
        speaker: str,
        who: str,
        turn: int,
    ) -> Iterator[str]:
        """The sentences of ``paragraph`` (one of its turn's ``paragraphs``) the English
        rules should read, split by ``split`` as they always were; every other sentence
        is set aside as said by ``speaker`` (written ``who``) in turn ``turn``."""
        if turn not in self._turn_languages:
            self._turn_languages[turn] = self._languages.turn(paragraphs)
        language_of_turn = self._turn_languages[turn]
        other_script = _CJK.search(paragraph) or script_language(paragraph)
        listed = _in_a_list(paragraph, paragraphs)
        for piece in any_script_sentences(paragraph) if other_script else (paragraph,):
            for sentence in split(piece):
                language = self._languages.of(sentence, language_of_turn)
                if language in (ENGLISH, UNKNOWN):
                    yield sentence
                    continue
                self._turns_said.setdefault((speaker, _plain(sentence)), set()).add(turn)
                if (speaker, sentence) not in self._seen:
                    self._seen.add((speaker, sentence))
                    if keeps(sentence) and not listed:
                        self._found.append(_Said(_stopped(sentence), language, speaker, who, turn))

    def kept(self) -> list[Candidate]:
        """The sentences kept as said, at most :data:`MAX_PER_SESSION`, in the order said:
        those said in more turns first, then those carrying a value."""
        found = self._found
        ranked = sorted(
            range(len(found)),
            key=lambda k: (
                -len(self._turns_said.get((found[k].speaker, _plain(found[k].sentence)), ())),
                _VALUE.search(found[k].sentence) is None,
                k,
            ),
        )
        chosen = sorted(ranked[:MAX_PER_SESSION])
        return [self._candidate(self._found[k]) for k in chosen]

    def _candidate(self, said: _Said) -> Candidate:
        return Candidate(
            text=f"{said.who} \u2014 {said.sentence}",
            topic=_TOPIC,
            priority="normal",
            type=TOPIC_TYPES[_TOPIC],
            # the language alone: CLD2 tells Traditional from Simplified Chinese unreliably
            # in a short line with Latin terms ("以后每次提交之前先跑 lint …" as zh-Hant)
            tags=("as-said", f"lang-{said.language.split('-')[0].lower()}"),
            key=None,
            confidence=_CONFIDENCE,
            session_id=self.session_id,
            created=self.created,
            change=None,
            pattern="as-said",
            kind="fact",
            salience=SALIENCE,
            speaker=said.speaker,
            turn=said.turn,
            subject=said.who,
        )
