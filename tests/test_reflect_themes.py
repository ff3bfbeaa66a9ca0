"""Themes of the reflect phase: who speaks is background, the window is days with sessions."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime

from dreamgit.dream.reflect.notes import with_reflection
from dreamgit.dream.reflect.people import people_words
from dreamgit.dream.reflect.phase import plan_reflect
from dreamgit.dream.reflect.settings import reflect_settings
from dreamgit.dream.reflect.sightings import Sighting, session_days, sightings, window_start
from dreamgit.dream.reflect.themes import find_themes, noted_concepts
from dreamgit.dream.workset import WorkingSet
from dreamgit.model import Memory
from dreamgit.recall.settings import settings_from
from dreamgit.textsim import tokenize

SETTINGS = reflect_settings(settings_from({}).reflect)
NOW = datetime(2027, 5, 20, 20, 0, tzinfo=UTC)
#: One session a day, a chat between two people.
DAYS = ("20270501", "20270508", "20270515")
CHAT = "Priya: I started a pottery class.\nTomas: Nice, how was it?\nPriya: Fun.\nTomas: Cool.\n"


def _memory(n: int, text: str, day: str) -> Memory:
    when = datetime.strptime(day, "%Y%m%d").replace(tzinfo=UTC)
    return Memory(f"m-{n:08d}", "events", f"m{n}", text, when, when, sources=(f"s-{day}-aa{n}",))


def _others() -> list[Memory]:
    """Memories of one thing each, so that what recurs is not in every memory of the window."""
    things = ("bicycle", "garden", "violin", "lantern", "passport", "umbrella", "compass")
    return [_memory(10 + k, f"The {w} is in the hall.", DAYS[k % 3]) for k, w in enumerate(things)]


def _norm(word: str) -> str:
    (token,) = tokenize(word)
    return token.norm


def _seen(memories: list[Memory]) -> dict[str, list[Sighting]]:
    days = {s: date(int(s[2:6]), int(s[6:8]), int(s[8:10])) for m in memories for s in m.sources}
    since = window_start(days, NOW, SETTINGS.window_days)
    return {m.id: sightings(m, days, since=since, now=NOW) for m in memories}


def _themes(memories: list[Memory], people: frozenset[str]) -> list[str]:
    return [t.label for t in find_themes(memories, _seen(memories), SETTINGS, people=people)]


def test_the_people_who_speak_in_the_sessions_are_never_a_theme() -> None:
    """Both speakers are named in every memory; what they talk about is the theme."""
    memories = [
        _memory(1, "At the fair, Priya sold pottery to Tomas.", DAYS[0]),
        _memory(2, "At the market, Priya bought pottery with Tomas.", DAYS[1]),
        _memory(3, "At home, Priya glazed pottery with Tomas.", DAYS[2]),
    ]
    memories += _others()
    people = people_words([CHAT], memories)
    assert {_norm("Priya"), _norm("Tomas")} <= people
    assert _themes(memories, frozenset()) == ["pottery, Priya, Tomas"]  # the people named
    assert _themes(memories, people) == ["pottery"]


def test_an_agent_session_s_people_are_the_user_the_agent_and_the_user_s_name() -> None:
    """Roles come from the transcript's structure; the user's name from its memory."""
    named = Memory("m-00000009", "identity", "name", "The user's name is Ines.", NOW, NOW)
    people = people_words(["User: fix the build\nAssistant: Done.\n"], [named])
    assert {"user", "agent"} <= people
    assert _norm("Ines") not in people  # no memory with the key user.name: not known
    people = people_words(["User: fix the build\n"], [replace(named, key="user.name")])
    assert _norm("Ines") in people


def test_the_window_is_the_last_days_that_have_sessions_however_far_apart() -> None:
    """Sessions two months apart still share a window of three days with sessions."""
    days = session_days(
        {
            "s-20270101-aaaaaa": "x",
            "s-20270301-bbbbbb": "x",
            "s-20270501-cccccc": "x",
            "s-20270515-dddddd": "x",
        }
    )
    assert window_start(days, NOW, 3) == date(2027, 3, 1)
    assert window_start(days, NOW, 30) == date(2027, 1, 1)
    assert window_start({}, NOW, 3) is None


def test_a_word_of_degree_is_never_a_theme() -> None:
    """ "huge" is in the object of three memories on three days; no theme comes of it."""
    memories = [
        _memory(1, "Dana bought a huge sofa.", DAYS[0]),
        _memory(2, "Dana painted a huge mural.", DAYS[1]),
        _memory(3, "Dana baked a huge cake.", DAYS[2]),
    ]
    memories += _others()
    assert _themes(memories, frozenset({_norm("Dana")})) == []


def test_each_clause_of_a_session_note_is_read_as_a_statement() -> None:
    """Coffee is the object of one clause in each of three notes: a theme."""
    notes = [
        "Dana \u2014 had coffee with a neighbour; is moving to a new flat in June 2027.",
        "Dana \u2014 their sister is a nurse; had coffee at the station.",
        "Dana \u2014 had coffee before the exam; their bike was stolen.",
    ]
    memories = [
        replace(_memory(k + 1, text, DAYS[k]), tags=("session-note",))
        for k, text in enumerate(notes)
    ]
    memories += _others()
    assert _themes(memories, frozenset({_norm("Dana")})) == ["coffee"]


def test_a_theme_noted_in_the_window_is_read_back_by_its_words() -> None:
    """The notes' theme lines give their words back; a theme sharing one is not new."""
    notes = with_reflection(None, "Theme: Kiln, glazes \u2014 3 memories on 3 days", NOW) or ""
    notes += "- Theme: a line someone wrote without the dash\n"
    done = noted_concepts([notes, "# Someone's own notes\n\nglazes are drying\n"])
    assert done == {_norm("kiln"), _norm("glazes")}
    memories = [
        _memory(1, "At the fair, Priya sold a glaze to Tomas.", DAYS[0]),
        _memory(2, "At the market, Priya bought a glaze with Tomas.", DAYS[1]),
        _memory(3, "At home, Priya mixed a glaze with Tomas.", DAYS[2]),
    ]
    (theme,) = find_themes(
        memories + _others(),
        _seen(memories + _others()),
        SETTINGS,
        people=people_words([CHAT], memories),
    )
    assert theme.label == "glaze" and theme.concepts & done


def test_memories_no_session_of_the_window_said_change_no_reflection() -> None:
    """The reflections of a window are found among the memories its sessions said: a store
    that also holds many memories said elsewhere (or by nobody) reflects the same."""
    said = [
        _memory(1, "At the fair, Priya sold pottery to Tomas.", DAYS[0]),
        _memory(2, "At the market, Priya bought pottery with Tomas.", DAYS[1]),
        _memory(3, "At home, Priya glazed pottery with Tomas.", DAYS[2]),
        *_others(),
    ]
    elsewhere = [
        replace(_memory(100 + k, f"Priya keeps pottery number {k}.", "20260101"), sources=())
        if k % 2
        else _memory(100 + k, f"Tomas found pottery number {k}.", "20260101")
        for k in range(40)
    ]
    sessions = {s: f"sessions/{s}.md" for m in said for s in m.sources}

    def planned(memories: list[Memory]) -> list[str]:
        ws = WorkingSet(memories, lambda path: CHAT if path.startswith("sessions/") else "")
        return [op.summary for op in plan_reflect(ws, SETTINGS, sessions=sessions, now=NOW)]

    alone = planned(said)
    assert alone  # the window reflects something
    assert planned(elsewhere + said) == alone
