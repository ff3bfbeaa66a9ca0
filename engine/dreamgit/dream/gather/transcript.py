"""Which words of a session transcript are the user's own, as paragraphs of prose.

A session read from an agent's structured files (Claude Code, Codex, OpenClaw, SpecStory,
Aider) carries a marker line per turn naming its role (``<!-- dreamgit:turn
role=user … -->``, :mod:`dreamgit.store.formats.turns`): the roles come from those
lines only, so inside a marked turn no ``Name:`` line, heading or quote ever starts
a new speaker, and harness text left in a user's turn is removed again. Any other
transcript is markdown. When speakers are marked ("User:", "**assistant**:",
"## Human", "You said:", Claude Code's "> prompt" / "⏺ reply") only the user's
turns count: an assistant saying "I prefer ..." states no preference of the
user's. When nothing is marked, every line counts. Never counted: fenced and
indented code, YAML front matter, HTML comments, tables and headings, block
quotes inside a marked user turn (pasted text is someone else's words), lines
copied from a ``MEMORY.md`` index, and anything dreamgit generated (between
``<!-- dreamgit:generated ... -->`` and ``<!-- /dreamgit:generated -->``, or to
the end of the turn when the closing marker is missing, as when a whole generated
file was pasted).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from dreamgit import lazyre
from dreamgit.dream.gather.pasted import without_pasted
from dreamgit.extract.speakers import AGENT, NOBODY, UNMARKED, USER, by_the_user
from dreamgit.store.formats.harness import strip_harness
from dreamgit.store.formats.turns import TURN_MARK, parse_mark

__all__ = ["NumberedItem", "people_speaking", "speaker_paragraphs", "user_paragraphs"]

#: Which lines may open a turn: any ``Name:`` line; only the user's and the agent's names
#: (a user/assistant transcript); none (inside a marked turn).
_Openers = Literal["any", "roles", "none"]


_USER_NAMES = frozenset({"user", "human", "me", "you", "you said", "user said", "customer"})
_AGENT_NAMES = frozenset(
    {
        "assistant", "ai", "claude", "chatgpt", "gpt", "bot", "agent", "system", "tool",
        "model", "gemini", "copilot", "llm", "function", "codex", "hermes", "openclaw",
        "assistant said", "chatgpt said", "claude said", "tool result", "tool call",
        "tool use", "function call", "function result",
    }
)  # fmt: skip
# "Name:" with the colon inside or outside bold ("**User:**", "**User**:", "[user]:").
# A name starts with a letter of any script or an emoji; digits, spaces and emoji follow.
_EMOJI = "\U0001f300-\U0001faff\u2600-\u27bf\ufe0f\u200d"
_NAME = rf"(?:[^\W\d_]|[{_EMOJI}])(?:[\w .'-]|[{_EMOJI}]){{0,24}}?"
_SPEAKER = lazyre.compile(
    r"^[ \t]{0,3}(?P<heading>#{1,6}[ \t]*)?(?:\*\*|__|\[)?[ \t]*"
    rf"(?P<name>{_NAME})[ \t]*"
    r"(?::[ \t]*(?:\*\*|__|\])|(?:\*\*|__|\])?[ \t]*:)[ \t]*(?P<rest>.*)$"
)
# "## User" alone on its line.
_SPEAKER_HEADING = lazyre.compile(
    r"^[ \t]{0,3}#{1,6}[ \t]*(?:\*\*|__)?(?P<name>[A-Za-z][A-Za-z0-9 ._-]{0,24}?)"
    r"(?:\*\*|__)?[ \t]*:?[ \t]*$"
)
_CC_AGENT = ("⏺", "●", "⎿")
_FENCE = lazyre.compile(r"^[ \t]{0,3}(?P<fence>`{3,}|~{3,})")
_GEN_OPEN = lazyre.compile(r"<!--\s*dreamgit:generated")
_GEN_CLOSE = lazyre.compile(r"<!--\s*/\s*dreamgit:generated\s*-->")
_INDEX_LINE = lazyre.compile(r"^\s*(?:>\s*)*[-*+]\s*\[[^\]\n]*\]\(memories/[^)\s]*\)")
_LIST_MARK = lazyre.compile(r"^(?:[-*+]|(?P<n>\d{1,3})[.)])\s+(?:\[[ xX]\]\s+)?")
_QUOTE = lazyre.compile(r"^[ \t]{0,3}>[ \t]?")


@dataclass
class _Line:
    """A line after classification: who said it and what is left of it."""

    speaker: str  # USER, AGENT, a person's name or UNMARKED (no marker on this line)
    text: str
    starts_turn: bool


def _speaker_of(line: str, people: frozenset[str] = frozenset()) -> tuple[str, str] | None:
    """("user"|"agent"|a person's name, rest of line) when the line opens a speaker's turn.

    A person's name never opens a turn from a heading ("### Rule: creating-tasks").
    """
    head = line[:80]
    m = _SPEAKER.match(head) or _SPEAKER_HEADING.match(head)
    if m is None:
        return None
    written = " ".join(m.group("name").split())
    name = written.lower()
    rest = line[m.start("rest") :] if "rest" in m.groupdict() else ""
    if name in _USER_NAMES:
        return USER, rest
    if name in _AGENT_NAMES:
        return AGENT, rest
    if written in people and not m.groupdict().get("heading"):
        return _display(written), rest
    return None


def _display(name: str) -> str:
    """A person's name as memories write it: "sam" and "ana maría" capitalised."""
    return name.title() if name == name.lower() and name != name.upper() else name


#: Words that open "Label: text" lines without naming a speaker.
_NOT_PEOPLE = frozenset(
    str.split("""note notes todo update edit warning error example examples ps re subject date time
    summary question answer q a step tip fix bug result output input source see also
    important reminder context goal goals problem solution status title description
    speakers conversation session topic agenda action""")
)
#: Lower-case labels that open lines of logs and commit lists, never a person.
_LABELS = frozenset(
    str.split("""http https ftp file mailto feat fix chore docs refactor test tests ci build perf
    style revert info debug warn fatal trace hint usage key value name type id url path remote""")
)
_PERSON = lazyre.compile(r"[A-Z][\w'.-]*(?: [A-Z][\w'.-]*){0,2}\Z")
# Any other name: one to three words of letters, digits or emoji ("sam", "bob2", "🦊 kit").
_ANY_NAME = lazyre.compile(rf"(?:[^\W_]|[{_EMOJI}'.-])+(?: (?:[^\W_]|[{_EMOJI}'.-])+){{0,2}}\Z")
_FIRST_NAME = lazyre.compile(r"[A-Z][a-z]+\Z")


def people_speaking(lines: list[str]) -> frozenset[str]:
    """The people of a chat: names that open at least two lines as ``Name: text``, and,
    in a chat that has one such person, a name that opens one line of prose ("Priya:
    I'm in for Saturday, I'll bring the cake", "bob: I have two cats at home") —
    someone who spoke once, whose words would otherwise run into the turn before and be
    taken for theirs. A text whose every line is ``Name:`` and something said (four words,
    or words ending as a sentence ends: "Nice!"), with two names or more and one sentence,
    is a chat, however short ("Bram: I moved to Ghent." then "Lotte: Nice!").

    A name written otherwise than capitalised ("sam", "bob2", an emoji) counts only in
    a text that is a chat: such names open at least half of its lines.
    """
    counts: dict[str, int] = {}
    other: dict[str, int] = {}
    prose: set[str] = set()
    spoke: dict[str, int] = {}  # lines of something said that each name opens
    said = ended = 0  # lines; lines that say a sentence (four words, or an end mark)
    for line in lines:
        said += bool(line.strip())
        m = _SPEAKER.match(line[:80])
        if m is None or not m.group("rest") or m.group("heading"):
            continue
        name = " ".join(m.group("name").split())
        low = name.lower()
        if low in _USER_NAMES or low in _AGENT_NAMES or low in _NOT_PEOPLE:
            continue
        rest = line[m.start("rest") :]
        told = len(rest.split()) >= _PROSE_WORDS
        if low not in _LABELS and (_PERSON.match(name) or _ANY_NAME.match(name)):
            if told or _said(rest):
                spoke[name] = spoke.get(name, 0) + 1
            ended += told or rest.rstrip().endswith(_SENTENCE_ENDS)
        if _PERSON.match(name):
            counts[name] = counts.get(name, 0) + 1
            if told and _FIRST_NAME.match(name):
                prose.add(name)
        elif _ANY_NAME.match(name) and low not in _LABELS:
            other[name] = other.get(name, 0) + 1
            if told:
                prose.add(name)
    people = {n for n, c in counts.items() if c >= 2}
    chat = {n for n, c in other.items() if c >= 2}
    if chat and 2 * sum(other.get(n, 0) + counts.get(n, 0) for n in chat | people) >= said:
        people |= chat
    if not people and len(spoke) >= 2 and ended and sum(spoke.values()) == said:
        people = set(spoke)  # every line a name and something said: a chat, however short
    if people:
        people |= prose
    return frozenset(people)


#: Words of prose after ``Name:`` that make a line someone speaking (a label's value is
#: shorter: "Date: Mon", "Author: Sam Lee").
_PROSE_WORDS = 4
_SENTENCE_ENDS = (".", "!", "?", "…", "。", "！", "？")


def _said(rest: str) -> bool:
    """Whether a short ``Name:`` line's rest reads as a line of a chat: words of letters
    ending as a sentence ends ("Me too!", "I'm vegan now."), not a label's value
    ("Sam Lee", "5432", "example.com")."""
    words = rest.split()
    return (
        bool(words)
        and rest.rstrip().endswith(_SENTENCE_ENDS)
        and all(w.rstrip(".!?…。！？,").replace("'", "").isalpha() for w in words)
    )


def _front_matter_end(lines: list[str]) -> int:
    """Index of the first line after a leading YAML front matter block (0 if none)."""
    if not lines or lines[0].strip() != "---":
        return 0
    for i in range(1, min(len(lines), 200)):
        if lines[i].strip() in ("---", "..."):
            return i + 1
    return 0


def _classify(
    lines: list[str], people: frozenset[str] = frozenset(), *, speakers: _Openers = "any"
) -> list[_Line]:
    """Lines with code, comments and generated text removed, each with its speaker marker.

    ``speakers`` says which lines may open a turn: "any"; "roles" (a user/assistant
    transcript: only the user's and the agent's names, so ``Author:``, ``Rule:`` or
    ``Task:`` lines inside a turn stay in it); "none" (a marked turn).
    """
    out: list[_Line] = []
    fence = ""
    in_comment = in_generated = False
    prev_blank = True
    for raw in lines:
        line = raw.rstrip()
        marker = (
            _speaker_of(line, people if speakers == "any" else frozenset())
            if not fence and not in_comment and speakers != "none"
            else None
        )
        if marker is not None and in_generated and not _GEN_CLOSE.search(line):
            in_generated = False  # an unclosed generated block ends with its turn
        if in_generated:
            in_generated = not _GEN_CLOSE.search(line)
            continue
        if fence:
            m = _FENCE.match(_QUOTE.sub("", line))
            closes = m is not None and m["fence"][0] == fence[0] and len(m["fence"]) >= len(fence)
            if closes and not line.strip().lstrip(">").strip().strip(fence[0]):
                fence = ""
            continue
        if in_comment:
            in_comment = "-->" not in line
            continue
        if _GEN_OPEN.search(line):
            in_generated = not _GEN_CLOSE.search(line[line.find("dreamgit:generated") :])
            continue
        body = _QUOTE.sub("", line, count=1) if marker is None else line
        m = _FENCE.match(body)
        if m:
            fence = m.group("fence")
            continue
        stripped = line.strip()
        if stripped.startswith("<!--"):
            in_comment = "-->" not in stripped
            continue
        is_blank = not stripped
        if not is_blank and (raw.startswith("\t") or raw.startswith("    ")) and prev_blank:
            continue  # indented code block; its following lines stay "blank" for us
        prev_blank = is_blank
        if marker is not None:
            out.append(_Line(marker[0], marker[1], True))
        else:
            out.append(_Line(UNMARKED, line, False))
    return out


def _turns(lines: list[_Line]) -> Iterator[tuple[str, list[str]]]:
    """(speaker, lines) per turn; speaker is "" for unmarked text."""
    named = any(ln.starts_turn for ln in lines)
    claude_code = not named and any(ln.text.lstrip().startswith(_CC_AGENT) for ln in lines)
    speaker = UNMARKED if not (named or claude_code) else NOBODY
    current: list[str] = []
    for ln in lines:
        text = ln.text
        if claude_code and text.lstrip().startswith(_CC_AGENT):
            yield speaker, current
            speaker, current = AGENT, []
            continue
        if claude_code and _QUOTE.match(text):
            if speaker != USER:
                yield speaker, current
                speaker, current = USER, []
            current.append(_QUOTE.sub("", text, count=1))
            continue
        if ln.starts_turn:
            yield speaker, current
            speaker, current = ln.speaker, []
        current.append(text)
    yield speaker, current


class NumberedItem(str):
    """A paragraph that was a numbered list item ("2. keep the currency code"): its text
    without the number, and the number, for reading it against the point it answers."""

    number: int

    def __new__(cls, text: str, number: int) -> NumberedItem:
        item = super().__new__(cls, text)
        item.number = number
        return item


def _paragraph(buf: list[str], number: int | None) -> str:
    text = " ".join(buf)
    return text if number is None else NumberedItem(text, number)


def _paragraphs(lines: list[str], *, keep_quotes: bool) -> Iterator[str]:
    """Prose paragraphs: wrapped lines joined, list items and headings apart; a numbered
    item is a :class:`NumberedItem`."""
    buf: list[str] = []
    number: int | None = None
    for line in lines:
        text = line.strip()
        if _QUOTE.match(text):
            if not keep_quotes:
                if buf:
                    yield _paragraph(buf, number)
                    buf = []
                continue
            text = _QUOTE.sub("", text).strip()
        if not text or _INDEX_LINE.match(text) or text.startswith(("#", "|")):
            if buf:
                yield _paragraph(buf, number)
                buf = []
            continue
        item = _LIST_MARK.match(text)
        if item:
            if buf:
                yield _paragraph(buf, number)
            buf = [text[item.end() :]]
            number = int(item["n"]) if item["n"] else None
        else:
            if not buf:
                number = None
            buf.append(text)
    if buf:
        yield _paragraph(buf, number)


def speaker_paragraphs(text: str) -> list[tuple[str, list[str]]]:
    """(speaker, paragraphs) per turn of ``text``, in order.

    The speaker is "user", "agent", a person's name (``Name: text`` lines of a chat
    between people), "none" (text before the first marked turn) or "" (nothing in
    the transcript is marked).
    """
    messages = _json_messages(text)
    if messages is not None:
        turns = [
            (who, [p for _, ps in speaker_paragraphs(body) for p in ps]) for who, body in messages
        ]
        return [(who, ps) for who, ps in turns if ps]
    lines = text.splitlines()
    lines = lines[_front_matter_end(lines) :]
    if TURN_MARK.search(text):
        return _marked_turns(lines)
    roles = any(_speaker_of(line) is not None for line in lines)  # users' and agents' names
    people = frozenset() if roles else people_speaking(lines)
    out: list[tuple[str, list[str]]] = []
    speakers: _Openers = "roles" if roles else "any"
    for speaker, turn in _turns(_classify(lines, people, speakers=speakers)):
        if by_the_user(speaker):
            turn = strip_harness("\n".join(turn)).text.splitlines()
        # In unmarked text a quote is kept (there is no one else to quote);
        # inside a marked turn it is pasted material and skipped.
        paragraphs = [p for p in _paragraphs(turn, keep_quotes=speaker == UNMARKED) if p.strip()]
        if paragraphs:
            out.append((speaker, paragraphs))
    return out


_MARKED_ROLES = {"user": USER, "assistant": AGENT}


def _marked_turns(lines: list[str]) -> list[tuple[str, list[str]]]:
    """(speaker, paragraphs) per marked turn: roles from the marker lines only."""
    turns: list[tuple[str, list[str]]] = [(NOBODY, [])]
    for line in lines:
        role = parse_mark(line)
        if role is None:
            turns[-1][1].append(line)
        else:
            turns.append((_MARKED_ROLES.get(role, NOBODY), []))
    out = []
    for speaker, body in turns:
        if speaker == USER:
            body = without_pasted(strip_harness("\n".join(body)).text.splitlines())
        classified = _classify(body, speakers="none")
        said = [p for p in _paragraphs([c.text for c in classified], keep_quotes=False)]
        paragraphs = [p for p in said if p.strip()]
        if paragraphs:
            out.append((speaker, paragraphs))
    return out


def _content_text(content: object) -> str:
    """A message's text: a string, or the text parts of a list of content blocks."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [
            str(block.get("text", ""))
            for block in content
            if isinstance(block, dict) and block.get("type", "text") == "text"
        ]
        return "\n\n".join(p for p in parts if p)
    return ""


def _json_messages(text: str) -> list[tuple[str, str]] | None:
    """(speaker, text) per message when ``text`` is a JSON list of {role, content} messages."""
    head = text.lstrip()[:1]
    if head != "[":
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, list) or not data:
        return None
    out: list[tuple[str, str]] = []
    for message in data:
        if not isinstance(message, dict) or "role" not in message:
            return None
        role = str(message.get("role", "")).lower()
        speaker = USER if role in _USER_NAMES else AGENT if role in _AGENT_NAMES else UNMARKED
        name = message.get("name")
        if role == "user" and isinstance(name, str) and _PERSON.match(name.strip()):
            speaker = name.strip()
        if speaker:
            out.append((speaker, _content_text(message.get("content"))))
    return out


def user_paragraphs(text: str) -> list[str]:
    """The paragraphs of ``text`` that are the user's own words, in order."""
    return [p for speaker, ps in speaker_paragraphs(text) if by_the_user(speaker) for p in ps]
