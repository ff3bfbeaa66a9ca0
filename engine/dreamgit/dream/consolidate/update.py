"""Newer values supersede older ones: the same subject and relation, another value.

Two memories about one subject (``frame.py``) where the later one changes the value
of the same relation: a number ("has 3 kids" / "has 4 kids"), a date ("the beta
launch is on 15 January" / "... on 22 January"), a version ("is on Python 3.11" /
"... 3.12"), a place or a name where the relation holds one at a time ("lives in
Berlin" / "lives in Lisbon"; "is on Flask" / "is on Django", tools of one kind),
the polarity ("uses Flask" / "no longer uses Flask"), an explicit correction
("is on Python 3.11, not 3.12") or a change verb ("the beta launch moved to 22
January", "the newsletter has now reached 5,000 subscribers", "moved to Lisbon").
A tool changes for a person and their team alike ("builds the app using React Native" /
"the team made the decision to rewrite the app in Flutter"), and a tool left ("uses
Notion (switched from Confluence)") ends what was said of it while in use.
Time decides: the newer memory (by ``created``, then id) supersedes the older one,
and nothing else does. Events ("went to a poetry reading on 5 May") and instances
("has a dentist appointment on 10 May") are never superseded: there can be many.

Memories are grouped by subject, then by relation, so the work grows with the
number of memories, not with the number of pairs; a bounded number of earlier
memories of one group is looked at for each memory.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dreamgit.dream.consolidate.count_words import PARTICLES
from dreamgit.dream.consolidate.counts import counts_apart, laid_out_counts
from dreamgit.dream.consolidate.rejected import alternative, corrects, ranks_apart
from dreamgit.dream.consolidate.update_frames import ROLE_RELATIONS, Framed, age, read_memory
from dreamgit.dream.consolidate.update_layout import TEAM, USER, Check, Found, Members, laid_out
from dreamgit.dream.consolidate.update_members import CHANGE, OWNS, PARTNER, Windows
from dreamgit.dream.consolidate.update_passes import (
    canon_words,
    overlap,
    same_thing,
    show,
    tool_kind,
)
from dreamgit.dream.consolidate.update_readings import hold_readings, prefetch_readings
from dreamgit.extract.frame import Frame
from dreamgit.model import Memory
from dreamgit.textsim import canonical_word

__all__ = ["Update", "find_updates"]


#: Relations that hold one value at a time: another name or word is another value.
_SINGLE = frozenset({"be"}) | canon_words("live reside stay base work relocate move marry")
#: Change verbs that say where someone lives now.
_MOVES = canon_words("move relocate")
_PLACE_RELATIONS = frozenset({"be"}) | canon_words("live reside stay base")
_WORK = canonical_word("work")
#: Change verbs that end a named thing someone had, did or was at ("left Stripe").
_LEAVES = canon_words("leave quit sell finish stop")
#: Relations an ending does not end: one still loves a book one finished.
_FEELINGS = canon_words("love like enjoy prefer hate adore miss admire recommend")
#: Change verbs that say which tool is used now.
_SWITCHES = canon_words("switch migrate change move upgrade downgrade replace rewrite port rebuild")
#: Change verbs that may change what a subject owns or makes.
_OWNED_CHANGES = _SWITCHES | _LEAVES
#: What someone makes, whose parts they may drop: "the game targets PC and Switch".
_ARTIFACTS = canon_words(
    "game app product site website project book album paper thesis course platform service"
    " startup company shop store blog podcast channel newsletter"
)
_TEAM, _USER = TEAM, USER
#: Change verbs that end a role or a habit, named or not ("quit nursing", "stopped running").
_ENDS_ROLE = canon_words("quit stop")


@dataclass(frozen=True)
class Update:
    """``old`` leaves the active set because ``new`` states a newer value."""

    old: str
    new: str
    reason: str
    #: ``new``'s text with what its "it" stands for named (the subject of ``old``), or "".
    named: str = ""


#: Words that make a move whole: nothing stays on the old tool.
_WHOLE = frozenset({"fully", "completely", "entirely", "everything"})


def _holds_one(old: Frame, new: Frame) -> bool:
    """Whether the relation holds one value at a time: "lives in", "works at", or a copula
    about a slot ("the user's office is in", "Caroline's favourite colour is"), not
    about a person's passing state ("the user is tired" / "the user is happy")."""
    if old.head not in _SINGLE:
        return False
    if old.head != "be":
        return True
    # a name as the value ("Ana's coach is Priya" / "… is Tom"), not a name anywhere in a
    # passing state ("Noor is glad Pepper is happy" / "… is sure Emil's patience …")
    named = old.object and old.object <= old.names and new.object and new.object <= new.names
    return bool(old.particle or named or len(old.subject) > 1)


def _same_relation(old: Frame, new: Frame) -> str | None:
    """Why ``new`` replaces ``old`` when both have one relation, else None."""
    if old.indefinite or new.indefinite:
        return None  # "has a dentist appointment on 10 May" and one on 3 June: two of them
    new_numbers, new_dates = new.numbers - new.rejected, new.dates - new.rejected
    if new.rejected and (old.numbers | old.dates | old.names | old.object) & new.rejected:
        if not corrects(old, new):
            return None  # what it rejects is no value the older memory holds
        if (old.numbers, old.dates) != (new_numbers, new_dates) or not old.object <= new.object:
            return f"correction: {show(new.rejected)} is replaced"
        return None  # the correction says again what the older memory says
    if old.object == new.object and old.phrases != new.phrases:
        return None  # the same value, said with other qualifiers: a merge's business
    if old.object != new.object:
        if (
            old.phrases != new.phrases
            or old.numbers != new.numbers
            or old.dates != new.dates
            or old.negated != new.negated
        ):
            return None  # more than one thing changed: another fact
        if not old.object or not new.object or old.clause or new.clause:
            return None  # "is what Atlas targets" / "... Orion targets": other subjects
        if _holds_one(old, new) or tool_kind(old.object) & tool_kind(new.object):
            return f"{new.relation}: {show(old.object)} → {show(new.object)}"
        return None
    if old.negated != new.negated:
        return "no longer" if new.negated else "again"
    if old.numbers != new_numbers or old.dates != new_dates:
        before, after = old.numbers | old.dates, new_numbers | new_dates
        return f"{new.relation}: {show(before - after)} → {show(after - before)}"
    return None


def _changed(old: Frame, new: Frame) -> str | None:
    """Why a change statement ``new`` ("moved to", "has now reached") replaces ``old``."""
    # "left Stripe" after "works at Stripe", "sold the Civic" after "drives a Honda Civic",
    # "finished Dune" after "is reading Dune"; not after "loves Dune"
    # (a month is no name: "left for a vacation by 6 November" / "finished a series by …")
    ended = (old.names - old.dates) & (new.names - new.dates)
    if new.head in _LEAVES and old.head not in _FEELINGS and ended:
        return f"{new.relation_text}: {show(ended)}"
    # "quit nursing" after "works as a nurse": the role itself ends, named or not
    if new.head in _ENDS_ROLE and old.head not in _FEELINGS and old.object & new.object:
        return f"{new.relation_text}: {show(old.object & new.object)}"
    version = _new_version(old, new)
    if version is not None:
        return version
    if old.indefinite:
        return None
    before, after = old.numbers | old.dates, new.numbers | new.dates
    # a thing's date moved ("the beta launch moved to 22 January"), or a person's same
    # thing: not any two dated statements about a person ("can give it … on 25 June")
    slot = len(old.subject) > 1 and (not old.object or not new.object)
    # "raised the daily goal from 20 to 25" / "raised the weekly goal from 100 to 140": each
    # names a word of its thing the other lacks, two things with one noun
    mine, theirs = old.object - new.object, new.object - old.object
    two_things = bool(old.object & new.object and mine and theirs)
    overlap = slot or (bool(old.object & new.object) and not two_things)
    if new.dates and old.dates and before != after and overlap:
        return f"{new.relation_text}: {show(before - after)} → {show(after - before)}"
    counts = new.numbers and old.numbers and not new.dates and not old.dates
    # "no longer keeps its data in Redis 7.2" ends Redis, not "… in MySQL 5.7"
    counts = counts and not new.negated and not (old.names and new.names and old.names != new.names)
    # "the team is now 7": a bare number for what held a number ("team is me plus 4")
    bare = not new.object and old.head == new.head == "be"
    # what the number counts, not the word for its change: "a $2,000 raise" and "the
    # reviewers have increased to 7" count different things
    same = (old.object & new.object or old.value & new.value) - _COUNT_CHANGES or bare
    same = same and not two_things
    if counts and new.numbers != old.numbers and same:
        return f"{new.relation_text}: {show(old.numbers)} → {show(new.numbers)}"
    where = _placed(old)
    moved = new.head in _MOVES and where and new.names and old.names
    if moved and not new.names & old.names:
        return f"{new.relation_text}: {show(old.names)} → {show(new.names)}"
    # "switched to the Paris marathon" after "training for the Berlin marathon": the same
    # kind of thing (a tool of one kind, or a shared noun), another name
    whole = bool(new.words & _WHOLE)
    same_kind = tool_kind(new.value, whole=whole) & tool_kind(old.value, whole=whole) or (
        (old.object - old.names) & (new.object - new.names) and old.names and new.names
    )
    switched = new.head in _SWITCHES and same_kind
    if switched and not new.value >= old.value:
        return f"{new.relation_text}: {show(old.value - new.value)} → " + show(
            new.value - old.value
        )
    return None


#: Words that say a count changed, not what it counts.
_COUNT_CHANGES = frozenset(
    canonical_word(w)
    for w in str.split("""increase increased decrease decreased grow grew grown rise rose
    risen drop dropped fall fell fallen reach reached improve improved jump jumped climb
    climbed reduce reduced raise raised lower lowered change changed update updated
    bump bumped total number count""")
)


def _placed(frame: Frame) -> bool:
    """Whether ``frame`` says where its subject is: "lives in", "is in", "works in"."""
    if frame.head in _PLACE_RELATIONS:
        return frame.head != "be" or frame.particle == "in"
    return frame.head == _WORK and frame.particle == "in"


def _moved_away(old: Frame, new: Frame) -> str | None:
    """ "lives in Lisbon (moved there from Berlin)" after "Works in Berlin, timezone
    Europe/Berlin": where the subject was is the place it moved from."""
    gone = new.moved_from & old.object & old.names
    if gone and _placed(old) and not old.negated and not old.event:
        return f"moved from {show(gone)}"
    return None


def _new_version(old: Frame, new: Frame) -> str | None:
    """ "upgraded to an iPhone 15" after "… is an iPhone 12": the same thing, another
    version ("an" or not)."""
    versions = old.numbers and new.numbers and old.numbers != new.numbers
    if new.head in _SWITCHES and versions and old.object & new.object and not new.dates:
        return f"{new.relation_text}: {show(old.numbers)} → {show(new.numbers)}"
    return None


def _negates(old: Frame, new: Frame) -> str | None:
    """ "no longer has a dog" after "has a dog named Rex", "doesn't use Poetry anymore"
    after "uses Poetry for packaging": an ending said of what the older one holds, with
    nothing the older one does not say (no other value, qualifier, number or date)."""
    if not (new.negated and new.change) or old.negated or old.event:
        return None
    if (old.head, old.particle) != (new.head, new.particle) or not new.object:
        return None
    if not new.object <= old.object | old.names or not new.phrases <= old.phrases:
        return None
    if not (new.numbers <= old.numbers and new.dates <= old.dates):
        return None
    return f"no longer: {show(new.object)}"


def _why(old: Frame, new: Frame, old_age: str | None, new_age: str | None) -> str | None:
    """Why ``new`` replaces ``old``, else None (``old_age`` and ``new_age`` their
    :func:`~.update_frames.age`, made once a frame: a frame is compared with up to 128
    others)."""
    if old_age is not None and new_age is not None:
        return f"age: {old_age} → {new_age}" if old_age != new_age else None
    ended = _negates(old, new) or _moved_away(old, new)
    if ended is not None:
        return ended
    if old.event or new.event or not same_thing(old, new):
        return None
    if old.period and new.period and not new.change and not overlap(old, new):
        return None  # "is away from 3 to 9 June" and from 2 to 6 October: two absences
    if (old.head, old.particle) == (new.head, new.particle):
        same = _same_relation(old, new)
        if same is not None or not new.change:
            return same or _left(old, new)
    if new.change:
        if ranks_apart(old, new):
            return None
        return _changed(old, new) or _left(old, new)
    # "is going to use XLM-R instead of MAML" after "is using … MAML as the backbone": what
    # the older one holds is what the newer one rejects, whatever the verb
    said = old.names | old.object
    explicit = new.words & {"instead", "rather"}  # not any "not" in a sentence
    # "instead of going out" rejects no "reaching out": a particle is no value
    rejected = new.rejected & said - PARTICLES
    # "instead of jQuery to cut the bundle size" rejects jQuery, not a size said before
    rejected = rejected if rejected <= alternative(new.value_text) else frozenset()
    if explicit and rejected and (new.names | new.object) - new.rejected - said:
        if _INSTRUMENT.search(old.value_text):
            return None  # "a card game using C#" is still that game, whatever its language
        return f"correction: {show(rejected)} is replaced"
    return _left(old, new)


def _left(old: Frame, new: Frame) -> str | None:
    """ "uses Notion (switched from Confluence)" after "is fighting with Confluence's page
    tree": what still held the tool it left, for the same purpose when both say one. A
    memory about something made with the tool ("is working on a deckbuilder using Unity")
    is about that thing, and stays."""
    held = old.names | old.object
    if not new.left & held or old.negated or old.left & new.left:
        return None
    if _INSTRUMENT.search(old.value_text):
        return None
    if _purpose(old) and _purpose(new) and _purpose(old) != _purpose(new):
        return None
    return f"switched from {show(new.left & held)}"


#: "… a deckbuilder using Unity", "… the app built in Flutter": the tool is how, not what.
_INSTRUMENT = re.compile(
    r"\b(?!(?:is|are|am|was|were|be|been)\b)\w+\s+"
    r"(?:using|built\s+(?:with|in)|written\s+in|made\s+with)\s+\S"
)


def _purpose(frame: Frame) -> frozenset[str]:
    """What a frame says its value is for ("uses Docker for the billing service")."""
    return frozenset(w for prep, words in frame.phrases if prep == "for" for w in words)


def find_updates(memories: Sequence[Memory]) -> list[Update]:
    """Which memories a newer one about the same subject and relation supersedes.

    Each memory is superseded at most once, by the newest memory that replaces its
    value; when that one is replaced in turn, the update names the last of the chain,
    so every ``new`` stays active. Same input, same output, in a stable order. Only the
    members of subjects whose comparison a new, changed or removed memory can change are
    compared again when the layout of the run before is kept (``update_layout``).
    """
    check = Check(
        read_memory, prefetch_readings, _subject_updates, _promoted, laid_out_counts, _flags
    )
    hold_readings(m.text for m in memories)  # the kept readings still in use
    found = laid_out(memories, check)
    updates: dict[str, Update] = {}
    for kept in (found.subjects, found.promotions, found.moved):
        updates.update((f[0], Update(*f)) for f in kept)
    for f in found.endings:
        updates.setdefault(f[0], Update(*f))
    for old, new, reason, named in found.pronouns:
        if not counts_apart(old.text, new.text):  # "it" shares a word, not the count
            updates.setdefault(old.id, Update(old.id, new.id, reason, named))
    for old, new, reason in found.counts:
        updates.setdefault(old.id, Update(old.id, new.id, reason))
    return _to_survivors(updates)


#: The members of each subject, and what each subject owns, by subject.
Subjects = Mapping[frozenset[str], Members]


def _flags(frame: Frame) -> int:
    """What a frame's comparison reads besides its relation's window (``update_members``):
    its subject's window of any relation, its team's last memories, what its subject
    owns."""
    changes = frame.change or frame.rejected or frame.left or frame.moved_from
    flags = CHANGE if changes or age(frame) is not None else 0
    flags |= PARTNER if frame.head in _SWITCHES or frame.left else 0
    return flags | (OWNS if frame.head in _OWNED_CHANGES else 0)


def _alone(subject: frozenset[str], by_subject: Subjects, owned: Subjects) -> bool:
    """Whether ``subject`` has nothing to compare: one memory, owning nothing, no team, not
    named another way by the user."""
    teamed = subject ^ {_TEAM} in by_subject or _as_theirs(subject, by_subject) is not None
    return len(by_subject[subject]) < 2 and subject not in owned and not teamed


def _as_theirs(subject: frozenset[str], by_subject: Subjects) -> Members | None:
    """The memories about ``subject`` named the other way by the user: "the billing
    service" the user speaks of is "the user's billing service", and the other way round.
    Nobody else's: "Ana's billing service" is Ana's."""
    other = subject ^ {_USER}
    return by_subject.get(other) if other and other != {_TEAM} else None


def _subject_updates(
    subject: frozenset[str], by_subject: Subjects, owned: Subjects, places: list[int] | None
) -> dict[int, list[Found]]:
    """The updates each member of one subject finds as the newer memory (of the members at
    ``places``, or all), by place: compared with the members right before it, what the
    user names another way, its team's and what the subject owns (in the members' order,
    a later one for the same old memory wins)."""
    found: dict[int, list[Found]] = {}
    if _alone(subject, by_subject, owned):
        return found
    teamed = by_subject.get(subject ^ {_TEAM}) if subject - {_TEAM} else None
    tied = (_as_theirs(subject, by_subject), teamed, owned.get(subject))
    windows = Windows(by_subject[subject], places, tied)
    for position in windows.places:
        memory, frame, new_age = windows.at(position)
        earlier, before = windows.earlier(position), windows.owned_before(position)
        if not windows.members.flags(position) & CHANGE:
            # said with no change, a frame replaces only a value said with the same
            # qualifiers (_same_relation): the rest of its window is not asked (three in
            # four of the pairs over 100,000 memories)
            earlier = [x for x in earlier if x[1].phrases == frame.phrases]
        updates: list[Found] = []
        for old, old_frame, old_age in earlier:
            if old.created >= memory.created:
                continue
            reason = _why(old_frame, frame, old_age, new_age)
            if reason is not None and not counts_apart(old.text, memory.text):
                updates.append((old.id, memory.id, reason, ""))
        # what the subject owns changes only by a new version of it, and what the
        # subject makes loses what they quit ("decided to drop the Switch version")
        for old, old_frame, _age in before:
            if frame.head in _SWITCHES:
                reason = _new_version(old_frame, frame)
            elif old_frame.subject - subject <= _ARTIFACTS:
                reason = _changed(old_frame, frame)
            else:
                reason = None  # "Ana quit Instagram" ends nothing of Ana's sister
            if reason is not None and not counts_apart(old.text, memory.text):
                updates.append((old.id, memory.id, reason, ""))
        if updates:
            found[position] = updates
    return found


def _promoted(memory: Memory, event: Frame, role: frozenset[str], window: Framed) -> list[Found]:
    """A promotion retires the role said before it when they share a word ("engineer"):
    of the last memories about its subject (``window``)."""
    found: list[Found] = []
    for old, old_frame in window:
        held = (old_frame.head, old_frame.particle) in ROLE_RELATIONS
        if held and old.created < memory.created and old_frame.object & role:
            before = show(old_frame.object)
            found.append((old.id, memory.id, f"promoted: {before} → {show(role)}", ""))
    return found


def _to_survivors(updates: dict[str, Update]) -> list[Update]:
    """Each update named by the last of its chain, in a stable order.

    Later memories come later in the loop: the newest replacement is the one kept. A
    replacement that is itself replaced hands on to its own successor (created times
    only grow along a chain, so it ends), and every update names a survivor.
    """
    resolved = []
    for update in updates.values():
        last = update.new
        while last in updates:
            last = updates[last].new
        if last == update.new:
            resolved.append(update)
        else:  # the later one says what it says, in its own words
            resolved.append(Update(update.old, last, f"{update.reason}, then {last}"))
    return sorted(resolved, key=lambda u: (u.new, u.old))
