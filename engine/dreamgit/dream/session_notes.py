"""Session notes: what one session said of one person, kept as one memory.

A chat gives many short statements about each person in it: "Ana went to a pottery
class by 3 May 2024", "Ana is planning a trip to Lisbon", "Ana adopted a cat". Kept
one memory each, they fill the memory with one name per line, and every search for Ana
finds all of them. A note keeps a session's statements of that kind about one person
together, the person named once::

    Ana — went to a pottery class by 3 May 2024; is planning a trip to Lisbon; adopted a cat.

A note opens with the day of its session, unless one of its statements already says
that day: what was said on a day is read as of that day ("last Friday", "is planning",
"as of"), and a note read on its own, weeks later, says when that was::

    Ana (5 May 2024) — went to a pottery class last Friday (3 May 2024); adopted a cat.

Events, plans and statements about people are joined, at most :data:`MAX_CHARS` of
them, each without the name when it opens with it ("their sister" for "Ana's sister");
so are the likes of someone in a chat between people. The user's own preferences (how
the agent should work), instructions, other facts, keyed facts, change statements and
the model's proposals stay memories of their own: they are read on their own, and a
note is for what happened and who is who.

In a session with a coding agent (read from the agent's own files, its turns marked),
the user's statements are not joined: what the user did, saw and wanted there is the
work of that hour, said in fragments of requests ("says the build broke; wants the
flag renamed"), and a note of them reads as neither a person's story nor a rule. Each
stays a statement of its own, judged on its own.

A plan, appointment or deadline whose day was over when a dream first read it (a prune
rule would retire it at once, none retires it from a note) is kept in its day's note: the
statements of one person said that day, whatever their topic and session, in the order
they were said, a note even alone. What was planned that day stays on record (where
``recall`` finds it) without standing as a plan of its own::

    The user (4 March 2031) — says the report is due 8 March 2031; says it is now due 10 March 2031.

A plan that was a memory of its own when its day came is rewritten by prune as the note
of the day it was said (:func:`of_its_day`), that day first: "6 May 2026 — The user says
the demo is on 7 May 2026 at 3pm."; the plan as it was stays in history.

A note is still read statement by statement: supersession sees each one as the
sentence it was (:func:`facts`), and when a newer statement retires one, the note is
rewritten without it (:func:`without`); the note as it was stays in history.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Sequence
from dataclasses import replace

from dreamgit import lazyre
from dreamgit.extract.calendar_words import day_text
from dreamgit.extract.candidate import Candidate, description_of
from dreamgit.extract.names import possessive
from dreamgit.extract.speakers import USER
from dreamgit.model import SESSION_NOTE, Memory

__all__ = [
    "JOINED_TOPICS",
    "MAX_CHARS",
    "TAG",
    "as_statements",
    "can_hold",
    "facts",
    "headline",
    "is_note",
    "join",
    "memory_of",
    "of_its_day",
    "without",
    "working",
]

#: The tag a note carries: what marks a memory as a note to read statement by statement.
TAG = SESSION_NOTE
#: The topics whose statements a note joins.
JOINED_TOPICS = frozenset({"events", "plans", "people"})
#: A topic joined only for a person in a chat, not for the agent's user (speaker "user"),
#: whose preferences say how the agent should work.
_PEOPLES_OWN = frozenset({"preferences"})
#: The longest note: a few statements, one item when the agent searches its memory. The
#: session's day in its lead comes on top.
MAX_CHARS = 300
_LEAD_END = " \u2014 "
_BETWEEN = "; "
#: A note's lead with its session's day: "Ana (5 May 2024)".
_LEAD_DAY = lazyre.compile(r"(?P<who>.+?) \(\d{1,2} [A-Z][a-z]+ \d{4}\)")


def _lead(candidate: Candidate) -> str:
    return candidate.subject or candidate.speaker


def _joinable(candidate: Candidate) -> bool:
    """Whether ``candidate`` may go into a note: a plain statement of a joined topic about
    someone, or one its day's note is to keep (tagged :data:`TAG`), that a note can hold."""
    return (
        candidate.topic in JOINED_TOPICS
        or (candidate.topic in _PEOPLES_OWN and candidate.speaker != USER)
        or TAG in candidate.tags
    ) and can_hold(candidate)


def can_hold(candidate: Candidate) -> bool:
    """Whether a note can hold ``candidate``: a plain statement about someone (no key, no
    change, not a model's) that reads back unambiguously (no ";" or " — ", a capital
    first)."""
    lead = _lead(candidate)
    return (
        candidate.key is None
        and candidate.change is None
        and candidate.pattern != "llm"
        and bool(lead)
        and _LEAD_END not in lead
        and _reads_back(candidate.text)
    )


def _reads_back(text: str) -> bool:
    """Whether ``text`` reads back unambiguously from a note: a capital first, no ";" (what
    parts a note) and no " — " (what ends its lead)."""
    return text[:1].isupper() and ";" not in text and _LEAD_END not in text


def _part(candidate: Candidate) -> str:
    """The statement as a note holds it: without the person's name when it opens with it
    and goes on in lower case ("went to …"; "their sister …" for "Ana's sister …"), else
    whole."""
    lead, text = _lead(candidate), candidate.text.rstrip(" .!")
    for said, written in ((lead + " ", ""), (possessive(lead) + " ", _THEIR)):
        rest = text[len(said) :] if text.startswith(said) else ""
        if rest[:1].islower() and not rest.startswith(("and ", "or ")):
            return written + rest
    return text


#: What a note writes for the person's name as a possessive ("their sister Lena …").
_THEIR = "their "


def _note(group: Sequence[Candidate]) -> Candidate:
    """The note of two or more statements about one person from one session, opening
    with the session's day unless a statement says it."""
    first = group[0]
    said = _BETWEEN.join(map(_part, group))
    day = day_text(first.created)  # "5 May 2024", as gathering writes dates
    lead = _lead(first) if day in said else f"{_lead(first)} ({day})"
    text = lead + _LEAD_END + said + "."
    return replace(
        first,
        text=text,
        tags=tuple(sorted({TAG, *(t for c in group for t in c.tags)})),
        confidence=min(c.confidence for c in group),
        salience=max(c.salience for c in group),
        pattern="note",
    )


def working(candidate: Candidate, at_work: Container[str]) -> bool:
    """Whether ``candidate`` is the user's in a session with a coding agent (its id in
    ``at_work``): what the user says there is the work of that hour, never joined into
    a note."""
    return candidate.speaker == USER and candidate.session_id in at_work


def _occasion(candidate: Candidate) -> str:
    """What one note is of: its session; for the statements a day's note is to keep (tagged
    :data:`TAG`), the day they were said, so that what was planned that day reads in the
    order it was said ("… the deadline is 1 April; says the deadline is now 5 April")."""
    return candidate.created.date().isoformat() if TAG in candidate.tags else candidate.session_id


def join(candidates: Sequence[Candidate], at_work: Container[str] = ()) -> list[Candidate]:
    """``candidates`` with each session's joinable statements about one person as notes of
    at most :data:`MAX_CHARS` characters, in the order the first of each was found; those
    its day's note is to keep (tagged :data:`TAG`) as that day's notes, a note even alone.
    Any other statement alone stays as it was, and so does the user's in a session
    ``at_work`` (the ids of sessions with a coding agent, see :func:`working`)."""
    groups: dict[tuple[str, str], list[list[Candidate]]] = {}
    order: list[Candidate | tuple[str, str]] = []
    for candidate in candidates:
        if working(candidate, at_work) or not _joinable(candidate):
            order.append(candidate)
            continue
        key = (_occasion(candidate), _lead(candidate))
        if key not in groups:
            groups[key] = [[]]
            order.append(key)
        chunk = groups[key][-1]
        length = len(key[1]) + len(_LEAD_END) + sum(len(_part(c)) + 2 for c in chunk)
        if chunk and length + len(_part(candidate)) + 1 > MAX_CHARS:
            chunk = []
            groups[key].append(chunk)
        chunk.append(candidate)
    out: list[Candidate] = []
    for item in order:
        if isinstance(item, Candidate):
            out.append(item)
        else:
            out.extend(_note(chunk) if _as_note(chunk) else chunk[0] for chunk in groups[item])
    return out


def _as_note(chunk: Sequence[Candidate]) -> bool:
    """Whether ``chunk`` is written as a note: two statements or more, or one its day's
    note is to keep (a plan whose day was over when it was read)."""
    return len(chunk) > 1 or TAG in chunk[0].tags


def of_its_day(memory: Memory) -> Memory | None:
    """The memory ``memory`` (not a note) as a note of the day it was said, the day its
    lead ("6 May 2026 — The user says the demo is on 7 May 2026 at 3pm."); None when a
    note cannot hold it (a ";" or " — " in it, a small letter first)."""
    if TAG in memory.tags or not _reads_back(memory.text):
        return None
    dated = f"{day_text(memory.created)}{_LEAD_END}{memory.text}"
    tags = tuple(sorted({*memory.tags, TAG}))
    return replace(memory, text=dated, description=description_of(dated), tags=tags)


def is_note(memory: Memory) -> bool:
    """Whether ``memory`` is a session note (and reads as one)."""
    return TAG in memory.tags and _LEAD_END in memory.text


def _split(memory: Memory) -> tuple[str, str, list[str]]:
    """A note's person, its lead as written (the person, maybe their session's day) and
    its statements."""
    lead, _, rest = memory.text.partition(_LEAD_END)
    dated = _LEAD_DAY.fullmatch(lead)
    who = dated["who"] if dated is not None else lead
    return who, lead, rest.strip().rstrip(".").split(_BETWEEN)


def facts(memory: Memory) -> list[str]:
    """A note's statements as the sentences they were ("Ana adopted a cat."); ``[]`` for a
    memory that is not a note. The session's day of its lead is the note's, not theirs."""
    if not is_note(memory):
        return []
    who, _, parts = _split(memory)
    return [_sentence(who, part) for part in parts]


def _sentence(lead: str, part: str) -> str:
    if part[:1].isupper():
        return f"{part}."
    if part.startswith(_THEIR):
        return f"{possessive(lead)} {part[len(_THEIR) :]}."
    return f"{lead} {part}."


def headline(memory: Memory) -> tuple[str, str]:
    """A note as an index line shows it: its person and first statement as the title
    ("Ana — went rowing on 2 March 2031"), the other statements as what follows."""
    _, lead, parts = _split(memory)
    return lead + _LEAD_END + parts[0], _BETWEEN.join(parts[1:])


def without(memory: Memory, drop: set[int]) -> Memory | None:
    """The note ``memory`` without its statements numbered ``drop`` (from 0, as
    :func:`facts` lists them); one statement left is a plain memory again. None when
    nothing would be left."""
    who, lead, parts = _split(memory)
    kept = [part for k, part in enumerate(parts) if k not in drop]
    if not kept:
        return None
    if len(kept) == 1:
        text, tags = _sentence(who, kept[0]), tuple(t for t in memory.tags if t != TAG)
    else:
        text, tags = lead + _LEAD_END + _BETWEEN.join(kept) + ".", memory.tags
    return replace(memory, text=text, description=description_of(text), tags=tags)


#: How a statement of a note is named while supersession reads it: "<note id>#<k>".
_PART = "#"


def as_statements(memories: Iterable[Memory]) -> tuple[list[Memory], dict[str, tuple[str, int]]]:
    """``memories`` with each note read as its statements, each a memory of its own named
    ``<note id>#<k>``; and for each such name, the note's id and the statement's number."""
    out: list[Memory] = []
    parts: dict[str, tuple[str, int]] = {}
    for memory in memories:
        sentences = facts(memory)
        if not sentences:
            out.append(memory)
            continue
        for k, sentence in enumerate(sentences):
            name = f"{memory.id}{_PART}{k}"
            parts[name] = (memory.id, k)
            out.append(replace(memory, id=name, text=sentence, tags=()))
    return out, parts


def memory_of(name: str, parts: dict[str, tuple[str, int]]) -> str:
    """The memory a name of :func:`as_statements` stands for: the note of a statement,
    else the memory itself."""
    return parts[name][0] if name in parts else name
